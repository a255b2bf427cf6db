import CPrefetch
import Synchronization

/// Methods a layer calls on its delegate (Apple's `CALayerDelegate`); all optional on Apple, so
/// all have default implementations here.
public protocol CALayerDelegate: AnyObject {
    func display(_ layer: CALayer)
    func draw(_ layer: CALayer, in ctx: CGContext)
    func layerWillDraw(_ layer: CALayer)
    func layoutSublayers(of layer: CALayer)
    /// The action for `event` (nil: keep searching; `NSNull()`: stop, no action).
    func action(for layer: CALayer, forKey event: String) -> CAAction?
}

public extension CALayerDelegate {
    func display(_ layer: CALayer) {}
    func draw(_ layer: CALayer, in ctx: CGContext) {}
    func layerWillDraw(_ layer: CALayer) {}
    func layoutSublayers(of layer: CALayer) {}
    func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
}

/// Something a layer runs when one of its properties changes (Apple's `CAAction`).
/// `CAAnimation` adopts it: running it adds the animation to the layer under the key.
/// `NSNull` adopts it too, as on Apple, to mean "no action, stop searching".
public protocol CAAction {
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

extension CAAnimation: CAAction {
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        (anObject as? CALayer)?.add(self, forKey: event)
    }
}

extension NSNull: CAAction {
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

/// Which corners `cornerRadius` rounds (Apple's `CACornerMask`, in layer coordinates: "min Y" is
/// the top edge on iOS).
public struct CACornerMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let layerMinXMinYCorner = CACornerMask(rawValue: 1)
    public static let layerMaxXMinYCorner = CACornerMask(rawValue: 2)
    public static let layerMinXMaxYCorner = CACornerMask(rawValue: 4)
    public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 8)
}

/// How contents are placed in the bounds (Apple's raw strings).
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let center = CALayerContentsGravity(rawValue: "center")
    public static let top = CALayerContentsGravity(rawValue: "top")
    public static let bottom = CALayerContentsGravity(rawValue: "bottom")
    public static let left = CALayerContentsGravity(rawValue: "left")
    public static let right = CALayerContentsGravity(rawValue: "right")
    public static let topLeft = CALayerContentsGravity(rawValue: "topLeft")
    public static let topRight = CALayerContentsGravity(rawValue: "topRight")
    public static let bottomLeft = CALayerContentsGravity(rawValue: "bottomLeft")
    public static let bottomRight = CALayerContentsGravity(rawValue: "bottomRight")
    public static let resize = CALayerContentsGravity(rawValue: "resize")
    public static let resizeAspect = CALayerContentsGravity(rawValue: "resizeAspect")
    public static let resizeAspectFill = CALayerContentsGravity(rawValue: "resizeAspectFill")
}

/// The layer class (Apple's `CALayer`): geometry, appearance, the layer tree, key-value coding,
/// animations and implicit actions. Defaults are Apple's documented ones.
///
/// Model and presentation: the properties of a layer you create are its *model*; animations
/// never change them. `presentation()` returns a copy with every animation applied at the
/// current media time (see `CAMediaClock`).
open class CALayer: CAMediaTiming {
    // MARK: Stored properties read every frame
    // Swift lays stored properties out in declaration order: these come first, so that
    // `presentation()` touches the first few cache lines of a model layer (the object header,
    // these, the inline part of `LayerState` with the timing first) and of its presentation copy.
    //
    // `@exclusivity(unchecked)`: the properties `presentation()` reads or writes for every layer
    // every frame skip Swift's dynamic exclusivity enforcement, which costs ≈ 80 instructions
    // per access (≈ 1 000 per layer per frame, Benchmarks/LAYERS.md). No access to them overlaps
    // another: each is read or written whole, or passed `inout` to code that touches no other
    // layer property of the same layer (the presentation copy's `state` while its model's is read).

    /// `superlayer`'s storage: unmanaged rather than `weak`, because a weak reference gives its
    /// target a side table (every retain of the superlayer then takes the slow path) and costs an
    /// atomic load per access, and `presentation()` walks this pointer for every layer every
    /// frame, without retaining. It never dangles: a layer clears its sublayers' pointers in
    /// `deinit`.
    @exclusivity(unchecked) private var parent: Unmanaged<CALayer>?
    /// The presentation copy, owned by this model: retained when stored, released when replaced
    /// or in `deinit`. Unmanaged so that the presentation fast path can animate the copy without
    /// retaining it first: its retain (for the caller) then comes last, after the copy's and the
    /// program's cache lines have been requested — a retain is a locked instruction, which no
    /// later memory access may pass, so retaining first made those misses wait for each other.
    @exclusivity(unchecked) private var ownedPresentation: Unmanaged<CALayer>?
    private var presentationLayer: CALayer? {
        get { ownedPresentation?.takeUnretainedValue() }
        set {
            ownedPresentation?.release()
            ownedPresentation = newValue.map { Unmanaged.passRetained($0) }
        }
    }
    /// The model layer a presentation copy was made from: unmanaged like `parent` (testing it
    /// for nil, every frame, neither retains nor releases), and cleared by the model's `deinit`
    /// (a presentation copy may outlive its model).
    @exclusivity(unchecked) private var modelLayer: Unmanaged<CALayer>?
    /// Changes with every write to `state` or `extraValues`.
    @exclusivity(unchecked) private var modelVersion = 0
    /// The (modelVersion, animation generation) at which `presentationLayer` was last copied
    /// from this model in full (kept here, so that checking it does not read the copy).
    @exclusivity(unchecked) private var presentationSyncedVersion: (model: Int, animations: Int) = (-1, -1)
    /// The local time at which `presentationLayer` was last evaluated, and the copy's own
    /// `modelVersion` right after: while both still hold (and the copy is in sync), asking again
    /// for the same time returns the copy as it is — a renderer asks twice per frame, once to
    /// find what changed and once to draw.
    @exclusivity(unchecked) private var presentedAt: (time: CFTimeInterval, version: Int) = (.nan, -1)
    @exclusivity(unchecked) var animationStore = AnimationStore()
    /// `state`'s storage, for the presentation fast path, which writes a presentation copy's
    /// animated fields without counting a change.
    @exclusivity(unchecked) private var _state = LayerState()

