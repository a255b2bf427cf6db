import Foundation
import QuartzCore
import Testing

/// CAEmitterLayer / CAEmitterCell: particle counts and positions at chosen times against the
/// closed forms documented on `CAEmitterLayer._particles(atMediaTime:into:)` (births at k / R,
/// p = p₀ + v·age + ½·a·age²), Apple's documented shape geometry and defaults, and key-path
/// access to cells (`emitterCells.<name>.<key>`).
extension MediaClockSuite {
    @Suite struct EmitterLayerTests {
        /// An emitter started at media time 100 (its beginTime) with one cell called "spark".
        static func emitter(_ configure: (CAEmitterCell) -> Void) -> (CAEmitterLayer, CAEmitterCell) {
            CAMediaClock.setManualTime(100)
            let layer = CAEmitterLayer()
            layer.beginTime = 100
            let cell = CAEmitterCell()
            cell.name = "spark"
            configure(cell)
            layer.emitterCells = [cell]
            CATransaction.flush()
            return (layer, cell)
        }

        static func particles(_ layer: CAEmitterLayer, at t: CFTimeInterval) -> [CAEmitterLayer.Particle] {
            var frame = CAEmitterLayer.ParticleFrame()
            layer._particles(atMediaTime: t, into: &frame)
            return frame.particles
        }

        @Test func defaultsAreApples() {
            let layer = CAEmitterLayer(), cell = CAEmitterCell()
            #expect(layer.birthRate == 1 && layer.lifetime == 1 && layer.velocity == 1 && layer.scale == 1 && layer.spin == 1)
            #expect(layer.emitterShape == .point && layer.emitterMode == .volume && layer.renderMode == .unordered)
            #expect(layer.emitterPosition == .zero && layer.emitterSize == .zero && layer.seed == 0)
            #expect(CAEmitterLayerEmitterShape.circle.rawValue == "circle" && CAEmitterLayerRenderMode.oldestFirst.rawValue == "oldestFirst")
            #expect(cell.birthRate == 0 && cell.lifetime == 0 && cell.scale == 1 && cell.isEnabled)
            #expect(cell.color == CGColor(red: 1, green: 1, blue: 1, alpha: 1))
            #expect(cell.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1))
            #expect(CAEmitterCell.defaultValue(forKey: "scale") as? CGFloat == 1)
        }

        /// Alive at τ: the k ≥ 0 with τ − L < k/R ≤ τ, R = cell rate × layer rate.
        @Test func countFollowsTheBirthSchedule() {
            let (layer, _) = Self.emitter { $0.birthRate = 10; $0.lifetime = 2 }
            layer.birthRate = 1.5   // R = 15 per second
            func expected(_ tau: Double) -> Int {
                let r = 15.0, l = 2.0
                return Int((tau * r).rounded(.down)) - max(-1, Int(((tau - l) * r).rounded(.down)))
            }
            for tau in [0.0, 0.5, 1.01, 2.5, 3.01, 60.33] {
                #expect(Self.particles(layer, at: 100 + tau).count == expected(tau), "τ = \(tau)")
            }
            #expect(Self.particles(layer, at: 99).isEmpty)   // before beginTime
            #expect(Self.particles(layer, at: 103.01).count == 30)   // R·L once full
        }

        @Test func positionsFollowTheClosedForm() {
            let (layer, _) = Self.emitter {
                $0.birthRate = 4; $0.lifetime = 3; $0.velocity = 100; $0.emissionLongitude = .pi / 2
                $0.yAcceleration = 20; $0.xAcceleration = -8
            }
            layer.emitterPosition = CGPoint(x: 50, y: 60)
            layer.renderMode = .oldestFirst
            let tau = 2.1
            let ps = Self.particles(layer, at: 100 + tau)
            #expect(ps.count == 9)   // k = 0…8: births 0, 0.25, …, 2.0
            for (k, p) in ps.enumerated() {
                let age = tau - Double(k) / 4
                #expect(abs(p.age - age) < 1e-9)
                #expect(abs(p.x - (50 + 100 * cos(Double.pi / 2) * age - 4 * age * age)) < 1e-9)
                #expect(abs(p.y - (60 + 100 * age + 10 * age * age)) < 1e-9)
            }
        }

