import QuartzCore

/// The physical properties of its items, and their velocities (Apple's
/// `UIDynamicItemBehavior`). Items without one have Apple's defaults: elasticity 0, friction 0,
/// density 1, resistance 0, angular resistance 0, rotation allowed, not anchored. When several
/// item behaviors hold an item, the one added last to the animator wins.
open class UIDynamicItemBehavior: UIDynamicBehavior {
    open private(set) var items: [any UIDynamicItem]
    /// Restitution of collisions: 0 (no bounce, default) … 1 (elastic). Two items colliding
    /// use the larger value; an item and a boundary use the item's.
    open var elasticity: CGFloat = 0 { didSet { parameterDidChange() } }
    /// Coulomb friction coefficient: 0 (default, none), 1 strong; higher is stronger. Two items
    /// use the geometric mean of theirs; an item and a boundary use the item's. With friction,
    /// turning in contact also meets a small rolling resistance (0.02 × friction × the normal
    /// force × the item's radius, Box2D 3's model), so that balls come to rest.
    open var friction: CGFloat = 0 { didSet { parameterDidChange() } }
    /// Mass per area: an item's mass is density × width × height / 10 000 (a 100 × 100 item of
    /// density 1 has mass 1, Apple's reference for `UIPushBehavior`). Default 1; values of 0 or
    /// less count as 10⁻⁶ (use `isAnchored` for an item that does not move).
    open var density: CGFloat = 1 { didSet { parameterDidChange() } }
    /// Linear velocity damping, 0 (default) … CGFLOAT_MAX. Apple: at 1.0 "a dynamic item's
    /// motion stops as soon as there is no force applied to it". Citrine damps velocity at
    /// `resistance` × `UIDynamicItemBehavior.resistanceRate` per second (v ← v / (1 + h·rate)
    /// each step), so at 1 a free item's speed falls to e⁻¹ in 0.1 s.
    open var resistance: CGFloat = 0 { didSet { parameterDidChange() } }
    /// Angular velocity damping, the same way. Default 0.
    open var angularResistance: CGFloat = 0 { didSet { parameterDidChange() } }
    /// Whether collisions and offset forces turn the items. Default true.
    open var allowsRotation = true { didSet { parameterDidChange() } }
    /// An anchored item does not move, but others collide with it. Default false.
    open var isAnchored = false { didSet { parameterDidChange() } }
    /// Electric charge, for the electric and magnetic `UIFieldBehavior`s (NaN or ∞ count as
    /// 0). Default 0.
    open var charge: CGFloat = 0 { didSet { parameterDidChange() } }

    /// Damping rate (s⁻¹) of a resistance of 1 (Citrine's choice; see `resistance`).
    public static let resistanceRate: CGFloat = 10

    /// Velocities added before the behavior joined an animator.
    private var pendingLinear: [(item: any UIDynamicItem, velocity: CGPoint)] = []
    private var pendingAngular: [(item: any UIDynamicItem, velocity: CGFloat)] = []

    public init(items: [any UIDynamicItem]) {
        self.items = items
        super.init()
    }

    public convenience override init() { self.init(items: []) }

    open func addItem(_ item: any UIDynamicItem) { add(item, to: &items) }

    open func removeItem(_ item: any UIDynamicItem) { remove(item, from: &items) }

    /// Adds `velocity` (points/s, reference view coordinates) to `item`'s.
    open func addLinearVelocity(_ velocity: CGPoint, for item: any UIDynamicItem) {
        guard velocity.x.isFinite, velocity.y.isFinite else { return }
        if let animator = dynamicAnimator, let body = animator.body(for: item) {
            body.velocity += Vec2(velocity.x, velocity.y)
            animator.resume()
        } else {
            pendingLinear.append((item, velocity))
        }
    }

    /// `item`'s velocity, points/s (zero when it is in no running animator).
    open func linearVelocity(for item: any UIDynamicItem) -> CGPoint {
        guard let body = dynamicAnimator?.body(for: item) else { return .zero }
        return CGPoint(x: body.velocity.x, y: body.velocity.y)
    }

    /// Adds `velocity` (radians/s, positive clockwise on screen) to `item`'s.
    open func addAngularVelocity(_ velocity: CGFloat, for item: any UIDynamicItem) {
        guard velocity.isFinite else { return }
        if let animator = dynamicAnimator, let body = animator.body(for: item) {
            body.angularVelocity += velocity
            animator.resume()
        } else {
            pendingAngular.append((item, velocity))
        }
    }

    /// `item`'s angular velocity, radians/s.
    open func angularVelocity(for item: any UIDynamicItem) -> CGFloat {
        dynamicAnimator?.body(for: item)?.angularVelocity ?? 0
    }

    override var involvedItems: [any UIDynamicItem] { items }

    /// Sets the bodies' materials and hands over the velocities added before.
    func configure(_ step: DynamicsStep) {
        for item in items {
            guard let body = step.body(for: item) else { continue }
            body.elasticity = elasticity.parameter(in: 0...1)
            body.friction = friction.parameter(in: 0...1e6)
            body.linearDamping = damping(resistance)
            body.angularDamping = damping(angularResistance)
            body.charge = charge.isFinite ? Double(charge) : 0
            // NaN density is the default; 0 or less the lightest mass the solver takes.
            let d = density.isNaN ? 1 : density.parameter(in: 1e-6...1e12)
            body.setMass(density: isAnchored ? 0 : d, rotates: allowsRotation)
        }
        for (item, v) in pendingLinear { step.body(for: item)?.velocity += Vec2(v.x, v.y) }
        for (item, w) in pendingAngular { step.body(for: item)?.angularVelocity += w }
        pendingLinear.removeAll()
        pendingAngular.removeAll()
    }

    private func damping(_ r: CGFloat) -> Double {
        guard r > 0 else { return 0 }
        return r.isFinite ? Double(r * Self.resistanceRate) : .greatestFiniteMagnitude
    }
}
