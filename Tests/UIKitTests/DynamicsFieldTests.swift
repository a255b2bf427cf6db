import Foundation
import Testing
import UIKit

/// UIFieldBehavior against closed-form physics, in the units its design note states (Apple
/// documents the fields' shapes: uniform linear gravity with F = ma, Hooke's-law springs, drag
/// proportional to velocity, SpriteKit's falloff `pow(distance - minRadius, -falloff)`, no
/// force outside `region`; the scale follows UIGravityBehavior's documented 1000 points/s²).
/// Masses: density × area / 10 000, so a 50 × 50 item of density 1 has mass 0.25.
extension UIClockSuite {
    @Suite struct DynamicsFieldTests {
        static let h = 1 / UIDynamicAnimator.stepsPerSecond

        @Test func linearGravityFieldAcceleratesAtStrengthTimesDirectionTimes1000() {
            let t0 = 2000.0, x0 = 50.0
            let (window, box) = DynamicsTests.scene(at: t0, center: CGPoint(x: x0, y: 100))
            let animator = UIDynamicAnimator(referenceView: window)
            let field = UIFieldBehavior.linearGravityField(direction: CGVector(dx: 1, dy: 0))
            field.strength = 0.5
            field.addItem(box)
            #expect(field.items.count == 1 && field.falloff == 0 && field.minimumRadius == 0)
            animator.addBehavior(field)
            DynamicsTests.run(from: t0, through: t0 + 0.4)
            let a = 1000 * 0.5, t = animator.elapsedTime()
            // ½·a·t² plus semi-implicit Euler's ½·a·h·t (DynamicsTests' note).
            let moved = Double(box.center.x) - x0
            #expect(abs(moved - a * t * t / 2) <= a * Self.h * t / 2 + 1e-6, "moved \(moved)")
            #expect(box.center.y == 100)
        }

        @Test(arguments: [1.0, 2.0])
        func radialGravityFallsOffAsOneOverRToTheFalloff(falloff: Double) {
            // s = 100^f: 1000 points/s² at 100 points, small enough that the items hardly move.
            let t0 = 2100.0, centre = CGPoint(x: 300, y: 300), strength = pow(100, falloff)
            let window = UIClockSuite.makeWindow(width: 600, height: 600, at: t0)
            let near = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            let far = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            near.center = CGPoint(x: centre.x + 100, y: centre.y)
            far.center = CGPoint(x: centre.x, y: centre.y - 200)
            window.addSubview(near); window.addSubview(far)
            UIClockSuite.advance(to: t0)
            let animator = UIDynamicAnimator(referenceView: window)
            let field = UIFieldBehavior.radialGravityField(position: centre)
            field.strength = CGFloat(strength)
            field.falloff = CGFloat(falloff)
            field.addItem(near); field.addItem(far)
            let probe = UIDynamicItemBehavior(items: [near, far])
            animator.addBehavior(field)
            animator.addBehavior(probe)
            DynamicsTests.run(from: t0, through: t0 + 1.0 / 60)
            let t = animator.elapsedTime()
            // a(r) = 1000·s / r^f towards the centre; in 2 steps the items move < 0.25 pt, so r
            // changes by < 0.25 %, a by < 0.5 %.
            let vNear = probe.linearVelocity(for: near), vFar = probe.linearVelocity(for: far)
            let aNear = 1000 * strength / pow(100, falloff), aFar = 1000 * strength / pow(200, falloff)
            #expect(abs(-vNear.x - aNear * t) <= 0.01 * aNear * t && abs(vNear.y) < 1e-9, "\(vNear)")
            #expect(abs(vFar.y - aFar * t) <= 0.01 * aFar * t && abs(vFar.x) < 1e-9, "\(vFar)")
            #expect(abs(-vNear.x / vFar.y - pow(2, falloff)) <= 0.02 * pow(2, falloff))
        }

