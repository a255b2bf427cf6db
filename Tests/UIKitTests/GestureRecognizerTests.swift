import Scene
import Testing
import UIKit

/// Pan, tap and swipe recognizers fed by scripted drags and taps. Expected values: the drag's
/// own geometry (a pan's translation is the displacement since the touch went down, its velocity
/// the displacement per second of a uniform drag), Apple's state sequences (continuous:
/// began, changed…, ended; discrete: recognized = ended), and `cancelsTouchesInView`.
extension UIClockSuite {
    @Suite struct GestureRecognizerTests {
        @Test func panTranslationEqualsTheDragsDisplacement() {
            let window = UIClockSuite.makeWindow()
            let view = UIClockSuite.RecordingView(frame: CGRect(x: 50, y: 50, width: 200, height: 200))
            window.addSubview(view)
            var states: [UIGestureRecognizer.State] = []
            var translations: [CGPoint] = []
            var endVelocity = CGPoint.zero
            let pan = UIPanGestureRecognizer { pan in
                states.append(pan.state)
                translations.append(pan.translation(in: view))
                if pan.state == .ended { endVelocity = pan.velocity(in: view) }
            }
            view.addGestureRecognizer(pan)
            #expect(pan.view === view && view.gestureRecognizers?.count == 1)
            // 120 points right and 60 down in 0.6 s, in 12 even steps.
            SceneScript([.drag(from: CGPoint(x: 100, y: 100), to: CGPoint(x: 220, y: 160), at: 0.1, duration: 0.6, steps: 12)])
                .play(through: 0.8)
            #expect(states.first == .began && states.last == .ended)
            #expect(states.dropFirst().dropLast().allSatisfy { $0 == .changed })
            #expect(isClose(translations.last ?? .zero, CGPoint(x: 120, y: 60), 1e-9))
            // The pan began at the first move past 10 points: 10 × √(1.25) ≈ 11.2.
            #expect(isClose(translations.first ?? .zero, CGPoint(x: 10, y: 5), 1e-9))
            #expect(isClose(endVelocity, CGPoint(x: 200, y: 100), 1e-6))
            // Recognition cancelled the view's touches: it saw the beginning, then a cancel.
            #expect(view.phases == ["began", "cancelled"])
            // Reset to .possible by the next run-loop turn.
            #expect(pan.state == .possible)
        }

        /// A window that goes away while a finger is down takes its recognizers with it: the
        /// recognizer keeps its touch, and the touch must not keep the recognizer (as an export
        /// ending mid-drag left one, by valgrind memcheck).
        @Test func aWindowGoneMidDragFreesItsRecognizer() {
            weak var recognizer: UIPanGestureRecognizer?
            weak var touch: UITouch?
            do {
                let window = UIClockSuite.makeWindow()
                let view = TouchKeepingView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
                window.addSubview(view)
                let pan = UIPanGestureRecognizer { _ in }
                view.addGestureRecognizer(pan)
                recognizer = pan
                // Still down at 0.5 s: the drag lasts a second.
                SceneScript([.drag(from: CGPoint(x: 20, y: 20), to: CGPoint(x: 180, y: 20), at: 0, duration: 1, steps: 20)])
                    .play(in: window, through: 0.5)
                touch = view.touch
                #expect(pan.state == .changed)
                #expect(touch?.gestureRecognizers?.first === pan)
                window.isHidden = true
            }
            #expect(recognizer == nil)
            #expect(touch == nil)
        }

        /// Keeps (weakly) the touch that began in it.
        final class TouchKeepingView: UIView {
            weak var touch: UITouch?
            override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { touch = touches.first }
        }

        @Test func setTranslationMovesTheOrigin() {
            let window = UIClockSuite.makeWindow()
            let bubble = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
            window.addSubview(bubble)
            // The seed's sticky bubble: move the view by the translation, then reset it to zero.
            bubble.addGestureRecognizer(UIPanGestureRecognizer { pan in
                let t = pan.translation(in: bubble)
                bubble.center = CGPoint(x: bubble.center.x + t.x, y: bubble.center.y + t.y)
                pan.setTranslation(.zero, in: bubble)
            })
            SceneScript([.drag(from: CGPoint(x: 20, y: 20), to: CGPoint(x: 120, y: 70), at: 0, duration: 0.5, steps: 5)])
                .play(through: 0.6)
            // The view followed the finger by the whole displacement (100, 50).
            #expect(isClose(bubble.center, CGPoint(x: 120, y: 70), 1e-9))
        }

