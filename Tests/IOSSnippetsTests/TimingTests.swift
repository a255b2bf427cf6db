import Foundation
import QuartzCore
import Testing

extension SnippetSuite {
    /// Apple's documented timing details.
    @Suite struct TimingTests {
        /// Apple's `settlingDuration` documentation: damping 5 → "approximately 2.85 seconds";
        /// damping 15 → "just over 1 second".
        @Test func settlingDurationMatchesApplesWorkedExample() {
            #expect(abs(documentedSpring(damping: 5).settlingDuration - 2.85) < 0.005)
            let stiff = documentedSpring(damping: 15).settlingDuration
            #expect(stiff > 1 && stiff < 1.05)
        }

        /// `settlingDuration` measured on QuartzCore, as published by OpenCoreAnimation
        /// (github.com/1amageek/OpenCoreAnimation, Tests/…/CASpringAnimationPerceptualTests.swift,
        /// "Settling estimates match measured QuartzCore regimes"): the default spring 1.4727003346780927 s,
        /// damping 1 13.91321015404625 s, damping 20 (critical) and 100 (clamped to critical) 1 s,
        /// perceptual duration 1 s with bounce 0.5 2.3438753795710707 s.
        @Test func settlingDurationMatchesMeasuredValues() {
            func spring(damping: CGFloat) -> CASpringAnimation {
                let s = CASpringAnimation()
                s.damping = damping
                return s
            }
            #expect(abs(CASpringAnimation().settlingDuration - 1.4727003346780927) < 1e-9)
            #expect(abs(spring(damping: 1).settlingDuration - 13.91321015404625) < 1e-9)
            #expect(abs(spring(damping: 20).settlingDuration - 1) < 1e-9)
            #expect(abs(spring(damping: 100).settlingDuration - 1) < 1e-9)
            let perceptual = CASpringAnimation(perceptualDuration: 1, bounce: 0.5)
            #expect(abs(perceptual.settlingDuration - 2.3438753795710707) < 1e-9)
            #expect(perceptual.duration == perceptual.settlingDuration)
        }

        /// Overdamped springs (iOS 17 `allowsOverdamping`, negative bounce) settle by the rule of
        /// underdamped ones: the sum of the modes' absolute coefficients times the slower decay
        /// reaches 0.001. Closed form: x(t) = A·e^(r₁t) + B·e^(r₂t), r₁,₂ = −ω0(ζ ∓ √(ζ² − 1)),
        /// A + B = 1, A·r₁ + B·r₂ = −v0; at rest |A| + |B| = ζ/√(ζ² − 1).
        @Test func overdampedSettlingDurationFollowsTheEnvelopeRule() throws {
            let eps = 0.001
            // Perceptual duration 1 s, bounce −0.5: ω0 = 2π, ζ = 2.
            let spring = CASpringAnimation(perceptualDuration: 1, bounce: -0.5)
            let w0 = 2 * Double.pi, zeta = 2.0, root = (zeta * zeta - 1).squareRoot()
            let expected = log(zeta / root / eps) / (w0 * (zeta - root))
            #expect(abs(spring.settlingDuration - expected) < 1e-9)
            #expect(abs(expected - 4.1885) < 1e-4)
            // With an initial velocity of 3 distances per second.
            let moving = CASpringAnimation(perceptualDuration: 1, bounce: -0.5)
            moving.initialVelocity = 3
            let r1 = -w0 * (zeta - root), r2 = -w0 * (zeta + root)
            let a = (-3 - r2) / (r1 - r2), b = 1 - a
            #expect(abs(moving.settlingDuration - log((abs(a) + abs(b)) / eps) / -r1) < 1e-9)
            // At the settling duration the spring is within 0.1 % of the distance.
            CAMediaClock.setManualTime(0)
            let layer = CALayer()
            CATransaction.flush()
            spring.keyPath = "position.x"
            spring.fromValue = 0
            spring.toValue = 100
            spring.fillMode = .both
            spring.isRemovedOnCompletion = false
            layer.add(spring, forKey: nil)
            CATransaction.flush()
            CAMediaClock.setManualTime(spring.settlingDuration)
            #expect(abs(try #require(layer.presentation()).position.x - 100) < 100 * eps)
            // Either side of critical damping the two rules meet (ω0 = 10: ζ 0.9999 → 1.118 s,
            // 1.0001 → 1.133 s).
            func settling(_ damping: CGFloat) -> CFTimeInterval {
                let s = CASpringAnimation()
                s.damping = damping
                s.allowsOverdamping = true
                return s.settlingDuration
            }
            #expect(abs(settling(20 * 0.9999) - settling(20 * 1.0001)) < 0.02)
            // Bounce −1 is infinite damping: settled at once (and below −1 is clamped to it).
            #expect(CASpringAnimation(perceptualDuration: 1, bounce: -1).settlingDuration == 0)
            #expect(CASpringAnimation(perceptualDuration: 1, bounce: -3).duration == 0)
        }

