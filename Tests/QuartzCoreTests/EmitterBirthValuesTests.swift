import Foundation
import QuartzCore
import Testing

/// Particles keep the values they were born with (Apple: changing or animating a cell's value
/// affects the particles born afterwards; a birth-rate change only changes when the next ones
/// are born). Expected values are the closed forms of `CAEmitterLayer._particles` with each
/// particle's birth-time values: x = v·age along +x for a cell emitting along longitude 0.
extension MediaClockSuite {
    @Suite struct EmitterBirthValuesTests {
        /// Emitter started at media time 100: cell "spark" along +x, 2 particles a second
        /// (births at τ = 0, 0.5, 1, …), lifetime 10 s, 10 points a second.
        static func emitter() -> CAEmitterLayer {
            EmitterLayerTests.emitter { $0.birthRate = 2; $0.lifetime = 10; $0.velocity = 10 }.0
        }

        static func oldestFirst(_ layer: CAEmitterLayer, at t: CFTimeInterval) -> [CAEmitterLayer.Particle] {
            layer.renderMode = .oldestFirst
            var frame = CAEmitterLayer.ParticleFrame()
            (layer.presentation() ?? layer)._particles(atMediaTime: t, into: &frame)
            return frame.particles
        }

        /// Velocity 10 → 30 at τ = 1.25: the particles born at 0, 0.5 and 1 keep 10 points a
        /// second, those born at 1.5 and 2 move at 30 — in any frame order.
        @Test func particleBornBeforeAChangeKeepsItsVelocity() {
            let layer = Self.emitter()
            CAMediaClock.setManualTime(101.25)
            layer.setValue(30, forKeyPath: "emitterCells.spark.velocity")
            CATransaction.flush()
            for t in [102.0, 101.0, 102.0] {
                let ps = Self.oldestFirst(layer, at: t)
                let expected: [(birth: Double, v: Double)] = t == 102
                    ? [(0, 10), (0.5, 10), (1, 10), (1.5, 30), (2, 30)] : [(0, 10), (0.5, 10), (1, 10)]
                #expect(ps.count == expected.count)
                for (p, e) in zip(ps, expected) {
                    #expect(abs(p.birthTime - e.birth) < 1e-9 && abs(p.x - e.v * (t - 100 - e.birth)) < 1e-9)
                }
            }
        }

        /// Birth rate 2 → 4 at τ = 1.25: births at 0, 0.5, 1 stay; 2.5 particles were due by
        /// 1.25, so the next (the 4th) is born at 1.25 + 0.5/4 = 1.375, then every 0.25 s.
        @Test func birthRateChangeOnlyMovesLaterBirths() {
            let layer = Self.emitter()
            CAMediaClock.setManualTime(101.25)
            layer.setValue(4, forKeyPath: "emitterCells.spark.birthRate")
            CATransaction.flush()
            let ps = Self.oldestFirst(layer, at: 102)
            let births = [0, 0.5, 1, 1.375, 1.625, 1.875]
            #expect(ps.count == births.count)
            for (p, b) in zip(ps, births) { #expect(abs(p.birthTime - b) < 1e-9 && abs(p.x - 10 * (2 - b)) < 1e-9) }
        }

        /// Moving the emitter leaves the particles born before where they were born.
        @Test func movingTheEmitterLeavesATrail() {
            let layer = Self.emitter()
            CAMediaClock.setManualTime(101.25)
            layer.emitterPosition = CGPoint(x: 0, y: 40)
            CATransaction.flush()
            let ps = Self.oldestFirst(layer, at: 102)
            #expect(ps.map(\.y) == [0, 0, 0, 40, 40])
        }

        /// velocity animated 0 → 60 over τ 1…2 (linear): a particle takes the value at the
        /// 1/60 s step of its birth — born at 1, 1.25, 1.5, 1.75: 0, 15, 30, 45 points a second
        /// — and keeps it after the animation has ended and been removed; births after it get
        /// the model's 10 again.
        @Test func animatedValueAppliesToParticlesBornWhileItRuns() {
            let layer = EmitterLayerTests.emitter { $0.birthRate = 4; $0.lifetime = 10; $0.velocity = 10 }.0
            let a = CABasicAnimation(keyPath: "emitterCells.spark.velocity")
            a.fromValue = 0; a.toValue = 60; a.duration = 1
            a.beginTime = 1   // layer time: media time 101
            layer.add(a, forKey: "speedUp")
            CATransaction.flush()
            for t in [101.9, 103.0] {
                CAMediaClock.setManualTime(t)
                let ps = Self.oldestFirst(layer, at: t)
                for p in ps {
                    let b = p.birthTime
                    let v = b >= 1 && b < 2 ? 60 * (b - 1) : 10
                    #expect(abs(p.x - v * (t - 100 - b)) < 1e-9, "born \(b) at \(t)")
                }
            }
            #expect(layer.animation(forKey: "speedUp") == nil)   // removed at its end
        }
    }
}

extension MediaClockSuite.EmitterBirthValuesTests {
    /// Past `BirthHistory.maxRecords` (4 096, README Limits) recorded changes the oldest are
    /// forgotten: one birth a second, a change every second for 5 000 s, particles living for
    /// ever — the 4 096 latest past segments' particles and the current one's are drawn.
    @Test func historyKeepsTheLatestRecords() {
        let layer = MediaClockSuite.EmitterLayerTests.emitter { $0.birthRate = 1; $0.lifetime = 1e9; $0.velocity = 1 }.0
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for second in 1...5000 {
            CAMediaClock.setManualTime(100 + Double(second))
            layer.emitterPosition = CGPoint(x: 0, y: second)
        }
        CATransaction.commit()
        let ps = Self.oldestFirst(layer, at: 5100.5)
        #expect(ps.count == 4097)
        #expect(ps.first.map { abs($0.birthTime - 904) < 1e-9 } == true)
        // Each kept particle starts where the emitter was when it was born.
        #expect(ps.allSatisfy { abs($0.y - $0.birthTime) < 1e-9 })
    }
}
