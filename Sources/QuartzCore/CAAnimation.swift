import Foundation

/// Methods a Core Animation animation calls on its delegate (Apple's `CAAnimationDelegate`).
/// Linux has no optional protocol requirements, so both have empty default implementations.
public protocol CAAnimationDelegate: AnyObject {
    /// The animation's active duration began (sent once, at the first commit, frame or
    /// `presentation()` whose time is past the animation's begin time).
    func animationDidStart(_ anim: CAAnimation)
    /// The animation ended: `flag` is true when it reached the end of its active duration, false
    /// when it was removed or replaced before that.
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

public extension CAAnimationDelegate {
    func animationDidStart(_ anim: CAAnimation) {}
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// The abstract animation class (Apple's `CAAnimation`): timing, timing function, delegate and
/// free-form key-value storage. Adding an animation to a layer copies it, so changing an
/// animation after `add(_:forKey:)` has no effect on the running copy (Apple's documented rule).
open class CAAnimation: CAMediaTiming {
    public var beginTime: CFTimeInterval {
        get { timing.beginTime }
        set { timing.beginTime = newValue }
    }
    /// Seconds; 0 (the default) means the transaction's duration (0.25 s) when added to a layer.
    public var duration: CFTimeInterval {
        get { timing.duration }
        set { timing.duration = newValue }
    }
    public var speed: Float {
        get { timing.speed }
        set { timing.speed = newValue }
    }
    public var timeOffset: CFTimeInterval {
        get { timing.timeOffset }
        set { timing.timeOffset = newValue }
    }
    public var repeatCount: Float {
        get { timing.repeatCount }
        set { timing.repeatCount = newValue }
    }
    public var repeatDuration: CFTimeInterval {
        get { timing.repeatDuration }
        set { timing.repeatDuration = newValue }
    }
    public var autoreverses: Bool {
        get { timing.autoreverses }
        set { timing.autoreverses = newValue }
    }
    public var fillMode: CAMediaTimingFillMode = .removed { didSet { timing.setFillMode(fillMode) } }
    /// The timing properties in one value, read once per evaluation.
    private(set) var timing = TimingModel.Parameters()
    /// Remove the animation from its layer when its active duration ends. Default true.
    public var isRemovedOnCompletion: Bool = true
    /// Pacing of each play; nil means linear.
    public var timingFunction: CAMediaTimingFunction?
    /// Strongly retained, as Apple documents for `CAAnimation.delegate`.
    public var delegate: CAAnimationDelegate?
    /// The frame rate the animation would like (Apple, iOS 15). Default `.default` (the
    /// system's choice). Recorded and copied; Citrine's frame rate is the renderer's or the
    /// display link's, so it changes nothing on screen.
    public var preferredFrameRateRange: CAFrameRateRange = .default

    private var extraValues: [String: Any] = [:]

    /// A new animation with Apple's defaults. Not `required`, as on Apple, so a subclass may
    /// write `override init()`.
    public init() {}

    /// Archiving is not supported: always nil. `required`, as Apple's `NSSecureCoding`
    /// conformance makes it, so subclasses write the same `required init?(coder:)` as on iOS.
    public required init?(coder: NSCoder) { return nil }

    /// A new animation of QuartzCore's class nearest to this class, through its `init()`. Each
    /// of QuartzCore's animation classes overrides it; an app's subclass cannot (it is
    /// internal), so on an app's class it makes the Core Animation class it derives from.
    class func makeCoreAnimationAnimation() -> CAAnimation { CAAnimation() }

    /// A new animation (Apple's `+animation` factory, `[[self alloc] init]`): through the
    /// class's own `init()`. A class that declares initializers of its own without overriding
    /// `init()` traps with "Use of unimplemented initializer 'init()'", as on Apple.
    public class func animation() -> Self {
        let fresh = makeCoreAnimationAnimation()
        return unsafeDowncast(type(of: fresh) == self ? fresh : DynamicInstance.animationCallingInit(self), to: Self.self)
    }

    /// The default value of a property (Apple's `defaultValue(forKey:)`): the value of a fresh
    /// animation for the keys of `animationProperties`, nil for any other key.
    open class func defaultValue(forKey key: String) -> Any? {
        guard let property = animationProperties[key] else { return nil }
        return property.get(makeCoreAnimationAnimation())
    }

