import QuartzCore

/// A damped spring that pulls an item to a point and turns it upright (Apple's
/// `UISnapBehavior`: "a spring-like behavior whose initial motion is damped over time so that
/// the object settles at a specific point").
///
/// Apple documents only `damping` (0 = most oscillation, 1 = least; default 0.5). Citrine's
/// spring: frequency `UISnapBehavior.frequency` (3 Hz) with damping ratio `damping`, on the
/// item's centre and on its angle (towards 0), so with the default an item overshoots by
/// e^(−πζ/√(1−ζ²)) ≈ 16 % and settles within about 4 / (ζ·2π·3 Hz) ≈ 0.4 s.
open class UISnapBehavior: UIDynamicBehavior {
    /// The spring's frequency, Hz (Citrine's choice; see the class note).
    public static let frequency: CGFloat = 3

    let item: any UIDynamicItem
    /// Where the item's centre settles (reference view coordinates).
    open var snapPoint: CGPoint { didSet { parameterDidChange() } }
    /// 0 (most oscillation) … 1 (least). Default 0.5.
    open var damping: CGFloat = 0.5 { didSet { parameterDidChange() } }

    public init(item: any UIDynamicItem, snapTo point: CGPoint) {
        self.item = item
        snapPoint = point
        super.init()
    }

    override var involvedItems: [any UIDynamicItem] { [item] }

    override func contribute(to step: DynamicsStep) {
        guard let index = step.index(of: item), snapPoint.x.isFinite, snapPoint.y.isFinite else { return }
        let zeta = damping.parameter(in: 0...1e6)
        step.add(PhysicsJoint(kind: .point, a: index, b: nil, localA: .zero, localB: Vec2(snapPoint.x, snapPoint.y),
                              frequency: Self.frequency, dampingRatio: zeta))
        step.add(PhysicsJoint(kind: .angle(0), a: index, b: nil, localA: .zero, localB: .zero,
                              frequency: Self.frequency, dampingRatio: zeta))
    }
}
