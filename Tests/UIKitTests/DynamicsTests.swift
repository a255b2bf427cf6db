import Foundation
import Testing
import UIKit

/// UIKit Dynamics against closed-form physics: free fall (y = ½·g·t², g = 1000 points/s² per
/// unit of gravity magnitude, Apple's documented value), the bounce height of a restitution e
/// (h' = e²·h), a snap settling on its point, a pendulum's small-angle period (T = 2π√(L/g)),
/// total energy that never grows, Apple's push rule (magnitude 1 on a 100 × 100 item of density
/// 1 = 100 points/s²), and the animator pausing when everything rests.
///
/// The solver takes steps of h = 1/120 s (semi-implicit Euler: v += g·h, then y += v·h), so after
/// n steps a free body has fallen ½·g·h²·n(n + 1) = ½·g·t² + ½·g·h·t: tolerances below are that
/// discretisation term, derived per test.
extension UIClockSuite {
    @Suite struct DynamicsTests {
        static let h = 1 / UIDynamicAnimator.stepsPerSecond

        /// Run-loop turns at `fps` from `t0` through `t1` (inclusive), calling `frame(t)` after each.
        static func run(from t0: Double, through t1: Double, fps: Double = 60, _ frame: (Double) -> Void = { _ in }) {
            let count = Int(((t1 - t0) * fps).rounded())
            for k in 0...count {
                let t = t0 + Double(k) / fps
                UIClockSuite.advance(to: t)
                frame(t)
            }
        }

        /// A window at `t0` with one square view of `side` points centred at `center`.
        static func scene(at t0: Double, side: CGFloat = 20, center: CGPoint) -> (UIWindow, UIView) {
            let window = UIClockSuite.makeWindow(at: t0)
            let box = UIView(frame: CGRect(x: 0, y: 0, width: side, height: side))
            box.center = center
            window.addSubview(box)
            UIClockSuite.advance(to: t0)
            return (window, box)
        }

        final class PauseRecorder: UIDynamicAnimatorDelegate {
            var events: [String] = []
            func dynamicAnimatorWillResume(_ animator: UIDynamicAnimator) { events.append("resume") }
            func dynamicAnimatorDidPause(_ animator: UIDynamicAnimator) { events.append("pause") }
        }

        @Test(arguments: [1.0, 2.0])
        func freeFallFollowsHalfGTSquared(magnitude: Double) {
            let t0 = 100.0, y0 = 50.0
            let (window, box) = Self.scene(at: t0, center: CGPoint(x: 100, y: y0))
            let animator = UIDynamicAnimator(referenceView: window)
            let gravity = UIGravityBehavior(items: [box])
            gravity.magnitude = CGFloat(magnitude)
            animator.addBehavior(gravity)
            #expect(animator.isRunning)
            let g = 1000 * magnitude
            for t in [0.25, 0.5] {
                Self.run(from: t0, through: t0 + t)
                let fallen = Double(box.center.y) - y0
                // ½·g·t² plus the step's ½·g·h·t (see the suite's note).
                #expect(abs(fallen - g * t * t / 2) <= g * Self.h * t / 2 + 1e-6, "t = \(t): fell \(fallen)")
                #expect(box.center.x == 100)
            }
            #expect(abs(animator.elapsedTime() - 0.5) < 1e-9)
        }

        @Test func gravityDirectionAngleAndMagnitudeAgree() {
            let gravity = UIGravityBehavior()
            #expect(gravity.gravityDirection == CGVector(dx: 0, dy: 1))
            #expect(abs(gravity.angle - .pi / 2) < 1e-12 && abs(gravity.magnitude - 1) < 1e-12)
            gravity.setAngle(0, magnitude: 0.5)
            #expect(abs(gravity.gravityDirection.dx - 0.5) < 1e-12 && abs(gravity.gravityDirection.dy) < 1e-12)
        }

