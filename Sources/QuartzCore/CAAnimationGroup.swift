/// Several animations run together (Apple's `CAAnimationGroup`). The children's timing is
/// relative to the group: a child's parent time is the group's local time within the current
/// play (eased by the group's timing function), so children are clipped to the group's duration
/// and repeat with it. Children's `isRemovedOnCompletion` and delegates are ignored, as on Apple.
open class CAAnimationGroup: CAAnimation {
    override class func makeCoreAnimationAnimation() -> CAAnimation { CAAnimationGroup() }
    /// The animations run together (default nil). An array that contains this group, directly
    /// or inside a nested group, would make the group a cycle (copying it or applying it would
    /// never end): such an assignment is refused and the property keeps its value (Citrine;
    /// Apple documents nothing).
    public var animations: [CAAnimation]? {
        didSet { if containsItself { animations = oldValue } }
    }

    /// Whether this group is reachable from its own `animations` (an iterative walk of the
    /// nested groups, each visited once).
    private var containsItself: Bool {
        var pending = animations ?? []
        var seen = Set<ObjectIdentifier>()
        while let a = pending.popLast() {
            if a === self { return true }
            guard let group = a as? CAAnimationGroup, seen.insert(ObjectIdentifier(group)).inserted else { continue }
            pending += group.animations ?? []
        }
        return false
    }

    open override class var animationProperties: [String: AnimationProperty] { Self.groupProperties }

    private static let groupProperties = CAAnimation.animationProperties.merging([
        "animations": .init(\CAAnimationGroup.animations, .optional(.same)),
    ]) { $1 }

    open override func copyProperties(from other: CAAnimation) {
        super.copyProperties(from: other)
        animations = (other as? CAAnimationGroup)?.animations?.map { $0.copy() as! CAAnimation }
    }

    /// Children without a duration of their own (≤ 0) last as long as the group, which is how
    /// groups of duration-less animations behave on Apple's platforms.
    func giveChildrenDefaultDuration() {
        for child in animations ?? [] where child.duration <= 0 {
            child.duration = duration
            (child as? CAAnimationGroup)?.giveChildrenDefaultDuration()
        }
    }

    override func apply(to s: inout LayerState, of layer: CALayer, at parentTime: CFTimeInterval) {
        let state = timingState(at: parentTime)
        guard state.isApplied else { return }
        let local = easedFraction(state) * duration
        for child in animations ?? [] { child.apply(to: &s, of: layer, at: local) }
    }

    override func restoreTargets(_ s: inout LayerState, of layer: CALayer, from model: CALayer) {
        for child in animations ?? [] { child.restoreTargets(&s, of: layer, from: model) }
    }
}

/// Names of Apple's value functions.
public struct CAValueFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let rotateX = CAValueFunctionName(rawValue: "rotateX")
    public static let rotateY = CAValueFunctionName(rawValue: "rotateY")
    public static let rotateZ = CAValueFunctionName(rawValue: "rotateZ")
    public static let scale = CAValueFunctionName(rawValue: "scale")
    public static let scaleX = CAValueFunctionName(rawValue: "scaleX")
    public static let scaleY = CAValueFunctionName(rawValue: "scaleY")
    public static let scaleZ = CAValueFunctionName(rawValue: "scaleZ")
    public static let translate = CAValueFunctionName(rawValue: "translate")
    public static let translateX = CAValueFunctionName(rawValue: "translateX")
    public static let translateY = CAValueFunctionName(rawValue: "translateY")
    public static let translateZ = CAValueFunctionName(rawValue: "translateZ")
}

/// Turns interpolated scalars (or 3-vectors as arrays) into a `CATransform3D`
/// (Apple's `CAValueFunction`), e.g. `rotateZ` maps an angle to a z rotation.
public final class CAValueFunction: @unchecked Sendable {
    public let name: CAValueFunctionName

    public init?(name: CAValueFunctionName) {
        let known: [CAValueFunctionName] = [.rotateX, .rotateY, .rotateZ, .scale, .scaleX, .scaleY, .scaleZ,
                                            .translate, .translateX, .translateY, .translateZ]
        guard known.contains(name) else { return nil }
        self.name = name
    }

    func apply(_ v: AnimatableValue) -> AnimatableValue {
        let xs: [CGFloat]
        switch v {
        case let .number(n): xs = [CGFloat(n)]
        case let .array(a): xs = a.compactMap { if case let .number(n) = $0 { return CGFloat(n) } else { return nil } }
        default: return v
        }
        let x = xs.first ?? 0
        let vec = xs.count >= 3 ? (xs[0], xs[1], xs[2]) : (x, x, x)
        switch name {
        case .rotateX: return .transform(CATransform3DMakeRotation(x, 1, 0, 0))
        case .rotateY: return .transform(CATransform3DMakeRotation(x, 0, 1, 0))
        case .rotateZ: return .transform(CATransform3DMakeRotation(x, 0, 0, 1))
        case .scale: return .transform(CATransform3DMakeScale(vec.0, vec.1, vec.2))
        case .scaleX: return .transform(CATransform3DMakeScale(x, 1, 1))
        case .scaleY: return .transform(CATransform3DMakeScale(1, x, 1))
        case .scaleZ: return .transform(CATransform3DMakeScale(1, 1, x))
        case .translate: return .transform(CATransform3DMakeTranslation(vec.0, vec.1, vec.2))
        case .translateX: return .transform(CATransform3DMakeTranslation(x, 0, 0))
        case .translateY: return .transform(CATransform3DMakeTranslation(0, x, 0))
        default: return .transform(CATransform3DMakeTranslation(0, 0, x))
        }
    }
}
