import Foundation
import Scene
import Testing
import UIKit

/// Long press, pinch, rotation, screen-edge pan and two-finger input from scripted touches.
/// Expected values: Apple's documented defaults (0.5 s, 10 points, 1 touch, 0 taps), the scripted
/// two-finger drags' own geometry (a pinch from 100 to 200 points apart has scale 2; a turn of the
/// line between the fingers by π/2 is a rotation of π/2; even steps give a constant velocity),
/// and the frame grid the script is played on (60 frames per second).
extension UIClockSuite {
    @Suite struct MultiTouchGestureTests {
        @Test func longPressDefaultsAreApples() {
            let press = UILongPressGestureRecognizer()
            #expect(press.minimumPressDuration == 0.5 && press.allowableMovement == 10)
            #expect(press.numberOfTouchesRequired == 1 && press.numberOfTapsRequired == 0)
            #expect(UIScreenEdgePanGestureRecognizer().edges == [])
            #expect(UIPinchGestureRecognizer().scale == 1 && UIRotationGestureRecognizer().rotation == 0)
        }

        @Test func longPressBeginsAfterTheMinimumDuration() {
            let window = UIClockSuite.makeWindow()
            let view = UIClockSuite.RecordingView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
            window.addSubview(view)
            var events: [(UIGestureRecognizer.State, CFTimeInterval)] = []
            view.addGestureRecognizer(UILongPressGestureRecognizer { r in events.append((r.state, CACurrentMediaTime())) })
            // Down at 0.1 s, a 4-point wobble, up at 1 s: it begins at the first frame at or after 0.6 s.
            SceneScript([.down(CGPoint(x: 50, y: 50), at: 0.1), .move(to: CGPoint(x: 54, y: 50), at: 0.3),
                         .move(to: CGPoint(x: 58, y: 50), at: 0.8), .up(at: 1)]).play(through: 1.1)
            #expect(events.map(\.0) == [.began, .changed, .ended])
            #expect(abs((events.first?.1 ?? 0) - 0.6) < 1e-9)
            #expect(view.phases == ["began", "moved", "cancelled"])
        }

        @Test func longPressFailsWhenShortOrMoved() {
            let window = UIClockSuite.makeWindow()
            let view = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
            window.addSubview(view)
            var states: [UIGestureRecognizer.State] = []
            view.addGestureRecognizer(UILongPressGestureRecognizer { r in states.append(r.state) })
            SceneScript([.tap(CGPoint(x: 50, y: 50), at: 0.1, duration: 0.4)]).play(through: 1)
            SceneScript([.down(CGPoint(x: 50, y: 50), at: 1.1), .move(to: CGPoint(x: 50, y: 62), at: 1.3), .up(at: 2)])
                .play(from: 1, through: 2.2)
            #expect(states.isEmpty)
        }

        @Test func pinchScaleIsTheDistanceRatio() {
            let window = UIClockSuite.makeWindow()
            let view = UIView(frame: window.bounds)
            window.addSubview(view)
            var states: [UIGestureRecognizer.State] = []
            var scale: CGFloat = 0, velocity: CGFloat = 0
            view.addGestureRecognizer(UIPinchGestureRecognizer { p in
                states.append(p.state)
                scale = p.scale
                if p.state == .changed { velocity = p.velocity }
            })
            // 100 points apart to 200 apart in 0.5 s, 10 steps: the scale grows by 0.1 per 0.05 s.
            SceneScript([.twoFingerDrag(from: CGPoint(x: 100, y: 200), CGPoint(x: 200, y: 200),
                                        to: CGPoint(x: 50, y: 200), CGPoint(x: 250, y: 200), at: 0.1, duration: 0.5)])
                .play(through: 0.7)
            #expect(states.first == .began && states.last == .ended)
            #expect(abs(scale - 2) < 1e-9)
            #expect(abs(velocity - 2) < 1e-6)
        }