        @Test(arguments: [0.5, 0.8])
        func bounceRisesToESquaredTimesTheDrop(elasticity e: Double) {
            let t0 = 200.0, side: CGFloat = 40, drop = 200.0
            let floorY = 480.0, restY = floorY - Double(side) / 2
            let (window, box) = Self.scene(at: t0, side: side, center: CGPoint(x: 160, y: restY - drop))
            let animator = UIDynamicAnimator(referenceView: window)
            animator.addBehavior(UIGravityBehavior(items: [box]))
            let collision = UICollisionBehavior(items: [box])
            collision.translatesReferenceBoundsIntoBoundary = true
            animator.addBehavior(collision)
            let material = UIDynamicItemBehavior(items: [box])
            material.elasticity = CGFloat(e)
            material.allowsRotation = false
            animator.addBehavior(material)
            let g = 1000.0
            let tFall = (2 * drop / g).squareRoot(), v = g * tFall, tRise = e * v / g
            var highest = Double.infinity
            Self.run(from: t0, through: t0 + tFall + 2 * tRise) { t in
                if t > t0 + tFall + tRise / 2 { highest = min(highest, Double(box.center.y)) }
            }
            let rise = restY - highest
            // Tolerance: the steps' energy loss ½·g·h per second of flight, the contact found up
            // to v·h late (that extra fall returns as e²·v·h), and the 0.5 pt of allowed overlap.
            let tolerance = g * Self.h * (tFall + tRise) / 2 + e * e * v * Self.h + 0.5
            #expect(abs(rise - e * e * drop) <= tolerance, "rose \(rise), expected \(e * e * drop) ± \(tolerance)")
        }

        @Test func snapSettlesOnItsPointAndPauses() {
            let t0 = 300.0
            let (window, box) = Self.scene(at: t0, center: CGPoint(x: 50, y: 50))
            let animator = UIDynamicAnimator(referenceView: window)
            let recorder = PauseRecorder()
            animator.delegate = recorder
            let snap = UISnapBehavior(item: box, snapTo: CGPoint(x: 200, y: 300))
            #expect(snap.damping == 0.5)
            animator.addBehavior(snap)
            var overshoot = 0.0
            Self.run(from: t0, through: t0 + 3) { _ in overshoot = max(overshoot, Double(box.center.y) - 300) }
            #expect(isClose(box.center, CGPoint(x: 200, y: 300), 0.5))
            // A spring of damping ratio ζ overshoots by e^(−πζ/√(1−ζ²)) of the 250 pt (16 % for
            // ζ = 0.5); the implicit integration of a soft constraint adds numerical damping of
            // about ω·h/2 to ζ (backward Euler), ω = 2π · 3 Hz.
            func expectedOvershoot(_ zeta: Double) -> Double { 250 * exp(-Double.pi * zeta / (1 - zeta * zeta).squareRoot()) }
            let numerical = 2 * Double.pi * Double(UISnapBehavior.frequency) * Self.h / 2
            #expect(overshoot >= expectedOvershoot(0.5 + numerical) - 1 && overshoot <= expectedOvershoot(0.5), "overshoot \(overshoot)")
            #expect(!animator.isRunning)
            #expect(recorder.events == ["pause"] || recorder.events == ["resume", "pause"])
        }

        @Test func pendulumSwingsWithTwoPiRootLOverG() {
            let t0 = 400.0, length = 200.0, theta0 = 0.1
            let anchor = CGPoint(x: 160, y: 60)
            let (window, bob) = Self.scene(at: t0, side: 10, center: CGPoint(x: anchor.x + length * sin(theta0),
                                                                             y: anchor.y + length * cos(theta0)))
            let animator = UIDynamicAnimator(referenceView: window)
            animator.addBehavior(UIGravityBehavior(items: [bob]))
            let rod = UIAttachmentBehavior(item: bob, attachedToAnchor: anchor)
            #expect(abs(rod.length - length) < 1e-9 && rod.attachedBehaviorType == .anchor)
            animator.addBehavior(rod)
            var crossings: [Double] = []
            var last: (t: Double, x: Double)?
            Self.run(from: t0, through: t0 + 9) { t in
                let x = Double(bob.center.x - anchor.x)
                if let last, last.x > 0, x <= 0 { crossings.append(last.t + (t - last.t) * last.x / (last.x - x)) }
                last = (t, x)
            }
            // Small-angle period with the first finite-amplitude term: 2π√(L/g)(1 + θ₀²/16).
            let expected = 2 * .pi * (length / 1000).squareRoot() * (1 + theta0 * theta0 / 16)
            #expect(crossings.count >= 3)
            let period = (crossings[crossings.count - 1] - crossings[0]) / Double(crossings.count - 1)
            #expect(abs(period - expected) < 0.01 * expected, "period \(period), expected \(expected)")
            let distance = hypot(Double(bob.center.x - anchor.x), Double(bob.center.y - anchor.y))
            #expect(abs(distance - length) < 0.5)
        }

