import Foundation
import Testing
import UIKit

extension SnippetSuite {
    /// The Dynamics snippet: the square falls 100 points onto the barrier (its bottom from
    /// y = 200 to 300), the delegate sees the barrier first, a second square is attached, and the
    /// behavior's action runs at every step (120 per second of media time).
    @Suite struct DynamicsSnippetTests {
        static func turns(from t0: Double, through t1: Double) {
            for k in 0...Int(((t1 - t0) * 60).rounded()) {
                let t = t0 + Double(k) / 60
                CAMediaClock.setManualTime(t)
                UIApplication.shared.advance(to: t)
            }
        }

        @Test func squareLandsOnTheBarrierAndTheDelegateHearsIt() {
            CAMediaClock.setManualTime(50)
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
            let controller = DynamicsDropController()
            window.rootViewController = controller
            window.makeKeyAndVisible()
            controller.view.frame = window.bounds
            controller.loadViewIfNeeded()
            Self.turns(from: 50, through: 50.4)
            // Falling 100 points to the barrier takes √(2·100/1000) ≈ 0.45 s: not yet there.
            #expect(controller.boundaryContacts.isEmpty)
            #expect(controller.actionCalls == 48)
            Self.turns(from: 50.4, through: 51)
            #expect(controller.boundaryContacts.first == "barrier")
            #expect(controller.firstContact && controller.animator.behaviors.count == 4)
            // Stop, and let the last 0.3 s flash finish: no animation of this thread's layers is
            // left pending for the next test.
            controller.animator.removeAllBehaviors()
            Self.turns(from: 51, through: 51.5)
        }

        @Test func compositeBehaviorMovesItsChildren() {
            CAMediaClock.setManualTime(60)
            let view = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
            let box = UIView(frame: CGRect(x: 80, y: 0, width: 40, height: 40))
            view.addSubview(box)
            let animator = UIDynamicAnimator(referenceView: view)
            let behavior = FallAndLandBehavior(items: [box])
            animator.addBehavior(behavior)
            #expect(behavior.moves == [true] && behavior.childBehaviors.count == 2)
            #expect(behavior.childBehaviors.allSatisfy { $0.dynamicAnimator === animator })
            Self.turns(from: 60, through: 61.5)
            // It lands on the bottom edge: its centre 20 points above it.
            #expect(abs(box.center.y - 180) <= 1)
            #expect(animator.items(in: CGRect(x: 0, y: 150, width: 200, height: 50)).count == 1)
            #expect(animator.items(in: CGRect(x: 0, y: 0, width: 200, height: 100)).isEmpty)
            // Moved by hand, then read again: it falls from there.
            box.center = CGPoint(x: 100, y: 40)
            animator.updateItem(usingCurrentState: box)
            Self.turns(from: 61.5, through: 61.6)
            #expect(box.center.y > 40 && box.center.y < 100)
            animator.removeBehavior(behavior)
            #expect(behavior.moves == [true, false] && !animator.isRunning)
        }
    }
}
