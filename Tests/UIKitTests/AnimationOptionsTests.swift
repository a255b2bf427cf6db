import Foundation
import Testing
import UIKit

/// UIView.AnimationOptions beyond curves and repetition (ViewAnimationTests): Apple's raw values,
/// nested blocks inheriting duration and curve (Apple, "View Programming Guide for iOS", Nesting
/// Animation Blocks), `.layoutSubviews`, and iOS 17's spring form with the WWDC23 "Animate with
/// springs" mapping (stiffness (2π/duration)², damping 4π(1 − bounce)/duration, mass 1).
extension UIClockSuite {
    @Suite struct AnimationOptionsTests {
        func scene(at t: CFTimeInterval) -> (UIWindow, UIView) {
            let window = UIClockSuite.makeWindow(at: t)
            let view = UIView(frame: CGRect(x: 30, y: 30, width: 40, height: 40))
            window.addSubview(view)
            UIClockSuite.advance(to: t)
            return (window, view)
        }

        @Test func rawValuesAreApples() {
            // UIViewAnimationOptions in UIView.h.
            let expected: [(UIView.AnimationOptions, UInt)] = [
                (.layoutSubviews, 1), (.allowUserInteraction, 2), (.beginFromCurrentState, 4), (.repeat, 8),
                (.autoreverse, 16), (.overrideInheritedDuration, 32), (.overrideInheritedCurve, 64),
                (.allowAnimatedContent, 128), (.showHideTransitionViews, 256), (.overrideInheritedOptions, 512),
                (.curveEaseIn, 0x10000), (.curveEaseOut, 0x20000), (.curveLinear, 0x30000),
                (.transitionFlipFromLeft, 0x100000), (.transitionCrossDissolve, 0x500000), (.transitionFlipFromBottom, 0x700000),
                (.preferredFramesPerSecond60, 0x3000000), (.preferredFramesPerSecond30, 0x7000000),
            ]
            for (option, raw) in expected { #expect(option.rawValue == raw) }
        }

        @Test func nestedBlocksInheritDurationAndCurve() throws {
            let (window, view) = scene(at: 10)
            UIView.animate(withDuration: 2, delay: 0, options: .curveLinear, animations: {
                view.alpha = 0.5
                UIView.animate(withDuration: 0.5, delay: 0, options: .curveEaseIn, animations: { view.center.x = 80 })
                #expect(UIView.inheritedAnimationDuration == 2)
            })
            let inherited = try #require(view.layer.animation(forKey: "position"))
            #expect(inherited.duration == 2 && inherited.timingFunction == CAMediaTimingFunction(name: .linear))
            UIView.animate(withDuration: 2, delay: 0, options: .curveLinear, animations: {
                UIView.animate(withDuration: 0.5, delay: 0, options: [.overrideInheritedDuration, .overrideInheritedCurve, .curveEaseIn],
                               animations: { view.center.x = 120 })
            })
            let own = try #require(view.layer.animation(forKey: "position"))
            #expect(own.duration == 0.5 && own.timingFunction == CAMediaTimingFunction(name: .easeIn))
            _ = window
        }

        /// A view whose one subview fills it (laid out in `layoutSubviews`).
        final class FillingView: UIView {
            let inner = UIView()
            override func layoutSubviews() { inner.frame = bounds }
        }

        @Test func layoutSubviewsAnimatesTheLayoutWithTheParent() throws {
            let window = UIClockSuite.makeWindow(at: 20)
            let view = FillingView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
            view.addSubview(view.inner)
            window.addSubview(view)
            UIClockSuite.advance(to: 20)
            UIView.animate(withDuration: 1, delay: 0, options: .layoutSubviews, animations: {
                view.frame = CGRect(x: 0, y: 0, width: 100, height: 40)
            })
            #expect(view.inner.frame.width == 100)
            let bounds = try #require(view.inner.layer.animation(forKey: "bounds") as? CABasicAnimation)
            #expect(bounds.duration == 1)
            // Without the option the layout waits for the next pass, outside the block: no animation.
            view.inner.layer.removeAllAnimations()
            UIView.animate(withDuration: 1) { view.frame = CGRect(x: 0, y: 0, width: 60, height: 40) }
            #expect(view.inner.frame.width == 100 && view.inner.layer.animation(forKey: "bounds") == nil)
            UIClockSuite.advance(to: 20.1)
            #expect(view.inner.frame.width == 60 && view.inner.layer.animation(forKey: "bounds") == nil)
            _ = window
        }

        @Test func iOS17SpringUsesThePerceptualMapping() throws {
            let (window, view) = scene(at: 30)
            var finished: [Bool] = []
            UIView.animate(springDuration: 0.5, bounce: 0.3, animations: { view.center = CGPoint(x: 150, y: 50) },
                           completion: { finished.append($0) })
            UIClockSuite.advance(to: 30)  // committed: the animation begins now
            let spring = try #require(view.layer.animation(forKey: "position") as? CASpringAnimation)
            let w0 = 2 * Double.pi / 0.5
            // Apple's SwiftUI Spring documentation: duration 0.5, bounce 0.3 → stiffness 157.9, damping 17.6.
            #expect(abs(Double(spring.stiffness) - w0 * w0) < 1e-9 && abs(Double(spring.damping) - 4 * .pi * 0.7 / 0.5) < 1e-9)
            #expect(abs(Double(spring.stiffness) - 157.9) < 0.05 && abs(Double(spring.damping) - 17.6) < 0.05)
            #expect(spring.mass == 1 && spring.duration == spring.settlingDuration)
            let zeta = 0.7, wd = w0 * (1 - zeta * zeta).squareRoot(), t = 0.2
            UIClockSuite.advance(to: 30 + t)
            let x = exp(-zeta * w0 * t) * (cos(wd * t) + zeta * w0 / wd * sin(wd * t))
            #expect(isClose(try #require(view.layer.presentation()).position, CGPoint(x: 50 + 100 * (1 - x), y: 50), 1e-6))
            UIClockSuite.advance(to: 30 + spring.settlingDuration + 0.01)
            #expect(finished == [true])
            // Defaults: duration 0.5, bounce 0 (critically damped: damping = 2√stiffness).
            UIView.animate { view.alpha = 0.5 }
            let standard = try #require(view.layer.animation(forKey: "opacity") as? CASpringAnimation)
            #expect(abs(Double(standard.damping) - 2 * w0) < 1e-9)
            _ = window
        }
    }
}
