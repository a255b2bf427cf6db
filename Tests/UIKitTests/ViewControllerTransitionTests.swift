import Foundation
import Scene
import Testing
import UIKit

/// Presentations, dismissals and navigation transitions, default and custom, interactive or not.
/// Expected values: Apple's documented view hierarchy (the container holds the presented view; a
/// full-screen presentation removes the presenter's view, `.custom` keeps it and gives no
/// from-view), Apple's callback contract (completion once, `animationEnded` with the outcome),
/// and the ease-in-ease-out curve's symmetry (half way at half the time), which also holds for a
/// percent-driven transition scrubbed to 0.5.
extension UIClockSuite {
    @Suite struct ViewControllerTransitionTests {
        /// A custom animator: the to-view (or, dismissing, the from-view) fades over `duration`
        /// seconds on the default (ease-in-ease-out) curve.
        final class FadeAnimator: NSObject, UIViewControllerAnimatedTransitioning {
            let duration: TimeInterval
            var ended: [Bool] = []
            /// Whether the context gave a from-view, at the last `animateTransition`.
            var hadFromView: Bool?
            init(duration: TimeInterval = 1) { self.duration = duration }
            func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { duration }
            func animateTransition(using context: UIViewControllerContextTransitioning) {
                hadFromView = context.view(forKey: .from) != nil
                let container = context.containerView
                if let to = context.view(forKey: .to) {
                    to.frame = context.finalFrame(for: context.viewController(forKey: .to)!)
                    to.alpha = 0
                    container.addSubview(to)
                    UIView.animate(withDuration: duration, animations: { to.alpha = 1 }) { _ in
                        context.completeTransition(!context.transitionWasCancelled)
                    }
                } else if let from = context.view(forKey: .from) {
                    UIView.animate(withDuration: duration, animations: { from.alpha = 0 }) { _ in
                        context.completeTransition(!context.transitionWasCancelled)
                    }
                }
            }
            func animationEnded(_ transitionCompleted: Bool) { ended.append(transitionCompleted) }
        }

        final class Delegate: NSObject, UIViewControllerTransitioningDelegate, UINavigationControllerDelegate {
            let animator = FadeAnimator()
            var interactor: UIPercentDrivenInteractiveTransition?
            func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                                     source: UIViewController) -> UIViewControllerAnimatedTransitioning? { animator }
            func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? { animator }
            func interactionControllerForPresentation(using animator: UIViewControllerAnimatedTransitioning)
                -> UIViewControllerInteractiveTransitioning? { interactor }
            func navigationController(_ navigationController: UINavigationController,
                                      animationControllerFor operation: UINavigationController.Operation,
                                      from fromVC: UIViewController, to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? { animator }
            func navigationController(_ navigationController: UINavigationController,
                                      interactionControllerFor animationController: UIViewControllerAnimatedTransitioning)
                -> UIViewControllerInteractiveTransitioning? { interactor }
        }

        static func run(from t0: CFTimeInterval, through t1: CFTimeInterval) {
            SceneScript([]).play(from: t0, through: t1)
        }

        static func makeRoot() -> (UIWindow, UIViewController) {
            let window = UIClockSuite.makeWindow()
            let root = UIViewController()
            window.rootViewController = root
            UIClockSuite.advance(to: 0)
            return (window, root)
        }

        @Test func defaultPresentationCoversVerticallyAndRemovesThePresentersView() {
            let (window, root) = Self.makeRoot()
            let presented = UIViewController()
            var completions = 0
            root.present(presented, animated: true) { completions += 1 }
            #expect(root.presentedViewController === presented && presented.presentingViewController === root)
            #expect(presented.isBeingPresented)
            UIClockSuite.advance(to: 0)
            let container = presented.view.superview
            #expect(container != nil && container?.superview === window)
            #expect(same(container?.subviews ?? [], [root.view, presented.view]))
            // Half way in time, half way up (ease-in-ease-out is symmetric): frame y 240.
            Self.run(from: 0, through: 0.16)
            UIClockSuite.advance(to: UIDefaultTransitionAnimatorDuration / 2)
            let y = presented.view.layer.presentation()?.position.y ?? 0
            #expect(abs(y - (240 + 240)) < 1e-6)
            Self.run(from: UIDefaultTransitionAnimatorDuration / 2, through: 1)
            #expect(completions == 1 && !presented.isBeingPresented)
            #expect(root.view.superview == nil && presented.view.frame == window.bounds)
            presented.dismiss(animated: true) { completions += 1 }
            #expect(presented.isBeingDismissed)
            Self.run(from: 1, through: 2)
            #expect(completions == 2)
            #expect(root.view.superview === window && presented.view.superview == nil && container?.superview == nil)
            #expect(root.presentedViewController == nil && presented.presentingViewController == nil)
            #expect(root.view.frame == window.bounds)
        }