    /// Whether the value for `key` is archived; always true here.
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    /// Key-value access: every property by Apple's key name (`animationProperties`), any other
    /// key from free-form storage (the seeds tag animations with their own keys this way), with
    /// `defaultValue(forKey:)` for keys never set.
    open func value(forKey key: String) -> Any? {
        if let property = type(of: self).animationProperties[key] { return property.get(self) }
        return extraValues[key] ?? type(of: self).defaultValue(forKey: key)
    }

    /// Sets a property by Apple's key name (ignored when the value does not convert to its type,
    /// or the property is read-only), or stores any other key.
    open func setValue(_ value: Any?, forKey key: String) {
        if let property = type(of: self).animationProperties[key] {
            property.set?(self, value)
        } else {
            extraValues[key] = value
        }
    }

    /// The properties key-value coding reaches by name; subclasses extend their superclass's.
    open class var animationProperties: [String: AnimationProperty] { Self.timingProperties }

    private static let timingProperties: [String: AnimationProperty] = [
        "beginTime": .init(\CAAnimation.beginTime, .number),
        "duration": .init(\CAAnimation.duration, .number),
        "speed": .init(\CAAnimation.speed, .number),
        "timeOffset": .init(\CAAnimation.timeOffset, .number),
        "repeatCount": .init(\CAAnimation.repeatCount, .number),
        "repeatDuration": .init(\CAAnimation.repeatDuration, .number),
        "autoreverses": .init(\CAAnimation.autoreverses, .bool),
        "fillMode": .init(\CAAnimation.fillMode, .rawString),
        "removedOnCompletion": .init(\CAAnimation.isRemovedOnCompletion, .bool),
        "timingFunction": .init(\CAAnimation.timingFunction, .optional(.same)),
        "delegate": .init(\CAAnimation.delegate, .optional(.same)),
        "preferredFrameRateRange": .init(\CAAnimation.preferredFrameRateRange, .same),
    ]

    /// A copy with the same properties, of the same class (Apple's `NSCopying`; `zone` is
    /// ignored). Adding an animation to a layer copies it through this. QuartzCore's classes
    /// copy through `copyProperties(from:)`; an app's subclass gets its own stored properties
    /// copied one by one over that (`DynamicInstance`), no initializer of its own called, and
    /// may still override this as on iOS (`let c = super.copy(with: zone) as! Self; …`).
    open func copy(with zone: NSZone? = nil) -> Any {
        let template = type(of: self).makeCoreAnimationAnimation()
        template.copyProperties(from: self)
        return type(of: template) == type(of: self) ? template : DynamicInstance.copy(of: self, over: template)
    }

    /// `copy(with: nil)`, as NSObject's `copy()`.
    open func copy() -> Any { copy(with: nil) }

    /// The same as `copy()`: animations are not mutable/immutable pairs (on Apple, NSObject's
    /// `mutableCopy()` of an animation has no NSMutableCopying to call).
    public func mutableCopy() -> Any { copy(with: nil) }

    /// Copies this class's stored properties from `other`; subclasses override and call super.
    open func copyProperties(from other: CAAnimation) {
        timing = other.timing; fillMode = other.fillMode; isRemovedOnCompletion = other.isRemovedOnCompletion
        timingFunction = other.timingFunction; delegate = other.delegate
        preferredFrameRateRange = other.preferredFrameRateRange
        extraValues = other.extraValues
    }

    // MARK: - Evaluation (internal)

    /// The timing state at `parentTime` (the layer's local time, or a group's).
    func timingState(at parentTime: CFTimeInterval) -> TimingModel.State {
        TimingModel.state(at: parentTime, timing)
    }

    /// The eased fraction of the current play.
    func easedFraction(_ state: TimingModel.State) -> Double {
        timingFunction?._solve(forInput: state.fraction) ?? state.fraction
    }

    /// Applies the animation's effect at `parentTime` to a presentation copy: to `s`, the
    /// presentation's `LayerState` (held for the whole pass), and to `layer`, the presentation
    /// itself, for properties stored outside that state. The base class has no effect.
    func apply(to s: inout LayerState, of layer: CALayer, at parentTime: CFTimeInterval) {}

    /// Copies the model's values of everything this animation writes back into the presentation
    /// `s`/`layer`, so a presentation kept from the previous frame can be re-animated without a
    /// full copy. The base class writes nothing.
    func restoreTargets(_ s: inout LayerState, of layer: CALayer, from model: CALayer) {}