        @Test func energyOfCollidingBoxesNeverGrows() {
            let t0 = 500.0, side: CGFloat = 30
            let window = UIClockSuite.makeWindow(at: t0)
            let container = UIView(frame: CGRect(x: 60, y: 40, width: 200, height: 400))
            window.addSubview(container)
            var boxes: [UIView] = []
            for k in 0..<12 {
                let box = UIView(frame: CGRect(x: 0, y: 0, width: side, height: side))
                box.center = CGPoint(x: 30 + CGFloat(k % 4) * 45 + CGFloat(k / 4) * 7, y: 40 + CGFloat(k / 4) * 50)
                box.transform = CGAffineTransform(rotationAngle: 0.3 * CGFloat(k))
                container.addSubview(box)
                boxes.append(box)
            }
            UIClockSuite.advance(to: t0)
            let animator = UIDynamicAnimator(referenceView: container)
            animator.addBehavior(UIGravityBehavior(items: boxes))
            let collision = UICollisionBehavior(items: boxes)
            collision.translatesReferenceBoundsIntoBoundary = true
            animator.addBehavior(collision)
            let material = UIDynamicItemBehavior(items: boxes)
            material.elasticity = 0.6
            material.friction = 0.3
            animator.addBehavior(material)
            // Mass density × area / 10 000 and a square's moment m(w² + h²)/12 (all boxes alike).
            let m = Double(side * side) / 10_000, inertia = m * Double(2 * side * side) / 12, g = 1000.0
            func energy() -> Double {
                boxes.reduce(0) { sum, box in
                    let v = material.linearVelocity(for: box), w = Double(material.angularVelocity(for: box))
                    return sum + m * Double(v.x * v.x + v.y * v.y) / 2 + inertia * w * w / 2 - m * g * Double(box.center.y)
                }
            }
            let start = energy()
            var highest = -Double.infinity
            Self.run(from: t0, through: t0 + 6) { _ in highest = max(highest, energy() - start) }
            // Position correction may lift a box out of an overlap it fell into: at most the
            // 0.5 pt of allowed overlap per box, m·g·0.5 each.
            #expect(highest <= Double(boxes.count) * m * g * 0.5, "energy grew by \(highest)")
            #expect(energy() < start)
            for box in boxes {
                #expect(box.center.y <= 400 && box.center.y >= 0 && box.center.x >= 0 && box.center.x <= 200)
            }
        }

        @Test(arguments: [1.0, 2.0])
        func continuousPushFollowsApplesUnit(density: Double) {
            let t0 = 600.0
            let (window, box) = Self.scene(at: t0, side: 100, center: CGPoint(x: 100, y: 200))
            let animator = UIDynamicAnimator(referenceView: window)
            let push = UIPushBehavior(items: [box], mode: .continuous)
            push.pushDirection = CGVector(dx: 1, dy: 0)
            animator.addBehavior(push)
            let material = UIDynamicItemBehavior(items: [box])
            material.density = CGFloat(density)
            animator.addBehavior(material)
            Self.run(from: t0, through: t0 + 1)
            // Apple: magnitude 1 on a 100 × 100 item of density 1 accelerates it at 100 points/s².
            let a = 100 / density, t = 1.0
            #expect(abs(Double(box.center.x) - 100 - a * t * t / 2) <= a * Self.h * t / 2 + 1e-6)
            #expect(abs(Double(material.linearVelocity(for: box).x) - a * t) < 1e-6)
            #expect(box.center.y == 200)
        }

