/// What a navigation controller tells its delegate and asks it (Apple's
/// `UINavigationControllerDelegate`); each method defaults to nothing / nil (UIKit's own slide,
/// not interactive).
public protocol UINavigationControllerDelegate: AnyObject {
    func navigationController(_ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool)
    func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool)
    func navigationController(_ navigationController: UINavigationController,
                              animationControllerFor operation: UINavigationController.Operation,
                              from fromVC: UIViewController, to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning?
    func navigationController(_ navigationController: UINavigationController,
                              interactionControllerFor animationController: UIViewControllerAnimatedTransitioning)
        -> UIViewControllerInteractiveTransitioning?
}

public extension UINavigationControllerDelegate {
    func navigationController(_ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool) {}
    func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool) {}
    func navigationController(_ navigationController: UINavigationController,
                              animationControllerFor operation: UINavigationController.Operation,
                              from fromVC: UIViewController, to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? { nil }
    func navigationController(_ navigationController: UINavigationController,
                              interactionControllerFor animationController: UIViewControllerAnimatedTransitioning)
        -> UIViewControllerInteractiveTransitioning? { nil }
}

/// A stack of view controllers shown one at a time (Apple's `UINavigationController`).
///
/// Its view shows the top controller's view filling it. `pushViewController(_:animated:)` and
/// `popViewController(animated:)` change the stack at once (`topViewController` is the new top
/// during the transition, as on iOS) and run a transition in a container view over the
/// navigation controller's view: the delegate's animator (and interaction controller), else the
/// default slide (see `UIDefaultTransitionAnimator`). A cancelled interactive transition puts the
/// stack and the old top view back. A push or pop asked for while a transition runs is ignored
/// (iOS warns of the same). No navigation bar or toolbar is drawn; `isNavigationBarHidden` is
/// accepted.
///
/// `interactivePopGestureRecognizer` is a left-edge pan on the navigation controller's view, as
/// on iOS: dragged from the left edge it pops the top controller interactively (the fraction is
/// the drag's distance over the view's width) unless the delegate's animator takes over with its
/// own interaction controller; released, the pop finishes when the fraction is past ½ or the
/// finger moves right, else it is cancelled (Apple documents no rule; Citrine's).
open class UINavigationController: UIViewController {
    /// The kind of navigation transition (Apple's raw values).
    public enum Operation: Int, Sendable {
        case none = 0, push, pop
    }

    open weak var delegate: UINavigationControllerDelegate?
    /// Accepted (no bar is drawn). Default false.
    open var isNavigationBarHidden = false
    /// Accepted (no toolbar is drawn). Default true.
    open var isToolbarHidden = true

    /// The left-edge pan that pops interactively (made with the view).
    public private(set) var interactivePopGestureRecognizer: UIGestureRecognizer?
    /// The interaction controller of a pop the edge pan drives.
    private var edgePop: UIPercentDrivenInteractiveTransition?

    private var stack: [UIViewController] = []
    /// The container of the running transition, if any.
    private var runningTransition: UITransitionContainerView?

