import Demos
import QuartzCore
import Testing

/// The particle demos in numbers: how many particles are alive (births at k / R, documented on
/// `CAEmitterLayer`), where they start and which way they go.
@Suite(.serialized) struct ParticleDemosTests {
    static func emitter(_ name: String, at t: CFTimeInterval) throws -> (CAEmitterLayer, CAEmitterLayer.ParticleFrame) {
        let demo = try #require(ParticleDemos.demos.first { $0.name == name })
        let root = LayerDemo.start(demo)
        let emitter = try #require(root.sublayers?.first as? CAEmitterLayer)
        CAMediaClock.setManualTime(t)
        var frame = CAEmitterLayer.ParticleFrame()
        try #require(emitter.presentation())._particles(atMediaTime: t, into: &frame)
        return (emitter, frame)
    }

    @Test func confettiFallsFromALineAcrossTheTop() throws {
        let (emitter, frame) = try Self.emitter("confetti", at: 2)
        // Four cells at 10 per second, lifetime 6: births at 0, 0.1, …, 2.0 — 21 each.
        #expect(frame.particles.count == 84)
        #expect(emitter.emitterShape == .line && frame.cells.count == 4)
        for p in frame.particles {
            // Emitted on y = −10 between x = 0 and 240, downwards (±36°) and pulled down: below
            // where it started, inside the cone's reach sideways.
            #expect(p.y >= -10)
            #expect(p.x > -1e-9 - 130 * p.age && p.x < 240 + 130 * p.age)
        }
    }

    @Test func fireRisesAndAddsUp() throws {
        let (emitter, frame) = try Self.emitter("fire", at: 1.5)
        #expect(emitter.renderMode == .additive)
        // 260 per second, lifetimes 1.1 ± 0.35 s: between 260·0.75 and 260·1.45 alive.
        #expect(frame.particles.count > 195 && frame.particles.count <= 378)
        #expect(frame.particles.allSatisfy { $0.y < 210 + 1e-9 })   // all above the burner line at y = 210
        #expect(frame.particles.allSatisfy { $0.alpha < 0.23 && $0.green < 0.56 })
    }
}