    // MARK: Timing (CAMediaTiming). Layers have an infinite duration (Apple).
    public var beginTime: CFTimeInterval {
        get { state.beginTime }
        set { let old = state.beginTime; state.beginTime = newValue; changed("beginTime", old) }
    }
    public var duration: CFTimeInterval {
        get { state.duration }
        set { state.duration = newValue }
    }
    public var speed: Float {
        get { state.speed }
        set { let old = state.speed; state.speed = newValue; changed("speed", old) }
    }
    public var timeOffset: CFTimeInterval {
        get { state.timeOffset }
        set { let old = state.timeOffset; state.timeOffset = newValue; changed("timeOffset", old) }
    }
    public var repeatCount: Float {
        get { state.repeatCount }
        set { state.repeatCount = newValue }
    }
    public var repeatDuration: CFTimeInterval {
        get { state.repeatDuration }
        set { state.repeatDuration = newValue }
    }
    public var autoreverses: Bool {
        get { state.autoreverses }
        set { state.autoreverses = newValue }
    }
    public var fillMode: CAMediaTimingFillMode {
        get { state.fillMode }
        set { state.fillMode = newValue }
    }

    // MARK: Geometry
    /// Default .zero.
    public var bounds: CGRect {
        get { state.bounds }
        set {
            let old = state.bounds
            state.bounds = newValue
            changed("bounds", old)
            if needsDisplayOnBoundsChange && newValue.size != old.size { setNeedsDisplay() }
            if newValue.size != old.size { setNeedsLayout() }
        }
    }
    /// Position of the anchor point in the superlayer. Default .zero.
    public var position: CGPoint {
        get { state.position }
        set { let old = state.position; state.position = newValue; changed("position", old) }
    }
    public var zPosition: CGFloat {
        get { state.zPosition }
        set { let old = state.zPosition; state.zPosition = newValue; changed("zPosition", old) }
    }
    /// In unit coordinates of the bounds. Default (0.5, 0.5).
    public var anchorPoint: CGPoint {
        get { state.anchorPoint }
        set { let old = state.anchorPoint; state.anchorPoint = newValue; changed("anchorPoint", old) }
    }
    public var anchorPointZ: CGFloat {
        get { state.anchorPointZ }
        set { let old = state.anchorPointZ; state.anchorPointZ = newValue; changed("anchorPointZ", old) }
    }
    public var transform: CATransform3D {
        get { state.transform }
        set { let old = state.transform; state.transform = newValue; changed("transform", old) }
    }
    public var sublayerTransform: CATransform3D {
        get { state.sublayerTransform }
        set { let old = state.sublayerTransform; state.sublayerTransform = newValue; changed("sublayerTransform", old) }
    }

    // MARK: Appearance
    public var isHidden: Bool {
        get { state.isHidden }
        set { let old = state.isHidden; state.isHidden = newValue; changed("hidden", old) }
    }
    /// 0…1. Default 1.
    public var opacity: Float {
        get { state.opacity }
        set { let old = state.opacity; state.opacity = newValue; changed("opacity", old) }
    }
    public var backgroundColor: CGColor? {
        get { state.backgroundColor }
        set { let old = state.backgroundColor; state.backgroundColor = newValue; changed("backgroundColor", old) }
    }
    public var borderWidth: CGFloat {
        get { state.borderWidth }
        set { let old = state.borderWidth; state.borderWidth = newValue; changed("borderWidth", old) }
    }
    /// Default opaque black.
    public var borderColor: CGColor? {
        get { state.borderColor }
        set { let old = state.borderColor; state.borderColor = newValue; changed("borderColor", old) }
    }
    public var cornerRadius: CGFloat {
        get { state.cornerRadius }
        set { let old = state.cornerRadius; state.cornerRadius = newValue; changed("cornerRadius", old) }
    }
    /// Default: all four corners.
    public var maskedCorners: CACornerMask {
        get { state.maskedCorners }
        set { state.maskedCorners = newValue }
    }
    public var masksToBounds: Bool {
        get { state.masksToBounds }
        set { let old = state.masksToBounds; state.masksToBounds = newValue; changed("masksToBounds", old) }
    }
    public var mask: CALayer? {
        get { state.mask }
        set { let old = state.mask; state.mask = newValue; changed("mask", old) }
    }
    public var isDoubleSided: Bool {
        get { state.isDoubleSided }
        set { let old = state.isDoubleSided; state.isDoubleSided = newValue; changed("doubleSided", old) }
    }
    public var isOpaque: Bool {
        get { state.isOpaque }
        set { state.isOpaque = newValue }
    }
    public var isGeometryFlipped: Bool {
        get { state.isGeometryFlipped }
        set { state.isGeometryFlipped = newValue }
    }
    public var allowsGroupOpacity: Bool {
        get { state.allowsGroupOpacity }
        set { state.allowsGroupOpacity = newValue }
    }
    public var allowsEdgeAntialiasing: Bool {
        get { state.allowsEdgeAntialiasing }
        set { state.allowsEdgeAntialiasing = newValue }
    }
    public var shouldRasterize: Bool {
        get { state.shouldRasterize }
        set { state.shouldRasterize = newValue }
    }
    public var rasterizationScale: CGFloat {
        get { state.rasterizationScale }
        set { state.rasterizationScale = newValue }
    }
    /// Curve of rounded corners. Default `.circular` (Apple).
    public var cornerCurve: CALayerCornerCurve {
        get { state.cornerCurve }
        set { state.cornerCurve = newValue }
    }
    /// Edges antialiased when `allowsEdgeAntialiasing` is on. Default all four (Apple).
    public var edgeAntialiasingMask: CAEdgeAntialiasingMask {
        get { state.edgeAntialiasingMask }
        set { state.edgeAntialiasingMask = newValue }
    }
    /// Filter when contents are drawn smaller. Default `.linear` (Apple).
    public var minificationFilter: CALayerContentsFilter {
        get { state.minificationFilter }
        set { state.minificationFilter = newValue }
    }
    /// Filter when contents are drawn larger. Default `.linear` (Apple).
    public var magnificationFilter: CALayerContentsFilter {
        get { state.magnificationFilter }
        set { state.magnificationFilter = newValue }
    }
    /// Level-of-detail bias for `.trilinear` minification. Default 0 (Apple).
    public var minificationFilterBias: Float {
        get { state.minificationFilterBias }
        set { state.minificationFilterBias = newValue }
    }
    /// Pixel format hint for `draw(in:)` backing stores. Default `.RGBA8Uint` (Apple).
    public var contentsFormat: CALayerContentsFormat {
        get { state.contentsFormat }
        set { state.contentsFormat = newValue }
    }
    /// Accepted for source compatibility; drawing is always synchronous here. Default false.
    public var drawsAsynchronously: Bool {
        get { state.drawsAsynchronously }
        set { state.drawsAsynchronously = newValue }
    }
    public var name: String? {
        get { state.name }
        set { state.name = newValue }
    }
    public var style: [AnyHashable: Any]? {
        get { state.style }
        set { state.style = newValue }
    }
    /// Actions by key, consulted after the delegate (nil = keep searching, `NSNull()` = stop).
    public var actions: [String: CAAction]? {
        get { state.actions }
        set { state.actions = newValue }
    }
    public weak var delegate: CALayerDelegate?

