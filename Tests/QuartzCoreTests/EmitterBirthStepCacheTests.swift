import Foundation
import QuartzCore
import Testing

/// A `ParticleFrame` reused from frame to frame keeps the cell plans of the birth steps its last
/// frame drew (`BirthStepCache`); the particles it gives must be those of a fresh frame at every
/// time, in any order, across every change that must drop what it kept: an animation added,
/// committed or removed, a recorded model change, a direct write to a cell object. The expected
/// particles are a fresh frame's (which keeps nothing), whose values the birth-value tests
/// check against closed forms.
extension MediaClockSuite {
    @Suite struct EmitterBirthStepCacheTests {
        /// Checks that `layer`'s particles at media time `t` through `reused` equal those of a
        /// fresh frame, particle by particle and cell by cell.
        static func expectSame(_ layer: CAEmitterLayer, at t: CFTimeInterval, reused: inout CAEmitterLayer.ParticleFrame,
                               _ what: String) {
            CAMediaClock.setManualTime(t)
            let presented = layer.presentation() ?? layer
            var fresh = CAEmitterLayer.ParticleFrame()
            presented._particles(atMediaTime: t, into: &fresh)
            presented._particles(atMediaTime: t, into: &reused)
            #expect(fresh.particles.count > 10, "\(what): too few particles to compare")
            #expect(reused.particles.count == fresh.particles.count && reused.cells.count == fresh.cells.count,
                    "\(what) at \(t): \(reused.particles.count) vs \(fresh.particles.count) particles")
            var differing = 0
            for (a, b) in zip(reused.particles, fresh.particles) {
                let cellA = reused.cells[a.cell], cellB = fresh.cells[b.cell]
                let same = a.x == b.x && a.y == b.y && a.z == b.z && a.angle == b.angle && a.scale == b.scale
                    && a.red == b.red && a.green == b.green && a.blue == b.blue && a.alpha == b.alpha
                    && a.birthTime == b.birthTime && a.age == b.age && cellA.name == cellB.name
                    && cellA.contentsRect == cellB.contentsRect && cellA.velocity == cellB.velocity
                if !same { differing += 1 }
            }
            #expect(differing == 0, "\(what) at \(t): \(differing) particles differ")
        }

        @Test func reusedFrameGivesAFreshFramesParticles() {
            let (layer, cell) = EmitterLayerTests.emitter {
                $0.birthRate = 40; $0.lifetime = 1.5; $0.velocity = 10; $0.emissionRange = .pi; $0.scaleRange = 0.5
            }
            let pulse = CABasicAnimation(keyPath: "birthRate")
            pulse.fromValue = 0.5; pulse.toValue = 1.5; pulse.duration = 0.5
            pulse.autoreverses = true; pulse.repeatCount = .infinity
            layer.add(pulse, forKey: "pulse")
            let speedUp = CABasicAnimation(keyPath: "emitterCells.spark.velocity")
            speedUp.fromValue = 0; speedUp.toValue = 60; speedUp.duration = 2
            speedUp.isRemovedOnCompletion = false; speedUp.fillMode = .forwards
            layer.add(speedUp, forKey: "speedUp")
            CATransaction.flush()
            var frame = CAEmitterLayer.ParticleFrame()
            for t in [100.5, 100.52, 101.0, 100.7, 101.3] { Self.expectSame(layer, at: t, reused: &frame, "animated") }

            cell.yAcceleration = 30   // a direct write to the model's cell (of a value no animation sets)
            Self.expectSame(layer, at: 101.35, reused: &frame, "direct write")
            cell.contentsRect = CGRect(x: 0, y: 0, width: 0.5, height: 1)
            Self.expectSame(layer, at: 101.4, reused: &frame, "direct contentsRect write")

            layer.setValue(2, forKeyPath: "emitterCells.spark.scale")   // recorded: a new segment
            CATransaction.flush()
            Self.expectSame(layer, at: 101.6, reused: &frame, "model change")

            // Filling backwards, it changes the steps already drawn once it is committed.
            let spin = CABasicAnimation(keyPath: "emitterCells.spark.spin")
            spin.fromValue = 5; spin.toValue = 5; spin.duration = 1; spin.fillMode = .backwards
            layer.add(spin, forKey: "spin")   // pending until the commit
            Self.expectSame(layer, at: 101.6, reused: &frame, "animation added, not committed")
            CATransaction.flush()
            Self.expectSame(layer, at: 101.8, reused: &frame, "animation committed")

            let grow = CABasicAnimation(keyPath: "emitterCells.spark.scaleRange")
            grow.fromValue = 1; grow.toValue = 3; grow.duration = 2
            grow.beginTime = 1   // layer time, in the past: it changes steps already drawn
            layer.add(grow, forKey: "grow")
            CATransaction.flush()
            Self.expectSame(layer, at: 101.85, reused: &frame, "animation added in the past")

            layer.removeAnimation(forKey: "speedUp")   // retired: kept for the particles born under it
            CATransaction.flush()
            for t in [101.9, 102.2, 101.87] { Self.expectSame(layer, at: t, reused: &frame, "animation removed") }
        }
    }
}
