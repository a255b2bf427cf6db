import QuartzCore

/// A force field acting on its items inside a region (Apple's `UIFieldBehavior`, iOS 9), made
/// by one of the class factories.
///
/// Design note
/// ===========
/// UIFieldBehavior mirrors SpriteKit's `SKFieldNode`; Apple documents its fields' shapes but
/// not their units, so Citrine chooses units that agree with the behaviors Apple does quantify
/// (`UIGravityBehavior`: 1000 points/s² per unit; `UIPushBehavior`: the UIKit newton, mass
/// × points/s², mass = density × area / 10 000). With `d` the item centre's distance from
/// `position`, `m` its mass, `q` its `UIDynamicItemBehavior.charge`, `v` its velocity
/// (points/s) and `s` = `strength`:
///
/// | field | Citrine's rule |
/// |---|---|
/// | linear gravity | acceleration 1000 · s · `direction` points/s² (as `UIGravityBehavior`) |
/// | radial gravity | acceleration 1000 · s points/s² towards `position` (s < 0: away) |
/// | spring | force −4π² · s · (centre − `position`): a mass-1 item swings with period √(m/s) s |
/// | drag | force −s · v (velocity decays as e^(−s·t/m)) |
/// | velocity | the item's velocity is set to s · `direction` points/s at each step, before the step's other forces act |
/// | vortex | force s · \|centre − `position`\| UIKit newtons per point, tangential, anticlockwise on screen for s > 0 (SpriteKit's sense) |
/// | electric | force 1000 · s · q away from `position` (a positive source) |
/// | magnetic | force s · q · (v × ẑ), ẑ out of the screen |
/// | noise | acceleration 1000 · s · n(centre, t), n ∈ [−1, 1]² a smooth value noise |
/// | turbulence | acceleration 10 · s · \|v\| · n(centre, t) |
/// | custom | the force the evaluation block returns, UIKit newtons |
///
/// Every built-in rule but velocity's is multiplied by Apple's falloff, as SKFieldNode
/// documents it ("the force is multiplied by `pow(distance - minRadius, -falloff)`"), with
/// two guards Apple's page implies: inside `minimumRadius` no falloff applies (UIKit: "Falloff
/// is not applied until the distance … is greater than the value in the `minimumRadius`
/// property"), and the base is at least 1 point so the factor never exceeds 1 or goes to
/// infinity near the minimum radius. The default falloff is 0 (Apple: "a uniform field").
///
/// Items outside `region` (tested at their centre relative to `position`) feel nothing.
/// Drag is applied as a velocity damping (v ← v / (1 + h·s/m) per step, the solver's stable
/// form) rather than an explicit force, so a strong drag on a light item never reverses it.
///
/// Noise: a value noise, deterministic for a given time and place: pseudo-random values in
/// [−1, 1] (SplitMix64 of the lattice coordinates, fixed seed) on a lattice of cells of
/// 20 + 480 · `smoothness` points, one lattice step in time every 1/`animationSpeed` seconds
/// of the animator's elapsed time, blended with the smoothstep 3u² − 2u³ in x, y and t.
open class UIFieldBehavior: UIDynamicBehavior {
    enum Kind {
        case none, linearGravity, radialGravity, spring, drag, velocity, vortex, electric, magnetic, noise, turbulence
        case custom((UIFieldBehavior, CGPoint, CGVector, CGFloat, CGFloat, TimeInterval) -> CGVector)
    }