    // MARK: Contents
    /// A `CGImage` (or nil).
    public var contents: Any? {
        get { state.contents }
        set { let old = state.contents; state.contents = newValue; changed("contents", old) }
    }
    /// Unit rectangle of the contents to show. Default (0, 0, 1, 1).
    public var contentsRect: CGRect {
        get { state.contentsRect }
        set { let old = state.contentsRect; state.contentsRect = newValue; changed("contentsRect", old) }
    }
    /// Stretchable unit rectangle for nine-slice scaling. Default (0, 0, 1, 1).
    public var contentsCenter: CGRect {
        get { state.contentsCenter }
        set { let old = state.contentsCenter; state.contentsCenter = newValue; changed("contentsCenter", old) }
    }
    /// Default `.resize`.
    public var contentsGravity: CALayerContentsGravity {
        get { state.contentsGravity }
        set { state.contentsGravity = newValue }
    }
    /// Pixels per point of the contents. Default 1.
    public var contentsScale: CGFloat {
        get { state.contentsScale }
        set { let old = state.contentsScale; state.contentsScale = newValue; changed("contentsScale", old) }
    }
    public var needsDisplayOnBoundsChange: Bool {
        get { state.needsDisplayOnBoundsChange }
        set { state.needsDisplayOnBoundsChange = newValue }
    }

    // MARK: Shadow
    /// Default opaque black.
    public var shadowColor: CGColor? {
        get { state.shadowColor }
        set { let old = state.shadowColor; state.shadowColor = newValue; changed("shadowColor", old) }
    }
    /// 0…1. Default 0 (no shadow).
    public var shadowOpacity: Float {
        get { state.shadowOpacity }
        set { let old = state.shadowOpacity; state.shadowOpacity = newValue; changed("shadowOpacity", old) }
    }
    /// Default (0, −3).
    public var shadowOffset: CGSize {
        get { state.shadowOffset }
        set { let old = state.shadowOffset; state.shadowOffset = newValue; changed("shadowOffset", old) }
    }
    /// Default 3.
    public var shadowRadius: CGFloat {
        get { state.shadowRadius }
        set { let old = state.shadowRadius; state.shadowRadius = newValue; changed("shadowRadius", old) }
    }
    public var shadowPath: CGPath? {
        get { state.shadowPath }
        set { let old = state.shadowPath; state.shadowPath = newValue; changed("shadowPath", old) }
    }

    // MARK: Tree
    /// The layer this one is a sublayer of (not retained, as on Apple).
    public var superlayer: CALayer? { parent?.takeUnretainedValue() }
    @exclusivity(unchecked) private var sublayerStorage: [CALayer] = [] { didSet { sublayerIndicesAreCurrent = false } }
    /// This layer's index in its superlayer's `sublayerStorage`, valid while the superlayer's
    /// `sublayerIndicesAreCurrent` (renumbered on demand after the sublayers change).
    @exclusivity(unchecked) private var indexInSuperlayer = 0
    @exclusivity(unchecked) private var sublayerIndicesAreCurrent = false
    /// The sublayers, back to front.
    public var sublayers: [CALayer]? {
        get { sublayerStorage.isEmpty ? nil : sublayerStorage }
        set {
            for l in sublayerStorage { l.parent = nil }
            sublayerStorage = []
            for l in newValue ?? [] { addSublayer(l) }
        }
    }

    // MARK: State
    /// Every copied property, in one value: a presentation copy is one assignment, not dozens of
    /// (observed) property writes. Reading borrows it; every write counts as a model change.
    var state: LayerState {
        _read { yield _state }
        _modify {
            yield &_state
            modelVersion &+= 1
        }
    }
    @exclusivity(unchecked) private var extraValues: [String: Any] = [:] { didSet { modelVersion &+= 1 } }
    public private(set) var needsDisplayFlag = false
    public private(set) var needsLayoutFlag = false
    /// Whether `AnimatedLayerRegistry` holds this layer (it has had an animation).
    private var isRegisteredForEvents = false
    /// Number of the transaction commit after which this layer counts as committed.
    var createdBeforeCommit: Int
    /// Suppresses implicit actions while copying model values.
    private var applyingPresentation = false
    /// A number no other layer made in this process has (presentation copies included), for
    /// renderers that keep something per layer: unlike an `ObjectIdentifier`, it is never
    /// reused after the layer is freed, so checking it needs no `weak` reference (which would
    /// give every layer a side table, and every retain of it the slow path).
    public let _serial: UInt64 = CALayer.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<UInt64>(0)

    /// The state's address for the duration of `body`: reading fields through it neither copies
    /// the state nor counts as a change.
    func withUnsafeState<R>(_ body: (UnsafeMutablePointer<LayerState>) -> R) -> R {
        withUnsafeMutablePointer(to: &_state, body)
    }

