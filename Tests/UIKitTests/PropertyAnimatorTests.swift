import Foundation
import Testing
import UIKit

/// UIViewPropertyAnimator. Expected values come from closed-form maths and Apple's documentation:
/// * a cubic timing curve whose control points have x = 1/3 and 2/3 has x(s) = s, so its
///   progress at time fraction u is the Bernstein form y(u) = 3(1−u)²u·c1y + 3(1−u)u²·c2y + u³;
/// * a spring's progress is 1 − x(t) with the damped oscillator's x(t) (see SpringAnimationTests);
/// * the state rules are those of Apple's UIViewAnimating / UIViewAnimatingState pages: start or
///   pause → .active; stopAnimation(false) → .stopped; finishAnimation(at:) → .inactive and the
///   completions; stopAnimation(true) → .inactive without completions; fractionComplete settable
///   while paused, linear while `scrubsLinearly` (default true).
extension UIClockSuite {
    @Suite struct PropertyAnimatorTests {
        /// A window with one 40 × 40 view at center (50, 50), committed at time `t`.
        func scene(at t: CFTimeInterval) -> (UIWindow, UIView) {
            let window = UIClockSuite.makeWindow(at: t)
            let view = UIView(frame: CGRect(x: 30, y: 30, width: 40, height: 40))
            window.addSubview(view)
            UIClockSuite.advance(to: t)
            return (window, view)
        }

        /// The test curve: control points (1/3, 0.8), (2/3, 0.1).
        let c1 = CGPoint(x: 1.0 / 3, y: 0.8), c2 = CGPoint(x: 2.0 / 3, y: 0.1)
        func curve(_ u: Double) -> Double { 3 * (1 - u) * (1 - u) * u * 0.8 + 3 * (1 - u) * u * u * 0.1 + u * u * u }

        func x(_ view: UIView) throws -> CGFloat { try #require(view.layer.presentation()).position.x }

        @Test func cubicCurveDrivesThePresentation() throws {
            let (window, view) = scene(at: 10)
            let animator = UIViewPropertyAnimator(duration: 2, controlPoint1: c1, controlPoint2: c2) {
                view.center = CGPoint(x: 150, y: 50)
            }
            // Inactive: the block has not run (Apple runs it when the animator starts).
            #expect(animator.state == .inactive && view.center == CGPoint(x: 50, y: 50))
            animator.startAnimation()
            #expect(animator.state == .active && animator.isRunning && view.center == CGPoint(x: 150, y: 50))
            for u in [0.1, 0.25, 0.5, 0.8] {
                UIClockSuite.advance(to: 10 + 2 * u)
                #expect(isClose(CGPoint(x: try x(view), y: 0), CGPoint(x: 50 + 100 * curve(u), y: 0), 1e-4))
                #expect(isClose(CGPoint(x: animator.fractionComplete, y: 0), CGPoint(x: u, y: 0), 1e-9))
            }
            _ = window
        }

        @Test func builtInCurvesAndDefaults() {
            let ease = UICubicTimingParameters(animationCurve: .easeIn)
            #expect(ease.timingCurveType == .builtin && ease.controlPoint1 == .zero && ease.animationCurve == .easeIn)
            // Apple: init() is the default Core Animation timing function, (0.25, 0.1), (0.25, 1).
            let standard = UICubicTimingParameters()
            #expect(standard.controlPoint1 == CGPoint(x: 0.25, y: 0.1) && standard.controlPoint2 == CGPoint(x: 0.25, y: 1))
            #expect(UISpringTimingParameters().initialVelocity == .zero)
            let animator = UIViewPropertyAnimator(duration: 1, curve: .linear)
            #expect(animator.duration == 1 && animator.delay == 0 && animator.isInterruptible
                    && animator.isUserInteractionEnabled && !animator.isManualHitTestingEnabled
                    && animator.scrubsLinearly && !animator.pausesOnCompletion && animator.fractionComplete == 0)
        }

