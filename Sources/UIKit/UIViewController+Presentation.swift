// Design note: presentation as UIKit does it, on the transition machinery of
// `UIViewControllerTransitioning.swift`. Presenting puts a container view (UIKit's
// `UITransitionView`) over the window; for a full-screen style the presenter's view moves into it
// under the presented one for the transition and leaves the window when it completes (as on iOS,
// where the presenter's view is removed), coming back at the dismissal. `.custom` (and the
// "over" styles) keep the presenter's view where it is: the context's from-view (presenting) or
// to-view (dismissing) is then nil, as Apple documents. The container has the window's bounds,
// so frames in it are window coordinates.

extension UIViewController {
    /// The nearest navigation controller among the ancestors (`parent` chain).
    public var navigationController: UINavigationController? {
        var candidate = parent
        while let c = candidate {
            if let nav = c as? UINavigationController { return nav }
            candidate = c.parent
        }
        return nil
    }

    /// The outermost container of this controller: the one that presents (iOS presents from the
    /// controller that defines the presentation context, by default the root container).
    var presentationRoot: UIViewController {
        var c = self
        while let p = c.parent { c = p }
        return c
    }

    /// Whether presenting this controller leaves the presenter's view on screen.
    var keepsPresenterView: Bool {
        switch modalPresentationStyle {
        case .custom, .overFullScreen, .overCurrentContext: true
        default: false
        }
    }

    /// The style a transition context reports: the "over" styles and `.custom` as they are, the
    /// others as `.fullScreen` (how Citrine shows them).
    private var shownPresentationStyle: UIModalPresentationStyle {
        keepsPresenterView ? modalPresentationStyle : .fullScreen
    }

    func startPresentation(of presented: UIViewController, animated: Bool, completion: (() -> Void)?) {
        let presenter = presentationRoot
        guard presenter.presentedViewController == nil, presented.presentingViewController == nil,
              presented !== presenter, presented.parent == nil,
              let window = presenter.viewIfLoaded?.window else { return }
        presenter.presentedViewController = presented
        presented.presentingViewController = presenter
        presented.isBeingPresented = true
        let keeps = presented.keepsPresenterView
        let presenterView: UIView = presenter.view
        let container = UITransitionContainerView(frame: window.bounds)
        window.addSubview(container)
        var fromView: UIView?
        if !keeps, let home = presenterView.superview {
            let frame = presenterView.frame
            presented.presenterViewHome = (home, home.subviews.firstIndex { $0 === presenterView } ?? 0, frame)
            container.addSubview(presenterView)
            presenterView.frame = frame
            fromView = presenterView
        }
        let toView: UIView = presented.view
        let delegate = presented.transitioningDelegate
        let animator = delegate?.animationController(forPresented: presented, presenting: presenter, source: self)
            ?? UIDefaultTransitionAnimator(.present)
        let interactor = animated ? delegate?.interactionControllerForPresentation(using: animator) : nil
        if !keeps { presenter.viewWillDisappear(animated) }
        presented.viewWillAppear(animated)
        let context = UITransitionContext(
            container: container, animated: animated, style: presented.shownPresentationStyle,
            from: presenter, to: presented, fromView: fromView, toView: toView,
            frames: [(presenter, presenterView.frame, presenterView.frame), (presented, .zero, container.bounds)],
            animator: animator
        ) { [unowned presenter, unowned presented] completed in
            container.resetTransitionTiming()
            presented.isBeingPresented = false
            if completed {
                fromView?.removeFromSuperview()
                if toView.superview !== container {
                    toView.frame = container.bounds
                    container.addSubview(toView)
                }
                presented.viewDidAppear(animated)
                if !keeps { presenter.viewDidDisappear(animated) }
                completion?()
            } else {
                toView.removeFromSuperview()
                presented.returnPresenterViewHome(presenterView)
                container.removeFromSuperview()
                presenter.presentedViewController = nil
                presented.presentingViewController = nil
                presented.viewDidDisappear(animated)
                if !keeps { presenter.viewDidAppear(animated) }
            }
        }
        context.start(interactor: interactor)
    }

    func startDismissal(animated: Bool, completion: (() -> Void)?) {
        let root = presentationRoot
        guard let target = root.presentedViewController ?? (root.presentingViewController != nil ? root : nil),
              let presenter = target.presentingViewController,
              let container = target.viewIfLoaded?.superview as? UITransitionContainerView,
              container.context == nil else { return }
        // Controllers presented over the target go first, at once (iOS dismisses them together).
        if let above = target.presentedViewController { above.startDismissal(animated: false, completion: nil) }
        let keeps = target.keepsPresenterView
        let presenterView: UIView = presenter.view
        target.isBeingDismissed = true
        var toView: UIView?
        if !keeps, let home = target.presenterViewHome {
            container.insertSubview(presenterView, at: 0)
            presenterView.frame = home.frame
            toView = presenterView
        }
        let fromView: UIView = target.view
        let fromFrame = fromView.frame
        let delegate = target.transitioningDelegate
        let animator = delegate?.animationController(forDismissed: target) ?? UIDefaultTransitionAnimator(.dismiss)
        let interactor = animated ? delegate?.interactionControllerForDismissal(using: animator) : nil
        target.viewWillDisappear(animated)
        if !keeps { presenter.viewWillAppear(animated) }
        let context = UITransitionContext(
            container: container, animated: animated, style: target.shownPresentationStyle,
            from: target, to: presenter, fromView: fromView, toView: toView,
            frames: [(target, fromFrame, .zero), (presenter, presenterView.frame, presenterView.frame)],
            animator: animator
        ) { [unowned presenter, unowned target] completed in
            container.resetTransitionTiming()
            target.isBeingDismissed = false
            if completed {
                fromView.removeFromSuperview()
                target.returnPresenterViewHome(presenterView)
                container.removeFromSuperview()
                presenter.presentedViewController = nil
                target.presentingViewController = nil
                target.viewDidDisappear(animated)
                if !keeps { presenter.viewDidAppear(animated) }
                completion?()
            } else {
                if !keeps { presenterView.removeFromSuperview() }
                if fromView.superview !== container { container.addSubview(fromView) }
                fromView.frame = fromFrame
                target.viewDidAppear(animated)
                if !keeps { presenter.viewDidDisappear(animated) }
            }
        }
        context.start(interactor: interactor)
    }

    /// Puts the presenter's view back where it lived before this controller's full-screen
    /// presentation (nothing for a style that kept it).
    private func returnPresenterViewHome(_ presenterView: UIView) {
        guard let home = presenterViewHome else { return }
        presenterViewHome = nil
        home.superview.insertSubview(presenterView, at: home.index)
        presenterView.frame = home.frame
    }
}

extension UIView {
    /// Back to the default timing after an interactive transition paused and resumed the layer.
    func resetTransitionTiming() {
        layer.speed = 1
        layer.timeOffset = 0
        layer.beginTime = 0
    }
}
