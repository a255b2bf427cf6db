/// A rectangular area on screen, backed by a layer (Apple's `UIView`).
///
/// The view creates its layer from `layerClass` (override it to back a view with, say, a
/// `CAReplicatorLayer`) and is that layer's delegate. Geometry is the layer's, as on iOS:
/// `frame` is `layer.frame`, `bounds` is `layer.bounds`, `center` is `layer.position`,
/// `transform` is the affine part of `layer.transform`, `alpha` is `layer.opacity`,
/// `isHidden` is `layer.isHidden`, `clipsToBounds` is `layer.masksToBounds` and
/// `backgroundColor` is `layer.backgroundColor`. Apple's relations follow: the frame is the
/// bounding box of the bounds mapped by the transform about the center, so
/// `frame.midX == center.x`, and with an identity transform `frame.size == bounds.size`;
/// setting `frame` sets `center` and the bounds' size, not its origin.
///
/// Subviews' layers are sublayers of the view's layer, in the order of `subviews` (back to
/// front); layers added to `layer` directly stay where they were put.
open class UIView: UIResponder, CALayerDelegate {
    /// How a view places its content when its bounds change (Apple's raw values). It sets the
    /// layer's `contentsGravity` (and `.redraw` its `needsDisplayOnBoundsChange`).
    public enum ContentMode: Int, Sendable {
        case scaleToFill = 0, scaleAspectFit, scaleAspectFill, redraw, center, top, bottom, left, right,
             topLeft, topRight, bottomLeft, bottomRight

        var gravity: CALayerContentsGravity {
            switch self {
            case .scaleToFill, .redraw: .resize
            case .scaleAspectFit: .resizeAspect
            case .scaleAspectFill: .resizeAspectFill
            case .center: .center
            // The layer's gravity names follow its y axis ("top" is maximum Y, the visual bottom
            // in iOS's y-down layer space), so the visual top is the gravity "bottom".
            case .top: .bottom
            case .bottom: .top
            case .left: .left
            case .right: .right
            case .topLeft: .bottomLeft
            case .topRight: .bottomRight
            case .bottomLeft: .topLeft
            case .bottomRight: .topRight
            }
        }
    }

    /// The class of the view's layer: `CALayer` unless a subclass overrides it. Deviation: Apple
    /// returns any class; here it must be a `CALayer` subclass (any other class gives a `CALayer`).
    open class var layerClass: AnyClass { CALayer.self }

    private var backingLayer: CALayer!
    /// The view's layer, made from `layerClass` when the view is created.
    public var layer: CALayer { backingLayer }

    public private(set) var subviews: [UIView] = []
    /// The view this one is a subview of (not retained).
    public private(set) weak var superview: UIView?
    /// The window the view is in: the nearest `UIWindow` among itself and its ancestors, kept
    /// as the view moves (`windowDidChange`) so that asking is O(1) at any depth.
    weak var windowStorage: UIWindow?
    /// The view controller whose root view this is (set by the controller).
    weak var viewController: UIViewController?

    // MARK: Creating

    /// A view with `frame` (in its superview's coordinates).
    public init(frame: CGRect) {
        super.init()
        let layerType = (type(of: self).layerClass as? CALayer.Type) ?? CALayer.self
        backingLayer = CALayer.make(layerType)
        backingLayer.delegate = self
        self.frame = frame
    }

    /// Releases the subview tree without recursion (`_releaseTreeIteratively`; the layers free
    /// theirs the same way).
    deinit {
        _releaseTreeIteratively(below: self) { view in
            defer { view.subviews = [] }
            return view.subviews
        }
    }

    /// Archives are not supported: returns nil (present so that UIKit subclasses' required
    /// `init?(coder:)` compiles unchanged).
    public required init?(coder: NSCoder) { return nil }

    /// A view with a zero frame.
    public override convenience init() { self.init(frame: .zero) }

    // MARK: Geometry (the layer's)