        @Test func springFieldSwingsWithPeriodRootMassOverStrength() {
            let t0 = 2200.0, amplitude = 50.0, centre = CGPoint(x: 160, y: 240)
            let (window, box) = DynamicsTests.scene(at: t0, side: 50, center: CGPoint(x: centre.x + amplitude, y: centre.y))
            let animator = UIDynamicAnimator(referenceView: window)
            let field = UIFieldBehavior.springField()
            field.position = centre
            field.strength = 4
            field.addItem(box)
            animator.addBehavior(field)
            var crossings: [Double] = [], lowest = Double.infinity
            var last: (t: Double, x: Double)?
            DynamicsTests.run(from: t0, through: t0 + 2, fps: 120) { t in
                let x = Double(box.center.x - centre.x)
                lowest = min(lowest, x)
                if let last, last.x > 0, x <= 0 { crossings.append(last.t + (t - last.t) * last.x / (last.x - x)) }
                last = (t, x)
            }
            // k = 4π²·s, m = 0.25: T = 2π√(m/k) = √(m/s) = 0.25 s. Semi-implicit Euler's period
            // is off by (ωh)²/24 ≈ 0.2 %; its amplitude by at most ωh/2 ≈ 10 %.
            let expected = (0.25 / 4.0).squareRoot(), omegaH = 2 * Double.pi / expected * Self.h
            #expect(crossings.count >= 6)
            let period = (crossings[crossings.count - 1] - crossings[0]) / Double(crossings.count - 1)
            #expect(abs(period - expected) < 0.01 * expected, "period \(period)")
            #expect(abs(-lowest - amplitude) <= amplitude * omegaH / 2 + 0.5, "lowest \(lowest)")
        }

        @Test func dragFieldDecaysVelocityExponentially() {
            let t0 = 2300.0, v0 = 400.0
            let (window, box) = DynamicsTests.scene(at: t0, side: 50, center: CGPoint(x: 20, y: 240))
            let animator = UIDynamicAnimator(referenceView: window)
            let field = UIFieldBehavior.dragField()
            field.addItem(box)
            let probe = UIDynamicItemBehavior(items: [box])
            probe.addLinearVelocity(CGPoint(x: v0, y: 0), for: box)
            animator.addBehavior(field)
            animator.addBehavior(probe)
            DynamicsTests.run(from: t0, through: t0 + 0.5)
            // F = −s·v, m = 0.25: v = v₀·e^(−4t). The solver damps as v / (1 + h·c) per step,
            // which lags e^(−c·t) by at most a factor e^(c²·h·t/2).
            let c = 4.0, t = animator.elapsedTime(), expected = v0 * exp(-c * t)
            let v = Double(probe.linearVelocity(for: box).x)
            #expect(v >= expected && v <= expected * exp(c * c * Self.h * t / 2), "v \(v), e^-ct gives \(expected)")
        }

        @Test func fieldsDoNothingOutsideTheirRegion() {
            let t0 = 2400.0, centre = CGPoint(x: 160, y: 240)
            let window = UIClockSuite.makeWindow(at: t0)
            let inside = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            let outside = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            inside.center = CGPoint(x: centre.x + 40, y: centre.y)
            outside.center = CGPoint(x: centre.x - 80, y: centre.y)
            window.addSubview(inside); window.addSubview(outside)
            UIClockSuite.advance(to: t0)
            let animator = UIDynamicAnimator(referenceView: window)
            let field = UIFieldBehavior.radialGravityField(position: centre)
            field.region = UIRegion(radius: 50)
            field.addItem(inside); field.addItem(outside)
            animator.addBehavior(field)
            DynamicsTests.run(from: t0, through: t0 + 0.1)
            #expect(inside.center.x < centre.x + 40)
            #expect(outside.center == CGPoint(x: centre.x - 80, y: centre.y))
        }

