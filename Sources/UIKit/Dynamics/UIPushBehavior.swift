import QuartzCore

/// A force on its items, continuous or once (Apple's `UIPushBehavior`).
///
/// Apple: "A continuous force vector with a magnitude of 1.0, applied to a 100 point x 100
/// point view whose density value is 1.0, results in view acceleration of 100 points / second²"
/// (the UIKit newton). An instantaneous push of magnitude 1 gives that view 100 points/s of
/// velocity at once. Mass is density × area / 10 000 (see `UIDynamicItemBehavior.density`).
open class UIPushBehavior: UIDynamicBehavior {
    /// Apple's `UIPushBehavior.Mode`.
    public enum Mode: Int, Sendable {
        /// The force acts at every step while `active`.
        case continuous = 0
        /// The force acts once, as an impulse, then `active` turns false.
        case instantaneous = 1
    }

    /// UIKit newtons (mass units × points/s²) of a magnitude of 1.
    public static let newton: CGFloat = 100

    open private(set) var items: [any UIDynamicItem]
    public let mode: Mode
    /// Whether the push acts. Default true; an instantaneous push turns it false once applied,
    /// and setting it true again pushes again.
    open var active = true { didSet { if active { parameterDidChange() } } }
    /// Direction and strength (length = magnitude). Default (0, 0): no push.
    open var pushDirection = CGVector(dx: 0, dy: 0) { didSet { parameterDidChange() } }
    /// The direction's angle in radians (0 = right, π/2 = down).
    open var angle: CGFloat {
        get { atan2(pushDirection.dy, pushDirection.dx) }
        set { setAngle(newValue, magnitude: magnitude) }
    }
    /// The force, in UIKit newtons (see the class note).
    open var magnitude: CGFloat {
        get { (pushDirection.dx * pushDirection.dx + pushDirection.dy * pushDirection.dy).squareRoot() }
        set { setAngle(angle, magnitude: newValue) }
    }
    private var offsets: [(item: any UIDynamicItem, offset: UIOffset)] = []

    public init(items: [any UIDynamicItem], mode: Mode) {
        self.items = items
        self.mode = mode
        super.init()
    }

    open func setAngle(_ angle: CGFloat, magnitude: CGFloat) {
        pushDirection = CGVector(dx: magnitude * cos(angle), dy: magnitude * sin(angle))
    }

    /// Where on `item` the force acts, from its centre in its own (unrotated) frame; default
    /// zero (no turning).
    open func targetOffsetFromCenter(for item: any UIDynamicItem) -> UIOffset {
        offsets.first { $0.item === item }?.offset ?? .zero
    }

    open func setTargetOffsetFromCenter(_ o: UIOffset, for item: any UIDynamicItem) {
        offsets.removeAll { $0.item === item }
        offsets.append((item, o))
        parameterDidChange()
    }

    open func addItem(_ item: any UIDynamicItem) { add(item, to: &items) }

    open func removeItem(_ item: any UIDynamicItem) {
        offsets.removeAll { $0.item === item }
        remove(item, from: &items)
    }

    override var involvedItems: [any UIDynamicItem] { items }

    override func contribute(to step: DynamicsStep) {
        guard active else { return }
        let force = Vec2(pushDirection.dx, pushDirection.dy) * Self.newton
        guard force.x.isFinite, force.y.isFinite else { return }
        for item in items {
            guard let body = step.body(for: item) else { continue }
            let o = targetOffsetFromCenter(for: item)
            let r = Vec2(o.horizontal, o.vertical).rotated(body.cosAngle, body.sinAngle)
            switch mode {
            case .continuous:
                body.force += force
                body.torque += r.cross(force)
            case .instantaneous:
                body.applyImpulse(force, at: r)
            }
        }
        if mode == .instantaneous { active = false }
    }
}
