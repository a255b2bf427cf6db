import Scene
import UIKit

// Layer-only scenes that come from no seed tutorial, in the one demo list: the particle scenes
// (confetti and fire, `ParticleDemos`) and the 3D scenes (Lockwood's cube,
// `DepthDemos`) and the layer filters (`FilterDemos`). Each is a window whose layer holds the scene, with no input.

extension SeedDemo {
    /// Confetti and fire, as windows.
    static let particles = windows(ParticleDemos.demos, descriptions: ParticleDemos.descriptions)

    /// The 3D scenes, as windows.
    static let depth = windows(DepthDemos.demos, descriptions: DepthDemos.descriptions)

    /// The layer filters scene, as a window.
    static let filters = windows(FilterDemos.demos, descriptions: ["filters": "CALayer filters: a breathing gaussianBlur, a frosted card (backgroundFilters), multiply and screen compositing, monochrome and hue rotation"])

    /// Each scene as a window of its size holding the scene's layer tree, with no input.
    static func windows(_ scenes: [LayerDemo], descriptions: [String: String]) -> [SeedDemo] {
        scenes.map { scene in
            SeedDemo(name: scene.name, seeds: [], description: descriptions[scene.name] ?? "",
                     size: scene.size, span: scene.span, timeline: SceneScript([])) {
                let window = SeedDemo.window(scene.size)
                window.layer.addSublayer(scene.build())
                return window
            }
        }
    }
}