        @Test func instantaneousPushGivesOneVelocityChange() {
            let t0 = 700.0
            let (window, box) = Self.scene(at: t0, side: 100, center: CGPoint(x: 100, y: 200))
            let animator = UIDynamicAnimator(referenceView: window)
            let push = UIPushBehavior(items: [box], mode: .instantaneous)
            push.setAngle(.pi / 2, magnitude: 0.5)
            #expect(push.active)
            animator.addBehavior(push)
            let material = UIDynamicItemBehavior(items: [box])
            animator.addBehavior(material)
            Self.run(from: t0, through: t0 + 0.5)
            // 0.5 UIKit newton-seconds on mass 1: 50 points/s down, once.
            #expect(!push.active)
            #expect(abs(Double(material.linearVelocity(for: box).y) - 50) < 1e-6)
            #expect(abs(Double(box.center.y) - 200 - 25) < 1e-6)
        }

        @Test func restingItemsPauseTheAnimator() {
            let t0 = 800.0
            let (window, box) = Self.scene(at: t0, side: 40, center: CGPoint(x: 160, y: 300))
            let animator = UIDynamicAnimator(referenceView: window)
            let recorder = PauseRecorder()
            animator.delegate = recorder
            #expect(!animator.isRunning)
            let gravity = UIGravityBehavior(items: [box])
            animator.addBehavior(gravity)
            #expect(recorder.events == ["resume"])
            let collision = UICollisionBehavior(items: [box])
            collision.translatesReferenceBoundsIntoBoundary = true
            animator.addBehavior(collision)
            Self.run(from: t0, through: t0 + 2)
            #expect(recorder.events == ["resume", "pause"])
            #expect(!animator.isRunning)
            #expect(abs(Double(box.center.y) - 460) <= 1)
            let elapsed = animator.elapsedTime()
            Self.run(from: t0 + 2, through: t0 + 2.5)
            #expect(animator.elapsedTime() == elapsed)
            // A change starts it again.
            gravity.angle = 0
            #expect(animator.isRunning && recorder.events == ["resume", "pause", "resume"])
            animator.removeAllBehaviors()
            #expect(!animator.isRunning && recorder.events.last == "pause")
        }

        final class ContactRecorder: UICollisionBehaviorDelegate {
            var events: [String] = []
            func collisionBehavior(_ behavior: UICollisionBehavior, beganContactFor item: any UIDynamicItem,
                                   withBoundaryIdentifier identifier: (any NSCopying)?, at p: CGPoint) {
                events.append("began \(identifier.map { "\($0)" } ?? "bounds") y \(Int(p.y.rounded()))")
            }
            func collisionBehavior(_ behavior: UICollisionBehavior, endedContactFor item: any UIDynamicItem,
                                   withBoundaryIdentifier identifier: (any NSCopying)?) {
                events.append("ended \(identifier.map { "\($0)" } ?? "bounds")")
            }
            func collisionBehavior(_ behavior: UICollisionBehavior, beganContactFor item1: any UIDynamicItem,
                                   with item2: any UIDynamicItem, at p: CGPoint) {
                events.append("began items")
            }
        }

        @Test func namedBoundaryStopsAnItemAndTellsTheDelegate() {
            let t0 = 900.0
            let (window, box) = Self.scene(at: t0, side: 20, center: CGPoint(x: 100, y: 100))
            let other = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            other.center = CGPoint(x: 100, y: 40)
            window.addSubview(other)
            let animator = UIDynamicAnimator(referenceView: window)
            animator.addBehavior(UIGravityBehavior(items: [box, other]))
            let collision = UICollisionBehavior(items: [box, other])
            collision.addBoundary(withIdentifier: "shelf" as NSCopying, from: CGPoint(x: 50, y: 200), to: CGPoint(x: 150, y: 200))
            #expect(collision.boundaryIdentifiers?.count == 1 && collision.boundary(withIdentifier: "shelf" as NSCopying) != nil)
            let recorder = ContactRecorder()
            collision.collisionDelegate = recorder
            animator.addBehavior(collision)
            Self.run(from: t0, through: t0 + 2)
            #expect(abs(Double(box.center.y) - 190) <= 1)
            #expect(recorder.events.first == "began shelf y 200")
            #expect(recorder.events.contains("began items"))
            // Without the shelf, the items fall on.
            collision.removeBoundary(withIdentifier: "shelf" as NSCopying)
            #expect(collision.boundaryIdentifiers == nil)
            Self.run(from: t0 + 2, through: t0 + 2.5)
            #expect(box.center.y > 250)
            #expect(recorder.events.contains("ended shelf"))
        }

