import QuartzCore

/// What a collision behavior's items collide with (Apple's `UICollisionBehavior.Mode`).
extension UICollisionBehavior {
    public struct Mode: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// With each other.
        public static let items = Mode(rawValue: 1 << 0)
        /// With the boundaries.
        public static let boundaries = Mode(rawValue: 1 << 1)
        /// Both (default).
        public static let everything = Mode(rawValue: .max)
    }
}

/// Told when items of a collision behavior start and stop touching (Apple's
/// `UICollisionBehaviorDelegate`). Deviation (no Objective-C optional requirements): every
/// method has an empty default. A boundary made by `translatesReferenceBoundsIntoBoundary`
/// has a nil identifier, as on iOS.
public protocol UICollisionBehaviorDelegate: AnyObject {
    func collisionBehavior(_ behavior: UICollisionBehavior, beganContactFor item1: any UIDynamicItem,
                           with item2: any UIDynamicItem, at p: CGPoint)
    func collisionBehavior(_ behavior: UICollisionBehavior, endedContactFor item1: any UIDynamicItem, with item2: any UIDynamicItem)
    func collisionBehavior(_ behavior: UICollisionBehavior, beganContactFor item: any UIDynamicItem,
                           withBoundaryIdentifier identifier: (any NSCopying)?, at p: CGPoint)
    func collisionBehavior(_ behavior: UICollisionBehavior, endedContactFor item: any UIDynamicItem,
                           withBoundaryIdentifier identifier: (any NSCopying)?)
}

extension UICollisionBehaviorDelegate {
    public func collisionBehavior(_ behavior: UICollisionBehavior, beganContactFor item1: any UIDynamicItem,
                                  with item2: any UIDynamicItem, at p: CGPoint) {}
    public func collisionBehavior(_ behavior: UICollisionBehavior, endedContactFor item1: any UIDynamicItem,
                                  with item2: any UIDynamicItem) {}
    public func collisionBehavior(_ behavior: UICollisionBehavior, beganContactFor item: any UIDynamicItem,
                                  withBoundaryIdentifier identifier: (any NSCopying)?, at p: CGPoint) {}
    public func collisionBehavior(_ behavior: UICollisionBehavior, endedContactFor item: any UIDynamicItem,
                                  withBoundaryIdentifier identifier: (any NSCopying)?) {}
}

/// Items that collide with each other and with boundaries (Apple's `UICollisionBehavior`).
///
/// Boundaries are the reference view's bounds (`translatesReferenceBoundsIntoBoundary`, inset
/// by `setTranslatesReferenceBoundsIntoBoundary(with:)`), line segments and the outlines of
/// paths (curves sampled into 16 segments each), in the reference view's coordinates.
open class UICollisionBehavior: UIDynamicBehavior {
    open private(set) var items: [any UIDynamicItem]
    /// Default `.everything`.
    open var collisionMode: Mode = .everything { didSet { structureDidChange() } }
    /// Whether the reference view's bounds are a boundary. Default false.
    open var translatesReferenceBoundsIntoBoundary = false { didSet { structureDidChange() } }
    open weak var collisionDelegate: (any UICollisionBehaviorDelegate)?
    /// Insets of the reference-bounds boundary.
    private(set) var boundsInsets = UIEdgeInsets.zero
    /// Named boundaries, in the order added.
    private var boundaries: [(identifier: any NSCopying, path: UIBezierPath)] = []

    public init(items: [any UIDynamicItem]) {
        self.items = items
        super.init()
    }

    public convenience override init() { self.init(items: []) }

    open func addItem(_ item: any UIDynamicItem) { add(item, to: &items) }

    open func removeItem(_ item: any UIDynamicItem) { remove(item, from: &items) }

    /// Makes the reference view's bounds, inset by `insets`, a boundary.
    open func setTranslatesReferenceBoundsIntoBoundary(with insets: UIEdgeInsets) {
        boundsInsets = insets
        translatesReferenceBoundsIntoBoundary = true
    }

    /// Adds (or replaces) the boundary `identifier`: the outline of `bezierPath`.
    open func addBoundary(withIdentifier identifier: any NSCopying, for bezierPath: UIBezierPath) {
        boundaries.removeAll { Self.same($0.identifier, identifier) }
        boundaries.append((identifier, UIBezierPath(cgPath: bezierPath.cgPath)))
        structureDidChange()
    }

    /// Adds (or replaces) the boundary `identifier`: the segment from `p1` to `p2`.
    open func addBoundary(withIdentifier identifier: any NSCopying, from p1: CGPoint, to p2: CGPoint) {
        let path = UIBezierPath()
        path.move(to: p1)
        path.addLine(to: p2)
        addBoundary(withIdentifier: identifier, for: path)
    }

    /// The path of boundary `identifier`, if any.
    open func boundary(withIdentifier identifier: any NSCopying) -> UIBezierPath? {
        boundaries.first { Self.same($0.identifier, identifier) }?.path
    }

    open func removeBoundary(withIdentifier identifier: any NSCopying) {
        boundaries.removeAll { Self.same($0.identifier, identifier) }
        structureDidChange()
    }

    /// The identifiers of the added boundaries (not the reference bounds), nil when none.
    open var boundaryIdentifiers: [any NSCopying]? { boundaries.isEmpty ? nil : boundaries.map(\.identifier) }

    open func removeAllBoundaries() {
        boundaries.removeAll()
        structureDidChange()
    }

    /// Whether two identifiers name the same boundary (`isEqual` of objects, as on iOS).
    static func same(_ a: (any NSCopying)?, _ b: (any NSCopying)?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        if let x = a as? NSObject, let y = b as? NSObject { return x.isEqual(y) }
        return (a as AnyObject) === (b as AnyObject)
    }

    override var involvedItems: [any UIDynamicItem] { items }

    /// The boundary shapes, as body polygons in world space: the reference bounds as four
    /// boxes outside them (thick enough that nothing tunnels through), each path as segments.
    func boundaryShapes(referenceBounds: CGRect) -> [(identifier: (any NSCopying)?, vertices: [Vec2])] {
        var shapes: [(identifier: (any NSCopying)?, vertices: [Vec2])] = []
        if translatesReferenceBoundsIntoBoundary {
            let r = referenceBounds.inset(by: boundsInsets)
            if r.width.isFinite, r.height.isFinite, r.width > 0, r.height > 0 {
                let t = max(r.width, r.height) + 1000
                func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [Vec2] {
                    [Vec2(x0, y0), Vec2(x1, y0), Vec2(x1, y1), Vec2(x0, y1)]
                }
                shapes.append((nil, box(r.minX - t, r.maxY, r.maxX + t, r.maxY + t)))  // floor
                shapes.append((nil, box(r.minX - t, r.minY - t, r.maxX + t, r.minY)))  // ceiling
                shapes.append((nil, box(r.minX - t, r.minY - t, r.minX, r.maxY + t)))  // left
                shapes.append((nil, box(r.maxX, r.minY - t, r.maxX + t, r.maxY + t)))  // right
            }
        }
        for (identifier, path) in boundaries {
            for segment in DynamicsShapes.segments(of: path.cgPath) { shapes.append((identifier, segment)) }
        }
        return shapes
    }
}
