/// A colour in a colour space (Apple's `CGColor`). Citrine works in sRGB: RGB colours have
/// components [r, g, b, a], gray colours [white, a], all in 0…1.
public final class CGColor: Equatable, Hashable, @unchecked Sendable {
    /// The components including alpha, in the order of the colour space.
    public let components: [CGFloat]?
    public let colorSpace: CGColorSpace?

    /// Alpha, 0…1 (the last component).
    public var alpha: CGFloat { components?.last ?? 1 }
    /// Number of components including alpha.
    public var numberOfComponents: Int { components?.count ?? 0 }

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        components = [red, green, blue, alpha]
        colorSpace = CGColorSpace(name: CGColorSpace.sRGB)
    }
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }
    public init(gray: CGFloat, alpha: CGFloat) {
        components = [gray, alpha]
        colorSpace = CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)
    }
    /// A colour in `space` with `components` (colour components then alpha); nil when the count
    /// does not match the space.
    public init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        let n = space.numberOfComponents + 1
        self.components = Array(UnsafeBufferPointer(start: components, count: n))
        self.colorSpace = space
    }

    /// The same colour with a different alpha.
    public func copy(alpha: CGFloat) -> CGColor? {
        guard var c = components, let space = colorSpace else { return nil }
        c[c.count - 1] = alpha
        return c.withUnsafeBufferPointer { CGColor(colorSpace: space, components: $0.baseAddress!) }
    }

    /// Straight sRGB components (r, g, b, a) of any Citrine colour.
    public var rgba: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat) {
        guard let c = components else { return (0, 0, 0, 0) }
        switch c.count {
        case 2: return (c[0], c[0], c[0], c[1])
        case 4...: return (c[0], c[1], c[2], c[3])
        default: return (0, 0, 0, 1)
        }
    }

    public static let black = CGColor(gray: 0, alpha: 1)
    public static let white = CGColor(gray: 1, alpha: 1)
    public static let clear = CGColor(gray: 0, alpha: 0)

    public static func == (l: CGColor, r: CGColor) -> Bool {
        l.components == r.components && l.colorSpace?.name == r.colorSpace?.name
    }
    public func hash(into h: inout Hasher) { h.combine(components) }
}

/// A colour space. Citrine supports sRGB (also used for device RGB) and gray (gamma 2.2).
public final class CGColorSpace: @unchecked Sendable {
    public enum Model: Sendable { case monochrome, rgb }
    public let name: String?
    public let model: Model
    /// Colour components, excluding alpha.
    public var numberOfComponents: Int { model == .rgb ? 3 : 1 }

    public static let sRGB = "kCGColorSpaceSRGB"
    public static let genericGrayGamma2_2 = "kCGColorSpaceGenericGrayGamma2_2"
    public static let linearSRGB = "kCGColorSpaceLinearSRGB"

    public init?(name: String) {
        switch name {
        case CGColorSpace.sRGB, CGColorSpace.linearSRGB: model = .rgb
        case CGColorSpace.genericGrayGamma2_2: model = .monochrome
        default: return nil
        }
        self.name = name
    }
    private init(model: Model) { self.name = nil; self.model = model }
}

/// Apple's free functions for device colour spaces.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace(name: CGColorSpace.sRGB)! }
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace {
    CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)!
}