        @Test func customStyleKeepsThePresentersView() {
            let (window, root) = Self.makeRoot()
            let delegate = Delegate()
            let presented = UIViewController()
            presented.modalPresentationStyle = .custom
            presented.transitioningDelegate = delegate
            root.present(presented, animated: true)
            Self.run(from: 0, through: 0.5)
            // Half way: alpha ½ (ease-in-ease-out at ½).
            #expect(abs((presented.view.layer.presentation()?.opacity ?? 0) - 0.5) < 1e-6)
            Self.run(from: 0.5, through: 1.2)
            #expect(delegate.animator.hadFromView == false)
            #expect(delegate.animator.ended == [true])
            #expect(root.view.superview === window && presented.view.superview?.superview === window)
            root.dismiss(animated: true)
            Self.run(from: 1.2, through: 2.5)
            #expect(delegate.animator.ended == [true, true])
            #expect(presented.view.superview == nil && root.presentedViewController == nil)
        }

        @Test func containmentKeepsParentAndChildren() {
            final class Child: UIViewController {
                var moves: [String] = []
                override func willMove(toParent parent: UIViewController?) { moves.append("will \(parent == nil ? "nil" : "parent")") }
                override func didMove(toParent parent: UIViewController?) { moves.append("did \(parent == nil ? "nil" : "parent")") }
            }
            let container = UIViewController(), child = Child()
            container.addChild(child)
            child.didMove(toParent: container)
            #expect(child.parent === container && same(container.children, [child]))
            child.addChild(container)   // an ancestor: ignored
            #expect(container.parent == nil && child.children.isEmpty)
            child.willMove(toParent: nil)
            child.removeFromParent()
            #expect(child.parent == nil && container.children.isEmpty)
            #expect(child.moves == ["will parent", "did parent", "will nil", "did nil"])
        }

        @Test func notAnimatedCompletesAtOnce() {
            let (window, root) = Self.makeRoot()
            let presented = UIViewController()
            var done = false
            root.present(presented, animated: false) { done = true }
            #expect(done && root.view.superview == nil && presented.view.frame == window.bounds)
            presented.dismiss(animated: false)
            #expect(root.view.superview === window && root.presentedViewController == nil)
        }

        @Test func percentDrivenScrubsAndCancelRestores() {
            let (window, root) = Self.makeRoot()
            let delegate = Delegate()
            let interactor = UIPercentDrivenInteractiveTransition()
            delegate.interactor = interactor
            let presented = UIViewController()
            presented.transitioningDelegate = delegate
            var completed = false
            root.present(presented, animated: true) { completed = true }
            #expect(interactor.duration == 1)
            interactor.update(0.5)
            Self.run(from: 0, through: 3)
            // Paused at ½ however much time passes.
            #expect(abs((presented.view.layer.presentation()?.opacity ?? 0) - 0.5) < 1e-6)
            interactor.update(0.25)
            UIClockSuite.advance(to: 3)
            // ease-in-ease-out at ¼ is below ¼ (it starts slowly).
            let quarter = presented.view.layer.presentation()?.opacity ?? 1
            #expect(quarter > 0 && quarter < 0.25)
            interactor.cancel()
            Self.run(from: 3, through: 4)
            #expect(!completed && delegate.animator.ended == [false])
            #expect(root.view.superview === window && root.view.frame == window.bounds)
            #expect(presented.view.superview == nil && root.presentedViewController == nil)
            #expect(window.subviews.count == 1)
        }

