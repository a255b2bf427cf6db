import Testing
import UIKit

/// UIView.animate: the model takes the final value at once, the layer gets an animation of the
/// changed key with the block's duration and curve, the presentation follows the curve in
/// closed form, and the completion runs at the first turn after the end. And the implicit
/// animation rule of views (Apple, "Core Animation Programming Guide": a view's layer does not
/// animate implicitly; UIView returns NSNull from action(for:forKey:) outside animation blocks).
extension UIClockSuite {
    @Suite struct ViewAnimationTests {
        /// A window with one 40 × 40 view at center (50, 50), committed at time `t`.
        func scene(at t: CFTimeInterval) -> (UIWindow, UIView) {
            let window = UIClockSuite.makeWindow(at: t)
            let view = UIView(frame: CGRect(x: 30, y: 30, width: 40, height: 40))
            window.addSubview(view)
            UIClockSuite.advance(to: t)
            return (window, view)
        }

        @Test func linearAnimationIsHalfwayAtHalfTime() throws {
            let (window, view) = scene(at: 10)
            var finished: [Bool] = []
            UIView.animate(withDuration: 2, delay: 0, options: .curveLinear, animations: {
                view.center = CGPoint(x: 150, y: 50)
            }, completion: { finished.append($0) })
            // The model is final at once.
            #expect(view.center == CGPoint(x: 150, y: 50) && view.layer.position == CGPoint(x: 150, y: 50))
            UIClockSuite.advance(to: 10)
            let animation = try #require(view.layer.animation(forKey: "position") as? CABasicAnimation)
            #expect(animation.duration == 2 && animation.timingFunction == CAMediaTimingFunction(name: .linear))
            #expect(animation.beginTime == 10)
            UIClockSuite.advance(to: 11)
            let p = try #require(view.layer.presentation()).position
            #expect(isClose(p, CGPoint(x: 100, y: 50), 1e-9))
            UIClockSuite.advance(to: 11.99)
            #expect(finished.isEmpty)
            UIClockSuite.advance(to: 12.01)
            #expect(finished == [true])
            #expect(view.layer.animation(forKey: "position") == nil)
            _ = window
        }

        @Test func defaultCurveIsEaseInEaseOutAndSymmetric() throws {
            let (window, view) = scene(at: 20)
            UIView.animate(withDuration: 1) { view.alpha = 0 }
            UIClockSuite.advance(to: 20)
            let animation = try #require(view.layer.animation(forKey: "opacity") as? CABasicAnimation)
            #expect(animation.timingFunction == CAMediaTimingFunction(name: .easeInEaseOut))
            // Control points (0.42, 0), (0.58, 1) are symmetric about (0.5, 0.5): half time, half way.
            UIClockSuite.advance(to: 20.5)
            let opacity = try #require(view.layer.presentation()).opacity
            #expect(abs(opacity - 0.5) < 1e-6)
            #expect(view.alpha == 0)
            _ = window
        }

        @Test func curveOptionsMapToTimingFunctions() throws {
            let (window, view) = scene(at: 30)
            let cases: [(UIView.AnimationOptions, CAMediaTimingFunctionName)] = [
                (.curveEaseIn, .easeIn), (.curveEaseOut, .easeOut), (.curveEaseInOut, .easeInEaseOut), (.curveLinear, .linear),
            ]
            for (option, name) in cases {
                UIView.animate(withDuration: 1, delay: 0, options: option, animations: { view.alpha = view.alpha == 1 ? 0.5 : 1 })
                let animation = try #require(view.layer.animation(forKey: "opacity") as? CABasicAnimation)
                #expect(animation.timingFunction == CAMediaTimingFunction(name: name))
            }
            UIView.animate(withDuration: 1, delay: 0, options: [.repeat, .autoreverse], animations: { view.alpha = 0.2 })
            let repeating = try #require(view.layer.animation(forKey: "opacity"))
            #expect(repeating.repeatCount == .infinity && repeating.autoreverses)
            _ = window
        }

        @Test func delayHoldsTheOldValueUntilTheStart() throws {
            let (window, view) = scene(at: 40)
            UIView.animate(withDuration: 1, delay: 0.5, options: .curveLinear, animations: {
                view.center = CGPoint(x: 90, y: 50)
            })
            UIClockSuite.advance(to: 40.25)
            let before = try #require(view.layer.presentation()).position
            #expect(isClose(before, CGPoint(x: 50, y: 50), 1e-9))
            UIClockSuite.advance(to: 41)
            let during = try #require(view.layer.presentation()).position
            #expect(isClose(during, CGPoint(x: 70, y: 50), 1e-9))
            _ = window
        }