        /// A layer's `duration` is +∞, read from the layer and from the class, and an
        /// animation's is 0 — measured against Apple's QuartzCore by GNUstep libs-quartzcore's
        /// `Tests/quartzcore/CAMediaTiming/timing.m` ("a layer's duration is infinite", "a
        /// layer's duration comes from the class", "an animation's duration is 0"); an
        /// animation added with 0 takes the transaction's duration (CATransaction, 0.25 s). A
        /// layer with the default keeps running: its sublayer's animation plays on at any time
        /// (local time = parent time). So does a layer whose duration the user set, which reads
        /// back as set (timing.m: "the duration reads back as it was set").
        @Test func layerDurationIsInfiniteAndTimeRunsOn() throws {
            CAMediaClock.setManualTime(1000)
            let parent = CALayer(), child = CALayer()
            #expect(parent.duration == .infinity)
            #expect(CALayer.defaultValue(forKey: "duration") as? CFTimeInterval == .infinity)
            #expect(parent.value(forKey: "duration") as? CFTimeInterval == .infinity)
            #expect(CABasicAnimation().duration == 0 && CAAnimation.defaultValue(forKey: "duration") as? CFTimeInterval == 0)
            parent.addSublayer(child)
            CATransaction.flush()
            let move = CABasicAnimation(keyPath: "position.x")
            move.fromValue = 0; move.toValue = 100; move.duration = 10
            child.add(move, forKey: "move")
            let fade = CABasicAnimation(keyPath: "opacity")
            child.add(fade, forKey: "fade")
            CATransaction.flush()
            #expect(child.animation(forKey: "fade")?.duration == 0.25)
            CAMediaClock.setManualTime(1005)
            #expect(abs(try #require(child.presentation()).position.x - 50) < 1e-9)
            #expect(parent.convertTime(1005, from: nil) == 1005)

            // A finite duration the user sets reads back and leaves the layer's time running:
            // far past it the sublayer's animation is where its own timing puts it.
            parent.duration = 2
            #expect(parent.duration == 2 && parent.value(forKey: "duration") as? CFTimeInterval == 2)
            CAMediaClock.setManualTime(1008)
            #expect(abs(try #require(child.presentation()).position.x - 80) < 1e-9)
            #expect(parent.convertTime(1008, from: nil) == 1008)
        }

        /// Apple's documentation of `.paced` and `.cubicPaced`: "keyTimes and timingFunction are
        /// ignored and keyframe times are automatically generated to give the animation a
        /// constant velocity". Two segments of equal length (0 → 10 → 20) with an easeIn
        /// timingFunction: at every time the value is 20·t/duration, so at half the duration it
        /// is exactly the midpoint 10 (easeIn would put it at 20·0.315… = 6.3). The same along a
        /// path of two equal lines.
        @Test(arguments: [CAAnimationCalculationMode.paced, .cubicPaced])
        func pacedModesIgnoreTheTimingFunction(mode: CAAnimationCalculationMode) throws {
            CAMediaClock.setManualTime(0)
            let layer = CALayer()
            CATransaction.flush()
            let values = CAKeyframeAnimation(keyPath: "zPosition")
            values.values = [0, 10, 20]
            let path = CAKeyframeAnimation(keyPath: "position")
            let line = CGMutablePath()
            line.move(to: CGPoint(x: 0, y: 0))
            line.addLine(to: CGPoint(x: 10, y: 0))
            line.addLine(to: CGPoint(x: 20, y: 0))
            path.path = line
            for a in [values, path] {
                a.calculationMode = mode
                a.timingFunction = CAMediaTimingFunction(name: .easeIn)
                a.duration = 2
                layer.add(a, forKey: a.keyPath)
            }
            CATransaction.flush()
            for t in [0.5, 1, 1.5] {
                // .cubicPaced paces by the spline's arc-length table (64 chords a segment): the
                // middle value, a keyframe, is exact; between keyframes within 1e-3 (measured
                // 1.0e-4).
                let tolerance = mode == .paced ? 1e-12 : t == 1 ? 1e-9 : 1e-3
                CAMediaClock.setManualTime(t)
                let p = try #require(layer.presentation())
                #expect(abs(Double(p.zPosition) - 10 * t) < tolerance, "t = \(t): \(p.zPosition)")
                #expect(abs(Double(p.position.x) - 10 * t) < tolerance, "t = \(t): \(p.position)")
            }
        }

