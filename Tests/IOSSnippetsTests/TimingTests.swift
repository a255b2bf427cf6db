import Foundation
import QuartzCore
import Testing

extension SnippetSuite {
    /// Apple's documented timing details (issue 17).
    @Suite struct TimingTests {
        /// Apple's `settlingDuration` documentation: damping 5 → "approximately 2.85 seconds";
        /// damping 15 → "just over 1 second".
        @Test func settlingDurationMatchesApplesWorkedExample() {
            #expect(abs(documentedSpring(damping: 5).settlingDuration - 2.85) < 0.005)
            let stiff = documentedSpring(damping: 15).settlingDuration
            #expect(stiff > 1 && stiff < 1.05)
        }

        /// `.paced` with numbers: constant speed over the cumulative distance (0 → 10 → 40 → 50 is
        /// 50 units in 5 s, so 10 per second), keyTimes ignored; repeats and autoreverse included.
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

        /// `.cubicPaced` with numbers: constant speed along the spline. Through 0, 10, 40, 50 the
        /// Catmull-Rom spline is monotonic (its tangents pass the Fritsch–Carlson test), so
        /// constant speed is 10 per second here too.
        @Test func cubicPacedScalarKeyframesMoveAtConstantSpeed() throws {
            CAMediaClock.setManualTime(0)
            let layer = CALayer()
            CATransaction.flush()
            layer.add(pacedOpacity(mode: .cubicPaced), forKey: nil)
            CATransaction.flush()
            for t in [0.5, 1, 2.5, 3.7, 4.9] {
                CAMediaClock.setManualTime(t)
                let z = try #require(layer.presentation()).zPosition
                #expect(abs(Double(z) - 10 * t) < 0.01, "t = \(t)")
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
        /// CAReplicatorLayer.h, CAMediaTiming.h, CAAnimation.h).
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
            // Animations.
            #expect(value(CAAnimation.self, "removedOnCompletion", Bool.self) == true)
            #expect(value(CAAnimation.self, "speed", Float.self) == 1)
            #expect(value(CAAnimation.self, "fillMode", String.self) == "removed")
            #expect(value(CASpringAnimation.self, "mass", CGFloat.self) == 1)
            #expect(value(CASpringAnimation.self, "stiffness", CGFloat.self) == 100)
            #expect(value(CASpringAnimation.self, "damping", CGFloat.self) == 10)
            #expect(value(CAKeyframeAnimation.self, "calculationMode", String.self) == "linear")
            #expect(CALayer.defaultValue(forKey: "noSuchKey") == nil)
        }
    }
}
