import Foundation
import Testing
import UIKit

/// UIView.animateKeyframes: one CAKeyframeAnimation per changed property, its values placed at
/// the keyframes' relative times (Apple's addKeyframe documentation: start time and duration are
/// fractions of the block's duration), Apple's raw option values, and the calculation modes
/// mapped onto CAKeyframeAnimation's.
extension UIClockSuite {
    @Suite struct KeyframeAnimationTests {
        func scene(at t: CFTimeInterval) -> (UIWindow, UIView) {
            let window = UIClockSuite.makeWindow(at: t)
            let view = UIView(frame: CGRect(x: 30, y: 30, width: 40, height: 40))
            window.addSubview(view)
            UIClockSuite.advance(to: t)
            return (window, view)
        }

        let linear = UIView.KeyframeAnimationOptions(rawValue: UIView.AnimationOptions.curveLinear.rawValue)

        @Test func keyframesPlaceValuesAtTheirRelativeTimes() throws {
            let (window, view) = scene(at: 10)
            var finished: [Bool] = []
            UIView.animateKeyframes(withDuration: 2, delay: 0, options: linear, animations: {
                UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.25) { view.center.x = 100 }
                UIView.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { view.center.x = 200 }
                view.alpha = 0
                #expect(UIView.inheritedAnimationDuration == 2)
            }, completion: { finished.append($0) })
            UIClockSuite.advance(to: 10)  // committed: the animations begin now
            #expect(view.center == CGPoint(x: 200, y: 50) && view.alpha == 0)
            let position = try #require(view.layer.animation(forKey: "position") as? CAKeyframeAnimation)
            #expect(position.keyTimes?.map(\.doubleValue) == [0, 0.25, 0.5, 1] && position.duration == 2)
            #expect((position.values as? [CGPoint])?.map(\.x) == [50, 100, 100, 200])
            #expect(position.calculationMode == .linear && position.timingFunction == CAMediaTimingFunction(name: .linear))
            // A change outside any keyframe spans the whole block.
            let opacity = try #require(view.layer.animation(forKey: "opacity") as? CAKeyframeAnimation)
            #expect(opacity.keyTimes?.map(\.doubleValue) == [0, 1])
            for (t, x) in [(10.25, 75.0), (10.75, 100.0), (11.5, 150.0)] {
                UIClockSuite.advance(to: t)
                #expect(isClose(try #require(view.layer.presentation()).position, CGPoint(x: x, y: 50), 1e-6), "at \(t)")
            }
            UIClockSuite.advance(to: 12.01)
            #expect(finished == [true] && view.layer.animationKeys() == nil)
            _ = window
        }

        @Test func theTimelineEasesInAndOutByDefault() throws {
            let (window, view) = scene(at: 20)
            UIView.animateKeyframes(withDuration: 1, delay: 0.5, animations: {
                UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) { view.alpha = 0.5 }
            })
            let animation = try #require(view.layer.animation(forKey: "opacity"))
            #expect(animation.timingFunction == CAMediaTimingFunction(name: .easeInEaseOut))
            #expect(animation.beginTime == 20.5 && animation.fillMode == .backwards)
            _ = window
        }

        @Test func optionsHaveApplesRawValuesAndModes() throws {
            // Apple's UIViewKeyframeAnimationOptions: bits 0–9 as UIViewAnimationOptions, modes in 10–12.
            #expect(UIView.KeyframeAnimationOptions.allowUserInteraction.rawValue == 2)
            #expect(UIView.KeyframeAnimationOptions.overrideInheritedOptions.rawValue == 512)
            #expect(UIView.KeyframeAnimationOptions.calculationModeDiscrete.rawValue == 1024)
            #expect(UIView.KeyframeAnimationOptions.calculationModeCubicPaced.rawValue == 4096)
            let (window, view) = scene(at: 30)
            let modes: [(UIView.KeyframeAnimationOptions, CAAnimationCalculationMode)] = [
                (.calculationModeLinear, .linear), (.calculationModeDiscrete, .discrete), (.calculationModePaced, .paced),
                (.calculationModeCubic, .cubic), (.calculationModeCubicPaced, .cubicPaced),
            ]
            for (option, mode) in modes {
                UIView.animateKeyframes(withDuration: 1, delay: 0, options: [option, .repeat, .autoreverse], animations: {
                    view.alpha = view.alpha == 1 ? 0.5 : 1
                })
                let animation = try #require(view.layer.animation(forKey: "opacity") as? CAKeyframeAnimation)
                #expect(animation.calculationMode == mode && animation.repeatCount == .infinity && animation.autoreverses)
            }
            _ = window
        }

        @Test func zeroDurationChangesAtOnce() {
            let (window, view) = scene(at: 40)
            var finished: [Bool] = []
            UIView.animateKeyframes(withDuration: 0, delay: 0, animations: {
                UIView.addKeyframe(withRelativeStartTime: 0.2, relativeDuration: 0.3) { view.alpha = 0.25 }
            }, completion: { finished.append($0) })
            #expect(view.alpha == 0.25 && view.layer.animationKeys() == nil)
            UIClockSuite.advance(to: 40.1)
            #expect(finished == [true])
            _ = window
        }
    }
}
