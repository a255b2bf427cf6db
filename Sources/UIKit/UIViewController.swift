/// A minimal view controller (Apple's `UIViewController`): it owns a root view, made lazily by
/// `loadView()` (a plain `UIView` the size of the main screen), then announced with
/// `viewDidLoad()`; the appearance callbacks are sent when it becomes or stops being a window's
/// `rootViewController`. In the responder chain it sits between its view and the view's
/// superview. No containment, presentation or storyboard support.
open class UIViewController: UIResponder {
    private var loadedView: UIView?

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

    /// The view's superview (Apple: the superview of its view, for a root view the window).
    open override var next: UIResponder? { loadedView?.superview }
}
