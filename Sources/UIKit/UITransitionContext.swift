/// The container view of a running transition (UIKit's private `UITransitionView`): it fills the
/// window (a presentation) or the navigation controller's view (a push or pop) and keeps the
/// transition's context alive until `completeTransition(_:)`.
final class UITransitionContainerView: UIView {
    var context: UITransitionContext?
}

/// A running transition's context (UIKit's private `_UIViewControllerTransitionContext`): the
/// two controllers and the views of each side the animator may animate, their frames, and what
/// to do when the animator calls `completeTransition(_:)`.
final class UITransitionContext: UIViewControllerContextTransitioning {
    let containerView: UIView
    let isAnimated: Bool
    private(set) var isInteractive = false
    private(set) var transitionWasCancelled = false
    let presentationStyle: UIModalPresentationStyle
    let targetTransform = CGAffineTransform.identity
    /// The animator that animates the transition.
    let animator: UIViewControllerAnimatedTransitioning
    /// The interaction controller driving it, if any.
    private(set) var interactor: UIViewControllerInteractiveTransitioning?

    private let fromController: UIViewController
    private let toController: UIViewController
    private let fromView: UIView?
    private let toView: UIView?
    private let frames: [(controller: UIViewController, initial: CGRect, final: CGRect)]
    private var onComplete: ((Bool) -> Void)?

    init(container: UITransitionContainerView, animated: Bool, style: UIModalPresentationStyle,
         from: UIViewController, to: UIViewController, fromView: UIView?, toView: UIView?,
         frames: [(controller: UIViewController, initial: CGRect, final: CGRect)],
         animator: UIViewControllerAnimatedTransitioning, onComplete: @escaping (Bool) -> Void) {
        self.containerView = container
        self.isAnimated = animated
        self.presentationStyle = style
        self.fromController = from
        self.toController = to
        self.fromView = fromView
        self.toView = toView
        self.frames = frames
        self.animator = animator
        self.onComplete = onComplete
        container.context = self
    }

    /// Runs the transition: not animated, the to-view is put at its final frame and the
    /// transition completes at once; else `interactor` (when given) starts it, or the animator
    /// animates it.
    func start(interactor: UIViewControllerInteractiveTransitioning?) {
        guard isAnimated else {
            if let toView {
                toView.frame = finalFrame(for: toController)
                if toView.superview !== containerView { containerView.addSubview(toView) }
            }
            return completeTransition(true)
        }
        if let interactor {
            self.interactor = interactor
            isInteractive = true
            interactor.startInteractiveTransition(self)
        } else {
            animator.animateTransition(using: self)
        }
    }

    func updateInteractiveTransition(_ percentComplete: CGFloat) {}
    func finishInteractiveTransition() { transitionWasCancelled = false }
    func cancelInteractiveTransition() { transitionWasCancelled = true }
    func pauseInteractiveTransition() {}

    /// Ends the transition (once; later calls are ignored): the owner puts the views in their
    /// places for the outcome, then the animator hears `animationEnded(_:)`.
    func completeTransition(_ didComplete: Bool) {
        guard let done = onComplete else { return }
        onComplete = nil
        (containerView as? UITransitionContainerView)?.context = nil
        done(didComplete)
        animator.animationEnded(didComplete)
        interactor = nil
    }

    func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController? {
        switch key {
        case .from: fromController
        case .to: toController
        default: nil
        }
    }

    func view(forKey key: UITransitionContextViewKey) -> UIView? {
        switch key {
        case .from: fromView
        case .to: toView
        default: nil
        }
    }

    func initialFrame(for vc: UIViewController) -> CGRect { frames.first { $0.controller === vc }?.initial ?? .zero }
    func finalFrame(for vc: UIViewController) -> CGRect { frames.first { $0.controller === vc }?.final ?? .zero }
}

/// UIKit's default animations, used when no delegate supplies an animator. Apple documents
/// neither their lengths nor their curves; Citrine's are 0.35 s on the ease-in-ease-out curve.
final class UIDefaultTransitionAnimator: UIViewControllerAnimatedTransitioning {
    enum Kind {
        /// A presentation (`.coverVertical`): the presented view rises from below the container.
        case present
        /// Its dismissal: the presented view falls below the container.
        case dismiss
        /// A navigation push: the new view slides in from the right over the old one, which moves
        /// left by a third of the width (UIKit's parallax).
        case push
        /// A navigation pop: the reverse of a push.
        case pop
    }

    static let duration: TimeInterval = 0.35
    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { Self.duration }

    func animateTransition(using context: UIViewControllerContextTransitioning) {
        let container = context.containerView, width = container.bounds.width, height = container.bounds.height
        let from = context.view(forKey: .from), to = context.view(forKey: .to)
        let toFinal = context.viewController(forKey: .to).map(context.finalFrame(for:)) ?? container.bounds
        switch kind {
        case .present:
            to?.frame = toFinal.offsetBy(dx: 0, dy: height)
            if let to { container.addSubview(to) }
        case .dismiss:
            if let to, let from { container.insertSubview(to, belowSubview: from) }
        case .push:
            to?.frame = toFinal.offsetBy(dx: width, dy: 0)
            if let to { container.addSubview(to) }
        case .pop:
            to?.frame = toFinal.offsetBy(dx: -width / 3, dy: 0)
            if let to, let from { container.insertSubview(to, belowSubview: from) }
        }
        UIView.animate(withDuration: Self.duration, animations: {
            switch self.kind {
            case .present: to?.frame = toFinal
            case .dismiss: if let from { from.frame = from.frame.offsetBy(dx: 0, dy: height) }
            case .push:
                to?.frame = toFinal
                if let from { from.frame = from.frame.offsetBy(dx: -width / 3, dy: 0) }
            case .pop:
                to?.frame = toFinal
                if let from { from.frame = from.frame.offsetBy(dx: width, dy: 0) }
            }
        }, completion: { _ in
            context.completeTransition(!context.transitionWasCancelled)
        })
    }
}