        @Test func noImplicitAnimationOutsideBlocksButStandaloneLayersAnimate() throws {
            let (window, view) = scene(at: 50)
            let standalone = CALayer()
            view.layer.addSublayer(standalone)
            UIClockSuite.advance(to: 50)
            view.alpha = 0.5
            view.center = CGPoint(x: 70, y: 70)
            view.backgroundColor = .red
            standalone.opacity = 0.5
            UIClockSuite.advance(to: 50.1)
            #expect(view.layer.animationKeys() == nil)
            #expect(view.layer.action(forKey: "opacity") == nil)
            // A layer that belongs to no view keeps Core Animation's implicit animation (0.25 s).
            let implicit = try #require(standalone.animation(forKey: "opacity"))
            #expect(implicit.duration == 0.25)
            // Inside a block the standalone layer still animates with Core Animation's default,
            // not the block's duration, as on iOS.
            UIView.animate(withDuration: 3) {
                view.alpha = 1
                standalone.opacity = 1
            }
            #expect(view.layer.animation(forKey: "opacity")?.duration == 3)
            #expect(standalone.animation(forKey: "opacity")?.duration == 0.25)
            // performWithoutAnimation inside a block.
            UIView.animate(withDuration: 3) {
                UIView.performWithoutAnimation { view.center = CGPoint(x: 10, y: 10) }
            }
            #expect(view.layer.animation(forKey: "position") == nil)
            _ = window
        }

        @Test func replacedAnimationCompletesUnfinished() {
            let (window, view) = scene(at: 60)
            var results: [String] = []
            UIView.animate(withDuration: 1, animations: { view.center = CGPoint(x: 100, y: 50) },
                           completion: { results.append("first \($0)") })
            UIClockSuite.advance(to: 60)
            UIClockSuite.advance(to: 60.2)
            UIView.animate(withDuration: 1, animations: { view.center = CGPoint(x: 0, y: 50) },
                           completion: { results.append("second \($0)") })
            #expect(results == ["first false"])
            UIClockSuite.advance(to: 60.2)
            UIClockSuite.advance(to: 61.1)
            #expect(results == ["first false"])
            UIClockSuite.advance(to: 61.3)
            #expect(results == ["first false", "second true"])
            // Setting the same property twice in one block is not an interruption.
            UIView.animate(withDuration: 0.5, animations: {
                view.center = CGPoint(x: 10, y: 50)
                view.center = CGPoint(x: 20, y: 50)
            }, completion: { results.append("twice \($0)") })
            UIClockSuite.advance(to: 61.3)
            UIClockSuite.advance(to: 61.9)
            #expect(results.last == "twice true")
            _ = window
        }

        @Test func blockWithoutChangesCompletesNextTurn() {
            let (window, _) = scene(at: 70)
            var finished: [Bool] = []
            UIView.animate(withDuration: 1, animations: {}, completion: { finished.append($0) })
            #expect(finished.isEmpty)
            UIClockSuite.advance(to: 70.016)
            #expect(finished == [true])
            // A zero duration changes without animating.
            let v = window.subviews[0]
            UIView.animate(withDuration: 0, animations: { v.alpha = 0.3 }, completion: { finished.append($0) })
            #expect(v.layer.animationKeys() == nil && v.layer.opacity == 0.3)
            UIClockSuite.advance(to: 70.032)
            #expect(finished == [true, true])
        }

        @Test func animatingViewsIgnoreTouchesUnlessAllowed() {
            let (window, view) = scene(at: 80)
            UIView.animate(withDuration: 1) { view.alpha = 0.5 }
            UIClockSuite.advance(to: 80)
            #expect(window.hitTest(CGPoint(x: 50, y: 50), with: nil) === window)
            UIClockSuite.advance(to: 81.1)
            #expect(window.hitTest(CGPoint(x: 50, y: 50), with: nil) === view)
            UIView.animate(withDuration: 1, delay: 0, options: .allowUserInteraction, animations: { view.alpha = 1 })
            #expect(window.hitTest(CGPoint(x: 50, y: 50), with: nil) === view)
        }
    }
}

extension UIClockSuite {
    /// UIKit animates a view added to the window in the same run-loop turn as its animation
    /// block (the fade-in idiom: alpha 0, addSubview, animate to 1), as it does a view committed
    /// before; a layer made in the same transaction still gets no implicit animation of its own.
    @Suite struct SameTurnViewAnimationTests {
        @Test func aViewAddedInTheSameTurnAnimates() throws {
            let window = UIClockSuite.makeWindow(at: 20)
            UIClockSuite.advance(to: 20)
            let view = UIView(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
            view.alpha = 0
            window.addSubview(view)
            var finished: [Bool] = []
            UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { view.alpha = 1 },
                           completion: { finished.append($0) })
            var repeats = false
            let pulse = UIView(frame: CGRect(x: 40, y: 10, width: 20, height: 20))
            window.addSubview(pulse)
            UIView.animate(withDuration: 0.5, delay: 0, options: [.repeat, .curveLinear], animations: { pulse.alpha = 0.5 },
                           completion: { _ in repeats = true })
            UIClockSuite.advance(to: 20)
            // Linear 0 → 1 over 1 s, at 0.5 s: 0.5. The repeating one, 1 → 0.5 over 0.5 s, at
            // 0.75 s is half-way through its second cycle: 0.75.
            UIClockSuite.advance(to: 20.5)
            #expect(abs(try #require(view.layer.presentation()).opacity - 0.5) < 1e-6)
            UIClockSuite.advance(to: 20.75)
            #expect(abs(try #require(pulse.layer.presentation()).opacity - 0.75) < 1e-6)
            #expect(finished.isEmpty && !repeats)
            UIClockSuite.advance(to: 21.1)
            #expect(finished == [true] && !repeats)
            // A plain layer made in the same transaction as its change: no implicit animation.
            let plain = CALayer()
            window.layer.addSublayer(plain)
            plain.opacity = 0.2
            #expect(plain.animationKeys() == nil)
            _ = window
        }
    }
}
