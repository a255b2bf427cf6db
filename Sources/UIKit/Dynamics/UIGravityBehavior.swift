import QuartzCore

/// A constant acceleration of its items, whatever their mass (Apple's `UIGravityBehavior`).
///
/// Apple: "A `gravityDirection` vector of (0.0, 1.0) … represents an acceleration of 1000
/// points / second² toward the bottom of the screen" (the UIKit gravity): the acceleration is
/// 1000 × `gravityDirection` points/s², so `magnitude` 1 is 1000 points/s².
open class UIGravityBehavior: UIDynamicBehavior {
    /// Points/s² of a direction vector of length 1 (Apple's documented value).
    public static let acceleration: CGFloat = 1000

    open private(set) var items: [any UIDynamicItem]
    /// Direction and strength, (0, 1) by default (down, magnitude 1).
    open var gravityDirection = CGVector(dx: 0, dy: 1) { didSet { parameterDidChange() } }
    /// The direction's angle in radians (0 = right, π/2 = down).
    open var angle: CGFloat {
        get { atan2(gravityDirection.dy, gravityDirection.dx) }
        set { setAngle(newValue, magnitude: magnitude) }
    }
    /// The direction's length (1 = 1000 points/s²).
    open var magnitude: CGFloat {
        get { (gravityDirection.dx * gravityDirection.dx + gravityDirection.dy * gravityDirection.dy).squareRoot() }
        set { setAngle(angle, magnitude: newValue) }
    }

    public init(items: [any UIDynamicItem]) {
        self.items = items
        super.init()
    }

    public convenience override init() { self.init(items: []) }

    open func setAngle(_ angle: CGFloat, magnitude: CGFloat) {
        gravityDirection = CGVector(dx: magnitude * cos(angle), dy: magnitude * sin(angle))
    }

    open func addItem(_ item: any UIDynamicItem) { add(item, to: &items) }

    open func removeItem(_ item: any UIDynamicItem) { remove(item, from: &items) }

    override var involvedItems: [any UIDynamicItem] { items }

    override func contribute(to step: DynamicsStep) {
        let g = Vec2(gravityDirection.dx, gravityDirection.dy) * Self.acceleration
        guard g.x.isFinite, g.y.isFinite else { return }
        for item in items { step.body(for: item)?.acceleration += g }
    }
}