    var kind = Kind.none
    open private(set) var items: [any UIDynamicItem] = []
    /// The field's origin in the reference view's coordinates. Default (0, 0).
    open var position = CGPoint.zero { didSet { parameterDidChange() } }
    /// Where the field acts, relative to `position`. Default `UIRegion.infinite`.
    open var region = UIRegion.infinite { didSet { parameterDidChange() } }
    /// Scales the field's force (see the class note for units); negative reverses it. Default 1.
    open var strength: CGFloat = 1 { didSet { parameterDidChange() } }
    /// Exponent of the decay with distance past `minimumRadius`. Default 0 (no decay).
    open var falloff: CGFloat = 0 { didSet { parameterDidChange() } }
    /// Distance from `position` within which falloff does not apply, points. Default 0.
    open var minimumRadius: CGFloat = 0 { didSet { parameterDidChange() } }
    /// Direction (and size) of linear gravity and velocity fields; zero for the others.
    open var direction = CGVector.zero { didSet { parameterDidChange() } }
    /// Noise and turbulence: 0 (a fine, busy field: 20-point cells) … 1 (500-point cells).
    open var smoothness: CGFloat = 0 { didSet { parameterDidChange() } }
    /// Noise and turbulence: lattice steps per second the field changes by. Default 0 (still).
    open var animationSpeed: CGFloat = 0 { didSet { parameterDidChange() } }

    /// A field that applies no force (Citrine only; on iOS use the factories).
    public required override init() { super.init() }

    private static func make(_ kind: Kind) -> Self {
        let field = Self()
        field.kind = kind
        return field
    }

    /// Uniform gravity along `direction` (Apple: "applies uniformly to all dynamic items with
    /// mass"; `F = ma`).
    open class func linearGravityField(direction: CGVector) -> Self {
        let field = make(.linearGravity)
        field.direction = direction
        return field
    }

    /// Gravity towards `position` (reference view coordinates).
    open class func radialGravityField(position: CGPoint) -> Self {
        let field = make(.radialGravity)
        field.position = position
        return field
    }

    /// Hooke's-law pull towards `position` (Apple: "the amount of force is linearly
    /// proportional to the distance from the center of the field").
    open class func springField() -> Self { make(.spring) }

    /// Friction against the item's velocity (Apple: "proportional to the field's strength
    /// property and the item's current velocity").
    open class func dragField() -> Self { make(.drag) }

    /// Sets the items' velocity (Apple: "overriding any other acceleration forces").
    open class func velocityField(direction: CGVector) -> Self {
        let field = make(.velocity)
        field.direction = direction
        return field
    }

    /// A swirl around `position`.
    open class func vortexField() -> Self { make(.vortex) }

    /// Pushes charged items away from `position` (attracts opposite charges).
    open class func electricField() -> Self { make(.electric) }

    /// Turns moving charged items sideways.
    open class func magneticField() -> Self { make(.magnetic) }

    /// Smooth random accelerations (see the class note for the noise).
    open class func noiseField(smoothness: CGFloat, animationSpeed speed: CGFloat) -> Self {
        let field = make(.noise)
        field.smoothness = smoothness
        field.animationSpeed = speed
        return field
    }

    /// Random accelerations that grow with the item's speed.
    open class func turbulenceField(smoothness: CGFloat, animationSpeed speed: CGFloat) -> Self {
        let field = make(.turbulence)
        field.smoothness = smoothness
        field.animationSpeed = speed
        return field
    }

    /// A field whose force (UIKit newtons) `block` computes for each item in the region at
    /// every step, given the field, the item's centre (reference coordinates), velocity
    /// (points/s), mass, charge and the step's length in seconds (1/120).
    open class func field(evaluationBlock block: @escaping (UIFieldBehavior, CGPoint, CGVector, CGFloat, CGFloat, TimeInterval) -> CGVector) -> Self {
        make(.custom(block))
    }

    open func addItem(_ item: any UIDynamicItem) { add(item, to: &items) }

    open func removeItem(_ item: any UIDynamicItem) { remove(item, from: &items) }

    override var involvedItems: [any UIDynamicItem] { items }

    override func contribute(to step: DynamicsStep) {
        let origin = Vec2(position.x, position.y)
        guard origin.x.isFinite, origin.y.isFinite else { return }
        for item in items {
            guard let body = step.body(for: item), !body.isStatic else { continue }
            let offset = body.position - origin
            guard region.contains(offset) else { continue }
            apply(to: body, offset: offset, h: step.stepLength, time: step.animator.elapsedTime())
        }
    }
}
