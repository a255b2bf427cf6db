import CPrefetch
import Foundation
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
    /// Citrine: whether `draw(_:in:)` draws `layer`'s content, so that the layer needs a
    /// backing store. Apple's Core Animation asks whether the delegate responds to
    /// `drawLayer:inContext:`; a Swift protocol cannot tell an implemented requirement from its
    /// default, so a delegate that knows it draws nothing says so here (UIView does, as UIKit
    /// gives a view a backing store only when it overrides `draw(_:)`). Default: true.
    func _drawsContent(of layer: CALayer) -> Bool
}

public extension CALayerDelegate {
    func display(_ layer: CALayer) {}
    func draw(_ layer: CALayer, in ctx: CGContext) {}
    func layerWillDraw(_ layer: CALayer) {}
    func layoutSublayers(of layer: CALayer) {}
    func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
    func _drawsContent(of layer: CALayer) -> Bool { true }
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

    /// Changes with every write to `state` or `extraValues`. First, right after the object's
    /// header: a presentation copy's reference count (retained for the caller) and this, which
    /// the fast path reads, then share a cache line unless the object starts 48 bytes into one.
    @exclusivity(unchecked) var modelVersion = 0
    /// `superlayer`'s storage: unmanaged rather than `weak`, because a weak reference gives its
    /// target a side table (every retain of the superlayer then takes the slow path) and costs an
    /// atomic load per access, and `presentation()` walks this pointer for every layer every
    /// frame, without retaining. It never dangles: a layer clears its sublayers' pointers in
    /// `deinit`.
    /// Every change invalidates the layers' cached times (`timingDidChange`).
    @exclusivity(unchecked) var parent: Unmanaged<CALayer>? { didSet { CALayer.timingDidChange() } }
    /// This layer's index in its superlayer's `sublayerStorage`, valid while the superlayer's
    /// `sublayerIndicesAreCurrent` (renumbered on demand after the sublayers change). Read every
    /// frame to prefetch the next siblings, so it sits beside `parent`, in the first cache line.
    @exclusivity(unchecked) var indexInSuperlayer = 0
    /// The presentation copy, owned by this model: retained when stored, released when replaced
    /// or in `deinit`. Unmanaged so that the presentation fast path can animate the copy without
    /// retaining it first: its retain (for the caller) then comes last, after the copy's and the
    /// program's cache lines have been requested — a retain is a locked instruction, which no
    /// later memory access may pass, so retaining first made those misses wait for each other.
    @exclusivity(unchecked) var ownedPresentation: Unmanaged<CALayer>?
    var presentationLayer: CALayer? {
        get { ownedPresentation?.takeUnretainedValue() }
        set {
            ownedPresentation?.release()
            ownedPresentation = newValue.map { Unmanaged.passRetained($0) }
        }
    }
    /// The model layer a presentation copy was made from: unmanaged like `parent` (testing it
    /// for nil, every frame, neither retains nor releases), and cleared by the model's `deinit`
    /// (a presentation copy may outlive its model).
    @exclusivity(unchecked) var modelLayer: Unmanaged<CALayer>?
    /// The (modelVersion, animation generation) at which `presentationLayer` was last copied
    /// from this model in full (kept here, so that checking it does not read the copy).
    @exclusivity(unchecked) var presentationSyncedVersion: (model: Int, animations: Int) = (-1, -1)
    /// The local time at which `presentationLayer` was last evaluated, and the copy's own
    /// `modelVersion` right after: while both still hold (and the copy is in sync), asking again
    /// for the same time returns the copy as it is — a renderer asks twice per frame, once to
    /// find what changed and once to draw.
    @exclusivity(unchecked) var presentedAt: (time: CFTimeInterval, version: Int) = (.nan, -1)
    @exclusivity(unchecked) var animationStore = AnimationStore()
    /// `state`'s storage, for the presentation fast path, which writes a presentation copy's
    /// animated fields without counting a change. Its timing, `opacity` and `position` (the
    /// first 40 bytes) end at byte 0xc0 of the object: what the fast path reads of a model is
    /// the object's first 176 bytes (to the end of the timing: three cache lines, four when the
    /// allocator's 16-byte alignment starts the object 48 bytes into a line), and what it
    /// touches of a copy is its header and `modelVersion` and `_state`'s `opacity` and `position`
    /// (`prefetchModelData`, `prefetchPresentationData`).
    @exclusivity(unchecked) var _state = LayerState()
    /// The superlayer's local time at the media time last asked (`localTime(fromMediaTime:)`).
    /// After `_state`: a layer whose superlayer's entry is current neither reads nor writes its
    /// own (`timeOfParent(atMediaTime:)`), so it stays out of the lines read every frame.
    @exclusivity(unchecked) var timeCache = TimeCache()

