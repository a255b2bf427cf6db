import Foundation
import Testing
import UIKit

/// The spring form of UIView.animate, as used by the seeds (fold image: duration 0.6, damping
/// ratio 0.2, velocity 10; sticky bubble: 0.5, 0.2, 0). Expected values from the damped
/// oscillator in closed form: the damping ratio is damping / (2√(stiffness·mass)) (Apple,
/// UISpringTimingParameters), the motion is from + (to − from)(1 − x(t)) with
/// x(t) = e^(−ζω0t)(cos ωd t + (ζω0 − v0)/ωd sin ωd t), and the spring has settled (envelope
/// ≤ 0.1 % of the distance) when the duration ends.
extension UIClockSuite {
    @Suite struct SpringAnimationTests {
        /// Displacement envelope at t: √(1 + ((ζω0 − v0)/ωd)²) e^(−ζω0t).
        func envelope(stiffness k: Double, ratio zeta: Double, velocity v0: Double, at t: Double) -> Double {
            let w0 = k.squareRoot(), wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - v0) / wd
            return (1 + b * b).squareRoot() * exp(-zeta * w0 * t)
        }

        func displacement(stiffness k: Double, ratio zeta: Double, velocity v0: Double, at t: Double) -> Double {
            let w0 = k.squareRoot(), wd = w0 * (1 - zeta * zeta).squareRoot()
            return exp(-zeta * w0 * t) * (cos(wd * t) + (zeta * w0 - v0) / wd * sin(wd * t))
        }

        @Test(arguments: [(0.6, 0.2, 10.0), (0.5, 0.2, 0.0), (1.0, 0.7, 0.0)])
        func springMapsRatioAndSettlesByTheDuration(duration: Double, ratio: Double, velocity: Double) throws {
            let t0 = 100.0
            let window = UIClockSuite.makeWindow(at: t0)
            let view = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            window.addSubview(view)
            UIClockSuite.advance(to: t0)
            var finished: [Bool] = []
            UIView.animate(withDuration: duration, delay: 0, usingSpringWithDamping: CGFloat(ratio),
                           initialSpringVelocity: CGFloat(velocity), options: .curveEaseInOut,
                           animations: { view.center = CGPoint(x: 210, y: 10) }, completion: { finished.append($0) })
            UIClockSuite.advance(to: t0)
            let spring = try #require(view.layer.animation(forKey: "position") as? CASpringAnimation)
            let k = Double(spring.stiffness), c = Double(spring.damping)
            #expect(spring.mass == 1 && spring.duration == duration && Double(spring.initialVelocity) == velocity)
            // damping = 2·ratio·√(stiffness·mass)
            #expect(abs(c - 2 * ratio * k.squareRoot()) <= 1e-9 * c)
            // Settled when the duration ends, and not with a spring any softer (the stiffness is
            // the smallest that settles in time).
            #expect(envelope(stiffness: k, ratio: ratio, velocity: velocity, at: duration) <= 0.001 * (1 + 1e-9))
            #expect(envelope(stiffness: k * 0.98, ratio: ratio, velocity: velocity, at: duration) > 0.001)
            // Mid-flight the presentation is the closed-form spring.
            let t = duration * 0.3
            UIClockSuite.advance(to: t0 + t)
            let x = try #require(view.layer.presentation()).position.x
            let expected = 10 + 200 * (1 - displacement(stiffness: k, ratio: ratio, velocity: velocity, at: t))
            #expect(abs(Double(x) - expected) < 1e-6)
            // After the duration: the model value, and the completion.
            UIClockSuite.advance(to: t0 + duration + 0.01)
            let settled = try #require(view.layer.presentation()).position
            #expect(settled == CGPoint(x: 210, y: 10))
            #expect(finished == [true])
        }

        @Test func foldImageSpringsBackItsLayerTransform() throws {
            // The seed's fold: the top half's layer.transform is set directly on the view's layer
            // inside the spring block, and must animate back to identity.
            let window = UIClockSuite.makeWindow(at: 200)
            let top = UIImageView(frame: CGRect(x: 0, y: 0, width: 100, height: 50))
            window.addSubview(top)
            var t = CATransform3DIdentity
            t.m34 = -1 / 500
            top.layer.transform = CATransform3DRotate(t, -.pi / 4, 1, 0, 0)
            UIClockSuite.advance(to: 200)
            #expect(top.layer.animationKeys() == nil)
            UIView.animate(withDuration: 0.6, delay: 0, usingSpringWithDamping: 0.2, initialSpringVelocity: 10,
                           options: .curveEaseInOut, animations: { top.layer.transform = CATransform3DIdentity })
            UIClockSuite.advance(to: 200)
            #expect(top.layer.animation(forKey: "transform") is CASpringAnimation)
            #expect(CATransform3DIsIdentity(top.layer.transform))
        }
    }
}