        @Test func tapIsRecognizedOnceAndNotByADrag() {
            let window = UIClockSuite.makeWindow()
            let view = UIClockSuite.RecordingView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            window.addSubview(view)
            var taps: [(UIGestureRecognizer.State, CGPoint)] = []
            let tap = UITapGestureRecognizer { t in taps.append((t.state, t.location(in: view))) }
            view.addGestureRecognizer(tap)
            SceneScript([.tap(CGPoint(x: 30, y: 40), at: 0.1)]).play(through: 0.2)
            #expect(taps.map(\.0) == [.ended] && taps.first?.1 == CGPoint(x: 30, y: 40))
            #expect(view.phases == ["began", "cancelled"])
            // A drag of 50 points is not a tap.
            SceneScript([.drag(from: CGPoint(x: 10, y: 10), to: CGPoint(x: 60, y: 10), at: 0.5, duration: 0.2, steps: 5)])
                .play(from: 0.5, through: 0.8)
            #expect(taps.count == 1)
            #expect(view.phases.suffix(3) == ["moved", "moved", "ended"])
        }

        @Test func doubleTapNeedsTwoQuickTaps() {
            let window = UIClockSuite.makeWindow()
            let view = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            window.addSubview(view)
            var recognized = 0
            let doubleTap = UITapGestureRecognizer { _ in recognized += 1 }
            doubleTap.numberOfTapsRequired = 2
            view.addGestureRecognizer(doubleTap)
            SceneScript([.tap(CGPoint(x: 50, y: 50), at: 0.1), .tap(CGPoint(x: 52, y: 50), at: 0.3)]).play(through: 0.5)
            #expect(recognized == 1)
            // 0.6 s apart is too slow (more than 0.35 s between taps).
            SceneScript([.tap(CGPoint(x: 50, y: 50), at: 1), .tap(CGPoint(x: 50, y: 50), at: 1.65)]).play(from: 1, through: 2)
            #expect(recognized == 1)
        }

        @Test func swipeRecognizesItsDirectionOnly() {
            let window = UIClockSuite.makeWindow()
            let view = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
            window.addSubview(view)
            var seen: [String] = []
            let left = UISwipeGestureRecognizer { s in seen.append("left \(s.state.rawValue)") }
            left.direction = .left
            let right = UISwipeGestureRecognizer { s in seen.append("right \(s.state.rawValue)") }
            right.direction = .right
            view.addGestureRecognizer(left)
            view.addGestureRecognizer(right)
            // 120 points left in 0.2 s: a left swipe (state ended = 3).
            SceneScript([.drag(from: CGPoint(x: 200, y: 200), to: CGPoint(x: 80, y: 210), at: 0.1, duration: 0.2, steps: 6)])
                .play(through: 0.4)
            #expect(seen == ["left 3"])
            // 120 points right, but over 2 s: too slow.
            SceneScript([.drag(from: CGPoint(x: 80, y: 200), to: CGPoint(x: 200, y: 200), at: 1, duration: 2, steps: 20)])
                .play(from: 1, through: 3.1)
            #expect(seen == ["left 3"])
            // Right, quickly.
            SceneScript([.drag(from: CGPoint(x: 80, y: 200), to: CGPoint(x: 200, y: 200), at: 4, duration: 0.15, steps: 3)])
                .play(from: 4, through: 4.3)
            #expect(seen == ["left 3", "right 3"])
            #expect(UISwipeGestureRecognizer.Direction.right.rawValue == 1 && UISwipeGestureRecognizer.Direction.down.rawValue == 8)
        }

        @Test func delegateAndEnabledGateRecognition() {
            let window = UIClockSuite.makeWindow()
            let view = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            window.addSubview(view)
            final class Refuse: UIGestureRecognizerDelegate {
                func gestureRecognizerShouldBegin(_ g: UIGestureRecognizer) -> Bool { false }
            }
            var count = 0
            let tap = UITapGestureRecognizer { _ in count += 1 }
            let refuse = Refuse()
            tap.delegate = refuse
            view.addGestureRecognizer(tap)
            SceneScript([.tap(CGPoint(x: 10, y: 10), at: 0.1)]).play(through: 0.2)
            #expect(count == 0)
            tap.delegate = nil
            tap.isEnabled = false
            SceneScript([.tap(CGPoint(x: 10, y: 10), at: 0.5)]).play(from: 0.5, through: 0.6)
            #expect(count == 0)
            tap.isEnabled = true
            SceneScript([.tap(CGPoint(x: 10, y: 10), at: 1)]).play(from: 1, through: 1.1)
            #expect(count == 1)
        }
    }
}