        /// The same pile at 60 and at 25 frames per second: the same positions at a shared time.
        @Test func motionDoesNotDependOnTheFrameRate() {
            func pile(fps: Double) -> [CGPoint] {
                let t0 = 1000.0
                let window = UIClockSuite.makeWindow(at: t0)
                var boxes: [UIView] = []
                for k in 0..<6 {
                    let box = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 30))
                    box.center = CGPoint(x: 100 + CGFloat(k) * 22, y: 100 + CGFloat(k) * 45)
                    window.addSubview(box)
                    boxes.append(box)
                }
                UIClockSuite.advance(to: t0)
                let animator = UIDynamicAnimator(referenceView: window)
                animator.addBehavior(UIGravityBehavior(items: boxes))
                let collision = UICollisionBehavior(items: boxes)
                collision.translatesReferenceBoundsIntoBoundary = true
                animator.addBehavior(collision)
                Self.run(from: t0, through: t0 + 2, fps: fps)
                let result = boxes.map(\.center)
                animator.removeAllBehaviors()
                return result
            }
            #expect(pile(fps: 60) == pile(fps: 25))
        }

        @Test func attachmentKindsKeepTheirGeometry() {
            let t0 = 1100.0
            let (window, a) = Self.scene(at: t0, side: 20, center: CGPoint(x: 100, y: 100))
            let b = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            b.center = CGPoint(x: 160, y: 100)
            window.addSubview(b)
            let animator = UIDynamicAnimator(referenceView: window)
            let anchored = UIDynamicItemBehavior(items: [a])
            anchored.isAnchored = true
            animator.addBehavior(anchored)
            let pin = UIAttachmentBehavior.pinAttachment(with: a, attachedTo: b, attachmentAnchor: CGPoint(x: 130, y: 100))
            animator.addBehavior(pin)
            animator.addBehavior(UIGravityBehavior(items: [b]))
            Self.run(from: t0, through: t0 + 1)
            // a stays (anchored); b swings on the pin, whose point on each item stays shared.
            #expect(isClose(a.center, CGPoint(x: 100, y: 100), 0.5))
            let pinA = CGPoint(x: 30, y: 0).applying(a.transform), pinB = CGPoint(x: -30, y: 0).applying(b.transform)
            let worldA = CGPoint(x: a.center.x + pinA.x, y: a.center.y + pinA.y)
            let worldB = CGPoint(x: b.center.x + pinB.x, y: b.center.y + pinB.y)
            #expect(isClose(worldA, worldB, 0.5))
            #expect(b.center.y > 100)
        }
    }
}

extension UIClockSuite.DynamicsTests {
    /// NaN and infinite parameters act as the nearest sensible value: the items stay finite.
    @Test func badParametersKeepTheWorldFinite() {
        let t0 = 1200.0
        let (window, a) = Self.scene(at: t0, side: 20, center: CGPoint(x: 100, y: 100))
        let b = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        b.center = CGPoint(x: 150, y: 100)
        window.addSubview(b)
        let animator = UIDynamicAnimator(referenceView: window)
        animator.addBehavior(UIGravityBehavior(items: [a, b]))
        let collision = UICollisionBehavior(items: [a, b])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "nan" as NSCopying, from: CGPoint(x: CGFloat.nan, y: 0), to: CGPoint(x: 10, y: 10))
        animator.addBehavior(collision)
        let material = UIDynamicItemBehavior(items: [a, b])
        material.elasticity = .nan
        material.friction = .infinity
        material.resistance = .infinity
        material.density = .nan
        animator.addBehavior(material)
        let spring = UIAttachmentBehavior(item: a, attachedTo: b)
        spring.frequency = .nan
        spring.damping = -.infinity
        animator.addBehavior(spring)
        let snap = UISnapBehavior(item: b, snapTo: CGPoint(x: CGFloat.infinity, y: 0))
        snap.damping = .nan
        animator.addBehavior(snap)
        let push = UIPushBehavior(items: [a], mode: .continuous)
        push.pushDirection = CGVector(dx: CGFloat.nan, dy: 1)
        animator.addBehavior(push)
        Self.run(from: t0, through: t0 + 1)
        for view in [a, b] { #expect(view.center.x.isFinite && view.center.y.isFinite, "\(view.center)") }
    }