        @Test func regionsCombineAsSets() {
            let disc = UIRegion(radius: 10), square = UIRegion(size: CGSize(width: 30, height: 30))
            #expect(disc.contains(CGPoint(x: 6, y: 8)) && !disc.contains(CGPoint(x: 7, y: 8)))
            #expect(square.contains(CGPoint(x: 15, y: -15)) && !square.contains(CGPoint(x: 15.1, y: 0)))
            #expect(UIRegion.infinite.contains(CGPoint(x: 1e9, y: -1e9)))
            #expect(!disc.inverse().contains(.zero) && disc.inverse().contains(CGPoint(x: 11, y: 0)))
            let ring = square.difference(from: disc)
            #expect(!ring.contains(.zero) && ring.contains(CGPoint(x: 12, y: 12)))
            #expect(disc.union(with: square).contains(CGPoint(x: 14, y: 0)))
            #expect(!disc.intersection(with: UIRegion(size: CGSize(width: 4, height: 4))).contains(CGPoint(x: 5, y: 0)))
            #expect(!UIRegion(radius: .nan).contains(.zero) && !UIRegion(size: CGSize(width: -1, height: 5)).contains(.zero))
        }

        @Test func evaluationBlockSeesTheItemAndItsForceActs() {
            let t0 = 2500.0, start = CGPoint(x: 40, y: 100)
            let (window, box) = DynamicsTests.scene(at: t0, side: 50, center: start)
            let animator = UIDynamicAnimator(referenceView: window)
            var calls: [(CGPoint, CGVector, CGFloat, CGFloat, TimeInterval)] = []
            var seenField: UIFieldBehavior?
            let field = UIFieldBehavior.field { field, position, velocity, mass, charge, time in
                seenField = field
                calls.append((position, velocity, mass, charge, time))
                return CGVector(dx: mass * 100, dy: 0)  // 100 points/s² whatever the mass
            }
            field.addItem(box)
            let material = UIDynamicItemBehavior(items: [box])
            material.charge = 2
            material.addLinearVelocity(CGPoint(x: 0, y: 30), for: box)
            animator.addBehavior(material)
            animator.addBehavior(field)
            DynamicsTests.run(from: t0, through: t0 + 0.5)
            #expect(seenField === field)
            #expect(calls.count == 60)
            let first = calls[0]
            #expect(first.0 == start && first.1 == CGVector(dx: 0, dy: 30))
            #expect(first.2 == 0.25 && first.3 == 2 && abs(first.4 - Self.h) < 1e-15)
            #expect(isClose(calls[1].0, CGPoint(x: start.x + 100 * Self.h * Self.h, y: start.y + 30 * Self.h), 1e-9))
            let t = animator.elapsedTime(), moved = Double(box.center.x - start.x)
            #expect(abs(moved - 50 * t * t) <= 50 * Self.h * t + 1e-6, "moved \(moved)")
        }

        @Test func electricFieldRepelsChargedItemsOnly() {
            let t0 = 2600.0, centre = CGPoint(x: 160, y: 240)
            let window = UIClockSuite.makeWindow(at: t0)
            let charged = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
            let neutral = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
            charged.center = CGPoint(x: centre.x + 60, y: centre.y)
            neutral.center = CGPoint(x: centre.x - 60, y: centre.y)
            window.addSubview(charged); window.addSubview(neutral)
            UIClockSuite.advance(to: t0)
            let animator = UIDynamicAnimator(referenceView: window)
            let field = UIFieldBehavior.electricField()
            field.position = centre
            field.addItem(charged); field.addItem(neutral)
            let material = UIDynamicItemBehavior(items: [charged])
            material.charge = 0.5
            animator.addBehavior(field)
            animator.addBehavior(material)
            DynamicsTests.run(from: t0, through: t0 + 0.2)
            // F = 1000·s·q outwards, m = 0.25: a = 2000 points/s².
            let t = animator.elapsedTime(), moved = Double(charged.center.x - centre.x) - 60
            #expect(abs(moved - 1000 * t * t) <= 1000 * Self.h * t + 1e-6, "moved \(moved)")
            #expect(neutral.center == CGPoint(x: centre.x - 60, y: centre.y))
        }