        @Test func percentDrivenFinishCompletes() {
            let (window, root) = Self.makeRoot()
            let delegate = Delegate()
            let interactor = UIPercentDrivenInteractiveTransition()
            interactor.completionSpeed = 2
            delegate.interactor = interactor
            let presented = UIViewController()
            presented.transitioningDelegate = delegate
            var completed = false
            root.present(presented, animated: true) { completed = true }
            interactor.update(0.5)
            UIClockSuite.advance(to: 1)
            interactor.finish()
            // The remaining half second of animation at speed 2: a quarter of a second.
            Self.run(from: 1, through: 1.2)
            #expect(!completed)
            Self.run(from: 1.2, through: 1.3)
            #expect(completed && delegate.animator.ended == [true] && root.view.superview == nil)
            #expect(presented.view.superview?.superview === window)
            #expect(presented.view.layer.speed == 1 && presented.view.superview?.layer.speed == 1)
        }

        @Test func navigationPushAndPopSlide() {
            let window = UIClockSuite.makeWindow()
            let first = UIViewController(), second = UIViewController()
            let nav = UINavigationController(rootViewController: first)
            window.rootViewController = nav
            UIClockSuite.advance(to: 0)
            #expect(same(nav.viewControllers, [first]) && first.navigationController === nav)
            nav.pushViewController(second, animated: true)
            #expect(nav.topViewController === second && second.parent === nav)
            UIClockSuite.advance(to: 0)
            Self.run(from: 0, through: 0.16)
            UIClockSuite.advance(to: UIDefaultTransitionAnimatorDuration / 2)
            // Half way: the new view has come half of its width in (x from 320 to 0: 160; centre 320).
            #expect(abs((second.view.layer.presentation()?.position.x ?? 0) - 320) < 1e-6)
            Self.run(from: UIDefaultTransitionAnimatorDuration / 2, through: 1)
            #expect(same(nav.view.subviews, [second.view]) && first.view.superview == nil)
            let popped = nav.popViewController(animated: true)
            #expect(popped === second && nav.topViewController === first)
            Self.run(from: 1, through: 2)
            #expect(same(nav.view.subviews, [first.view]) && second.parent == nil && first.view.frame == nav.view.bounds)
        }

        @Test func theEdgePanPopsInteractively() {
            let window = UIClockSuite.makeWindow()
            let first = UIViewController(), second = UIViewController()
            let nav = UINavigationController(rootViewController: first)
            window.rootViewController = nav
            nav.pushViewController(second, animated: false)
            UIClockSuite.advance(to: 0)
            #expect(nav.interactivePopGestureRecognizer is UIScreenEdgePanGestureRecognizer)
            // From the left edge, 100 points right, then back to 60: released at 55/320 moving left.
            SceneScript([.down(CGPoint(x: 5, y: 200), at: 0.1), .move(to: CGPoint(x: 55, y: 200), at: 0.2),
                         .move(to: CGPoint(x: 105, y: 200), at: 0.3), .move(to: CGPoint(x: 60, y: 200), at: 0.4), .up(at: 0.4)])
                .play(through: 1.5)
            #expect(same(nav.viewControllers, [first, second]) && same(nav.view.subviews, [second.view]))
            // All the way across: the pop finishes.
            SceneScript([.drag(from: CGPoint(x: 5, y: 200), to: CGPoint(x: 250, y: 200), at: 2, duration: 0.5)])
                .play(from: 1.5, through: 3.5)
            #expect(same(nav.viewControllers, [first]) && same(nav.view.subviews, [first.view]) && second.parent == nil)
        }

        @Test func navigationInteractiveCancelRestoresTheStack() {
            let window = UIClockSuite.makeWindow()
            let first = UIViewController(), second = UIViewController()
            let nav = UINavigationController(rootViewController: first)
            let delegate = Delegate()
            let interactor = UIPercentDrivenInteractiveTransition()
            delegate.interactor = interactor
            nav.delegate = delegate
            window.rootViewController = nav
            UIClockSuite.advance(to: 0)
            nav.pushViewController(second, animated: true)
            interactor.update(0.3)
            Self.run(from: 0, through: 0.5)
            interactor.cancel()
            Self.run(from: 0.5, through: 2)
            #expect(same(nav.viewControllers, [first]) && second.parent == nil)
            #expect(same(nav.view.subviews, [first.view]) && first.view.frame == nav.view.bounds)
            #expect(delegate.animator.ended == [false])
        }
    }
}

/// The default transitions' length (Citrine's choice, see `UIDefaultTransitionAnimator`).
private let UIDefaultTransitionAnimatorDuration: CFTimeInterval = 0.35

/// Whether the two lists hold the same objects in the same order.
private func same<T: AnyObject>(_ a: [T], _ b: [T]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0 === $1 }
}