        @Test func rangesStayInsideTheirBoundsAndSeedDecides() {
            func make(seed: UInt32) -> CAEmitterLayer {
                let (layer, _) = Self.emitter {
                    $0.birthRate = 200; $0.lifetime = 1; $0.lifetimeRange = 0.5; $0.velocity = 100; $0.velocityRange = 30
                    $0.emissionLongitude = 0; $0.emissionRange = .pi / 6; $0.scale = 1; $0.scaleRange = 0.25
                    $0.spin = 2; $0.spinRange = 1
                }
                layer.seed = seed
                return layer
            }
            let a = Self.particles(make(seed: 7), at: 102), b = Self.particles(make(seed: 7), at: 102)
            let c = Self.particles(make(seed: 8), at: 102)
            #expect(a.count > 100)
            #expect(a.map(\.x) == b.map(\.x) && a.map(\.y) == b.map(\.y))
            #expect(a.map(\.x) != c.map(\.x))
            for p in a {
                #expect(p.age < 1.5 + 1e-9)
                let d = (p.x * p.x + p.y * p.y + p.z * p.z).squareRoot()
                #expect(d >= 70 * p.age - 1e-9 && d <= 130 * p.age + 1e-9)
                if d > 1e-6 { #expect(acos(min(1, p.x / d)) <= .pi / 6 + 1e-9) }   // inside the cone about +x
                #expect(p.scale >= 0.75 - 1e-9 && p.scale <= 1.25 + 1e-9)
                #expect(abs(p.angle) <= 3 * p.age + 1e-9 && p.angle >= 1 * p.age - 1e-9)
            }
            // Uniform over the cone: about half the directions lie within its median angle.
            let cosMedian = 1 - 0.5 * (1 - cos(Double.pi / 6))
            let inner = a.filter { p in
                let d = (p.x * p.x + p.y * p.y + p.z * p.z).squareRoot()
                return d > 0 && p.x / d >= cosMedian
            }.count
            #expect(abs(Double(inner) / Double(a.count) - 0.5) < 0.1)
        }

        @Test func shapesFollowApplesGeometry() {
            func positions(_ shape: CAEmitterLayerEmitterShape, _ mode: CAEmitterLayerEmitterMode) -> [(Double, Double, Double)] {
                let (layer, _) = Self.emitter { $0.birthRate = 100; $0.lifetime = 1 }
                layer.emitterPosition = CGPoint(x: 10, y: 20); layer.emitterZPosition = 5
                layer.emitterSize = CGSize(width: 40, height: 30); layer.emitterDepth = 8
                layer.emitterShape = shape; layer.emitterMode = mode
                return Self.particles(layer, at: 100.9).map { ($0.x, $0.y, $0.z) }
            }
            let eps = 1e-9
            for (x, y, z) in positions(.point, .volume) { #expect(x == 10 && y == 20 && z == 5) }
            for (x, y, z) in positions(.line, .volume) { #expect(abs(x - 10) <= 20 + eps && y == 20 && z == 5) }
            for (x, _, _) in positions(.line, .points) { #expect(abs(abs(x - 10) - 20) < eps) }
            for (x, y, z) in positions(.rectangle, .volume) { #expect(abs(x - 10) <= 20 + eps && abs(y - 20) <= 15 + eps && z == 5) }
            for (x, y, _) in positions(.rectangle, .outline) {
                #expect(abs(abs(x - 10) - 20) < eps || abs(abs(y - 20) - 15) < eps)
            }
            for (x, y, _) in positions(.rectangle, .points) { #expect(abs(abs(x - 10) - 20) < eps && abs(abs(y - 20) - 15) < eps) }
            for (x, y, z) in positions(.cuboid, .volume) {
                #expect(abs(x - 10) <= 20 + eps && abs(y - 20) <= 15 + eps && abs(z - 5) <= 4 + eps)
            }
            for (x, y, z) in positions(.cuboid, .surface) {
                #expect(abs(abs(x - 10) - 20) < eps || abs(abs(y - 20) - 15) < eps || abs(abs(z - 5) - 4) < eps)
            }
            // Circle and sphere: radius emitterSize.width (Apple's documentation).
            let disk = positions(.circle, .volume)
            for (x, y, z) in disk { #expect(hypot(x - 10, y - 20) <= 40 + eps && z == 5) }
            #expect(disk.contains { hypot($0.0 - 10, $0.1 - 20) > 30 })
            for (x, y, _) in positions(.circle, .outline) { #expect(abs(hypot(x - 10, y - 20) - 40) < 1e-6) }
            for (x, y, z) in positions(.sphere, .surface) {
                #expect(abs(((x - 10) * (x - 10) + (y - 20) * (y - 20) + (z - 5) * (z - 5)).squareRoot() - 40) < 1e-6)
            }
        }

        @Test func layerMultipliersScaleTheCells() {
            let (layer, _) = Self.emitter { $0.birthRate = 10; $0.lifetime = 2; $0.velocity = 10; $0.scale = 0.5; $0.spin = 1 }
            layer.lifetime = 0.5; layer.velocity = 3; layer.scale = 4; layer.spin = 2
            layer.renderMode = .oldestFirst
            let ps = Self.particles(layer, at: 102.05)
            #expect(ps.count == 10)   // lifetime 1 s: births 1.1 … 2.0
            let oldest = ps[0]
            #expect(abs(oldest.x - 30 * oldest.age) < 1e-9)
            #expect(oldest.scale == 2)
            #expect(abs(oldest.angle - 2 * oldest.age) < 1e-9)
        }

        @Test func colourAndScaleChangeWithAge() {
            let (layer, _) = Self.emitter {
                $0.birthRate = 2; $0.lifetime = 10; $0.alphaSpeed = -0.25; $0.redSpeed = -0.5; $0.scaleSpeed = 0.5
                $0.color = CGColor(red: 1, green: 0.5, blue: 0.25, alpha: 1)
            }
            layer.renderMode = .oldestFirst
            let ps = Self.particles(layer, at: 103)
            for p in ps {
                #expect(abs(Double(p.alpha) - (1 - 0.25 * p.age)) < 1e-6)
                #expect(abs(Double(p.red) - max(0, 1 - 0.5 * p.age)) < 1e-6)
                #expect(abs(Double(p.green) - 0.5) < 1e-6 && abs(Double(p.blue) - 0.25) < 1e-6)
                #expect(abs(p.scale - (1 + 0.5 * p.age)) < 1e-9)
            }
            #expect(ps.first?.red == 0)   // age 3: clamped at 0
        }

        /// Colour ranges and speeds of every component, emission latitude and z acceleration
        /// (CAEmitterCell.h: a range is the amount by which the value can vary, speeds are per
        /// second, latitude the angle out of the x-y plane): latitude π/2 emits along +z, so
        /// z = v·age + ½·a·age² and x = y = 0; each component within value ± range + speed·age.
        @Test func colourRangesLatitudeAndDepthFollowTheClosedForm() {
            let (layer, _) = Self.emitter {
                $0.birthRate = 100; $0.lifetime = 2; $0.velocity = 10; $0.emissionLatitude = .pi / 2; $0.zAcceleration = 4
                $0.color = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5)
                $0.redRange = 0.2; $0.greenRange = 0.1; $0.blueRange = 0.3; $0.alphaRange = 0.4
                $0.greenSpeed = 0.1; $0.blueSpeed = -0.1
            }
            let ps = Self.particles(layer, at: 101.5)
            #expect(ps.count == 151)   // births k/100 for k = 0…150
            for p in ps {
                let a = p.age
                #expect(abs(p.x) < 1e-9 && abs(p.y) < 1e-9)
                #expect(abs(p.z - (10 * a + 2 * a * a)) < 1e-9)
                #expect(abs(Double(p.red) - 0.5) <= 0.2 + 1e-6)
                #expect(abs(Double(p.green) - (0.5 + 0.1 * a)) <= 0.1 + 1e-6)
                #expect(abs(Double(p.blue) - (0.5 - 0.1 * a)) <= 0.3 + 1e-6)
                #expect(abs(Double(p.alpha) - 0.5) <= 0.4 + 1e-6)
            }
            // Drawn uniformly: 151 draws spread over most of each range.
            let reds = ps.map { Double($0.red) }, alphas = ps.map { Double($0.alpha) }
            #expect(reds.max()! - reds.min()! > 0.3 && alphas.max()! - alphas.min()! > 0.6)
        }

        @Test func renderModesOrderTheParticles() {
            let (layer, _) = Self.emitter { $0.birthRate = 5; $0.lifetime = 2; $0.velocity = 10; $0.emissionRange = .pi; $0.emissionLatitude = 0 }
            layer.renderMode = .oldestFirst
            let oldestFirst = Self.particles(layer, at: 101).map(\.birthTime)
            #expect(oldestFirst == oldestFirst.sorted())
            layer.renderMode = .oldestLast
            #expect(Self.particles(layer, at: 101).map(\.birthTime) == oldestFirst.reversed())
            layer.renderMode = .backToFront
            let z = Self.particles(layer, at: 101).map(\.z)
            #expect(z == z.sorted())
        }

        @Test func subCellsEmitFromTheirParents() {
            let (layer, rocket) = Self.emitter { $0.birthRate = 1; $0.lifetime = 1; $0.velocity = 100 }
            rocket.name = "rocket"
            let spark = CAEmitterCell()
            spark.name = "spark"; spark.birthRate = 4; spark.lifetime = 10
            rocket.emitterCells = [spark]
            layer.emitterCells = [rocket]
            // τ = 0.9: rocket 0 (born 0) alive at x = 90; its sparks born at ages 0, .25, .5, .75,
            // each resting where the rocket was then.
            let ps = Self.particles(layer, at: 100.9)
            var frame = CAEmitterLayer.ParticleFrame()
            layer._particles(atMediaTime: 100.9, into: &frame)
            #expect(frame.cells.count == 2)
            let sparks = ps.filter { frame.cells[$0.cell] === spark }.map(\.x).sorted()
            #expect(sparks == [0, 25, 50, 75])
            let rockets = ps.filter { frame.cells[$0.cell] === rocket }
            #expect(rockets.count == 1 && abs(rockets[0].x - 90) < 1e-9)
            // A sub-cell's window: beginTime 0.5 in its parent's time.
            layer.setValue(0.5, forKeyPath: "emitterCells.rocket.emitterCells.spark.beginTime")
            #expect(Self.particles(layer, at: 100.9).count == 3)
            // A rocket emits only while it lives (life 1): rocket 0's sparks are born at 0.5 and
            // 0.75, not 1.0 (rocket 1's start at 1.5).
            layer._particles(atMediaTime: 101.5, into: &frame)
            #expect(frame.particles.filter { frame.cells[$0.cell] === spark && $0.birthTime < 1.25 }.count == 2)
        }

        @Test func cellKeyPathsReadWriteAndAnimate() throws {
            let (layer, cell) = Self.emitter { $0.birthRate = 10; $0.lifetime = 1 }
            #expect(layer.value(forKeyPath: "emitterCells.spark.birthRate") as? CGFloat == 10)
            layer.setValue(20, forKeyPath: "emitterCells.spark.birthRate")
            #expect(cell.birthRate == 20)
            CATransaction.flush()
            let a = CABasicAnimation(keyPath: "emitterCells.spark.birthRate")
            a.fromValue = 0; a.toValue = 40; a.duration = 2
            layer.add(a, forKey: "rate")
            CATransaction.flush()
            CAMediaClock.setManualTime(100.5)
            let p = try #require(layer.presentation())
            #expect(p.value(forKeyPath: "emitterCells.spark.birthRate") as? CGFloat == 10)
            #expect(cell.birthRate == 20)   // the model's cell is untouched
            #expect(p.emitterCells?.first !== cell)
            // The layer's own animatable multipliers.
            let b = CABasicAnimation(keyPath: "birthRate")
            b.fromValue = 0; b.toValue = 1; b.duration = 1
            layer.add(b, forKey: "layerRate")
            CATransaction.flush()
            CAMediaClock.setManualTime(100.75)
            #expect(layer.presentation()?.birthRate == 0.25)   // begun at the commit, 100.5
        }

        @Test func pausedLayerFreezesItsParticles() {
            let (layer, _) = Self.emitter { $0.birthRate = 3; $0.lifetime = 5; $0.velocity = 10 }
            let before = Self.particles(layer, at: 101).map(\.x)
            layer.timeOffset = layer.convertTime(101, from: nil)
            layer.speed = 0
            #expect(Self.particles(layer, at: 104).map(\.x) == before)
        }
    }
}