        @Test func velocityVortexMagneticAndTurbulenceFollowTheirRules() {
            let t0 = 2900.0, centre = CGPoint(x: 160, y: 240)
            let window = UIClockSuite.makeWindow(at: t0)
            let views = (0..<4).map { _ in UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50)) }
            let (mover, swirled, charged, still) = (views[0], views[1], views[2], views[3])
            mover.center = CGPoint(x: 20, y: 20)
            swirled.center = CGPoint(x: centre.x + 60, y: centre.y)
            charged.center = CGPoint(x: 20, y: 400)
            still.center = CGPoint(x: 300, y: 20)
            views.forEach(window.addSubview)
            UIClockSuite.advance(to: t0)
            let animator = UIDynamicAnimator(referenceView: window)
            let velocity = UIFieldBehavior.velocityField(direction: CGVector(dx: 30, dy: 0))
            velocity.strength = 2
            velocity.addItem(mover)
            let vortex = UIFieldBehavior.vortexField()
            vortex.position = centre
            vortex.addItem(swirled)
            let magnetic = UIFieldBehavior.magneticField()
            magnetic.addItem(charged)
            let turbulence = UIFieldBehavior.turbulenceField(smoothness: 0, animationSpeed: 1)
            turbulence.addItem(still)
            let material = UIDynamicItemBehavior(items: [charged])
            material.charge = 1
            material.addLinearVelocity(CGPoint(x: 100, y: 0), for: charged)
            [velocity, vortex, magnetic, turbulence, material].forEach(animator.addBehavior)
            DynamicsTests.run(from: t0, through: t0 + 1.0 / 60)
            let t = animator.elapsedTime()
            // Velocity: exactly s·direction = 60 points/s.
            #expect(isClose(mover.center, CGPoint(x: 20 + 60 * t, y: 20), 1e-9))
            // Two steps of a constant a move an item 3·a·h² (v₁ = a·h, y₁ = a·h², y₂ = y₁ + 2·a·h²);
            // the forces below turn by well under 1 % in that time.
            // Vortex: force s·60 UIKit newtons tangential, anticlockwise on screen (up, at the
            // right of the centre): a = 60 / 0.25 = 240 points/s².
            let rise = Double(centre.y - swirled.center.y), vortexRise = 3 * 240 * Self.h * Self.h
            #expect(abs(rise - vortexRise) < 0.01 * vortexRise, "rose \(rise)")
            // Magnetic: F = s·q·(v × ẑ) = (0, −100) at first, a = 400 points/s² upwards.
            let lift = Double(400 - charged.center.y), magneticLift = 3 * 400 * Self.h * Self.h
            #expect(abs(lift - magneticLift) < 0.01 * magneticLift, "rose \(lift)")
            // Turbulence: no speed, no force.
            #expect(still.center == CGPoint(x: 300, y: 20))
        }

        @Test func noiseFieldIsDeterministicAndBounded() {
            func finalCentre(_ t0: Double) -> CGPoint {
                let (window, box) = DynamicsTests.scene(at: t0, center: CGPoint(x: 160, y: 240))
                let animator = UIDynamicAnimator(referenceView: window)
                let field = UIFieldBehavior.noiseField(smoothness: 0.5, animationSpeed: 2)
                #expect(field.smoothness == 0.5 && field.animationSpeed == 2)
                field.addItem(box)
                animator.addBehavior(field)
                DynamicsTests.run(from: t0, through: t0 + 0.3)
                return box.center
            }
            let a = finalCentre(2700), b = finalCentre(2800)
            #expect(a == b)
            // Each acceleration component is at most 1000 points/s² (noise in [−1, 1]), so each
            // coordinate moves at most ½·1000·t² plus the step's ½·1000·h·t.
            let bound = 500 * 0.3 * 0.3 + 500 * Self.h * 0.3
            #expect(abs(a.x - 160) <= bound && abs(a.y - 240) <= bound && a != CGPoint(x: 160, y: 240))
        }
    }
}
