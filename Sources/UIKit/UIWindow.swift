/// The root of a view tree (Apple's `UIWindow`): its layer is the root layer that
/// `CARenderer` draws, its coordinates are window coordinates (origin top-left, y down), and it
/// delivers the pointer events `UIApplication` hands it to views and gesture recognizers.
///
/// A window registers with `UIApplication.shared` when it is created (the application holds
/// it weakly: keep a reference, as an iOS app delegate does). As on iOS it starts hidden (not
/// drawn, not hit): `makeKeyAndVisible()` shows it and makes it the window that pointer events
/// go to by default.
open class UIWindow: UIView {
    /// The window's touch delivery.
    let gestureEnvironment = UIGestureEnvironment()

    public override init(frame: CGRect) {
        super.init(frame: frame)
        windowStorage = self
        isHidden = true
        UIApplication.shared.register(self)
    }

    public required init?(coder: NSCoder) { return nil }

    /// The view controller whose view fills the window. Setting it removes the old controller's
    /// view, adds the new one's with the window's bounds as its frame and sends it
    /// `viewWillAppear`/`viewDidAppear`.
    open var rootViewController: UIViewController? {
        didSet {
            guard oldValue !== rootViewController else { return }
            if let old = oldValue, old.isViewLoaded, old.view.superview === self {
                old.viewWillDisappear(false)
                old.view.removeFromSuperview()
                old.viewDidDisappear(false)
            }
            guard let controller = rootViewController else { return }
            let view: UIView = controller.view
            controller.viewWillAppear(false)
            view.frame = bounds
            addSubview(view)
            controller.viewDidAppear(false)
        }
    }

    /// Ordering among windows (accepted for source compatibility). Default `.normal` (0).
    open var windowLevel: UIWindow.Level = .normal

    /// Levels of windows (Apple's raw values).
    public struct Level: RawRepresentable, Hashable, Sendable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }
        public static let normal = Level(rawValue: 0)
        public static let statusBar = Level(rawValue: 1000)
        public static let alert = Level(rawValue: 2000)
    }

    /// The screen the window is on (the simulated main screen).
    open var screen: UIScreen { UIScreen.main }

    /// Whether this is the application's key window.
    open var isKeyWindow: Bool { UIApplication.shared.keyWindow === self }

    /// Makes this the key window (the default target of pointer events).
    open func makeKey() { UIApplication.shared.keyWindow = self }

    /// Makes this the key window and shows it.
    open func makeKeyAndVisible() {
        makeKey()
        isHidden = false
    }

    /// The window's next responder is the application.
    open override var next: UIResponder? { UIApplication.shared }

    /// Delivers `event`'s touches: first to their gesture recognizers, then to the views they
    /// began in (see `UIGestureRecognizer` for how recognition cancels the view's touches).
    open func sendEvent(_ event: UIEvent) {
        gestureEnvironment.deliver(event)
    }

    /// A pointer event in this window's coordinates (from `UIApplication.sendPointerEvent`).
    func handlePointer(_ phase: UITouch.Phase, at location: CGPoint, timestamp: TimeInterval, pointer: Int) {
        gestureEnvironment.handlePointer(phase, at: location, timestamp: timestamp, pointer: pointer, in: self)
    }
}