        @Test func springFollowsTheDampedOscillator() throws {
            let (window, view) = scene(at: 20)
            // ω0 = 10, ζ = 10 / (2·√100) = 0.5.
            let spring = UISpringTimingParameters(mass: 1, stiffness: 100, damping: 10, initialVelocity: .zero)
            let animator = UIViewPropertyAnimator(duration: 5, timingParameters: spring)
            animator.addAnimations { view.center = CGPoint(x: 150, y: 50) }
            animator.startAnimation()
            let wd = 10 * (0.75).squareRoot()
            for t in [0.1, 0.3, 0.6] {
                UIClockSuite.advance(to: 20 + t)
                let xt = exp(-5 * t) * (cos(wd * t) + 5 / wd * sin(wd * t))
                #expect(isClose(CGPoint(x: try x(view), y: 0), CGPoint(x: 50 + 100 * (1 - xt), y: 0), 1e-6))
            }
            _ = window
        }

        @Test func dampingRatioSpringSettlesWithinTheDuration() throws {
            let (window, view) = scene(at: 25)
            let animator = UIViewPropertyAnimator(duration: 1, dampingRatio: 0.5) { view.center = CGPoint(x: 150, y: 50) }
            animator.startAnimation()
            let spring = try #require(view.layer.animation(forKey: "position") as? CASpringAnimation)
            let k = Double(spring.stiffness), c = Double(spring.damping), m = Double(spring.mass)
            // Apple, UISpringTimingParameters: ratio = damping / (2√(stiffness·mass)).
            #expect(isClose(CGPoint(x: c / (2 * (k * m).squareRoot()), y: m), CGPoint(x: 0.5, y: 1), 1e-9))
            let w0 = k.squareRoot(), wd = w0 * (0.75).squareRoot(), t = 0.3
            UIClockSuite.advance(to: 25 + t)
            let xt = exp(-0.5 * w0 * t) * (cos(wd * t) + 0.5 * w0 / wd * sin(wd * t))
            #expect(isClose(CGPoint(x: try x(view), y: 0), CGPoint(x: 50 + 100 * (1 - xt), y: 0), 1e-6))
            // Settled by the duration: the envelope (1 + |ζω0/ωd|)e^(−ζω0·1) bounds what is left.
            UIClockSuite.advance(to: 25.999)
            #expect(abs(try x(view) - 150) <= 100 * (1 + 0.5 * w0 / wd) * exp(-0.5 * w0 * 0.999))
            #expect(abs(try x(view) - 150) < 0.2)
            _ = window
        }

        @Test func perceptualSpringUsesTheWWDC23Mapping() throws {
            let (window, view) = scene(at: 30)
            // Duration 0.5, bounce 0.3: stiffness (2π/0.5)² ≈ 157.9, ratio 1 − 0.3 = 0.7.
            let animator = UIViewPropertyAnimator(duration: 1, timingParameters: UISpringTimingParameters(duration: 0.5, bounce: 0.3))
            animator.addAnimations { view.center = CGPoint(x: 150, y: 50) }
            animator.startAnimation()
            let w0 = 2 * Double.pi / 0.5, zeta = 0.7, wd = w0 * (1 - zeta * zeta).squareRoot()
            for t in [0.1, 0.25, 0.4] {
                UIClockSuite.advance(to: 30 + t)
                let xt = exp(-zeta * w0 * t) * (cos(wd * t) + zeta * w0 / wd * sin(wd * t))
                #expect(isClose(CGPoint(x: try x(view), y: 0), CGPoint(x: 50 + 100 * (1 - xt), y: 0), 1e-6))
            }
            _ = window
        }

