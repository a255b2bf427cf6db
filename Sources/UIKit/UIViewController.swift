/// A minimal view controller (Apple's `UIViewController`): it owns a root view, made lazily by
/// `loadView()` (a plain `UIView` the size of the main screen), then announced with
/// `viewDidLoad()`; the appearance callbacks are sent when it becomes or stops being a window's
/// `rootViewController`. In the responder chain it sits between its view and the view's
/// superview. Presentation (`present(_:animated:completion:)`, custom transitions) is in
/// `UIViewController+Presentation.swift`. Containment: `addChild(_:)`/`removeFromParent()` keep
/// `parent` and `children` (the container adds the child's view itself, as on iOS);
/// `UINavigationController` keeps its stack as its children. No storyboard support.
open class UIViewController: UIResponder {
    private var loadedView: UIView?

    /// The controller this one presented and that is on screen over it, if any.
    public internal(set) var presentedViewController: UIViewController?
    /// The controller that presented this one (not retained: the presenter holds the presented).
    public internal(set) weak var presentingViewController: UIViewController?
    /// How `present(_:animated:completion:)` shows this controller. Default `.automatic`, shown as
    /// `.fullScreen` (see `UIModalPresentationStyle`).
    open var modalPresentationStyle: UIModalPresentationStyle = .automatic
    /// The default presentation animation. Default `.coverVertical`.
    open var modalTransitionStyle: UIModalTransitionStyle = .coverVertical
    /// Supplies the animators of this controller's presentation and dismissal (not retained, as
    /// on iOS: keep a reference).
    open weak var transitioningDelegate: UIViewControllerTransitioningDelegate?
    /// Where the presenter's view lived before a full-screen presentation of this controller
    /// removed it (put back at the dismissal): its superview, index and frame.
    var presenterViewHome: (superview: UIView, index: Int, frame: CGRect)?
    /// The container controller this one is a child of.
    public internal(set) weak var parent: UIViewController?
    /// The child controllers (a navigation controller's stack).
    public internal(set) var children: [UIViewController] = []
    /// Whether this controller is being presented (from `present` until its transition completes).
    public internal(set) var isBeingPresented = false
    /// Whether this controller is being dismissed (from `dismiss` until its transition completes).
    public internal(set) var isBeingDismissed = false
    /// Accepted (presentations always cover the window). Default false.
    open var definesPresentationContext = false

    /// Makes `childController` a child (Apple: calls its `willMove(toParent:)`; the container
    /// then adds its view and calls `didMove(toParent:)`). A controller that is this one, an
    /// ancestor, or a child elsewhere is first removed from its old parent; adding an ancestor
    /// is ignored.
    open func addChild(_ childController: UIViewController) {
        var ancestor: UIViewController? = self
        while let a = ancestor {
            if a === childController { return }
            ancestor = a.parent
        }
        if childController.parent === self { return }
        childController.removeFromParent()
        childController.willMove(toParent: self)
        childController.parent = self
        children.append(childController)
    }

    /// Leaves the parent (Apple: the container calls `willMove(toParent: nil)` and removes the
    /// view first; this calls `didMove(toParent: nil)`).
    open func removeFromParent() {
        guard let parent else { return }
        parent.children.removeAll { $0 === self }
        self.parent = nil
        didMove(toParent: nil)
    }

    /// Called before the controller is added to or removed from a container. Default: nothing.
    open func willMove(toParent parent: UIViewController?) {}
    /// Called after the controller was added to or removed from a container. Default: nothing.
    open func didMove(toParent parent: UIViewController?) {}

    /// The designated initializer, as on iOS (a subclass's own initializer calls
    /// `super.init(nibName: nil, bundle: nil)`). Nibs do not exist here; the arguments are
    /// ignored (the view comes from `loadView()`).
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) { super.init() }
    /// `init(nibName: nil, bundle: nil)`, as on iOS (a convenience initializer there too).
    public override convenience init() { self.init(nibName: nil, bundle: nil) }
    /// Archives are not supported: returns nil (present so that subclasses' required
    /// `init?(coder:)` compiles unchanged).
    public required init?(coder: NSCoder) { return nil }

    /// The root view, loaded on first access.
    open var view: UIView! {
        get {
            loadViewIfNeeded()
            return loadedView
        }
        set {
            loadedView?.viewController = nil
            loadedView = newValue
            newValue?.viewController = self
        }
    }

    /// Whether the view has been loaded.
    open var isViewLoaded: Bool { loadedView != nil }

    /// The view, if loaded (iOS 9).
    open var viewIfLoaded: UIView? { loadedView }

    open var title: String?

    /// Makes the root view; the default makes a `UIView` with the main screen's bounds.
    open func loadView() { view = UIView(frame: UIScreen.main.bounds) }

    /// Loads the view (then calls `viewDidLoad()`) unless it is loaded.
    open func loadViewIfNeeded() {
        guard loadedView == nil else { return }
        loadView()
        if loadedView == nil { view = UIView(frame: UIScreen.main.bounds) }
        viewDidLoad()
    }

    open func viewDidLoad() {}
    open func viewWillAppear(_ animated: Bool) {}
    open func viewDidAppear(_ animated: Bool) {}
    open func viewWillDisappear(_ animated: Bool) {}
    open func viewDidDisappear(_ animated: Bool) {}

    /// Called when the view is about to lay out its subviews (Apple: "Called to notify the view
    /// controller that its view is about to layout its subviews"), right before the view's
    /// `layoutSubviews()` in the same layout pass. Default: nothing.
    open func viewWillLayoutSubviews() {}

    /// Called when the view has laid out its subviews (Apple: "Called to notify the view
    /// controller that its view has just laid out its subviews"), right after the view's
    /// `layoutSubviews()`: the place to size subviews from `view.bounds`. Default: nothing.
    open func viewDidLayoutSubviews() {}

    /// Presents `viewControllerToPresent` over this controller's window (see
    /// `UIViewController+Presentation.swift`); `completion` runs once it is on screen. Ignored
    /// (as iOS refuses with a warning) when this controller already presents one, the other is
    /// already presented, or this controller's view is in no window.
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil) {
        startPresentation(of: viewControllerToPresent, animated: flag, completion: completion)
    }

    /// Dismisses the controller this one presented, or this one when it was presented;
    /// `completion` runs once it is gone.
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {
        startDismissal(animated: flag, completion: completion)
    }

    /// The view's superview (Apple: the superview of its view, for a root view the window).
    open override var next: UIResponder? { loadedView?.superview }
}
