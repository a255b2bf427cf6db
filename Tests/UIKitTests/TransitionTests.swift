import Testing
import UIKit

/// UIView transitions: the CATransition type and subtype for each option (the mapping of the
/// seed tutorial's list of transition types: flips are "oglFlip", curls "pageCurl" /
/// "pageUnCurl", cross dissolve is a fade), the duration, and the swap of views with the
/// completion at the end.
extension UIClockSuite {
    @Suite struct TransitionTests {
        @Test(arguments: [
            (UIView.AnimationOptions.transitionFlipFromLeft, "oglFlip", "fromLeft"),
            (.transitionFlipFromRight, "oglFlip", "fromRight"),
            (.transitionFlipFromTop, "oglFlip", "fromTop"),
            (.transitionFlipFromBottom, "oglFlip", "fromBottom"),
            (.transitionCurlUp, "pageCurl", nil),
            (.transitionCurlDown, "pageUnCurl", nil),
            (.transitionCrossDissolve, "fade", nil),
        ] as [(UIView.AnimationOptions, String, String?)])
        func transitionWithViewAddsTheTransition(option: UIView.AnimationOptions, type: String, subtype: String?) throws {
            let window = UIClockSuite.makeWindow(at: 0)
            let container = UIImageView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            window.addSubview(container)
            UIClockSuite.advance(to: 0)
            UIView.transition(with: container, duration: 0.7, options: option, animations: {
                container.backgroundColor = .red
            })
            let transition = try #require(container.layer.animation(forKey: kCATransition) as? CATransition)
            #expect(transition.type.rawValue == type && transition.subtype?.rawValue == subtype)
            #expect(transition.duration == 0.7)
            // Without .allowAnimatedContent the change shows only through the transition.
            #expect(container.layer.animation(forKey: "backgroundColor") == nil)
        }

        @Test func transitionCompletesWhenItEnds() throws {
            let window = UIClockSuite.makeWindow(at: 10)
            let container = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            let child = UIView(frame: CGRect(x: 10, y: 10, width: 10, height: 10))
            window.addSubview(container)
            UIClockSuite.advance(to: 10)
            var finished: [Bool] = []
            UIView.transition(with: container, duration: 1, options: [.transitionCurlUp, .curveLinear], animations: {
                container.addSubview(child)
            }, completion: { finished.append($0) })
            UIClockSuite.advance(to: 10)
            #expect(child.superview === container)
            #expect(container.layer.animation(forKey: kCATransition)?.timingFunction == CAMediaTimingFunction(name: .linear))
            UIClockSuite.advance(to: 10.9)
            #expect(finished.isEmpty)
            UIClockSuite.advance(to: 11.05)
            #expect(finished == [true])
            // With .allowAnimatedContent the block's changes animate too.
            UIView.transition(with: container, duration: 1, options: [.transitionCrossDissolve, .allowAnimatedContent],
                              animations: { child.alpha = 0 })
            #expect(child.layer.animation(forKey: "opacity")?.duration == 1)
        }

        @Test func transitionFromViewToViewSwapsThemAndCompletesAtTheEnd() throws {
            let window = UIClockSuite.makeWindow(at: 20)
            let container = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
            let below = UIView(), old = UIView(), above = UIView()
            let new = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
            window.addSubview(container)
            for v in [below, old, above] { container.addSubview(v) }
            UIClockSuite.advance(to: 20)
            var finished: [Bool] = []
            UIView.transition(from: old, to: new, duration: 0.5, options: .transitionFlipFromRight,
                              completion: { finished.append($0) })
            UIClockSuite.advance(to: 20)
            let transition = try #require(container.layer.animation(forKey: kCATransition) as? CATransition)
            #expect(transition.type.rawValue == "oglFlip" && transition.subtype == .fromRight && transition.duration == 0.5)
            // The new view takes the old one's place; the old one is out of the hierarchy.
            #expect(container.subviews.map(ObjectIdentifier.init) == [below, new, above].map(ObjectIdentifier.init))
            #expect(old.superview == nil && old.layer.superlayer == nil)
            UIClockSuite.advance(to: 20.4)
            #expect(finished.isEmpty)
            UIClockSuite.advance(to: 20.55)
            #expect(finished == [true])
            #expect(container.layer.animation(forKey: kCATransition) == nil)
            #expect(new.superview === container && old.superview == nil)
            // showHideTransitionViews: both stay, the old one hidden.
            container.addSubview(old)
            old.isHidden = true
            UIView.transition(from: new, to: old, duration: 0.5, options: [.transitionCrossDissolve, .showHideTransitionViews])
            #expect(new.superview === container && new.isHidden && !old.isHidden)
        }
    }
}