    /// A navigation controller whose stack holds `rootViewController`.
    public init(rootViewController: UIViewController) {
        super.init(nibName: nil, bundle: nil)
        setViewControllers([rootViewController], animated: false)
    }

    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    }

    public required init?(coder: NSCoder) { return nil }

    /// The stack, root first. Setting it is `setViewControllers(_:animated: false)`.
    open var viewControllers: [UIViewController] {
        get { stack }
        set { setViewControllers(newValue, animated: false) }
    }

    /// The last controller of the stack.
    open var topViewController: UIViewController? { stack.last }

    /// The controller presented over the top one, else the top one.
    open var visibleViewController: UIViewController? { topViewController?.presentedViewController ?? topViewController }

    /// Replaces the stack and shows its top without a transition (`animated` is accepted).
    /// Controllers already in another container, and repeated ones, are left out.
    open func setViewControllers(_ viewControllers: [UIViewController], animated: Bool) {
        guard runningTransition == nil else { return }
        var accepted: [UIViewController] = []
        for vc in viewControllers where (vc.parent == nil || vc.parent === self) && !accepted.contains(where: { $0 === vc }) && vc !== self {
            accepted.append(vc)
        }
        let oldTop = stack.last
        for vc in stack where !accepted.contains(where: { $0 === vc }) { vc.parent = nil }
        stack = accepted
        children = accepted
        for vc in accepted { vc.parent = self }
        guard isViewLoaded, oldTop !== stack.last else { return }
        oldTop?.viewIfLoaded?.removeFromSuperview()
        showTop()
    }

    open override func viewDidLoad() {
        super.viewDidLoad()
        let edge = UIScreenEdgePanGestureRecognizer { [weak self] pan in self?.handleEdgePan(pan) }
        edge.edges = .left
        view.addGestureRecognizer(edge)
        interactivePopGestureRecognizer = edge
        showTop()
    }

    /// The edge pan: begins an interactive pop, scrubs it by the drag, finishes or cancels it.
    private func handleEdgePan(_ pan: UIScreenEdgePanGestureRecognizer) {
        let width = max(view.bounds.width, 1)
        switch pan.state {
        case .began:
            guard stack.count > 1, runningTransition == nil else { return }
            edgePop = UIPercentDrivenInteractiveTransition()
            popViewController(animated: true)
        case .changed:
            edgePop?.update(pan.translation(in: view).x / width)
        case .ended, .cancelled:
            guard let edgePop else { return }
            self.edgePop = nil
            if pan.state == .ended && (edgePop.percentComplete > 0.5 || pan.velocity(in: view).x > 0) {
                edgePop.finish()
            } else {
                edgePop.cancel()
            }
        default:
            break
        }
    }

    /// Puts the top controller's view in the navigation controller's view, filling it.
    private func showTop() {
        guard let top = stack.last else { return }
        let v: UIView = top.view
        v.frame = view.bounds
        view.addSubview(v)
    }

    /// Pushes `viewController` (ignored when it is in a container already or a transition runs).
    open func pushViewController(_ viewController: UIViewController, animated: Bool) {
        guard runningTransition == nil, viewController.parent == nil, viewController !== self,
              viewController.presentingViewController == nil else { return }
        let from = stack.last
        stack.append(viewController)
        children = stack
        viewController.parent = self
        guard let from, isViewLoaded else { return isViewLoaded ? showTop() : () }
        transition(.push, from: from, to: viewController, animated: animated, restoring: Array(stack.dropLast()))
    }

    /// Pops the top controller (not the root) and returns it.
    @discardableResult
    open func popViewController(animated: Bool) -> UIViewController? {
        guard stack.count > 1 else { return nil }
        return pop(to: stack[stack.count - 2], animated: animated)?.last
    }

    /// Pops every controller above the root and returns them.
    @discardableResult
    open func popToRootViewController(animated: Bool) -> [UIViewController]? {
        guard let root = stack.first else { return nil }
        return pop(to: root, animated: animated)
    }

    /// Pops the controllers above `viewController` (which must be in the stack) and returns them.
    @discardableResult
    open func popToViewController(_ viewController: UIViewController, animated: Bool) -> [UIViewController]? {
        pop(to: viewController, animated: animated)
    }

    private func pop(to target: UIViewController, animated: Bool) -> [UIViewController]? {
        guard runningTransition == nil, let i = stack.firstIndex(where: { $0 === target }), i < stack.count - 1 else { return nil }
        let before = stack
        let popped = Array(stack[(i + 1)...])
        stack.removeSubrange((i + 1)...)
        children = stack
        if isViewLoaded, let from = popped.last {
            transition(.pop, from: from, to: target, animated: animated, restoring: before)
        } else {
            for vc in popped { vc.parent = nil }
        }
        return popped
    }

    /// Runs a push or pop from `from` to `to`; a cancelled one puts `restoring` back as the stack.
    private func transition(_ operation: Operation, from: UIViewController, to: UIViewController, animated: Bool,
                            restoring: [UIViewController]) {
        let container = UITransitionContainerView(frame: view.bounds)
        view.addSubview(container)
        runningTransition = container
        let fromView: UIView = from.view, toView: UIView = to.view
        container.addSubview(fromView)
        fromView.frame = container.bounds
        let animator = delegate?.navigationController(self, animationControllerFor: operation, from: from, to: to)
            ?? UIDefaultTransitionAnimator(operation == .push ? .push : .pop)
        let interactor = animated
            ? delegate?.navigationController(self, interactionControllerFor: animator) ?? (operation == .pop ? edgePop : nil)
            : nil
        delegate?.navigationController(self, willShow: to, animated: animated)
        from.viewWillDisappear(animated)
        to.viewWillAppear(animated)
        let context = UITransitionContext(
            container: container, animated: animated, style: .none, from: from, to: to,
            fromView: fromView, toView: toView,
            frames: [(from, container.bounds, .zero), (to, .zero, container.bounds)], animator: animator
        ) { [unowned self] completed in
            container.resetTransitionTiming()
            let shown = completed ? to : from
            let shownView = completed ? toView : fromView
            (completed ? fromView : toView).removeFromSuperview()
            shownView.frame = view.bounds
            view.insertSubview(shownView, belowSubview: container)
            container.removeFromSuperview()
            runningTransition = nil
            if completed {
                for vc in restoring where !stack.contains(where: { $0 === vc }) { vc.parent = nil }
            } else {
                for vc in stack where !restoring.contains(where: { $0 === vc }) { vc.parent = nil }
                stack = restoring
                children = restoring
                for vc in restoring { vc.parent = self }
            }
            (completed ? from : to).viewDidDisappear(animated)
            shown.viewDidAppear(animated)
            if completed { delegate?.navigationController(self, didShow: to, animated: animated) }
        }
        context.start(interactor: interactor)
    }
}
