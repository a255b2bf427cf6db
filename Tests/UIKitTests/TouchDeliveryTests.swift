import Scene
import Testing
import UIKit

/// Hit testing (Apple's `hitTest(_:with:)` documentation) and touch delivery from scripted
/// pointer events through `UIApplication.sendPointerEvent` (`SceneScript`).
extension UIClockSuite {
    @Suite struct TouchDeliveryTests {
        @Test func hitTestFollowsApplesRules() {
            let window = UIClockSuite.makeWindow()
            let back = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            let front = UIView(frame: CGRect(x: 50, y: 50, width: 100, height: 100))
            let child = UIView(frame: CGRect(x: 80, y: 80, width: 50, height: 50))  // extends beyond `back`
            window.addSubview(back)
            window.addSubview(front)
            back.addSubview(child)
            #expect(window.hitTest(CGPoint(x: 10, y: 10), with: nil) === back)
            // Overlap: the later (front-most) sibling wins.
            #expect(window.hitTest(CGPoint(x: 60, y: 60), with: nil) === front)
            front.isHidden = true
            // Inside `child` and `back`: the deepest view.
            #expect(window.hitTest(CGPoint(x: 90, y: 90), with: nil) === child)
            // Outside the superview's bounds a subview is never hit, even where it extends.
            #expect(window.hitTest(CGPoint(x: 120, y: 120), with: nil) === window)
            // Disabled interaction, hidden or nearly transparent views are skipped with their subviews.
            back.isUserInteractionEnabled = false
            #expect(window.hitTest(CGPoint(x: 90, y: 90), with: nil) === window)
            back.isUserInteractionEnabled = true
            back.alpha = 0.005
            #expect(window.hitTest(CGPoint(x: 90, y: 90), with: nil) === window)
            back.alpha = 0.02
            #expect(window.hitTest(CGPoint(x: 90, y: 90), with: nil) === child)
            #expect(child.point(inside: CGPoint(x: 49, y: 0), with: nil) && !child.point(inside: CGPoint(x: 50, y: 0), with: nil))
        }

        @Test func dragDeliversBeganMovedEndedInTheViewsSpace() {
            let window = UIClockSuite.makeWindow()
            let container = UIView(frame: CGRect(x: 20, y: 40, width: 200, height: 200))
            let view = UIClockSuite.RecordingView(frame: CGRect(x: 30, y: 10, width: 100, height: 100))
            window.addSubview(container)
            container.addSubview(view)
            // Window points (60, 70) → (100, 110) in 4 steps; the view's origin is at (50, 50).
            let input = SceneScript([.drag(from: CGPoint(x: 60, y: 70), to: CGPoint(x: 100, y: 110), at: 0.1, duration: 0.2, steps: 4)])
            input.play(through: 0.4)
            #expect(view.phases == ["began", "moved", "moved", "moved", "moved", "ended"])
            let expected = [CGPoint(x: 10, y: 20), CGPoint(x: 20, y: 30), CGPoint(x: 30, y: 40), CGPoint(x: 40, y: 50),
                            CGPoint(x: 50, y: 60), CGPoint(x: 50, y: 60)]
            #expect(view.log.map(\.1) == expected)
        }

        @Test func unhandledTouchesGoUpTheResponderChain() {
            let window = UIClockSuite.makeWindow()
            let container = UIClockSuite.RecordingView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
            let plain = UIView(frame: CGRect(x: 100, y: 100, width: 50, height: 50))
            window.addSubview(container)
            container.addSubview(plain)
            SceneScript([.tap(CGPoint(x: 110, y: 120), at: 0.1)]).play(through: 0.2)
            // `plain` does not override the touch methods: UIResponder forwards to its superview.
            #expect(container.phases == ["began", "ended"])
            #expect(container.log[0].1 == CGPoint(x: 110, y: 120))
            // A view controller sits between its view and the view's superview.
            final class Controller: UIViewController {
                var began = 0
                override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { began += 1 }
            }
            let controller = Controller()
            container.addSubview(controller.view)
            controller.view.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
            #expect(controller.view.next === controller && controller.next === container)
            SceneScript([.tap(CGPoint(x: 10, y: 10), at: 0.5)]).play(from: 0.5, through: 0.6)
            // The controller handles touchesBegan; touchesEnded, not overridden, goes on up.
            #expect(controller.began == 1 && container.phases == ["began", "ended", "ended"])
        }

        @Test func touchPropertiesAndPreviousLocation() {
            let window = UIClockSuite.makeWindow()
            final class Probe: UIView {
                var seen: [(UITouch.Phase, CGPoint, CGPoint, TimeInterval, Bool)] = []
                func record(_ t: Set<UITouch>) {
                    let touch = t.first!
                    seen.append((touch.phase, touch.location(in: self), touch.previousLocation(in: self), touch.timestamp, touch.view === self))
                }
                override func touchesBegan(_ t: Set<UITouch>, with e: UIEvent?) { record(t) }
                override func touchesMoved(_ t: Set<UITouch>, with e: UIEvent?) { record(t) }
                override func touchesEnded(_ t: Set<UITouch>, with e: UIEvent?) { record(t) }
            }
            let probe = Probe(frame: CGRect(x: 10, y: 10, width: 100, height: 100))
            window.addSubview(probe)
            SceneScript([.down(CGPoint(x: 20, y: 20), at: 1), .move(to: CGPoint(x: 30, y: 25), at: 1.1), .up(at: 1.2)])
                .play(from: 1, through: 1.2)
            #expect(probe.seen.map(\.0) == [.began, .moved, .ended])
            #expect(probe.seen[1].1 == CGPoint(x: 20, y: 15) && probe.seen[1].2 == CGPoint(x: 10, y: 10))
            #expect(probe.seen.map(\.3) == [1, 1.1, 1.2] && probe.seen.allSatisfy(\.4))
        }

        @Test func pointerEventsEnterThroughOneMethod() {
            let window = UIClockSuite.makeWindow()
            let view = UIClockSuite.RecordingView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            window.addSubview(view)
            let app = UIApplication.shared
            app.sendPointerEvent(.moved, at: CGPoint(x: 10, y: 10), timestamp: 1)  // hovering: ignored
            app.sendPointerEvent(.began, at: CGPoint(x: 10, y: 10), timestamp: 1)
            // One pointer makes one touch: a second down cancels the first.
            app.sendPointerEvent(.began, at: CGPoint(x: 20, y: 20), timestamp: 1.1)
            app.sendPointerEvent(.ended, at: CGPoint(x: 20, y: 20), timestamp: 1.2)
            app.sendPointerEvent(.ended, at: CGPoint(x: 20, y: 20), timestamp: 1.3)  // no touch down: ignored
            #expect(view.phases == ["began", "cancelled", "began", "ended"])
            // Outside every window's bounds nothing is hit.
            app.sendPointerEvent(.began, at: CGPoint(x: 1000, y: 10), timestamp: 2)
            app.sendPointerEvent(.ended, at: CGPoint(x: 1000, y: 10), timestamp: 2.1)
            #expect(view.phases.count == 4)
        }
    }
}
