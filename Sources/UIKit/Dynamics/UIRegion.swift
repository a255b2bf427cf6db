import QuartzCore

/// An area of the plane where a field acts (Apple's `UIRegion`, the `region` of a
/// `UIFieldBehavior`): a circle or rectangle centred on the origin, everything, or their
/// inverses, unions, differences and intersections.
///
/// Coordinates: a field tests an item's centre relative to the field's `position` (the region
/// is in the field's own space, as an `SKFieldNode`'s region is in the node's space), so
/// `UIRegion(radius: 50)` is the disc of radius 50 points around the field's position.
/// Apple declares `infinite` and the combinators as returning `Self`; Citrine's `UIRegion` is
/// final, so they return `UIRegion`, which iOS code uses the same way.
public final class UIRegion: Sendable {
    indirect enum Shape: Sendable {
        case infinite
        case disc(radius: Double)
        case rect(halfWidth: Double, halfHeight: Double)
        case inverse(Shape)
        case union(Shape, Shape)
        case difference(Shape, Shape)
        case intersection(Shape, Shape)
    }

    let shape: Shape

    init(shape: Shape) { self.shape = shape }

    /// The disc of `radius` points about the origin. A negative or NaN radius is an empty disc.
    public convenience init(radius: CGFloat) {
        self.init(shape: .disc(radius: radius.isNaN ? -1 : Double(radius)))
    }

    /// The rectangle of `size` centred on the origin (a negative or NaN side is empty).
    public convenience init(size: CGSize) {
        self.init(shape: .rect(halfWidth: size.width.isNaN ? -1 : Double(size.width) / 2,
                               halfHeight: size.height.isNaN ? -1 : Double(size.height) / 2))
    }

    /// The whole plane: the default region of a field.
    public static var infinite: UIRegion { UIRegion(shape: .infinite) }

    /// Every point not in this region.
    public func inverse() -> UIRegion { UIRegion(shape: .inverse(shape)) }

    /// The points in this region or in `region`.
    public func union(with region: UIRegion) -> UIRegion { UIRegion(shape: .union(shape, region.shape)) }

    /// The points in this region and not in `region` (Apple: "the region that is the
    /// difference between the current region and the specified region").
    public func difference(from region: UIRegion) -> UIRegion { UIRegion(shape: .difference(shape, region.shape)) }

    /// The points in both this region and `region`.
    public func intersection(with region: UIRegion) -> UIRegion { UIRegion(shape: .intersection(shape, region.shape)) }

    /// Whether `point` (field coordinates: relative to the origin) is inside.
    public func contains(_ point: CGPoint) -> Bool { Self.contains(shape, Vec2(point.x, point.y)) }

    func contains(_ p: Vec2) -> Bool { Self.contains(shape, p) }

    private static func contains(_ shape: Shape, _ p: Vec2) -> Bool {
        switch shape {
        case .infinite: true
        case .disc(let r): r >= 0 && p.dot(p) <= r * r
        case .rect(let w, let h): abs(p.x) <= w && abs(p.y) <= h
        case .inverse(let s): !contains(s, p)
        case .union(let a, let b): contains(a, p) || contains(b, p)
        case .difference(let a, let b): contains(a, p) && !contains(b, p)
        case .intersection(let a, let b): contains(a, p) && contains(b, p)
        }
    }
}