    /// End of the active period in parent time (∞ for endless animations).
    var activeEnd: CFTimeInterval {
        let t = timing
        return t.speed == 0 ? .infinity : t.beginTime + TimingModel.activeDuration(t) / abs(CFTimeInterval(t.speed))
    }
}

/// An animation of one layer property named by a key path (Apple's `CAPropertyAnimation`).
open class CAPropertyAnimation: CAAnimation {
    override class func makeCoreAnimationAnimation() -> CAAnimation { CAPropertyAnimation() }
    /// The animated key path, e.g. "position", "transform.rotation.z".
    public var keyPath: String? { didSet { target = nil } }
    /// Add the animated value to the current value instead of replacing it. Default false.
    public var isAdditive = false
    /// Each repeat continues from where the previous ended. Default false.
    public var isCumulative = false
    /// Applies the interpolated scalar or vector through a transform function.
    public var valueFunction: CAValueFunction?
    /// Where `keyPath` points, resolved on first evaluation (an added animation belongs to one
    /// layer, so one layer class).
    private var target: AnimationTarget?

    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    open override func copyProperties(from other: CAAnimation) {
        super.copyProperties(from: other)
        guard let o = other as? CAPropertyAnimation else { return }
        keyPath = o.keyPath; isAdditive = o.isAdditive; isCumulative = o.isCumulative
        valueFunction = o.valueFunction
    }

    open override class var animationProperties: [String: AnimationProperty] { Self.propertyAnimationProperties }

    private static let propertyAnimationProperties = CAAnimation.animationProperties.merging([
        "keyPath": .init(\CAPropertyAnimation.keyPath, .optional(.same)),
        "additive": .init(\CAPropertyAnimation.isAdditive, .bool),
        "cumulative": .init(\CAPropertyAnimation.isCumulative, .bool),
        "valueFunction": .init(\CAPropertyAnimation.valueFunction, .optional(.same)),
    ]) { $1 }

    /// The value of one play at eased fraction `f`, or nil for no effect; subclasses override.
    /// `current` is the presentation value so far.
    func value(atFraction f: Double, current: AnimatableValue) -> AnimatableValue? { nil }

    /// The value for timing state `state` (default: the value at the eased fraction; springs
    /// follow their own clock).
    func value(at state: TimingModel.State, current: AnimatableValue) -> AnimatableValue? {
        value(atFraction: easedFraction(state), current: current)
    }

    /// What one whole play adds, for cumulative repeats (end − start).
    func cumulativeStep(current: AnimatableValue) -> AnimatableValue? { nil }

    func resolvedTarget(in layer: CALayer) -> AnimationTarget {
        if let target { return target }
        let resolved = keyPath.map { AnimationTarget(ParsedKeyPath($0), in: type(of: layer)) } ?? .none
        target = resolved
        return resolved
    }

    override func apply(to s: inout LayerState, of layer: CALayer, at parentTime: CFTimeInterval) {
        let target = resolvedTarget(in: layer)
        if case .none = target { return }
        let state = timingState(at: parentTime)
        guard state.isApplied else { return }
        let current = target.value(in: s, of: layer)
        guard var v = value(at: state, current: current) else { return }
        if isCumulative && state.iteration > 0, let step = cumulativeStep(current: current) {
            v = AnimatableValue.add(v, AnimatableValue.repeated(step, state.iteration))
        }
        if let valueFunction { v = valueFunction.apply(v) }
        if isAdditive { v = AnimatableValue.add(current, v) }
        target.set(v, in: &s, of: layer)
    }

    override func restoreTargets(_ s: inout LayerState, of layer: CALayer, from model: CALayer) {
        resolvedTarget(in: layer).restore(&s, of: layer, from: model)
    }
}

/// Where an animation's key path points in a layer class: a `LayerState` field (with the
/// component of its value the key path names), another registered or extra property of the
/// layer, or nothing an animation can change (`frame`, which Apple derives and never animates).
enum AnimationTarget {
    case state(StateField, ParsedKeyPath)
    /// `whole` names the property itself (for restoring), `path` the animated part of it.
    case layer(whole: ParsedKeyPath, path: ParsedKeyPath)
    case none

    init(_ path: ParsedKeyPath, in layerClass: CALayer.Type) {
        let property = layerClass.propertyRegistry[path.head]
        if let field = property?.field {
            self = .state(field, path)
        } else if property?.isDerived == true {
            self = .none
        } else {
            self = .layer(whole: ParsedKeyPath(path.head), path: path)
        }
    }