    /// The view's rectangle in its superview's coordinates: `layer.frame`.
    open var frame: CGRect {
        get { layer.frame }
        set { layer.frame = newValue }
    }
    /// The view's own coordinate space: `layer.bounds`. Default (0, 0, 0, 0).
    open var bounds: CGRect {
        get { layer.bounds }
        set { layer.bounds = newValue }
    }
    /// The center of the frame in the superview's coordinates: `layer.position`.
    open var center: CGPoint {
        get { layer.position }
        set { layer.position = newValue }
    }
    /// The affine transform about the center: the affine part of `layer.transform`.
    open var transform: CGAffineTransform {
        get { layer.affineTransform() }
        set { layer.setAffineTransform(newValue) }
    }
    /// The 3D transform (iOS 13): `layer.transform`.
    open var transform3D: CATransform3D {
        get { layer.transform }
        set { layer.transform = newValue }
    }
    /// The shape UIKit Dynamics collides the view with (`UIDynamicItem`); override it to return
    /// `.ellipse` or `.path`. Default `.rectangle`.
    open var collisionBoundsType: UIDynamicItemCollisionBoundsType { .rectangle }
    /// The convex path, about the view's centre, used when `collisionBoundsType` is `.path`.
    /// Default: an empty path.
    open var collisionBoundingPath: UIBezierPath { UIBezierPath() }
    /// 0…1: `layer.opacity`. Default 1.
    open var alpha: CGFloat {
        get { CGFloat(layer.opacity) }
        set { layer.opacity = Float(newValue) }
    }
    /// `layer.backgroundColor`. Default nil.
    open var backgroundColor: UIColor? {
        get { layer.backgroundColor.map(UIColor.init(cgColor:)) }
        set { layer.backgroundColor = newValue?.cgColor }
    }
    /// `layer.isHidden`. Default false.
    open var isHidden: Bool {
        get { layer.isHidden }
        set { layer.isHidden = newValue }
    }
    /// Whether subviews are clipped to the bounds: `layer.masksToBounds`. Default false.
    open var clipsToBounds: Bool {
        get { layer.masksToBounds }
        set { layer.masksToBounds = newValue }
    }
    /// Default `.scaleToFill`.
    open var contentMode: ContentMode = .scaleToFill {
        didSet {
            layer.contentsGravity = contentMode.gravity
            layer.needsDisplayOnBoundsChange = contentMode == .redraw
        }
    }
    /// A hint that the view fills its bounds with opaque content (UIKit's default true); it does
    /// not change how Citrine draws.
    open var isOpaque = true
    /// Pixels per point of the layer's contents: `layer.contentsScale`.
    open var contentScaleFactor: CGFloat {
        get { layer.contentsScale }
        set { layer.contentsScale = newValue }
    }
    /// An integer for finding the view (`viewWithTag(_:)`). Default 0.
    open var tag = 0
    /// Whether the view takes part in hit testing. Default true.
    open var isUserInteractionEnabled = true
    /// Accepted for source compatibility (a view receives each of its touches whatever the
    /// value). Default false.
    open var isMultipleTouchEnabled = false
    /// Accepted for source compatibility. Default false.
    open var isExclusiveTouch = false
    /// Default: the superview's (asked through its overridable `tintColor`, one level of a
    /// recursion kept off the end of the stack by `_DeepRecursion`), or UIKit's system blue at
    /// the top.
    open var tintColor: UIColor! {
        get {
            if let storedTintColor { return storedTintColor }
            let inherited = superview.flatMap { parent in
                _DeepRecursion.level(bytesPerLevel: Self.levelStackBytes, what: "looking up a tint colour") { parent.tintColor }
            }
            return (inherited ?? nil) ?? UIColor(red: 0, green: 122.0 / 255, blue: 1, alpha: 1)
        }
        set { storedTintColor = newValue }
    }
    private var storedTintColor: UIColor?

