import Testing
import QuartzCore

/// Additive, cumulative, value functions, copying, transitions, completion blocks and the
/// display link, against Apple's documented semantics.
extension MediaClockSuite {
    @Suite struct AnimationOptionsTests {
        static func run(_ anim: CAAnimation, on layer: CALayer = CALayer(), at start: CFTimeInterval = 0) -> CALayer {
            CAMediaClock.setManualTime(start)
            CATransaction.flush()
            layer.add(anim, forKey: "a")
            CATransaction.flush()
            return layer
        }

        @Test func additiveAddsToTheModelValue() {
            let layer = CALayer()
            layer.position = CGPoint(x: 100, y: 0)
            let shake = CABasicAnimation(keyPath: "position.x")
            shake.fromValue = 0; shake.toValue = 10; shake.duration = 1
            shake.isAdditive = true
            _ = Self.run(shake, on: layer)
            CAMediaClock.setManualTime(0.5)
            #expect(layer.presentation()!.position.x == 105)
        }

        @Test func cumulativeRepeatsContinue() {
            // Apple: each repeat starts where the previous one ended.
            let a = CABasicAnimation(keyPath: "position.x")
            a.fromValue = 0; a.toValue = 10; a.duration = 1; a.repeatCount = 3
            a.isCumulative = true
            let layer = Self.run(a)
            CAMediaClock.setManualTime(2.5)
            #expect(abs(layer.presentation()!.position.x - 25) < 1e-9)
        }

        @Test func valueFunctionRotatesAboutZ() {
            let a = CABasicAnimation(keyPath: "transform")
            a.valueFunction = CAValueFunction(name: .rotateZ)
            a.fromValue = 0; a.toValue = CGFloat.pi; a.duration = 1
            let layer = Self.run(a)
            CAMediaClock.setManualTime(0.5)
            let t = layer.presentation()!.transform
            #expect(abs(t.m11) < 1e-12 && abs(t.m12 - 1) < 1e-12)   // rotation by π/2
            #expect(CAValueFunction(name: CAValueFunctionName(rawValue: "bogus")) == nil)
        }

        @Test func addingCopiesTheAnimation() {
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = 0; a.toValue = 1; a.duration = 1
            let layer = Self.run(a)
            a.duration = 100   // changing the original afterwards has no effect (Apple)
            #expect(layer.animation(forKey: "a")?.duration == 1)
            #expect(layer.animation(forKey: "a") !== a)
        }

        @Test func transitionProgressIsMappedToItsRange() {
            let t = CATransition()
            t.type = .push; t.subtype = .fromRight
            t.startProgress = 0.2; t.endProgress = 0.6; t.duration = 1
            #expect(t.type.rawValue == "push" && t.subtype?.rawValue == "fromRight")
            let layer = Self.run(t, at: 10)
            // Apple: transitions are always stored under kCATransition, whatever key is given.
            #expect(layer.animationKeys() == [kCATransition])
            let added = layer.animation(forKey: kCATransition) as! CATransition
            #expect(abs(added._progress(at: 10.5)! - 0.4) < 1e-6)
        }

        /// The transition starts from the picture last presented: the model change made in the
        /// same event (the seeds' image swap) is what it transitions to.
        @Test func transitionRemembersTheLastPresentedLayer() {
            CAMediaClock.setManualTime(20)
            let layer = CALayer()
            let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            layer.backgroundColor = red
            CATransaction.flush()
            _ = layer.presentation()          // a frame shows red
            CATransaction.begin()
            CATransaction.setDisableActions(true)   // as for a view's layer: no implicit fade
            layer.backgroundColor = blue
            let t = CATransition()
            t.type = .fade; t.duration = 2
            layer.add(t, forKey: nil)
            CATransaction.commit()
            let running = layer._transition(atMediaTime: 20.5)
            #expect(running?.progress == 0.25)
            #expect(running?.transition._sourceLayer?.backgroundColor == red)
            #expect(layer.presentation()?.backgroundColor == blue)
            #expect(layer._transition(atMediaTime: 22.5) == nil)
        }

        @Test func completionBlockRunsWhenTheAnimationsFinish() {
            final class Box: @unchecked Sendable { var fired = 0 }
            let box = Box()
            CAMediaClock.setManualTime(0)
            let layer = CALayer()
            CATransaction.flush()
            CATransaction.begin()
            CATransaction.setCompletionBlock { box.fired += 1 }
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = 0; a.toValue = 1; a.duration = 2
            layer.add(a, forKey: "fade")
            CATransaction.commit()
            #expect(box.fired == 0)
            CAMediaClock.setManualTime(1)
            CATransaction.flush()
            #expect(box.fired == 0)
            CAMediaClock.setManualTime(2.5)
            CATransaction.flush()
            #expect(box.fired == 1)
            // A transaction without animations completes at its commit.
            CATransaction.begin()
            CATransaction.setCompletionBlock { box.fired += 10 }
            CATransaction.commit()
            #expect(box.fired == 11)
        }

        @Test func displayLinkTicksWithTheMediaClock() {
            final class Ticks: @unchecked Sendable { var stamps: [CFTimeInterval] = [] }
            let ticks = Ticks()
            CAMediaClock.setManualTime(1)
            let link = CADisplayLink { ticks.stamps.append($0.timestamp) }
            link.preferredFrameRateRange = CAFrameRateRange(minimum: 30, maximum: 30, preferred: 30)
            link.add(to: .main, forMode: .common)
            CADisplayLink.pump()                       // starts the link's frame grid
            CAMediaClock.setManualTime(1.1)
            CADisplayLink.pump()                       // frames at 1 + k/30 up to 1.1: k = 1, 2, 3
            #expect(ticks.stamps.count == 3)
            #expect(abs(ticks.stamps.last! - 1.1) < 1e-9)
            #expect(abs(link.targetTimestamp - (1.1 + 1.0 / 30)) < 1e-9)
            link.isPaused = true
            CAMediaClock.setManualTime(1.2)
            CADisplayLink.pump()
            #expect(ticks.stamps.count == 3)
            link.invalidate()
            #expect(link.duration == 1.0 / 60)
        }
    }
}
