/// An affine transform `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty` (Apple's layout and
/// meaning). `t1.concatenating(t2)` applies `t1` first, then `t2`.
public struct CGAffineTransform: Equatable, Hashable, Sendable {
    public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat
    @inlinable public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    /// The identity transform.
    public static let identity = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    @inlinable public init() { self = .identity }
}