    /// A sliding attachment along x under gravity at 45°: the item keeps to the axis and takes
    /// the axis' share of the acceleration, g·cos 45° (x = ½·g·cos 45°·t², y fixed, no turning).
    /// With `toItem`, the axis belongs to a second, anchored item turned by 90° (the axis is
    /// given in the reference view and kept in that item's frame).
    @Test(arguments: [false, true])
    func slidingAttachmentKeepsToItsAxis(toItem: Bool) {
        let t0 = 1300.0
        let (window, box) = Self.scene(at: t0, side: 30, center: CGPoint(x: 60, y: 200))
        let animator = UIDynamicAnimator(referenceView: window)
        let gravity = UIGravityBehavior(items: [box])
        gravity.angle = .pi / 4
        animator.addBehavior(gravity)
        let slider: UIAttachmentBehavior
        if toItem {
            let rail = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            rail.center = CGPoint(x: 200, y: 300)
            rail.transform = CGAffineTransform(rotationAngle: .pi / 2)
            window.addSubview(rail)
            let anchored = UIDynamicItemBehavior(items: [rail])
            anchored.isAnchored = true
            animator.addBehavior(anchored)
            slider = UIAttachmentBehavior.slidingAttachment(with: box, attachedTo: rail, attachmentAnchor: CGPoint(x: 60, y: 200),
                                                            axisOfTranslation: CGVector(dx: 2, dy: 0))
            #expect(slider.attachedBehaviorType == .items)
        } else {
            slider = UIAttachmentBehavior.slidingAttachment(with: box, attachmentAnchor: CGPoint(x: 60, y: 200),
                                                            axisOfTranslation: CGVector(dx: 2, dy: 0))
            #expect(slider.attachedBehaviorType == .anchor)
        }
        animator.addBehavior(slider)
        let t = 0.3
        Self.run(from: t0, through: t0 + t)
        let a = 1000 * cos(Double.pi / 4)
        #expect(abs(Double(box.center.x) - 60 - a * t * t / 2) <= a * Self.h * t / 2 + 1e-6, "x \(box.center.x)")
        #expect(abs(box.center.y - 200) < 1e-6)
        #expect(abs(atan2(box.transform.b, box.transform.a)) < 1e-9)
    }