    public required init() {
        createdBeforeCommit = CATransaction.commitSerial
    }

    deinit {
        // The unmanaged back pointers to this layer go with it; so does its presentation copy.
        for l in sublayerStorage { l.parent = nil }
        presentationLayer?.modelLayer = nil
        ownedPresentation?.release()
        if isRegisteredForEvents { AnimatedLayerRegistry.unregister(self) }
    }

    /// A copy of `layer`'s properties (Apple's `init(layer:)`, used for presentation copies).
    public required init(layer: Any) {
        createdBeforeCommit = CATransaction.commitSerial
        if let other = layer as? CALayer { copyProperties(from: other) }
    }

    /// Copies every property (not the tree, not animations) from `other`; subclasses add theirs.
    open func copyProperties(from other: CALayer) {
        applyingPresentation = true
        defer { applyingPresentation = false }
        // One value copy (no key-value boxing, no observers): presentation() does this for every
        // layer every frame.
        state = other.state
        extraValues = other.extraValues
    }

    // MARK: - Derived geometry

    /// The layer's rectangle in its superlayer's coordinates: the bounding box of the bounds
    /// mapped by `transform` about the anchor point. Setting it solves for the bounds size through
    /// the transform's linear part (exact for scales and quarter turns; Apple calls other
    /// rotations undefined, where the size is kept) and moves `position` so the box lands on
    /// the given origin.
    public var frame: CGRect {
        get {
            let corners = [CGPoint(x: bounds.minX, y: bounds.minY), CGPoint(x: bounds.maxX, y: bounds.minY),
                           CGPoint(x: bounds.minX, y: bounds.maxY), CGPoint(x: bounds.maxX, y: bounds.maxY)]
            let m = geometryTransform
            return boundingBox(corners.map { p -> CGPoint in
                let q = m._project(x: p.x, y: p.y)
                return CGPoint(x: q.x, y: q.y)
            })
        }
        set {
            guard newValue.origin.x.isFinite, newValue.origin.y.isFinite,
                  newValue.width.isFinite, newValue.height.isFinite else { return }
            if let size = boundsSize(forFrameSize: newValue.size) { bounds.size = size }
            let current = frame
            position = CGPoint(x: position.x + newValue.minX - current.minX,
                               y: position.y + newValue.minY - current.minY)
        }
    }

    /// The transform as an affine transform (Apple's `affineTransform()`; drops the 3D terms).
    public func affineTransform() -> CGAffineTransform { CATransform3DGetAffineTransform(transform) }

    /// Sets `transform` from an affine transform (Apple's `setAffineTransform(_:)`).
    public func setAffineTransform(_ m: CGAffineTransform) { transform = CATransform3DMakeAffineTransform(m) }

    /// The preferred size in the superlayer's coordinates (Apple: the bounds size mapped by the
    /// transform, when no layout manager is set — this port has no layout managers).
    open func preferredFrameSize() -> CGSize {
        let t = transform
        let w = bounds.width, h = bounds.height
        return CGSize(width: abs(w * t.m11) + abs(h * t.m21), height: abs(w * t.m12) + abs(h * t.m22))
    }

    /// The bounds size whose transformed bounding box has `size` (Apple: setting `frame` with a
    /// transform that is not a scale or a multiple-of-90° rotation is undefined; here the size is
    /// kept and only the origin moves). With the linear part (a b; c d) of `transform`, a w × h
    /// rectangle's box is (w|a| + h|c|) × (w|b| + h|d|); solve that 2×2 system.
    private func boundsSize(forFrameSize size: CGSize) -> CGSize? {
        let a = abs(transform.m11), b = abs(transform.m12), c = abs(transform.m21), d = abs(transform.m22)
        let det = a * d - c * b
        guard abs(det) > 1e-12 else { return nil }
        let w = (size.width * d - c * size.height) / det
        let h = (a * size.height - b * size.width) / det
        guard w >= -1e-9, h >= -1e-9 else { return nil }
        return CGSize(width: max(w, 0), height: max(h, 0))
    }

    /// The frame's mapping (no superlayer sublayerTransform): translate(−bounds.origin − anchor)
    /// · transform · translate(position), with the anchor at (anchorPoint · bounds.size,
    /// anchorPointZ).
    private var geometryTransform: CATransform3D {
        let ax = bounds.minX + anchorPoint.x * bounds.width, ay = bounds.minY + anchorPoint.y * bounds.height
        var m = CATransform3DMakeTranslation(-ax, -ay, -anchorPointZ)
        m = CATransform3DConcat(m, transform)
        return CATransform3DConcat(m, CATransform3DMakeTranslation(position.x, position.y, zPosition + anchorPointZ))
    }

    /// Maps this layer's coordinates to its superlayer's as drawn: the frame's mapping followed by
    /// the superlayer's `sublayerTransform` about the superlayer's anchor point.
    public var transformToSuperlayer: CATransform3D { _transform(toParent: superlayer) }

    /// Citrine extension for renderers (which work on presentation copies, whose `superlayer` is
    /// nil): this layer's coordinates → `parent`'s, as `transformToSuperlayer` computes them.
    public func _transform(toParent parent: CALayer?) -> CATransform3D {
        guard let parent, !CATransform3DIsIdentity(parent.sublayerTransform) else { return geometryTransform }
        return CATransform3DConcat(geometryTransform, parent._aboutAnchorPoint(parent.sublayerTransform))
    }

    /// Citrine extension: `t` acting about this layer's anchor point, as `sublayerTransform` and a
    /// replicator's `instanceTransform` do.
    public func _aboutAnchorPoint(_ t: CATransform3D) -> CATransform3D {
        let ax = bounds.minX + anchorPoint.x * bounds.width, ay = bounds.minY + anchorPoint.y * bounds.height
        return CATransform3DConcat(CATransform3DConcat(CATransform3DMakeTranslation(-ax, -ay, 0), t),
                                   CATransform3DMakeTranslation(ax, ay, 0))
    }