    /// A view whose alpha channel masks this view's content: its layer becomes `layer.mask`
    /// (Apple: "The view's alpha channel determines how much of the view's content and
    /// background shows through"). Default nil. The mask view is not a subview; its frame is in
    /// this view's bounds coordinates, as a mask layer's is.
    open var mask: UIView? {
        didSet { layer.mask = mask?.layer }
    }

    // MARK: Margins and safe area

    /// The space inside the bounds that content should keep clear of (points). Apple: "the
    /// default margins are eight points on each side" for a view that is not a view
    /// controller's root view. Setting them calls `layoutMarginsDidChange()`.
    open var layoutMargins = UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8) {
        didSet { if layoutMargins != oldValue { layoutMarginsDidChange() } }
    }

    /// `layoutMargins` with leading/trailing for left/right (Citrine lays out left to right).
    open var directionalLayoutMargins: NSDirectionalEdgeInsets {
        get { NSDirectionalEdgeInsets(top: layoutMargins.top, leading: layoutMargins.left,
                                      bottom: layoutMargins.bottom, trailing: layoutMargins.right) }
        set { layoutMargins = UIEdgeInsets(top: newValue.top, left: newValue.leading,
                                           bottom: newValue.bottom, right: newValue.trailing) }
    }

    /// Accepted for source compatibility (Citrine has no Auto Layout to use it). Default false.
    open var preservesSuperviewLayoutMargins = false
    /// Accepted for source compatibility. Default true.
    open var insetsLayoutMarginsFromSafeArea = true

    /// Called when `layoutMargins` change; the default asks for a layout pass (Apple: the
    /// default implementation updates the layout). Call `super` when overriding.
    open func layoutMarginsDidChange() { setNeedsLayout() }

    /// The insets of the part of the view that bars and the screen's shape leave uncovered.
    /// Always `.zero`: a Citrine window has no status bar, home indicator or rounded corners
    /// (deviation: on an iPhone with a notch the window's top inset is 44–59 points).
    open var safeAreaInsets: UIEdgeInsets { .zero }

    /// Called when `safeAreaInsets` change — never in Citrine (they are always zero).
    open func safeAreaInsetsDidChange() {}

    /// How many animations without `.allowUserInteraction` are running on this view's layer;
    /// while any is, hit testing skips the view (UIKit disables interaction with animating views).
    var runningNonInteractiveAnimations = 0

    // MARK: Drawing

    /// Draws the view's content into the current context (`UIGraphicsGetCurrentContext()`), in
    /// the view's own y-down coordinates; `rect` is the area to draw (the bounds). Called when
    /// the layer's content is needed after `setNeedsDisplay()` or a size change; the default
    /// draws nothing. UIKit calls, e.g. `UIBezierPath.stroke()` and `UIColor.setFill()`, draw into
    /// that context.
    open func draw(_ rect: CGRect) { defaultDrawRan = true }

    /// Set by `draw(_:)` above: this class's own implementation ran in the current display.
    var defaultDrawRan = false
    /// The last display found that the view draws nothing (see `draw(_:in:)`).
    var drawsNothing = false

    /// Marks the whole content as needing to be drawn again (`layer.setNeedsDisplay()`).
    open func setNeedsDisplay() { layer.setNeedsDisplay() }

    /// Marks `invalidRect` as needing to be drawn again (Citrine redraws the whole content).
    open func setNeedsDisplay(_ invalidRect: CGRect) { layer.setNeedsDisplay(invalidRect) }

    // MARK: Layout

    /// Lays out subviews; called by `layoutIfNeeded()` after `setNeedsLayout()` (the layer asks
    /// for it too when its bounds' size changes or sublayers are added). Default: nothing.
    open func layoutSubviews() {}

    /// Schedules `layoutSubviews()` for the next layout pass (`layoutIfNeeded()`, which
    /// `UIApplication.advance(to:)` runs for every window before each frame).
    open func setNeedsLayout() { layer.setNeedsLayout() }

    /// Lays out this view and its subviews now if a layout is pending.
    open func layoutIfNeeded() { layer.layoutIfNeeded() }

    /// The size that best fits the view's content within `size` (points). Apple: "The default
    /// implementation of this method returns the existing size of the view" — the current
    /// bounds size; subclasses (UILabel, UIButton, UIActivityIndicatorView …) return their
    /// content's size.
    open func sizeThatFits(_ size: CGSize) -> CGSize { bounds.size }

    /// Resizes the view to `sizeThatFits(bounds.size)` (Apple: "resizes and moves the receiver
    /// view so it just encloses its subviews"; the size comes from `sizeThatFits(_:)`). The
    /// bounds' size changes, the center stays, so the frame grows about its center.
    open func sizeToFit() {
        let fitted = sizeThatFits(bounds.size)
        bounds.size = fitted
    }

    /// The natural size of the view's content (points), in each dimension independently:
    /// `UIView.noIntrinsicMetric` (-1) where the view has none. Default (Apple):
    /// `CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric)`. UILabel and
    /// UIButton return their text's size. Citrine has no Auto Layout; the value is there for
    /// code that reads or overrides it.
    open var intrinsicContentSize: CGSize {
        CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric)
    }

    /// Tells the view its intrinsic content size changed (Apple: so that a layout pass can
    /// take the new size into account). With no Auto Layout here, it asks the superview for a
    /// layout pass (`setNeedsLayout()`), where code that sizes subviews from
    /// `intrinsicContentSize` runs.
    open func invalidateIntrinsicContentSize() { superview?.setNeedsLayout() }

    // MARK: Hit testing and coordinate conversion (model geometry, as on iOS)

    /// The farthest descendant (this view included) that contains `point`, given in this view's
    /// coordinates, or nil. As Apple documents, a view that is hidden, has user interaction
    /// disabled or an alpha below 0.01 is skipped with its subviews, points outside the bounds
    /// (`point(inside:with:)`) are never hits even where a subview extends there, and subviews
    /// are tried front to back. A view running an animation without `.allowUserInteraction`
    /// is skipped too. Uses the model geometry: a view moving in an animation is hit where it
    /// will end up.
    ///
    /// Each subview's `hitTest(_:with:)` is called as one level of a recursion kept off the end
    /// of the stack (`_DeepRecursion`: past what the calling thread's stack holds, the levels
    /// below go on on a fresh one), so a view tree of any depth is hit tested as on Apple.
    open func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
        guard isUserInteractionEnabled, !isHidden, alpha >= 0.01, runningNonInteractiveAnimations == 0,
              self.point(inside: point, with: event) else { return nil }
        for subview in subviews.reversed() {
            let local = subview.convert(point, from: self)
            let hit = _DeepRecursion.level(bytesPerLevel: Self.levelStackBytes, what: "hit testing a view tree") {
                subview.hitTest(local, with: event)
            }
            if let hit = hit ?? nil { return hit }
        }
        return self
    }

    /// Whether `point` (this view's coordinates) is inside the bounds.
    open func point(inside point: CGPoint, with event: UIEvent?) -> Bool { bounds.contains(point) }

    /// `point` from this view's coordinates to `view`'s (nil: the window's).
    open func convert(_ point: CGPoint, to view: UIView?) -> CGPoint {
        layer.convert(point, to: (view ?? window)?.layer)
    }

    /// `point` from `view`'s coordinates (nil: the window's) to this view's.
    open func convert(_ point: CGPoint, from view: UIView?) -> CGPoint {
        layer.convert(point, from: (view ?? window)?.layer)
    }

    /// `rect` from this view's coordinates to `view`'s (nil: the window's): the bounding box of
    /// its converted corners.
    open func convert(_ rect: CGRect, to view: UIView?) -> CGRect {
        layer.convert(rect, to: (view ?? window)?.layer)
    }

    /// `rect` from `view`'s coordinates (nil: the window's) to this view's.
    open func convert(_ rect: CGRect, from view: UIView?) -> CGRect {
        layer.convert(rect, from: (view ?? window)?.layer)
    }

    // MARK: Hierarchy

    /// The window the view is in, if any.
    open var window: UIWindow? { windowStorage }

    /// The next responder: the view controller whose view this is, else the superview.
    open override var next: UIResponder? { viewController ?? superview }

    /// Adds `view` at the front (the end of `subviews`), moving it from its old superview.
    /// Adding an ancestor (which would make a cycle) or the view itself is ignored (Apple raises).
    open func addSubview(_ view: UIView) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` of `subviews` (clamped), moving it from its old superview.
    open func insertSubview(_ view: UIView, at index: Int) {
        // A view without subviews is above no other view: a tree built top down checks in O(1).
        guard view !== self, view.subviews.isEmpty || !isDescendant(of: view) else { return }
        let oldWindow = view.window, newWindow = window
        if view.superview === self {
            subviews.removeAll { $0 === view }
        } else {
            view.willMove(toSuperview: self)
            if oldWindow !== newWindow { view.notifyWillMove(toWindow: newWindow) }
            view.removeFromSuperviewKeepingNotifications()
        }
        let i = min(max(index, 0), subviews.count)
        subviews.insert(view, at: i)
        view.superview = self
        placeLayer(of: view, at: i)
        if oldWindow !== newWindow { view.notifyDidMoveToWindow() }
        view.didMoveToSuperview()
        didAddSubview(view)
    }

    /// Inserts `view` just behind `siblingSubview` (at the front when it is not a subview).
    open func insertSubview(_ view: UIView, belowSubview siblingSubview: UIView) {
        guard let i = subviews.firstIndex(where: { $0 === siblingSubview }) else { return addSubview(view) }
        let current = subviews.firstIndex { $0 === view }
        insertSubview(view, at: current.map { $0 < i ? i - 1 : i } ?? i)
    }

    /// Inserts `view` just in front of `siblingSubview` (at the front when it is not a subview).
    open func insertSubview(_ view: UIView, aboveSubview siblingSubview: UIView) {
        guard let i = subviews.firstIndex(where: { $0 === siblingSubview }) else { return addSubview(view) }
        let current = subviews.firstIndex { $0 === view }
        insertSubview(view, at: current.map { $0 < i ? i : i + 1 } ?? i + 1)
    }

    /// Moves a subview to the front.
    open func bringSubviewToFront(_ view: UIView) {
        guard view.superview === self else { return }
        insertSubview(view, at: subviews.count)
    }

    /// Moves a subview to the back.
    open func sendSubviewToBack(_ view: UIView) {
        guard view.superview === self else { return }
        insertSubview(view, at: 0)
    }

    /// Swaps the subviews at two indices (and their layers).
    open func exchangeSubview(at index1: Int, withSubviewAt index2: Int) {
        guard subviews.indices.contains(index1), subviews.indices.contains(index2), index1 != index2 else { return }
        subviews.swapAt(index1, index2)
        for (i, v) in subviews.enumerated() where i == index1 || i == index2 { placeLayer(of: v, at: i) }
    }

    /// Removes the view from its superview (and its layer from the superview's layer).
    open func removeFromSuperview() {
        guard let parent = superview else { return }
        let oldWindow = window
        parent.willRemoveSubview(self)
        willMove(toSuperview: nil)
        if oldWindow != nil { notifyWillMove(toWindow: nil) }
        removeFromSuperviewKeepingNotifications()
        if oldWindow != nil { notifyDidMoveToWindow() }
        didMoveToSuperview()
    }

    private func removeFromSuperviewKeepingNotifications() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        superview = nil
        if layer.superlayer === parent.layer { layer.removeFromSuperlayer() }
    }

    /// Puts `view`'s layer among this layer's sublayers to match `subviews[index]`: behind the
    /// next subview's layer, or in front of everything for the last subview.
    private func placeLayer(of view: UIView, at index: Int) {
        if index + 1 < subviews.count, subviews[index + 1].layer.superlayer === layer {
            layer.insertSublayer(view.layer, below: subviews[index + 1].layer)
        } else {
            layer.addSublayer(view.layer)
        }
    }

    /// True when `view` is this view or one of its ancestors.
    open func isDescendant(of view: UIView) -> Bool {
        var v: UIView? = self
        while let current = v {
            if current === view { return true }
            v = current.superview
        }
        return false
    }

    /// The first view with `tag` in a depth-first search starting at this view (itself, then
    /// each subview's subtree in order; a loop, at any depth).
    open func viewWithTag(_ tag: Int) -> UIView? {
        var pending: [UIView] = [self]
        while let view = pending.popLast() {
            if view.tag == tag { return view }
            pending += view.subviews.reversed()
        }
        return nil
    }

    // MARK: Hierarchy hooks (empty by default)

    open func didAddSubview(_ subview: UIView) {}
    open func willRemoveSubview(_ subview: UIView) {}
    open func willMove(toSuperview newSuperview: UIView?) {}
    open func didMoveToSuperview() {}
    open func willMove(toWindow newWindow: UIWindow?) {}
    open func didMoveToWindow() {}

    /// Tells the view and its subtree, parents first, that they move to `newWindow`. A window
    /// in the subtree stays its own window, as do its subviews: they are left out.
    private func notifyWillMove(toWindow newWindow: UIWindow?) {
        forEachViewChangingWindow { $0.willMove(toWindow: newWindow) }
    }

    /// Gives the view and its subtree their new window (the superview's), then tells each,
    /// parents first, that it moved.
    private func notifyDidMoveToWindow() {
        let newWindow = superview?.window
        forEachViewChangingWindow { $0.windowStorage = newWindow }
        forEachViewChangingWindow { $0.didMoveToWindow() }
    }

    /// Calls `body` on the view and its subtree in depth-first order (a loop, at any depth),
    /// leaving out windows and their subtrees; each view's subviews are read after `body` ran
    /// on it, as a recursion would.
    private func forEachViewChangingWindow(_ body: (UIView) -> Void) {
        var pending: [UIView] = [self]
        while let view = pending.popLast() {
            guard !(view is UIWindow) else { continue }
            body(view)
            pending += view.subviews.reversed()
        }
    }

    // MARK: Gesture recognizers

    private var recognizers: [UIGestureRecognizer] = []

    /// The gesture recognizers attached to the view (nil when none).
    open var gestureRecognizers: [UIGestureRecognizer]? {
        get { recognizers.isEmpty ? nil : recognizers }
        set {
            for r in recognizers { r.view = nil }
            recognizers = []
            for r in newValue ?? [] { addGestureRecognizer(r) }
        }
    }

    /// Attaches `gestureRecognizer` (detaching it from its previous view).
    open func addGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) {
        if let old = gestureRecognizer.view, old !== self { old.removeGestureRecognizer(gestureRecognizer) }
        guard !recognizers.contains(where: { $0 === gestureRecognizer }) else { return }
        recognizers.append(gestureRecognizer)
        gestureRecognizer.view = self
    }

    /// Detaches `gestureRecognizer`.
    open func removeGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) {
        guard recognizers.contains(where: { $0 === gestureRecognizer }) else { return }
        recognizers.removeAll { $0 === gestureRecognizer }
        gestureRecognizer.view = nil
    }

    /// Whether `gestureRecognizer` may begin (default true; override to refuse).
    open func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool { true }
}

extension UIView {
    /// The value of a dimension with no intrinsic size: -1 (Apple's `UIView.noIntrinsicMetric`,
    /// `UIViewNoIntrinsicMetric`).
    public static let noIntrinsicMetric: CGFloat = -1
}