    func value(in s: borrowing LayerState, of layer: CALayer) -> AnimatableValue {
        switch self {
        case let .state(field, path): return path.get(field.value(in: s)) ?? .discrete(nil)
        case let .layer(_, path): return layer.animatableValue(at: path)
        case .none: return .discrete(nil)
        }
    }

    func set(_ v: AnimatableValue, in s: inout LayerState, of layer: CALayer) {
        switch self {
        case let .state(field, path):
            guard path.hasSubpath else { return field.set(v, in: &s) }
            if let whole = path.set(field.value(in: s), v) { field.set(whole, in: &s) }
        case let .layer(_, path): layer.setAnimatableValue(v, at: path)
        case .none: break
        }
    }

    func restore(_ s: inout LayerState, of layer: CALayer, from model: CALayer) {
        switch self {
        case let .state(field, _): model.withUnsafeState { field.copy(from: $0, to: &s) }
        case let .layer(whole, _): layer.setAnimatableValue(model.animatableValue(at: whole), at: whole)
        case .none: break
        }
    }
}

/// Interpolates between two values of a property (Apple's `CABasicAnimation`). Which values are
/// used, per Apple's documentation:
///
/// | set          | interpolates between                                  |
/// |--------------|-------------------------------------------------------|
/// | from, to     | fromValue → toValue                                   |
/// | from, by     | fromValue → fromValue + byValue                       |
/// | by, to       | toValue − byValue → toValue                           |
/// | from         | fromValue → the current presentation value            |
/// | to           | the current presentation value → toValue              |
/// | by           | current → current + byValue (additive on current)     |
/// | none         | previous presentation value → current value (needs the layer's record; here: current → current) |
open class CABasicAnimation: CAPropertyAnimation {
    override class func makeCoreAnimationAnimation() -> CAAnimation { CABasicAnimation() }
    public var fromValue: Any?
    public var toValue: Any?
    public var byValue: Any?

    private var cache: (from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?)?

    open override func copyProperties(from other: CAAnimation) {
        super.copyProperties(from: other)
        guard let o = other as? CABasicAnimation else { return }
        fromValue = o.fromValue; toValue = o.toValue; byValue = o.byValue
    }

    open override class var animationProperties: [String: AnimationProperty] { Self.basicProperties }

    private static let basicProperties = CAPropertyAnimation.animationProperties.merging([
        "fromValue": .init(\CABasicAnimation.fromValue, .same),
        "toValue": .init(\CABasicAnimation.toValue, .same),
        "byValue": .init(\CABasicAnimation.byValue, .same),
    ]) { $1 }

    var typed: (from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?) {
        if let cache { return cache }
        let t = (fromValue.map { AnimatableValue($0) }, toValue.map { AnimatableValue($0) },
                 byValue.map { AnimatableValue($0) })
        cache = t
        return t
    }

    /// One end of the interpolation: a fixed value, or the current presentation value plus an
    /// optional offset.
    enum Endpoint {
        case fixed(AnimatableValue)
        case current(plus: AnimatableValue?)

        func value(current: AnimatableValue) -> AnimatableValue {
            switch self {
            case let .fixed(v): v
            case let .current(plus: offset?): AnimatableValue.add(current, offset)
            case .current(plus: nil): current
            }
        }
    }

    /// Where the start and the end come from: the table above.
    var endpointSources: (start: Endpoint, end: Endpoint) {
        switch typed {
        case let (f?, t?, _): (.fixed(f), .fixed(t))
        case let (f?, nil, b?): (.fixed(f), .fixed(AnimatableValue.add(f, b)))
        case let (nil, t?, b?): (.fixed(AnimatableValue.difference(t, b)), .fixed(t))
        case let (f?, nil, nil): (.fixed(f), .current(plus: nil))
        case let (nil, t?, nil): (.current(plus: nil), .fixed(t))
        case let (nil, nil, b?): (.current(plus: nil), .current(plus: b))
        default: (.current(plus: nil), .current(plus: nil))
        }
    }

    /// Start and end values for the current presentation value `current`.
    func endpoints(current: AnimatableValue) -> (AnimatableValue, AnimatableValue) {
        let (start, end) = endpointSources
        return (start.value(current: current), end.value(current: current))
    }

    override func value(atFraction f: Double, current: AnimatableValue) -> AnimatableValue? {
        let (a, b) = endpoints(current: current)
        return AnimatableValue.interpolate(a, b, f)
    }

    override func cumulativeStep(current: AnimatableValue) -> AnimatableValue? {
        let (a, b) = endpoints(current: current)
        return AnimatableValue.difference(b, a)
    }
}