    /// This layer's coordinates → the root's (or nil's: the root layer's superlayer space).
    private var transformToRoot: CATransform3D {
        var m = transformToSuperlayer
        var l = superlayer
        while let s = l {
            m = CATransform3DConcat(m, s.transformToSuperlayer)
            l = s.superlayer
        }
        return m
    }

    /// Converts a point from `layer`'s coordinates (nil: the root's superlayer space) to this one's.
    public func convert(_ p: CGPoint, from layer: CALayer?) -> CGPoint {
        let toRoot = layer?.transformToRoot ?? CATransform3DIdentity
        let q = toRoot._project(x: p.x, y: p.y)
        return rootPointToLocal(CGPoint(x: q.x, y: q.y))
    }

    public func convert(_ p: CGPoint, to layer: CALayer?) -> CGPoint {
        if let layer { return layer.convert(p, from: self) }
        let q = transformToRoot._project(x: p.x, y: p.y)
        return CGPoint(x: q.x, y: q.y)
    }

    public func convert(_ r: CGRect, from layer: CALayer?) -> CGRect {
        boundingBox([CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                     CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY)].map { convert($0, from: layer) })
    }

    public func convert(_ r: CGRect, to layer: CALayer?) -> CGRect {
        boundingBox([CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                     CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY)].map { convert($0, to: layer) })
    }

    private func boundingBox(_ pts: [CGPoint]) -> CGRect {
        let xs = pts.map(\.x), ys = pts.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// Inverse-maps a point of root space into this layer, intersecting the line of sight with the
    /// layer's z = 0 plane (so 3D-rotated layers convert correctly).
    private func rootPointToLocal(_ p: CGPoint) -> CGPoint {
        let m = transformToRoot
        // Solve for (x, y) with z = 0: [x y 0 1]·M projects to p.
        let a11 = m.m11 - p.x * m.m14, a12 = m.m21 - p.x * m.m24, b1 = p.x * m.m44 - m.m41
        let a21 = m.m12 - p.y * m.m14, a22 = m.m22 - p.y * m.m24, b2 = p.y * m.m44 - m.m42
        let det = a11 * a22 - a12 * a21
        guard det != 0 else { return CGPoint(x: CGFloat.nan, y: CGFloat.nan) }
        return CGPoint(x: (b1 * a22 - a12 * b2) / det, y: (a11 * b2 - b1 * a21) / det)
    }

    /// True when `p` (in this layer's coordinates) is inside the bounds.
    open func contains(_ p: CGPoint) -> Bool { bounds.contains(p) }

    /// The farthest descendant (front-most first) containing `p`, given in the *superlayer's*
    /// coordinates, as Apple documents; hidden layers are skipped. Sublayers are tried in front-to-
    /// back drawing order: higher `zPosition` first, then later siblings first (the order in which
    /// Core Animation composites siblings).
    open func hitTest(_ p: CGPoint) -> CALayer? {
        guard !isHidden, opacity > 0 else { return nil }
        let local = superlayer.map { convert(p, from: $0) } ?? convert(p, from: nil)
        if masksToBounds && !contains(local) { return nil }
        let frontToBack = sublayerStorage.indices.sorted {
            (sublayerStorage[$0].zPosition, $0) > (sublayerStorage[$1].zPosition, $1)
        }
        for i in frontToBack {
            if let hit = sublayerStorage[i].hitTest(local) { return hit }
        }
        return contains(local) ? self : nil
    }

    // MARK: - Time

    /// Converts `t` from `layer`'s local time (nil: media time) to this layer's.
    public func convertTime(_ t: CFTimeInterval, from layer: CALayer?) -> CFTimeInterval {
        localTime(fromMediaTime: layer?.mediaTime(fromLocal: t) ?? t)
    }

    public func convertTime(_ t: CFTimeInterval, to layer: CALayer?) -> CFTimeInterval {
        let media = mediaTime(fromLocal: t)
        return layer?.localTime(fromMediaTime: media) ?? media
    }

    func localTime(fromMediaTime t: CFTimeInterval) -> CFTimeInterval {
        // Through the superlayer borrowed, not retained: this runs for every layer every frame.
        let parent = parent?._withUnsafeGuaranteedRef { $0.localTime(fromMediaTime: t) } ?? t
        return TimingModel.localTime(parent, beginTime: _state.beginTime, speed: _state.speed, timeOffset: _state.timeOffset)
    }

    func mediaTime(fromLocal t: CFTimeInterval) -> CFTimeInterval {
        let parent = TimingModel.parentTime(t, beginTime: _state.beginTime, speed: _state.speed, timeOffset: _state.timeOffset)
        return superlayer?.mediaTime(fromLocal: parent) ?? parent
    }

    // MARK: - Tree

    private func isAncestor(of layer: CALayer) -> Bool {
        var l: CALayer? = layer
        while let c = l {
            if c === self { return true }
            l = c.superlayer
        }
        return false
    }

    /// Appends `layer`. Adding an ancestor (which would make a cycle) is refused and does nothing
    /// (Apple raises an exception).
    public func addSublayer(_ layer: CALayer) {
        insertSublayer(layer, at: UInt32(sublayerStorage.count))
    }

    public func insertSublayer(_ layer: CALayer, at idx: UInt32) {
        guard !layer.isAncestor(of: self) else { return }
        layer.removeFromSuperlayer()
        let i = min(Int(idx), sublayerStorage.count)
        sublayerStorage.insert(layer, at: i)
        layer.parent = .passUnretained(self)
        setNeedsLayout()
    }

    public func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        guard let sibling, let i = sublayerStorage.firstIndex(where: { $0 === sibling }) else {
            insertSublayer(layer, at: 0)
            return
        }
        let adjust = layer.superlayer === self && (sublayerStorage.firstIndex { $0 === layer } ?? Int.max) < i ? 1 : 0
        insertSublayer(layer, at: UInt32(i - adjust))
    }

    public func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        guard let sibling, let i = sublayerStorage.firstIndex(where: { $0 === sibling }) else {
            addSublayer(layer)
            return
        }
        let adjust = layer.superlayer === self && (sublayerStorage.firstIndex { $0 === layer } ?? Int.max) < i ? 1 : 0
        insertSublayer(layer, at: UInt32(i + 1 - adjust))
    }

    public func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) {
        guard let i = sublayerStorage.firstIndex(where: { $0 === oldLayer }), !newLayer.isAncestor(of: self) else { return }
        oldLayer.removeFromSuperlayer()
        insertSublayer(newLayer, at: UInt32(i))
    }

    public func removeFromSuperlayer() {
        guard let s = superlayer else { return }
        s.sublayerStorage.removeAll { $0 === self }
        parent = nil
        s.setNeedsLayout()
    }

    // MARK: - Display and layout

    public func setNeedsDisplay() { needsDisplayFlag = true }
    public func setNeedsDisplay(_ r: CGRect) { needsDisplayFlag = true }
    public func needsDisplay() -> Bool { needsDisplayFlag }
    public func displayIfNeeded() { if needsDisplayFlag { display() } }

    /// Updates the contents: the delegate's `display(_:)` if it draws, else `draw(in:)` through the
    /// renderer. Clears the needs-display flag.
    open func display() {
        needsDisplayFlag = false
        delegate?.display(self)
    }

    /// Draws the layer's content (default: asks the delegate).
    open func draw(in ctx: CGContext) { delegate?.draw(self, in: ctx) }

    public func setNeedsLayout() { needsLayoutFlag = true }
    public func needsLayout() -> Bool { needsLayoutFlag }
    public func layoutIfNeeded() {
        if needsLayoutFlag { layoutSublayers() }
        for l in sublayerStorage { l.layoutIfNeeded() }
    }
    open func layoutSublayers() {
        needsLayoutFlag = false
        delegate?.layoutSublayers(of: self)
    }

    /// Whether changing `key` requires redisplay (Apple's class method; false here except for
    /// subclass content keys).
    open class func needsDisplay(forKey key: String) -> Bool { false }

    // MARK: - Change tracking and actions

    private func changed<T>(_ key: String, _ old: T) { propertyChanged(key, old) }

    /// Records a change of property `key` (old value `old`) for the transaction, redisplay and
    /// the implicit action. Subclasses call it from their properties' observers.
    func propertyChanged<T>(_ key: String, _ old: T) {
        guard !applyingPresentation, modelLayer == nil else { return }
        if type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
        CATransaction.layerDidChange(self)
        runAction(forKey: key, oldValue: old)
    }

    /// Looks up and runs the implicit action for a changed property of a committed layer.
    private func runAction(forKey key: String, oldValue: Any) {
        guard createdBeforeCommit < CATransaction.commitCount, !CATransaction.disableActions(),
              type(of: self).propertyRegistry[key]?.isAnimatable == true else { return }
        guard let action = action(forKey: key) else { return }
        if let basic = action as? CABasicAnimation, basic.fromValue == nil, basic.toValue == nil,
           basic.byValue == nil, basic.keyPath == key {
            // The built-in action animates from the old presentation value.
            let fresh = basic.copy() as! CABasicAnimation
            fresh.fromValue = presentationValue(forKey: key, fallback: oldValue)
            fresh.run(forKey: key, object: self, arguments: nil)
            return
        }
        action.run(forKey: key, object: self, arguments: nil)
    }

    private func presentationValue(forKey key: String, fallback: Any) -> Any? {
        guard animationStore.isEmpty == false else { return fallback }
        // The presentation value before this change: evaluate with the old model value.
        let p = type(of: self).init(layer: self)
        p.modelLayer = Unmanaged.passUnretained(self)
        type(of: self).propertyRegistry[key]?.set(p, fallback)
        animationStore.apply(to: &p.state, of: p, at: localTime(fromMediaTime: CACurrentMediaTime()), restoringFrom: nil)
        return p.value(forKeyPath: key)
    }

    /// The action for `event`, searched in Apple's order: delegate, `actions`, `style["actions"]`,
    /// `defaultAction(forKey:)`. `NSNull` anywhere ends the search with no action.
    open func action(forKey event: String) -> CAAction? {
        func resolve(_ a: CAAction?) -> CAAction?? {
            guard let a else { return .none }
            return .some(a is NSNull ? nil : a)
        }
        if let d = delegate, let r = resolve(d.action(for: self, forKey: event)) { return r }
        if let r = resolve(actions?[event]) { return r }
        if let styleActions = style?["actions"] as? [String: CAAction], let r = resolve(styleActions[event]) { return r }
        return type(of: self).defaultAction(forKey: event)
    }

    /// The built-in action: a `CABasicAnimation` of the key with the transaction's duration and
    /// timing function (default curve when none is set), from the previous presentation value.
    open class func defaultAction(forKey event: String) -> CAAction? {
        let a = CABasicAnimation(keyPath: event)
        a.duration = CATransaction.animationDuration()
        a.timingFunction = CATransaction.animationTimingFunction() ?? CAMediaTimingFunction(name: .default)
        return a
    }

    // MARK: - Animations

    /// Adds a copy of `anim` under `key` (replacing, and stopping with finished = false, any
    /// animation under the same key). beginTime 0 means "at the next commit"; duration ≤ 0 takes
    /// the transaction's duration.
    ///
    /// A `CATransition` is always stored under `kCATransition` (Apple: "the special key
    /// kCATransition is automatically used for transition animations") and remembers the layer's
    /// subtree as last presented — the picture it transitions from: a copy of this layer and of
    /// each sublayer (recursively) with its last presented values, leaving out sublayers never
    /// committed (added in this transaction). Types and filters it cannot draw as asked are
    /// reported through `CATransition._diagnostics`.
    public func add(_ anim: CAAnimation, forKey key: String?) {
        let copy = anim.copy() as! CAAnimation
        if copy.duration <= 0 { copy.duration = CATransaction.animationDuration() }
        if let group = copy as? CAAnimationGroup { group.giveChildrenDefaultDuration() }
        if let basic = copy as? CAPropertyAnimation, basic.keyPath == nil, let key { basic.keyPath = key }
        var key = key
        if let transition = copy as? CATransition {
            key = kCATransition
            /// `layer` as last presented, with copies of its committed sublayers.
            func presentedCopy(_ layer: CALayer, depth: Int) -> CALayer {
                let copy = type(of: layer).init(layer: layer.presentationLayer ?? layer)
                guard depth < 64 else { return copy }
                for sub in layer.sublayerStorage where sub.presentationLayer != nil || sub.createdBeforeCommit < CATransaction.commitCount {
                    copy.sublayerStorage.append(presentedCopy(sub, depth: depth + 1))
                    copy.sublayerStorage.last!.parent = .passUnretained(copy)
                }
                return copy
            }
            transition._sourceLayer = presentedCopy(self, depth: 0)
            transition._renderState = nil
            transition._reportUnsupported()
        }
        let replaced = animationStore.add(copy, key: key ?? "__citrine_anonymous_\(animationStore.serial)")
        replaced?.delegate?.animationDidStop(replaced!, finished: false)
        CATransaction.layerDidChange(self)
        if !isRegisteredForEvents {
            isRegisteredForEvents = true
            AnimatedLayerRegistry.register(self)
        }
        CATransaction.animationAdded(to: self)
    }

    public func animation(forKey key: String) -> CAAnimation? { animationStore.animation(forKey: key) }

    /// Citrine extension for renderers: whether any animation is attached, including those added
    /// without a key (which `animationKeys()` does not list).
    public var _hasAnimations: Bool { !animationStore.isEmpty }

    /// Citrine extension for renderers: the earliest media time, from `now` on, at which this
    /// layer's own animations change what it shows — `now` while one runs, waits for its commit
    /// or has ended without its removal shown yet; the begin time of the next one to start;
    /// ∞ when none will change it (finished ones holding their end value, and every one while
    /// the layer's time stands still: speed 0 on it or an ancestor). Time running backwards
    /// (a negative speed on the way up) answers `now`.
    public func _nextChangeTime(afterMediaTime now: CFTimeInterval) -> CFTimeInterval {
        guard !animationStore.isEmpty else { return .infinity }
        var rate = 1.0
        var l: CALayer? = self
        while let layer = l { rate *= Double(layer.speed); l = layer.superlayer }
        let t = localTime(fromMediaTime: now)
        var next = CFTimeInterval.infinity
        for e in animationStore.entries {
            if e.pendingBegin { return now }
            guard rate != 0, e.animation.speed != 0 else { continue }
            if rate < 0 { return now }
            if t < e.animation.beginTime {
                next = min(next, mediaTime(fromLocal: e.animation.beginTime))
            } else if t < e.animation.activeEnd || !e.stopped {
                return now
            }
        }
        return max(next, now)
    }

    /// Citrine extension for renderers: the running transition at media time `now` and its
    /// progress (startProgress…endProgress), if one is in its active period.
    public func _transition(atMediaTime now: CFTimeInterval) -> (transition: CATransition, progress: Float)? {
        guard let transition = animationStore.animation(forKey: kCATransition) as? CATransition,
              let progress = transition._progress(at: localTime(fromMediaTime: now)) else { return nil }
        return (transition, progress)
    }

    public func removeAnimation(forKey key: String) {
        CATransaction.layerDidChange(self)
        if let removed = animationStore.remove(key: key) {
            removed.animation.delegate?.animationDidStop(removed.animation, finished: false)
        }
    }

    public func removeAllAnimations() {
        CATransaction.layerDidChange(self)
        for entry in animationStore.removeAll() {
            entry.animation.delegate?.animationDidStop(entry.animation, finished: false)
        }
    }

    /// Keys of the attached animations, in the order they were added.
    public func animationKeys() -> [String]? {
        let keys = animationStore.keys.filter { !$0.hasPrefix("__citrine_anonymous_") }
        return keys.isEmpty ? nil : keys
    }

    // MARK: - Presentation

    /// A copy of the layer with its animations applied at the current media time (nil until the
    /// layer has been committed). Delegate events due by now are delivered first.
    public func presentation() -> Self? {
        if let modelLayer { return modelLayer.takeUnretainedValue().presentation() as? Self }
        CATransaction.commitImplicitIfNeeded()
        return _presentation(atMediaTime: CACurrentMediaTime())
    }

    /// Citrine extension for renderers: the presentation at media time `now` (a replicator's
    /// instance i evaluates its sublayers at now − i·instanceDelay). Does not commit the implicit
    /// transaction; delivers the delegate events due by `now`.
    public func _presentation(atMediaTime now: CFTimeInterval) -> Self? {
        if let modelLayer { return modelLayer.takeUnretainedValue()._presentation(atMediaTime: now) as? Self }
        prefetchForNextSiblings()
        let t = localTime(fromMediaTime: now)
        if animationStore.hasDueEvents(at: t) { processAnimationEvents(atLocalTime: t) }
        if let owned = ownedPresentation, presentationIsSynced {
            if presentedAt.time == t && owned._withUnsafeGuaranteedRef({ $0.modelVersion }) == presentedAt.version {
                return unsafeDowncast(owned.takeUnretainedValue(), to: Self.self)
            }
            if owned._withUnsafeGuaranteedRef({ p in
                withUnsafeState { model in animationStore.reapplyCompiled(to: &p._state, restoringFrom: model, at: t) }
            }) {
                presentedAt = (t, owned._withUnsafeGuaranteedRef { $0.modelVersion })
                return unsafeDowncast(owned.takeUnretainedValue(), to: Self.self)
            }
        }
        let p: CALayer
        if let existing = presentationLayer { p = existing } else {
            p = type(of: self).init(layer: self)
            p.modelLayer = Unmanaged.passUnretained(self)
            presentationLayer = p
        }
        let restoring = presentationIsSynced
        if !restoring {
            p.copyProperties(from: self)
            presentationSyncedVersion = (modelVersion, animationStore.generation)
        }
        // No observers run: p's setters (subclass and extra keys) see `modelLayer` set and return.
        animationStore.apply(to: &p.state, of: p, at: t, restoringFrom: restoring ? self : nil)
        presentedAt = (t, p.modelVersion)
        // p was made by `type(of: self).init(layer:)`: the cast cannot fail.
        return unsafeDowncast(p, to: Self.self)
    }

    /// Whether `presentationLayer` equals this model except for what its animations write:
    /// nothing changed in the model or its set of animations since the last full copy. Only for
    /// plain `CALayer`s, all of whose copied properties live in `state` and `extraValues`
    /// (subclasses, Citrine's or the app's, may store more, so they are always copied).
    private var presentationIsSynced: Bool {
        type(of: self) == CALayer.self && presentationSyncedVersion.model == modelVersion
            && presentationSyncedVersion.animations == animationStore.generation
    }

    /// Asks the CPU to fetch, while this layer is evaluated, what evaluating the next siblings
    /// will read: the model object two places on, and the presentation copy and compiled program
    /// of the next one (whose model the previous call fetched). Renderers and loops over
    /// `sublayers` evaluate siblings in order; with 100 000 layers each one's data is a chain of
    /// cache misses (model, then copy and program) that the CPU cannot start on its own until the
    /// previous layer is done. Only addresses are read; nothing is retained, and a sibling order
    /// that is not followed costs a few wasted prefetches.
    @inline(__always)
    private func prefetchForNextSiblings() {
        parent?._withUnsafeGuaranteedRef { parent in
            if !parent.sublayerIndicesAreCurrent { parent.numberSublayers() }
            parent.sublayerStorage.withUnsafeBufferPointer { siblings in
                let next = indexInSuperlayer + 1
                guard next < siblings.count else { return }
                // Element addresses as raw words: reading them as references would retain them.
                let words = UnsafeRawPointer(siblings.baseAddress!)
                if next + 1 < siblings.count {
                    let model = words.load(fromByteOffset: (next + 1) * MemoryLayout<CALayer>.stride, as: UnsafeRawPointer.self)
                    for line in 0..<3 { citrine_prefetch(model + 64 * line) }
                }
                let following = words.load(fromByteOffset: next * MemoryLayout<CALayer>.stride, as: UnsafeRawPointer.self)
                Unmanaged<CALayer>.fromOpaque(following)._withUnsafeGuaranteedRef { $0.prefetchPresentationData() }
            }
        }
    }

    /// Prefetches this model's presentation copy and compiled program (their first cache lines).
    @inline(__always)
    private func prefetchPresentationData() {
        if let owned = ownedPresentation {
            let copy = UnsafeRawPointer(owned.toOpaque())
            for line in 0..<2 { citrine_prefetch(copy + 64 * line) }
        }
        if let program = animationStore.programAddress {
            for line in 0..<4 { citrine_prefetch(program + 64 * line) }
        }
    }

    /// Records each sublayer's index (`indexInSuperlayer`) after the sublayers changed.
    private func numberSublayers() {
        for (i, l) in sublayerStorage.enumerated() { l.indexInSuperlayer = i }
        sublayerIndicesAreCurrent = true
    }

    /// The model layer (self for a model layer).
    public func model() -> Self { (modelLayer?.takeUnretainedValue() as? Self) ?? self }

    /// Delivers animationDidStart / animationDidStop events due by media time `now`, in time order,
    /// and removes finished animations with isRemovedOnCompletion.
    func processAnimationEvents(until now: CFTimeInterval) {
        processAnimationEvents(atLocalTime: localTime(fromMediaTime: now))
    }

    private func processAnimationEvents(atLocalTime t: CFTimeInterval) {
        for event in animationStore.dueEvents(at: t) {
            switch event {
            case let .start(a): a.delegate?.animationDidStart(a)
            case let .stop(a): a.delegate?.animationDidStop(a, finished: true)
            }
        }
    }

    /// Gives animations added with beginTime 0 the layer's local time at commit.
    func assignBeginTimes(at mediaTime: CFTimeInterval) {
        animationStore.assignBeginTimes(localTime(fromMediaTime: mediaTime))
    }

    // MARK: - Key-value coding

    /// Default value of a property (Apple's class method).
    open class func defaultValue(forKey key: String) -> Any? {
        let probe = self.init()
        return propertyRegistry[key]?.get(probe)
    }

    open func value(forKey key: String) -> Any? {
        if let p = type(of: self).propertyRegistry[key] { return p.get(self) }
        return extraValues[key]
    }

    open func setValue(_ value: Any?, forKey key: String) {
        if let p = type(of: self).propertyRegistry[key] { p.set(self, value) } else { extraValues[key] = value }
    }

    open func value(forKeyPath keyPath: String) -> Any? { value(at: ParsedKeyPath(keyPath)) }

    open func setValue(_ value: Any?, forKeyPath keyPath: String) { setValue(value, at: ParsedKeyPath(keyPath)) }

    private func value(at path: ParsedKeyPath) -> Any? {
        guard path.hasSubpath else { return value(forKey: path.head) }
        return path.get(AnimatableValue(value(forKey: path.head)))?.value
    }

    private func setValue(_ value: Any?, at path: ParsedKeyPath) {
        guard path.hasSubpath else { return setValue(value, forKey: path.head) }
        setAnimatableValue(AnimatableValue(value), at: path)
    }

    /// Typed key-path access for animations of properties outside `LayerState`.
    func animatableValue(at path: ParsedKeyPath) -> AnimatableValue {
        let whole = type(of: self).propertyRegistry[path.head]?.getValue(self) ?? AnimatableValue(extraValues[path.head])
        return path.get(whole) ?? .discrete(nil)
    }

    func setAnimatableValue(_ value: AnimatableValue, at path: ParsedKeyPath) {
        guard let property = type(of: self).propertyRegistry[path.head] else {
            if !path.hasSubpath { extraValues[path.head] = value.value }
            return
        }
        guard let updated = path.set(property.getValue(self), value) else { return }
        property.setValue(self, updated)
    }

    /// The typed property registry of this class (subclasses merge theirs into super's).
    open class var propertyRegistry: [String: LayerProperty] { LayerProperty.base }
}