    /// A behavior cannot become its own descendant (the tree would never end).
    /// Apple: a sliding attachment's `attachmentRange` is "the range of motion (measured in
    /// points) supported along the given axis of translation", 0 being where it started.
    @Test(arguments: [false, true])
    func slidingAttachmentStopsAtItsRange(toItem: Bool) {
        let t0 = 1350.0, x0 = 60.0
        let (window, box) = Self.scene(at: t0, side: 30, center: CGPoint(x: x0, y: 200))
        let animator = UIDynamicAnimator(referenceView: window)
        let gravity = UIGravityBehavior(items: [box])
        gravity.angle = 0
        animator.addBehavior(gravity)
        let slider: UIAttachmentBehavior
        if toItem {
            let rail = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            rail.center = CGPoint(x: 200, y: 300)
            rail.transform = CGAffineTransform(rotationAngle: .pi / 3)
            window.addSubview(rail)
            let anchored = UIDynamicItemBehavior(items: [rail])
            anchored.isAnchored = true
            animator.addBehavior(anchored)
            slider = UIAttachmentBehavior.slidingAttachment(with: box, attachedTo: rail, attachmentAnchor: CGPoint(x: x0, y: 200),
                                                            axisOfTranslation: CGVector(dx: 1, dy: 0))
        } else {
            slider = UIAttachmentBehavior.slidingAttachment(with: box, attachmentAnchor: CGPoint(x: x0, y: 200),
                                                            axisOfTranslation: CGVector(dx: 1, dy: 0))
        }
        #expect(slider.attachmentRange == .infinite)
        slider.attachmentRange = UIFloatRange(minimum: -10, maximum: 40)
        animator.addBehavior(slider)
        // Free slide to +40 points takes √(2·40/1000) s and arrives at √(2·1000·40) points/s;
        // the limit catches the item within one step of it (v·h past), then corrects it.
        let overshoot = (2 * 1000 * 40.0).squareRoot() * Self.h
        var furthest = -Double.infinity
        Self.run(from: t0, through: t0 + 1) { _ in furthest = max(furthest, Double(box.center.x) - x0) }
        #expect(abs(Double(box.center.x) - x0 - 40) <= 0.5, "x \(box.center.x)")
        #expect(furthest <= 40 + overshoot, "furthest \(furthest)")
        gravity.angle = .pi
        Self.run(from: t0 + 1, through: t0 + 2)
        #expect(abs(Double(box.center.x) - x0 + 10) <= 0.5, "x \(box.center.x)")
        #expect(abs(box.center.y - 200) < 1e-6)
    }

    /// Apple: a pin attachment's `attachmentRange` is "the amount of rotation (measured in
    /// radians)" allowed from the starting angle. A bar pinned at its left end to an anchored
    /// item swings down (clockwise on screen) and stops at the limit instead of hanging at π/2.
    @Test func pinAttachmentStopsAtItsRotationRange() {
        let t0 = 1380.0, limit = 0.5
        let (window, bar) = Self.scene(at: t0, side: 20, center: CGPoint(x: 150, y: 100))
        let post = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        post.center = CGPoint(x: 140, y: 100)
        window.addSubview(post)
        UIClockSuite.advance(to: t0)
        let animator = UIDynamicAnimator(referenceView: window)
        let anchored = UIDynamicItemBehavior(items: [post])
        anchored.isAnchored = true
        animator.addBehavior(anchored)
        animator.addBehavior(UIGravityBehavior(items: [bar]))
        let pin = UIAttachmentBehavior.pinAttachment(with: bar, attachedTo: post, attachmentAnchor: CGPoint(x: 140, y: 100))
        pin.attachmentRange = UIFloatRange(minimum: -0.2, maximum: CGFloat(limit))
        animator.addBehavior(pin)
        var furthest = -Double.infinity
        Self.run(from: t0, through: t0 + 2) { _ in furthest = max(furthest, Double(atan2(bar.transform.b, bar.transform.a))) }
        let angle = Double(atan2(bar.transform.b, bar.transform.a))
        #expect(abs(angle - limit) < 0.01, "angle \(angle)")
        // At most one step past the limit at the swing's speed: ω = √(2·g·Δh·m/I) with the
        // centre's drop Δh ≤ 10 pt and I/m ≥ 100 pt² about the pin, so ω ≤ √(200) rad/s.
        #expect(furthest <= limit + 200.0.squareRoot() * Self.h, "furthest \(furthest)")
        // The pin still holds: the bar's left edge midpoint stays on the post's centre.
        let edge = CGPoint(x: bar.center.x - 10 * cos(CGFloat(angle)), y: bar.center.y - 10 * sin(CGFloat(angle)))
        #expect(isClose(edge, CGPoint(x: 140, y: 100), 0.5))
    }

    @Test func childBehaviorCyclesAreRefused() {
        let outer = UIDynamicBehavior(), inner = UIDynamicBehavior()
        outer.addChildBehavior(inner)
        inner.addChildBehavior(outer)
        inner.addChildBehavior(inner)
        #expect(outer.childBehaviors.count == 1 && inner.childBehaviors.isEmpty)
    }
}