        @Test func pauseHoldsAndScrubbingIsLinear() throws {
            let (window, view) = scene(at: 40)
            let animator = UIViewPropertyAnimator(duration: 2, controlPoint1: c1, controlPoint2: c2) {
                view.center = CGPoint(x: 150, y: 50)
            }
            animator.startAnimation()
            UIClockSuite.advance(to: 40.5)
            animator.pauseAnimation()
            #expect(animator.state == .active && !animator.isRunning)
            UIClockSuite.advance(to: 45)
            #expect(isClose(CGPoint(x: try x(view), y: 0), CGPoint(x: 50 + 100 * curve(0.25), y: 0), 1e-4))
            #expect(isClose(CGPoint(x: animator.fractionComplete, y: 0), CGPoint(x: 0.25, y: 0)))
            animator.fractionComplete = 0.3
            UIClockSuite.advance(to: 45.5)
            #expect(isClose(CGPoint(x: try x(view), y: 0), CGPoint(x: 80, y: 0), 1e-6))
            animator.scrubsLinearly = false
            UIClockSuite.advance(to: 46)
            #expect(isClose(CGPoint(x: try x(view), y: 0), CGPoint(x: 50 + 100 * curve(0.3), y: 0), 1e-4))
            // Resumed: 0.3 of 2 s done, so the end is 1.4 s later; the completion runs after it.
            var positions: [UIViewAnimatingPosition] = []
            animator.addCompletion { positions.append($0) }
            animator.startAnimation()
            UIClockSuite.advance(to: 46.7)
            #expect(isClose(CGPoint(x: try x(view), y: 0), CGPoint(x: 50 + 100 * curve(0.65), y: 0), 1e-4))
            UIClockSuite.advance(to: 47.39)
            #expect(positions.isEmpty)
            UIClockSuite.advance(to: 47.41)
            #expect(positions == [.end] && animator.state == .inactive && view.layer.animationKeys() == nil)
            #expect(try x(view) == 150)
            _ = window
        }

        @Test func pausingAnInactiveAnimatorHoldsTheStart() throws {
            let (window, view) = scene(at: 45)
            let animator = UIViewPropertyAnimator(duration: 1, curve: .linear) { view.center = CGPoint(x: 150, y: 50) }
            animator.pauseAnimation()
            #expect(animator.state == .active && !animator.isRunning && view.center == CGPoint(x: 150, y: 50))
            UIClockSuite.advance(to: 46)
            #expect(try x(view) == 50)
            _ = window
        }

        @Test func scrubbingAnInactiveAnimatorActivatesIt() throws {
            let (window, view) = scene(at: 50)
            let animator = UIViewPropertyAnimator(duration: 1, curve: .easeInOut) { view.alpha = 0 }
            animator.fractionComplete = 0.25
            #expect(animator.state == .active && !animator.isRunning && view.alpha == 0)
            UIClockSuite.advance(to: 50.5)
            #expect(isClose(CGPoint(x: CGFloat(try #require(view.layer.presentation()).opacity), y: 0), CGPoint(x: 0.75, y: 0), 1e-6))
            _ = window
        }

        @Test func reversingRunsTheSameCurveBackwards() throws {
            let (window, view) = scene(at: 60)
            var positions: [UIViewAnimatingPosition] = []
            let animator = UIViewPropertyAnimator(duration: 2, controlPoint1: c1, controlPoint2: c2) {
                view.center = CGPoint(x: 150, y: 50)
            }
            animator.addCompletion { positions.append($0) }
            animator.startAnimation()
            UIClockSuite.advance(to: 61)
            animator.isReversed = true
            // Half a second back from τ = 1: τ = 0.5, time fraction 0.25.
            UIClockSuite.advance(to: 61.5)
            #expect(isClose(CGPoint(x: try x(view), y: 0), CGPoint(x: 50 + 100 * curve(0.25), y: 0), 1e-4))
            #expect(isClose(CGPoint(x: animator.fractionComplete, y: 0), CGPoint(x: 0.25, y: 0), 1e-9))
            UIClockSuite.advance(to: 62.01)
            // Finished reversed: at the start, model included (Apple: position .start).
            #expect(positions == [.start] && animator.state == .inactive)
            #expect(view.center == CGPoint(x: 50, y: 50))
            #expect(try x(view) == 50)
            _ = window
        }

