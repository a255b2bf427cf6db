/// A point or vector in a plane, in double precision. Units are whatever space it lives in
/// (user space before a transform, device pixels after it).
public struct Point: Equatable, Hashable, Sendable {
    public var x: Double
    public var y: Double
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }
}

/// An axis-aligned rectangle (origin + size); width and height are non-negative when valid.
public struct Rect: Equatable, Hashable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double
    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    @inlinable public var minX: Double { x }
    @inlinable public var minY: Double { y }
    @inlinable public var maxX: Double { x + width }
    @inlinable public var maxY: Double { y + height }
    @inlinable public var isEmpty: Bool { !(width > 0 && height > 0) }

    /// The smallest rectangle holding every one of `points`; nil when there are none (or none
    /// that compare, all NaN).
    @inlinable public static func bounding(_ points: some Sequence<Point>) -> Rect? {
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for p in points {
            minX = Swift.min(minX, p.x); minY = Swift.min(minY, p.y)
            maxX = Swift.max(maxX, p.x); maxY = Swift.max(maxY, p.y)
        }
        guard minX <= maxX else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

/// An affine transform `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty` — the Core Graphics,
/// Cairo and Skia convention. Composition: `m.concatenating(n)` applies `m` first, then `n`.
public struct Transform: Equatable, Hashable, Sendable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double
    @inlinable public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    @inlinable public var isIdentity: Bool { self == .identity }

    @inlinable public func apply(_ p: Point) -> Point {
        Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }
    /// `self` first, then `t`.
    @inlinable public func concatenating(_ t: Transform) -> Transform {
        Transform(a: a * t.a + b * t.c, b: a * t.b + b * t.d,
                  c: c * t.a + d * t.c, d: c * t.b + d * t.d,
                  tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }
    @inlinable public var determinant: Double { a * d - b * c }
    /// The inverse, or nil when the transform is singular or not finite.
    @inlinable public func inverted() -> Transform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let inv = 1 / det
        return Transform(a: d * inv, b: -b * inv, c: -c * inv, d: a * inv,
                         tx: (c * ty - d * tx) * inv, ty: (b * tx - a * ty) * inv)
    }
}

/// A 3×3 projective transform (homography) acting on column vectors (x, y, 1):
/// `x' = (m00 x + m01 y + m02) / (m20 x + m21 y + m22)`, same for y' with row 1.
/// Stored row-major. An affine `Transform` is the special case m20 = m21 = 0, m22 = 1.
public struct Projective: Equatable, Hashable, Sendable {
    public var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)
    @inlinable public init(_ m00: Double, _ m01: Double, _ m02: Double,
                           _ m10: Double, _ m11: Double, _ m12: Double,
                           _ m20: Double, _ m21: Double, _ m22: Double) {
        m = (m00, m01, m02, m10, m11, m12, m20, m21, m22)
    }
    @inlinable public init(_ t: Transform) {
        self.init(t.a, t.c, t.tx, t.b, t.d, t.ty, 0, 0, 1)
    }
    public static let identity = Projective(1, 0, 0, 0, 1, 0, 0, 0, 1)
    @inlinable public var isAffine: Bool { m.6 == 0 && m.7 == 0 && m.8 == 1 }
    public static func == (l: Projective, r: Projective) -> Bool {
        l.m.0 == r.m.0 && l.m.1 == r.m.1 && l.m.2 == r.m.2 && l.m.3 == r.m.3 && l.m.4 == r.m.4
            && l.m.5 == r.m.5 && l.m.6 == r.m.6 && l.m.7 == r.m.7 && l.m.8 == r.m.8
    }
    public func hash(into h: inout Hasher) {
        for v in [m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, m.8] { h.combine(v) }
    }
}

/// Which points a fill covers: non-zero winding or even-odd (Core Graphics `CGPathFillRule`).
public enum FillRule: Sendable, Equatable {
    case nonZero
    case evenOdd
}