        /// `.paced` with numbers: constant speed over the cumulative distance (0 → 10 → 40 → 50 is
        /// 50 units in 5 s, so 10 per second), keyTimes and timingFunctions ignored; repeats and
        /// autoreverse included.
        @Test func pacedScalarKeyframesMoveAtConstantSpeed() throws {
            CAMediaClock.setManualTime(0)
            let layer = CALayer()
            CATransaction.flush()
            let animation = pacedOpacity(mode: .paced)
            animation.autoreverses = true
            animation.repeatCount = 2
            layer.add(animation, forKey: nil)
            CATransaction.flush()
            for (t, expected) in [(1.0, 10.0), (2, 20), (4.5, 45), (6, 40), (9, 10), (11, 10), (17, 30)] {
                CAMediaClock.setManualTime(t)
                let z = try #require(layer.presentation()).zPosition
                #expect(abs(Double(z) - expected) < 1e-9, "t = \(t)")
            }
        }

        /// `.cubicPaced` with numbers: constant speed along the spline, repeats and autoreverse
        /// included, keyTimes and timingFunctions ignored. Through 0, 10, 40, 50 the
        /// Catmull-Rom spline is monotonic (its tangents pass the Fritsch–Carlson test), so
        /// constant speed is 10 per second here too.
        @Test func cubicPacedScalarKeyframesMoveAtConstantSpeed() throws {
            CAMediaClock.setManualTime(0)
            let layer = CALayer()
            CATransaction.flush()
            let animation = pacedOpacity(mode: .cubicPaced)
            animation.autoreverses = true
            animation.repeatCount = 2
            layer.add(animation, forKey: nil)
            CATransaction.flush()
            // Forward 0…5 s, back 5…10 s, forward again 10…15 s, back 15…20 s.
            for (t, expected) in [(0.5, 5.0), (1, 10), (2.5, 25), (3.7, 37), (4.9, 49), (6, 40), (9, 10), (11, 10), (17, 30)] {
                CAMediaClock.setManualTime(t)
                let z = try #require(layer.presentation()).zPosition
                #expect(abs(Double(z) - expected) < 0.01, "t = \(t)")
            }
        }

        /// Apple's table for `CABasicAnimation`: no from, to or by value interpolates between the
        /// previous and the current value of the key path.
        @Test func basicAnimationWithoutValuesGoesFromThePreviousValue() throws {
            CAMediaClock.setManualTime(0)
            let layer = CALayer()
            CATransaction.flush()
            implicitStyleFade(layer)
            CAMediaClock.setManualTime(0.25)
            #expect(abs(try #require(layer.presentation()).opacity - 0.75) < 1e-6)
            CAMediaClock.setManualTime(0.5)
            #expect(abs(try #require(layer.presentation()).opacity - 0.5) < 1e-6)
        }