        @Test func stopWithoutFinishingThenFinish() throws {
            let (window, view) = scene(at: 70)
            var positions: [UIViewAnimatingPosition] = []
            let animator = UIViewPropertyAnimator(duration: 2, curve: .linear) { view.center = CGPoint(x: 150, y: 50) }
            animator.addCompletion { positions.append($0) }
            animator.startAnimation()
            UIClockSuite.advance(to: 71)
            // Misuse (Apple raises): finishAnimation outside .stopped is ignored.
            animator.finishAnimation(at: .end)
            #expect(animator.state == .active && positions.isEmpty)
            animator.stopAnimation(false)
            #expect(animator.state == .stopped && !animator.isRunning)
            // Apple: the properties keep their current values.
            #expect(isClose(view.center, CGPoint(x: 100, y: 50), 1e-9) && view.layer.animationKeys() == nil)
            animator.startAnimation()
            #expect(animator.state == .stopped)
            animator.finishAnimation(at: .start)
            #expect(animator.state == .inactive && positions == [.start] && view.center == CGPoint(x: 50, y: 50))
            _ = window
        }

        @Test func stopWithFinishingSkipsTheCompletions() throws {
            let (window, view) = scene(at: 80)
            var positions: [UIViewAnimatingPosition] = []
            let animator = UIViewPropertyAnimator(duration: 2, curve: .linear) { view.alpha = 0 }
            animator.addCompletion { positions.append($0) }
            animator.startAnimation()
            UIClockSuite.advance(to: 80.5)
            animator.stopAnimation(true)
            #expect(animator.state == .inactive && isClose(CGPoint(x: view.alpha, y: 0), CGPoint(x: 0.75, y: 0), 1e-6))
            UIClockSuite.advance(to: 83)
            #expect(positions.isEmpty)
            _ = window
        }

        @Test func pausesOnCompletionStaysActive() throws {
            let (window, view) = scene(at: 90)
            var positions: [UIViewAnimatingPosition] = []
            let animator = UIViewPropertyAnimator(duration: 1, curve: .linear) { view.center = CGPoint(x: 150, y: 50) }
            animator.pausesOnCompletion = true
            animator.addCompletion { positions.append($0) }
            animator.startAnimation()
            UIClockSuite.advance(to: 91.1)
            #expect(animator.state == .active && !animator.isRunning && animator.fractionComplete == 1 && positions.isEmpty)
            #expect(try x(view) == 150)
            animator.isReversed = true
            animator.startAnimation()
            UIClockSuite.advance(to: 91.6)
            #expect(isClose(CGPoint(x: try x(view), y: 0), CGPoint(x: 100, y: 0), 1e-6))
            _ = window
        }

