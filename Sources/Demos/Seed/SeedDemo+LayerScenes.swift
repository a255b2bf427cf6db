import CitrineUI

// The particle scenes (issue 17: confetti and fire, `ParticleDemos`) in the one demo list: each
// is a window whose layer holds the scene, with no input. They come from no seed tutorial.

extension SeedDemo {
    /// Confetti and fire, as windows.
    static let particles: [SeedDemo] = ParticleDemos.demos.map { scene in
        SeedDemo(name: scene.name, seeds: [], description: ParticleDemos.descriptions[scene.name] ?? "",
                 size: scene.size, span: scene.span, timeline: UIEventTimeline([])) {
            let window = SeedDemo.window(scene.size)
            window.layer.addSublayer(scene.build())
            return window
        }
    }
}