        /// The defaults Apple's headers document (CALayer.h, CAShapeLayer.h, CAGradientLayer.h,
        /// CAReplicatorLayer.h, CATextLayer.h, CATiledLayer.h, CAScrollLayer.h, CAEmitterLayer.h,
        /// CAMediaTiming.h, CAAnimation.h, CATransition's documentation).
        @Test func defaultValuesForKey() {
            func value<T>(_ c: AnyClass, _ key: String, _ type: T.Type) -> T? {
                if let layer = c as? CALayer.Type { return layer.defaultValue(forKey: key) as? T }
                return (c as? CAAnimation.Type)?.defaultValue(forKey: key) as? T
            }
            #expect(value(CALayer.self, "anchorPoint", CGPoint.self) == CGPoint(x: 0.5, y: 0.5))
            #expect(value(CALayer.self, "opacity", Float.self) == 1)
            #expect(value(CALayer.self, "shadowOffset", CGSize.self) == CGSize(width: 0, height: -3))
            #expect(value(CALayer.self, "shadowRadius", CGFloat.self) == 3)
            #expect(value(CALayer.self, "shadowOpacity", Float.self) == 0)
            #expect(value(CALayer.self, "contentsRect", CGRect.self) == CGRect(x: 0, y: 0, width: 1, height: 1))
            #expect(value(CALayer.self, "contentsGravity", String.self) == "resize")
            #expect(value(CALayer.self, "cornerCurve", String.self) == "circular")
            #expect(value(CALayer.self, "rasterizationScale", CGFloat.self) == 1)
            #expect(value(CALayer.self, "allowsGroupOpacity", Bool.self) == true)
            #expect(value(CALayer.self, "masksToBounds", Bool.self) == false)
            #expect(value(CALayer.self, "transform", CATransform3D.self) == CATransform3DIdentity)
            // CAMediaTiming keys of a layer.
            #expect(value(CALayer.self, "speed", Float.self) == 1)
            #expect(value(CALayer.self, "timeOffset", CFTimeInterval.self) == 0)
            #expect(value(CALayer.self, "beginTime", CFTimeInterval.self) == 0)
            // +∞, as measured on Apple (libs-quartzcore timing.m, `layerDurationIsInfiniteAndTimeRunsOn`).
            #expect(value(CALayer.self, "duration", CFTimeInterval.self) == .infinity)
            #expect(value(CALayer.self, "repeatCount", Float.self) == 0)
            #expect(value(CALayer.self, "repeatDuration", CFTimeInterval.self) == 0)
            #expect(value(CALayer.self, "autoreverses", Bool.self) == false)
            #expect(value(CALayer.self, "fillMode", String.self) == "removed")
            // Subclasses.
            #expect(value(CAShapeLayer.self, "lineWidth", CGFloat.self) == 1)
            #expect(value(CAShapeLayer.self, "miterLimit", CGFloat.self) == 10)
            #expect(value(CAShapeLayer.self, "lineCap", String.self) == "butt")
            #expect(value(CAShapeLayer.self, "lineJoin", String.self) == "miter")
            #expect(value(CAShapeLayer.self, "strokeEnd", CGFloat.self) == 1)
            #expect(value(CAGradientLayer.self, "startPoint", CGPoint.self) == CGPoint(x: 0.5, y: 0))
            #expect(value(CAGradientLayer.self, "type", String.self) == "axial")
            #expect(value(CAReplicatorLayer.self, "instanceCount", Int.self) == 1)
            #expect(value(CAShapeLayer.self, "fillRule", String.self) == "non-zero")
            #expect(value(CAGradientLayer.self, "endPoint", CGPoint.self) == CGPoint(x: 0.5, y: 1))
            #expect(value(CATextLayer.self, "fontSize", CGFloat.self) == 36)
            #expect(value(CATextLayer.self, "truncationMode", String.self) == "none")
            #expect(value(CATextLayer.self, "alignmentMode", String.self) == "natural")
            #expect(value(CATiledLayer.self, "levelsOfDetail", Int.self) == 1)
            #expect(value(CATiledLayer.self, "tileSize", CGSize.self) == CGSize(width: 256, height: 256))
            #expect(value(CAScrollLayer.self, "scrollMode", String.self) == "both")
            #expect(value(CAEmitterLayer.self, "birthRate", Float.self) == 1)
            #expect(value(CAEmitterLayer.self, "emitterShape", String.self) == "point")
            #expect(value(CALayer.self, "contentsScale", CGFloat.self) == 1)
            #expect(value(CALayer.self, "doubleSided", Bool.self) == true)
            #expect(value(CALayer.self, "minificationFilter", String.self) == "linear")
            // Animations.
            #expect(value(CAAnimation.self, "removedOnCompletion", Bool.self) == true)
            #expect(value(CAAnimation.self, "speed", Float.self) == 1)
            #expect(value(CAAnimation.self, "fillMode", String.self) == "removed")
            #expect(value(CASpringAnimation.self, "mass", CGFloat.self) == 1)
            #expect(value(CASpringAnimation.self, "stiffness", CGFloat.self) == 100)
            #expect(value(CASpringAnimation.self, "damping", CGFloat.self) == 10)
            #expect(value(CAKeyframeAnimation.self, "calculationMode", String.self) == "linear")
            #expect(value(CASpringAnimation.self, "initialVelocity", CGFloat.self) == 0)
            #expect(value(CATransition.self, "type", String.self) == "fade")
            #expect(CALayer.defaultValue(forKey: "noSuchKey") == nil)
        }
    }
}