        @Test func delayFactorDelaysBlocksWithinTheDuration() throws {
            let (window, view) = scene(at: 100)
            let animator = UIViewPropertyAnimator(duration: 2, curve: .linear)
            animator.addAnimations { view.center = CGPoint(x: 150, y: 50) }
            animator.addAnimations({ view.alpha = 0 }, delayFactor: 0.5)
            animator.startAnimation()
            UIClockSuite.advance(to: 100.5)
            #expect(try #require(view.layer.presentation()).opacity == 1)
            UIClockSuite.advance(to: 101.5)
            // The delayed block runs from τ = 1 to 2: half way at τ = 1.5.
            #expect(isClose(CGPoint(x: CGFloat(try #require(view.layer.presentation()).opacity), y: try x(view)),
                            CGPoint(x: 0.5, y: 125), 1e-6))
            _ = window
        }

        @Test func continueWithADurationFactor() throws {
            let (window, view) = scene(at: 110)
            let animator = UIViewPropertyAnimator(duration: 1, curve: .linear) { view.center = CGPoint(x: 150, y: 50) }
            animator.fractionComplete = 0.5
            // The whole animation now lasts 2 s: the remaining half takes 1 s.
            animator.continueAnimation(withTimingParameters: nil, durationFactor: 2)
            #expect(animator.isRunning)
            UIClockSuite.advance(to: 110.5)
            #expect(isClose(CGPoint(x: try x(view), y: animator.fractionComplete), CGPoint(x: 125, y: 0.75), 1e-6))
            _ = window
        }

        @Test func aNewDurationKeepsDelayedBlocksInTheirPlace() throws {
            let (window, view) = scene(at: 115)
            let animator = UIViewPropertyAnimator(duration: 2, curve: .linear)
            animator.addAnimations({ view.alpha = 0 }, delayFactor: 0.5)
            animator.fractionComplete = 0.25
            // 4 s in all now: the block runs over the second half, τ = 2 … 4.
            animator.continueAnimation(withTimingParameters: nil, durationFactor: 2)
            UIClockSuite.advance(to: 116)
            #expect(try #require(view.layer.presentation()).opacity == 1)
            UIClockSuite.advance(to: 117)
            #expect(isClose(CGPoint(x: CGFloat(try #require(view.layer.presentation()).opacity), y: 0), CGPoint(x: 0.5, y: 0), 1e-6))
            _ = window
        }

        @Test func finishingLeavesAnotherBlocksAnimationAlone() throws {
            let (window, view) = scene(at: 118)
            let animator = UIViewPropertyAnimator(duration: 1, curve: .linear) { view.alpha = 0.5 }
            animator.startAnimation()
            UIClockSuite.advance(to: 118.5)
            UIView.animate(withDuration: 2) { view.alpha = 0 }
            UIClockSuite.advance(to: 119.1)
            #expect(animator.state == .inactive)
            // The block's animation replaced the animator's under "opacity": it keeps running, and
            // its model value stays.
            #expect(view.layer.animation(forKey: "opacity")?.duration == 2 && view.alpha == 0)
            _ = window
        }

        @Test func runningPropertyAnimatorWaitsForItsDelay() throws {
            let (window, view) = scene(at: 120)
            var positions: [UIViewAnimatingPosition] = []
            let animator = UIViewPropertyAnimator.runningPropertyAnimator(withDuration: 1, delay: 0.5, options: .curveLinear,
                                                                          animations: { view.center = CGPoint(x: 150, y: 50) },
                                                                          completion: { positions.append($0) })
            #expect(animator.state == .active && animator.isRunning && animator.delay == 0.5)
            #expect(!animator.isUserInteractionEnabled)
            UIClockSuite.advance(to: 120.25)
            #expect(try x(view) == 50 && animator.fractionComplete == 0)
            UIClockSuite.advance(to: 121)
            #expect(isClose(CGPoint(x: try x(view), y: 0), CGPoint(x: 100, y: 0), 1e-6))
            UIClockSuite.advance(to: 121.51)
            #expect(positions == [.end])
            _ = window
        }

        @Test func nonInteractiveAnimatorHoldsTouchesUntilItEnds() throws {
            let (window, view) = scene(at: 130)
            let animator = UIViewPropertyAnimator(duration: 1, curve: .linear) { view.alpha = 0.5 }
            animator.isUserInteractionEnabled = false
            animator.startAnimation()
            #expect(window.hitTest(CGPoint(x: 50, y: 50), with: nil) !== view)
            // Apple raises when it is changed on an active animator: ignored.
            animator.isUserInteractionEnabled = true
            #expect(!animator.isUserInteractionEnabled)
            UIClockSuite.advance(to: 131.1)
            #expect(animator.state == .inactive && window.hitTest(CGPoint(x: 50, y: 50), with: nil) === view)
        }
    }
}
