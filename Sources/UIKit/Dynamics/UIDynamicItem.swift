import QuartzCore

/// The shape a dynamic item collides with (Apple's `UIDynamicItemCollisionBoundsType`).
public enum UIDynamicItemCollisionBoundsType: UInt, Sendable {
    /// The item's `bounds` rectangle, turned with the item (default).
    case rectangle = 0
    /// The ellipse inscribed in the bounds (Citrine: a 32-sided polygon).
    case ellipse = 1
    /// `collisionBoundingPath`: a convex path about the item's centre (Citrine uses the convex
    /// hull of its points, curves sampled).
    case path = 2
}

/// An object a dynamic animator moves and turns (Apple's `UIDynamicItem`): `UIView` is one.
///
/// The animator reads `center`, `bounds` and `transform` when the item joins it (and at
/// `updateItem(usingCurrentState:)`), and writes `center` and `transform` (a rotation) after
/// every step. `center` is in the reference view's coordinates (for views: their superview's,
/// so items are subviews of the reference view, as in Apple's examples).
///
/// Deviation (no Objective-C optional requirements): `collisionBoundsType` and
/// `collisionBoundingPath` have defaults — `.rectangle` and an empty path.
public protocol UIDynamicItem: AnyObject {
    var center: CGPoint { get set }
    var bounds: CGRect { get }
    var transform: CGAffineTransform { get set }
    var collisionBoundsType: UIDynamicItemCollisionBoundsType { get }
    var collisionBoundingPath: UIBezierPath { get }
}

extension UIDynamicItem {
    public var collisionBoundsType: UIDynamicItemCollisionBoundsType { .rectangle }
    public var collisionBoundingPath: UIBezierPath { UIBezierPath() }
}

extension UIView: UIDynamicItem {}
