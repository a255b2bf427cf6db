/// A straight (un-premultiplied) sRGB colour with components in 0…1.
public struct Color: Equatable, Hashable, Sendable {
    public var r: Float, g: Float, b: Float, a: Float
    @inlinable public init(r: Float, g: Float, b: Float, a: Float = 1) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
    /// From 8-bit straight components.
    @inlinable public init(r8: UInt8, g8: UInt8, b8: UInt8, a8: UInt8 = 255) {
        self.init(r: Float(r8) / 255, g: Float(g8) / 255, b: Float(b8) / 255, a: Float(a8) / 255)
    }
    public static let black = Color(r: 0, g: 0, b: 0)
    public static let white = Color(r: 1, g: 1, b: 1)
    public static let clear = Color(r: 0, g: 0, b: 0, a: 0)

    /// Premultiplied 8-bit, each channel rounded to nearest.
    @inlinable public var premultiplied: PremultipliedColor {
        let ca = min(max(a, 0), 1)
        @inline(__always) func q(_ v: Float) -> UInt8 { UInt8(min(max(v, 0), 1) * ca * 255 + 0.5) }
        return PremultipliedColor(r: q(r), g: q(g), b: q(b), a: UInt8(ca * 255 + 0.5))
    }
}

/// One premultiplied RGBA8 pixel as stored in a `Pixmap` (bytes R, G, B, A in memory).
public struct PremultipliedColor: Equatable, Hashable, Sendable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    @inlinable public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
    public static let transparent = PremultipliedColor(r: 0, g: 0, b: 0, a: 0)
    /// Straight colour (divides by alpha; transparent black for a = 0).
    @inlinable public var unpremultiplied: Color {
        guard a > 0 else { return .clear }
        let fa = Float(a)
        return Color(r: Float(r) / fa, g: Float(g) / fa, b: Float(b) / fa, a: fa / 255)
    }
}
