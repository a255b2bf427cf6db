import Raster

/// An affine transform `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty` (Apple's layout and
/// meaning). `t1.concatenating(t2)` applies `t1` first, then `t2`.
///
/// As on Apple, the "by" methods (`translatedBy`, `scaledBy`, `rotated(by:)`) put the new
/// operation *before* the existing transform: `t.translatedBy(x:y:)` is
/// `CGAffineTransform(translationX:y:).concatenating(t)`, so a point is first translated, then
/// mapped by `t` (Apple's `CGAffineTransformTranslate` documentation).
public struct CGAffineTransform: Equatable, Hashable, Sendable {
    public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat
    @inlinable public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    /// The identity transform.
    public static let identity = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    @inlinable public init() { self = .identity }

    /// A translation by (`tx`, `ty`).
    @inlinable public init(translationX tx: CGFloat, y ty: CGFloat) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }
    /// A scale by `sx` along x and `sy` along y.
    @inlinable public init(scaleX sx: CGFloat, y sy: CGFloat) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }
    /// A rotation by `angle` radians. Positive angles turn +x towards +y: counter-clockwise in
    /// Core Graphics' default y-up space, clockwise on a y-down (iOS view) screen.
    @inlinable public init(rotationAngle angle: CGFloat) {
        let s = sin(angle), co = cos(angle)
        self.init(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }

    /// True when the transform is exactly the identity.
    @inlinable public var isIdentity: Bool { self == .identity }

    /// `self` first, then `t2` (Apple: "the product t1 × t2").
    @inlinable public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(a: a * t2.a + b * t2.c, b: a * t2.b + b * t2.d,
                          c: c * t2.a + d * t2.c, d: c * t2.b + d * t2.d,
                          tx: tx * t2.a + ty * t2.c + t2.tx, ty: tx * t2.b + ty * t2.d + t2.ty)
    }
    /// A translation by (`tx`, `ty`) followed by `self`.
    @inlinable public func translatedBy(x tx: CGFloat, y ty: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: tx, y: ty).concatenating(self)
    }
    /// A scale by (`sx`, `sy`) followed by `self`.
    @inlinable public func scaledBy(x sx: CGFloat, y sy: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: sx, y: sy).concatenating(self)
    }
    /// A rotation by `angle` radians followed by `self`.
    @inlinable public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }
    /// The inverse; `self` unchanged when the transform is singular (determinant 0) or not
    /// finite, as Apple's `CGAffineTransformInvert` documents.
    public func inverted() -> CGAffineTransform {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return self }
        let inv = 1 / det
        return CGAffineTransform(a: d * inv, b: -b * inv, c: -c * inv, d: a * inv,
                                 tx: (c * ty - d * tx) * inv, ty: (b * tx - a * ty) * inv)
    }
}

extension CGAffineTransform: Codable {
    /// Encoded as an unkeyed container [a, b, c, d, tx, ty], the layout Apple's Foundation uses.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(a: try container.decode(CGFloat.self), b: try container.decode(CGFloat.self),
                  c: try container.decode(CGFloat.self), d: try container.decode(CGFloat.self),
                  tx: try container.decode(CGFloat.self), ty: try container.decode(CGFloat.self))
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for value in [a, b, c, d, tx, ty] { try container.encode(value) }
    }
}

extension CGAffineTransform: CustomStringConvertible {
    public var description: String { "CGAffineTransform(a: \(a), b: \(b), c: \(c), d: \(d), tx: \(tx), ty: \(ty))" }
}

// MARK: - Conversion to the pixel engine (project API)

extension CGAffineTransform {
    /// The same transform as the pixel engine's `Transform` (identical layout).
    @inlinable public var rasterTransform: Transform {
        Transform(a: Double(a), b: Double(b), c: Double(c), d: Double(d), tx: Double(tx), ty: Double(ty))
    }
    /// The same transform as a Core Graphics transform.
    @inlinable public init(_ transform: Transform) {
        self.init(a: CGFloat(transform.a), b: CGFloat(transform.b), c: CGFloat(transform.c),
                  d: CGFloat(transform.d), tx: CGFloat(transform.tx), ty: CGFloat(transform.ty))
    }
}

// MARK: - Applying transforms to geometry (Apple's CGPoint/CGSize/CGRect.applying)

extension CGPoint {
    /// The point mapped by `t`: (a·x + c·y + tx, b·x + d·y + ty).
    @inlinable public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGSize {
    /// The size mapped by the linear part of `t` (no translation): (a·w + c·h, b·w + d·h). As on
    /// Apple, the result can be negative.
    @inlinable public func applying(_ t: CGAffineTransform) -> CGSize {
        CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

extension CGRect {
    /// The smallest rectangle containing the four transformed corners (Apple: "Because affine
    /// transforms do not preserve rectangles in general, this function returns the smallest
    /// rectangle which contains the transformed corner points"). The null rectangle stays null.
    public func applying(_ t: CGAffineTransform) -> CGRect {
        if isNull { return self }
        let corners = [CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY),
                       CGPoint(x: maxX, y: maxY), CGPoint(x: minX, y: maxY)].map { $0.applying(t) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let x0 = xs.min()!, y0 = ys.min()!
        return CGRect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
    }
}