    // MARK: Geometry
    /// Default .zero.
    /// The layer's rectangle in its superlayer's coordinates: the bounding box of the bounds
    /// mapped by `transform` about the anchor point. Setting it solves for the bounds size through
    /// the transform's linear part (exact for scales and quarter turns; Apple calls other
    /// rotations undefined, where the size is kept) and moves `position` so the box lands on
    /// the given origin. Not animatable (Apple: derived from bounds, position and transform).
    open var frame: CGRect {
        get { frameInSuperlayer }
        set { frameInSuperlayer = newValue }
    }

    open var bounds: CGRect {
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
    open var position: CGPoint {
        get { state.position }
        set { let old = state.position; state.position = newValue; changed("position", old) }
    }
    open var zPosition: CGFloat {
        get { state.zPosition }
        set { let old = state.zPosition; state.zPosition = newValue; changed("zPosition", old) }
    }
    /// In unit coordinates of the bounds. Default (0.5, 0.5).
    open var anchorPoint: CGPoint {
        get { state.anchorPoint }
        set { let old = state.anchorPoint; state.anchorPoint = newValue; changed("anchorPoint", old) }
    }
    open var anchorPointZ: CGFloat {
        get { state.anchorPointZ }
        set { let old = state.anchorPointZ; state.anchorPointZ = newValue; changed("anchorPointZ", old) }
    }
    open var transform: CATransform3D {
        get { state.transform }
        set { let old = state.transform; state.transform = newValue; changed("transform", old) }
    }
    open var sublayerTransform: CATransform3D {
        get { state.sublayerTransform }
        set { let old = state.sublayerTransform; state.sublayerTransform = newValue; changed("sublayerTransform", old) }
    }

    // MARK: Appearance
    open var isHidden: Bool {
        get { state.isHidden }
        set { let old = state.isHidden; state.isHidden = newValue; changed("hidden", old) }
    }
    /// 0…1. Default 1.
    open var opacity: Float {
        get { state.opacity }
        set { let old = state.opacity; state.opacity = newValue; changed("opacity", old) }
    }
    open var backgroundColor: CGColor? {
        get { state.backgroundColor }
        set { let old = state.backgroundColor; state.backgroundColor = newValue; changed("backgroundColor", old) }
    }
    open var borderWidth: CGFloat {
        get { state.borderWidth }
        set { let old = state.borderWidth; state.borderWidth = newValue; changed("borderWidth", old) }
    }
    /// Default opaque black.
    open var borderColor: CGColor? {
        get { state.borderColor }
        set { let old = state.borderColor; state.borderColor = newValue; changed("borderColor", old) }
    }
    open var cornerRadius: CGFloat {
        get { state.cornerRadius }
        set { let old = state.cornerRadius; state.cornerRadius = newValue; changed("cornerRadius", old) }
    }
    /// Default: all four corners.
    open var maskedCorners: CACornerMask {
        get { state.maskedCorners }
        set { let old = state.maskedCorners; state.maskedCorners = newValue; changed("maskedCorners", old) }
    }
    open var masksToBounds: Bool {
        get { state.masksToBounds }
        set { let old = state.masksToBounds; state.masksToBounds = newValue; changed("masksToBounds", old) }
    }
    /// A layer whose alpha masks this layer and its subtree (default nil). Apple: "The layer you
    /// assign to this property must not have a superlayer. If it does, the behavior is
    /// undefined." Citrine refuses such an assignment, and any that would close a cycle — the
    /// layer itself, one of its ancestors, another layer's mask: the property keeps
    /// its value (see `canBeMask(of:)`).
    open var mask: CALayer? {
        get { state.mask }
        set {
            guard newValue !== state.mask else { return }
            if let m = newValue, !m.canBeMask(of: self) { return }
            let old = state.mask
            old?.maskOwner = nil
            newValue?.maskOwner = self
            // A mask's time follows its owner's (`timeParent`).
            CALayer.timingDidChange()
            state.mask = newValue
            changed("mask", old)
        }
    }
    open var isDoubleSided: Bool {
        get { state.isDoubleSided }
        set { let old = state.isDoubleSided; state.isDoubleSided = newValue; changed("doubleSided", old) }
    }
    open var isOpaque: Bool {
        get { state.isOpaque }
        set { let old = state.isOpaque; state.isOpaque = newValue; changed("opaque", old) }
    }
    /// Accepted for source compatibility; drawing is always synchronous here. Default false.
    open var drawsAsynchronously: Bool {
        get { state.drawsAsynchronously }
        set { state.drawsAsynchronously = newValue }
    }
    open var name: String? {
        get { state.name }
        set { state.name = newValue }
    }
    open var style: [AnyHashable: Any]? {
        get { state.style }
        set { state.style = newValue }
    }
    /// Actions by key, consulted after the delegate (nil = keep searching, `NSNull()` = stop).
    open var actions: [String: CAAction]? {
        get { state.actions }
        set { state.actions = newValue }
    }
    /// `@exclusivity(unchecked)`: the renderer reads it for every layer of every frame.
    @exclusivity(unchecked) public weak var delegate: CALayerDelegate?

    // MARK: Contents
    /// A `CGImage` (or nil).
    open var contents: Any? {
        get { state.contents }
        set { let old = state.contents; state.contents = newValue; changed("contents", old) }
    }
    /// Unit rectangle of the contents to show. Default (0, 0, 1, 1).
    open var contentsRect: CGRect {
        get { state.contentsRect }
        set { let old = state.contentsRect; state.contentsRect = newValue; changed("contentsRect", old) }
    }
    /// Stretchable unit rectangle for nine-slice scaling. Default (0, 0, 1, 1).
    open var contentsCenter: CGRect {
        get { state.contentsCenter }
        set { let old = state.contentsCenter; state.contentsCenter = newValue; changed("contentsCenter", old) }
    }
    /// Default `.resize`.
    open var contentsGravity: CALayerContentsGravity {
        get { state.contentsGravity }
        set { let old = state.contentsGravity; state.contentsGravity = newValue; changed("contentsGravity", old) }
    }
    /// Pixels per point of the contents. Default 1.
    open var contentsScale: CGFloat {
        get { state.contentsScale }
        set { let old = state.contentsScale; state.contentsScale = newValue; changed("contentsScale", old) }
    }
    open var needsDisplayOnBoundsChange: Bool {
        get { state.needsDisplayOnBoundsChange }
        set { state.needsDisplayOnBoundsChange = newValue }
    }

    // MARK: Shadow
    /// Default opaque black.
    open var shadowColor: CGColor? {
        get { state.shadowColor }
        set { let old = state.shadowColor; state.shadowColor = newValue; changed("shadowColor", old) }
    }
    /// 0…1. Default 0 (no shadow).
    open var shadowOpacity: Float {
        get { state.shadowOpacity }
        set { let old = state.shadowOpacity; state.shadowOpacity = newValue; changed("shadowOpacity", old) }
    }
    /// Default (0, −3).
    open var shadowOffset: CGSize {
        get { state.shadowOffset }
        set { let old = state.shadowOffset; state.shadowOffset = newValue; changed("shadowOffset", old) }
    }
    /// Default 3.
    open var shadowRadius: CGFloat {
        get { state.shadowRadius }
        set { let old = state.shadowRadius; state.shadowRadius = newValue; changed("shadowRadius", old) }
    }
    open var shadowPath: CGPath? {
        get { state.shadowPath }
        set { let old = state.shadowPath; state.shadowPath = newValue; changed("shadowPath", old) }
    }

    // MARK: Tree
    /// The layer this one is a sublayer of (not retained, as on Apple).
    open var superlayer: CALayer? { parent?.takeUnretainedValue() }
    @exclusivity(unchecked) var sublayerStorage: [CALayer] = [] { didSet { sublayerIndicesAreCurrent = false } }
    /// Whether the sublayers' `indexInSuperlayer` and `sublayerAddresses` describe
    /// `sublayerStorage` (every change to it clears this; `numberSublayers()` sets it).
    @exclusivity(unchecked) var sublayerIndicesAreCurrent = false
    /// `sublayerStorage`'s elements as raw bytes (one address per sublayer), valid while
    /// `sublayerIndicesAreCurrent`: the array's buffer stays where it is until the array changes.
    /// For prefetching the next siblings without retaining the array (reading `sublayerStorage`
    /// of another layer copies it: a retain and a release, two locked instructions per layer).
    @exclusivity(unchecked) var sublayerAddresses = UnsafeRawBufferPointer(start: nil, count: 0)
    /// The layer whose `mask` this layer is (weak: masks are few, and only their owners get the
    /// side table a weak reference needs). A layer has a superlayer or a mask owner, never both.
    weak var maskOwner: CALayer?
    /// The sublayers, back to front.
    open var sublayers: [CALayer]? {
        get { sublayerStorage.isEmpty ? nil : sublayerStorage }
        set {
            CATransaction.sublayersWillChange(self)
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
    @exclusivity(unchecked) var extraValues: [String: Any] = [:] { didSet { modelVersion &+= 1 } }
    /// `@exclusivity(unchecked)`: the renderer asks every layer at every frame.
    @exclusivity(unchecked) public private(set) var needsDisplayFlag = false {
        didSet { if needsDisplayFlag != oldValue { CALayer.layersNeedingDisplay.add(needsDisplayFlag ? 1 : -1, ordering: .relaxed) } }
    }
    /// How many layers, of every tree and thread, need display (`needsDisplayFlag`).
    private static let layersNeedingDisplay = Atomic<Int>(0)
    /// Citrine plumbing for renderers: whether any layer at all needs display — false, no
    /// layer of a tree does, and a renderer need not ask each one.
    package static var anyLayerNeedsDisplay: Bool { layersNeedingDisplay.load(ordering: .relaxed) > 0 }
    public private(set) var needsLayoutFlag = false
    /// Whether a layer below this one (a sublayer's subtree) may need layout (`setNeedsLayout`
    /// marks the superlayers; `layoutIfNeeded` clears it as it goes down). A layer moved into a
    /// tree marks its new superlayer as needing layout (`insertSublayer`), which marks the path.
    var sublayerNeedsLayout = false
    /// Whether `AnimatedLayerRegistry` holds this layer (it has had an animation).
    var isRegisteredForEvents = false
    /// Number of the transaction commit after which this layer counts as committed.
    var createdBeforeCommit: Int
    /// Suppresses implicit actions while copying model values.
    var applyingPresentation = false
    /// A number no other layer made in this process has (presentation copies included), for
    /// renderers that keep something per layer: unlike an `ObjectIdentifier`, it is never
    /// reused after the layer is freed, so checking it needs no `weak` reference (which would
    /// give every layer a side table, and every retain of it the slow path).
    public let _serial: UInt64 = CALayer.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<UInt64>(0)
    /// An app's subclass (`AnimatablePropertyCatalog`): presentation copies are made anew
    /// through `init(layer:)` at every evaluation, as Core Animation does on Apple.
    var makesFreshPresentationCopies = false
    /// Set on a presentation copy that its model replaced by a newer one: the model it came from,
    /// kept alive while the copy is (the current copy's unmanaged `modelLayer` is cleared by the
    /// model's `deinit`; a replaced one is no longer reachable from the model).
    var retiredModel: CALayer?
    /// Made by `init(layer:)`: a "shadow copy" (Apple's term: presentation copies, transition
    /// snapshots). Its property changes — those a subclass's `init(layer:)` makes while copying
    /// included — are not model changes: no transaction, action or redisplay.
    var isShadowCopy = false
    /// The model values of the animatable properties changed in the current transaction, before
    /// their first change (`runAction`), cleared at its commit.
    var previousValues: [String: Any] = [:]

    /// The state's address for the duration of `body`: reading fields through it neither copies
    /// the state nor counts as a change.
    func withUnsafeState<R>(_ body: (UnsafeMutablePointer<LayerState>) -> R) -> R {
        withUnsafeMutablePointer(to: &_state, body)
    }

    /// A layer with Apple's default property values. Not `required`, as on Apple, so a subclass
    /// may write `override init()`.
    public init() {
        createdBeforeCommit = CATransaction.commitSerial
        if type(of: self) != CALayer.self { adoptAnimatableProperties() }
    }

    deinit {
        // The unmanaged back pointers to this layer go with it (`releaseSubtreeIteratively` clears
        // its sublayers'); so does its presentation copy.
        releaseSubtreeIteratively()
        presentationLayer?.modelLayer = nil
        ownedPresentation?.release()
        if isRegisteredForEvents { AnimatedLayerRegistry.unregister(self) }
        if needsDisplayFlag { CALayer.layersNeedingDisplay.subtract(1, ordering: .relaxed) }
    }

    /// A copy of `layer`'s properties (Apple's `init(layer:)`): Core Animation makes presentation
    /// copies through it, so a subclass that overrides it copies its own stored properties there
    /// (calling `super.init(layer:)`), as on Apple (see `copy(of:)` for a subclass without one).
    /// `@Animatable` properties are copied for it.
    public init(layer: Any) {
        createdBeforeCommit = CATransaction.commitSerial
        isShadowCopy = true
        if let other = layer as? CALayer { copyProperties(from: other) }
        if type(of: self) != CALayer.self { adoptAnimatableProperties() }
    }

    /// Archiving is not supported: always nil. Declared `required`, as Apple's `NSSecureCoding`
    /// conformance makes it, so subclasses write the same `required init?(coder:)` as on iOS.
    public required init?(coder: NSCoder) { return nil }

    /// Whether every stored property of the class counts its writes in `modelVersion` (through
    /// `propertyChanged`), so that a presentation evaluated at local time t is still the
    /// presentation at t while the model's version, its animations and the copy's version are
    /// unchanged: a renderer asks twice a frame (its footprints, then its drawing), and a shape
    /// layer's evaluation copies a dozen properties and runs its animations again. QuartzCore's
    /// shape, gradient, replicator and transform layers (not an app's subclass, which gets a
    /// fresh copy at every evaluation as on Apple). A `CGMutablePath` changed in place after it
    /// was assigned to `path` is not a write; Core Animation too sees a layer's properties when
    /// they are set (a transaction commits the changed layers), not such mutations.
    class var presentationFollowsModelVersion: Bool { false }

    /// A new layer of QuartzCore's class nearest to this class: a copy of `layer` through its
    /// `init(layer:)`, or a fresh one through `init()` when nil. Each of QuartzCore's layer
    /// classes overrides it; an app's subclass cannot (it is internal), so on an app's class it
    /// makes the Core Animation class the app's class derives from.
    class func makeCoreAnimationLayer(copying layer: CALayer?) -> CALayer {
        layer.map { CALayer(layer: $0) } ?? CALayer()
    }

    /// A copy of `layer` of the same class, as Core Animation makes presentation copies and
    /// snapshots (`[[layer class] alloc] initWithLayer:]`): through the class's `init(layer:)`
    /// (QuartzCore's, or an app's own or inherited one); for an app's class that declares
    /// initializers of its own without `init(layer:)` — Apple traps there — its stored
    /// properties are copied one by one from `layer` over a copy of its Core Animation part
    /// (`DynamicInstance`).
    static func copy(of layer: CALayer) -> CALayer {
        let layerClass = type(of: layer)
        if AnimatablePropertyCatalog.entry(for: layer).isAppClass,
           DynamicInstance.hasInitLayer(layerClass, trying: layer) {
            return DynamicInstance.layerCallingInitLayer(layerClass, copying: layer)
        }
        let template = layerClass.makeCoreAnimationLayer(copying: layer)
        if type(of: template) == layerClass { return template }
        let copy = DynamicInstance.copy(of: layer, over: template)
        copy.adoptAnimatableProperties()
        return copy
    }

    /// A new layer of `layerClass` (`[[layerClass alloc] init]`: UIKit's views make their
    /// layers so): through its `init()`. A class that declares initializers of its own without
    /// overriding `init()` traps with "Use of unimplemented initializer 'init()'", as on Apple.
    package static func make(_ layerClass: CALayer.Type) -> CALayer {
        let fresh = layerClass.makeCoreAnimationLayer(copying: nil)
        return type(of: fresh) == layerClass ? fresh : DynamicInstance.layerCallingInit(layerClass)
    }

    /// Copies every property (not the tree, not animations) from `other`; subclasses add theirs.
    open func copyProperties(from other: CALayer) {
        applyingPresentation = true
        defer { applyingPresentation = false }
        // One value copy (no key-value boxing, no observers): presentation() does this for every
        // layer every frame.
        // A layer with sublayers that takes other timing changes their times (presentation copies,
        // which have none, are copied every frame and must not invalidate the cached times).
        if !sublayerStorage.isEmpty && !_state.hasSameTiming(as: other._state) { CALayer.timingDidChange() }
        state = other.state
        extraValues = other.extraValues
    }


    // MARK: - Geometry a subclass may override

    /// The preferred size in the superlayer's coordinates (Apple: the bounds size mapped by the
    /// transform, when no layout manager is set — this port has no layout managers).
    open func preferredFrameSize() -> CGSize {
        let t = transform
        let w = bounds.width, h = bounds.height
        return CGSize(width: abs(w * t.m11) + abs(h * t.m21), height: abs(w * t.m12) + abs(h * t.m22))
    }

    /// True when `p` (in this layer's coordinates) is inside the bounds, with Core Graphics'
    /// `CGRectContainsPoint` rule: the minimum edges are inside, the maximum edges are not. NaN in
    /// the bounds or the point contains nothing (every comparison with NaN is false) — compared
    /// here directly, as Foundation's `CGRect.contains` traps on NaN bounds on Linux.
    open func contains(_ p: CGPoint) -> Bool {
        let r = bounds
        let x0 = min(r.origin.x, r.origin.x + r.size.width), x1 = max(r.origin.x, r.origin.x + r.size.width)
        let y0 = min(r.origin.y, r.origin.y + r.size.height), y1 = max(r.origin.y, r.origin.y + r.size.height)
        return p.x >= x0 && p.x < x1 && p.y >= y0 && p.y < y1
    }

    /// The farthest descendant (front-most first) containing `p`, given in the *superlayer's*
    /// coordinates, as Apple documents; hidden layers are skipped. Sublayers are tried in front-to-
    /// back drawing order: higher `zPosition` first, then later siblings first (the order in which
    /// Core Animation composites siblings). Any depth of tree, in time linear in the layers
    /// visited (`HitTestWalk`).
    open func hitTest(_ p: CGPoint) -> CALayer? { HitTestWalk.hitTest(self, p) }

    /// Citrine extension for renderers: whether what the layer shows changes with time without
    /// any animation — an emitter with cells, whose particles move. Renderers count such a
    /// layer as animated (`_hasAnimations`) and changing at every frame (`_nextChangeTime`).
    /// Default false.
    open var _changesWithTime: Bool { false }

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

    /// Marks the layer as needing layout, and its superlayers as holding one that does
    /// (`sublayerNeedsLayout`, up to the first already marked), so that `layoutIfNeeded` finds
    /// it without visiting the rest of the tree.
    public func setNeedsLayout() {
        needsLayoutFlag = true
        var above = superlayer
        while let l = above, !l.sublayerNeedsLayout {
            l.sublayerNeedsLayout = true
            above = l.superlayer
        }
    }
    public func needsLayout() -> Bool { needsLayoutFlag }
    /// Lays out the layer if it needs it, then its sublayers' subtrees in order, each layer
    /// before its sublayers (read after its layout, which may change them); a loop, at any
    /// depth. Apple: "If the receiver or any of its sublayers are marked as needing layout, lays
    /// them out": only the subtrees holding a marked layer are visited, so a tree with none
    /// (a window's at most frames: `UIApplication.advance` asks twice a turn) costs one test and
    /// allocates nothing. A subtree whose mark comes while this runs is laid out by the next call,
    /// as a layer already passed is.
    public func layoutIfNeeded() {
        guard needsLayoutFlag || sublayerNeedsLayout else { return }
        var pending: [CALayer] = [self]
        while let l = pending.popLast() {
            if l.needsLayoutFlag { l.layoutSublayers() }
            guard l.sublayerNeedsLayout else { continue }
            l.sublayerNeedsLayout = false
            for sub in l.sublayerStorage.reversed() where sub.needsLayoutFlag || sub.sublayerNeedsLayout { pending.append(sub) }
        }
    }
    open func layoutSublayers() {
        needsLayoutFlag = false
        delegate?.layoutSublayers(of: self)
    }

    /// Whether changing `key` requires redisplay (Apple's class method; false here except for
    /// subclass content keys).
    open class func needsDisplay(forKey key: String) -> Bool { false }

    // MARK: - Actions

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
    /// None for keys that are not animatable properties of the class (Apple: custom properties
    /// get their animation from `action(forKey:)` overrides, the delegate or `actions`).
    open class func defaultAction(forKey event: String) -> CAAction? {
        guard propertyRegistry[event]?.isAnimatable == true else { return nil }
        let a = CABasicAnimation(keyPath: event)
        a.duration = CATransaction.animationDuration()
        a.timingFunction = CATransaction.animationTimingFunction() ?? CAMediaTimingFunction(name: .default)
        return a
    }

    // MARK: - Key-value coding

    /// The default value of a property (Apple's class method): what a new layer of this class
    /// holds for every registered property (`propertyRegistry`, the CAMediaTiming keys included)
    /// and every `@Animatable` property (its declared initial value, known once a layer of the
    /// class has been made); nil for any other key. Subclasses override it to give custom keys
    /// defaults, as on Apple.
    open class func defaultValue(forKey key: String) -> Any? {
        if let p = propertyRegistry[key] { return p.get(makeCoreAnimationLayer(copying: nil)) }
        guard self != CALayer.self else { return nil }
        return AnimatablePropertyCatalog.knownEntry(for: self)?.initialValues[key]
    }

    /// The value of any property by its key; any other key reads the layer's free-form storage,
    /// or `defaultValue(forKey:)` when it was never set.
    open func value(forKey key: String) -> Any? {
        if let p = type(of: self).propertyRegistry[key] { return p.get(self) }
        return extraValues[key] ?? type(of: self).defaultValue(forKey: key)
    }

    /// Sets a property by its key (ignored when the value does not convert to its type); any
    /// other key goes to the layer's free-form storage. Setting an `@Animatable` property's key
    /// is a change like setting the property (actions, redisplay).
    open func setValue(_ value: Any?, forKey key: String) {
        if let p = type(of: self).propertyRegistry[key] { return p.set(self, value) }
        let old = extraValues[key]
        extraValues[key] = value
        if isAnimatableCustomKey(key) { propertyChanged(key, old as Any) }
    }

    open func value(forKeyPath keyPath: String) -> Any? { value(at: ParsedKeyPath(keyPath)) }

    open func setValue(_ value: Any?, forKeyPath keyPath: String) { setValue(value, at: ParsedKeyPath(keyPath)) }

    /// The typed property registry of this class (subclasses merge theirs into super's).
    open class var propertyRegistry: [String: LayerProperty] { LayerProperty.base }
}