        @Test func settingTheScaleMeasuresFromThere() {
            let window = UIClockSuite.makeWindow()
            let view = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            view.center = CGPoint(x: 150, y: 200)
            window.addSubview(view)
            // The usual handler: scale the view by each change, then reset the scale to 1.
            view.addGestureRecognizer(UIPinchGestureRecognizer { [weak view] p in
                guard let view else { return }
                view.transform = view.transform.scaledBy(x: p.scale, y: p.scale)
                p.scale = 1
            })
            SceneScript([.twoFingerDrag(from: CGPoint(x: 120, y: 200), CGPoint(x: 180, y: 200),
                                        to: CGPoint(x: 60, y: 200), CGPoint(x: 240, y: 200), at: 0.1, duration: 0.5)])
                .play(through: 0.7)
            // 60 apart to 180 apart: the changes' factors telescope (from .began, whose scale
            // already counts from 60) to 180/60 = 3.
            #expect(abs(view.transform.a - 3) < 1e-9)
        }

        @Test func rotationIsTheTurnOfTheLineBetweenTheFingers() {
            let window = UIClockSuite.makeWindow()
            let view = UIView(frame: window.bounds)
            window.addSubview(view)
            var states: [UIGestureRecognizer.State] = []
            var rotation: CGFloat = 0, velocity: CGFloat = 0
            view.addGestureRecognizer(UIRotationGestureRecognizer { r in
                states.append(r.state)
                rotation = r.rotation
                if r.state == .changed { velocity = r.velocity }
            })
            // The line from finger 0 to finger 1 turns from 0 to π/2 (clockwise on screen) in 0.5 s.
            SceneScript([.twoFingerDrag(from: CGPoint(x: 100, y: 200), CGPoint(x: 200, y: 200),
                                        to: CGPoint(x: 150, y: 150), CGPoint(x: 150, y: 250), at: 0.1, duration: 0.5)])
                .play(through: 0.7)
            #expect(states.first == .began && states.last == .ended)
            #expect(abs(rotation - .pi / 2) < 1e-9)
            #expect(abs(velocity - .pi) < 1e-6)
        }

        @Test func twoFingerPanFollowsTheCentroid() {
            let window = UIClockSuite.makeWindow()
            let view = UIView(frame: window.bounds)
            window.addSubview(view)
            var translation = CGPoint.zero, touches = 0
            let pan = UIPanGestureRecognizer { p in
                translation = p.translation(in: nil)
                touches = max(touches, p.numberOfTouches)
            }
            view.addGestureRecognizer(pan)
            SceneScript([.twoFingerDrag(from: CGPoint(x: 100, y: 100), CGPoint(x: 140, y: 100),
                                        to: CGPoint(x: 160, y: 150), CGPoint(x: 200, y: 150), at: 0.1, duration: 0.5)])
                .play(through: 0.7)
            #expect(touches == 2)
            #expect(isClose(translation, CGPoint(x: 60, y: 50), 1e-9))
        }

        @Test func eventsCarryEveryTouchDown() {
            final class Counting: UIView {
                var most = 0
                override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
                    most = max(most, event?.allTouches?.count ?? 0)
                }
            }
            let window = UIClockSuite.makeWindow()
            let view = Counting(frame: window.bounds)
            window.addSubview(view)
            SceneScript([.twoFingerDrag(from: CGPoint(x: 100, y: 100), CGPoint(x: 200, y: 100),
                                        to: CGPoint(x: 100, y: 120), CGPoint(x: 200, y: 120), at: 0.1, duration: 0.2, steps: 2)])
                .play(through: 0.4)
            #expect(view.most == 2)
        }

        @Test func screenEdgePanStartsOnlyAtItsEdges() {
            let window = UIClockSuite.makeWindow()
            let view = UIView(frame: window.bounds)
            window.addSubview(view)
            var began = 0
            let edge = UIScreenEdgePanGestureRecognizer { e in if e.state == .began { began += 1 } }
            edge.edges = .left
            view.addGestureRecognizer(edge)
            SceneScript([.drag(from: CGPoint(x: 5, y: 200), to: CGPoint(x: 150, y: 200), at: 0.1, duration: 0.3)]).play(through: 0.5)
            #expect(began == 1)
            SceneScript([.drag(from: CGPoint(x: 100, y: 200), to: CGPoint(x: 250, y: 200), at: 0.6, duration: 0.3)])
                .play(from: 0.5, through: 1)
            SceneScript([.drag(from: CGPoint(x: 315, y: 200), to: CGPoint(x: 150, y: 200), at: 1.1, duration: 0.3)])
                .play(from: 1, through: 1.5)
            #expect(began == 1)
        }
    }
}
