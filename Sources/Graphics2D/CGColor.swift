import Raster

/// A colour in a colour space (Apple's `CGColor`). Citrine works in sRGB: RGB colours have
/// components [r, g, b, a], gray colours [white, a], all nominally in 0…1 (values outside are
/// kept, as Apple's extended ranges are, and clamped when drawing).
public final class CGColor: Equatable, Hashable, CustomStringConvertible, @unchecked Sendable {
    /// The components including alpha, in the order of the colour space.
    public let components: [CGFloat]?
    public let colorSpace: CGColorSpace?

    /// Alpha, 0…1 (the last component).
    public var alpha: CGFloat { components?.last ?? 1 }
    /// Number of components including alpha.
    public var numberOfComponents: Int { components?.count ?? 0 }

    /// An sRGB colour (Citrine has no separate generic RGB space).
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        components = [red, green, blue, alpha]
        colorSpace = CGColorSpace(name: CGColorSpace.sRGB)
    }
    /// An sRGB colour.
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }
    /// A gray colour (gamma 2.2 gray space; drawn as the sRGB gray with equal components).
    public init(gray: CGFloat, alpha: CGFloat) {
        components = [gray, alpha]
        colorSpace = CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)
    }
    /// A gray colour (Apple's `CGColor(genericGrayGamma2_2Gray:alpha:)`).
    public convenience init(genericGrayGamma2_2Gray gray: CGFloat, alpha: CGFloat) {
        self.init(gray: gray, alpha: alpha)
    }
    /// A colour in `space` with `components` (colour components then alpha, i.e.
    /// `space.numberOfComponents + 1` values).
    public init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        let n = space.numberOfComponents + 1
        self.components = Array(UnsafeBufferPointer(start: components, count: n))
        self.colorSpace = space
    }

    /// The same colour with a different alpha.
    public func copy(alpha: CGFloat) -> CGColor? {
        guard var c = components, let space = colorSpace, !c.isEmpty else { return nil }
        c[c.count - 1] = alpha
        return c.withUnsafeBufferPointer { CGColor(colorSpace: space, components: $0.baseAddress!) }
    }

    /// Straight sRGB components (r, g, b, a) of any Citrine colour (project API).
    public var rgba: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat) {
        guard let c = components else { return (0, 0, 0, 0) }
        switch c.count {
        case 2: return (c[0], c[0], c[0], c[1])
        case 4...: return (c[0], c[1], c[2], c[3])
        default: return (0, 0, 0, 1)
        }
    }

    /// The pixel engine's straight colour, components clamped to 0…1 (NaN → 0) (project API).
    public var rasterColor: Color {
        let (r, g, b, a) = rgba
        func unit(_ v: CGFloat) -> Float { v.isNaN ? 0 : Float(min(max(v, 0), 1)) }
        return Color(r: unit(r), g: unit(g), b: unit(b), a: unit(a))
    }

    /// Opaque black (gray 0). Apple: `CGColor.black`.
    public static let black = CGColor(gray: 0, alpha: 1)
    /// Opaque white (gray 1).
    public static let white = CGColor(gray: 1, alpha: 1)
    /// Fully transparent black (gray 0, alpha 0).
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// Equal components in a colour space of the same name (one object: equal at once, as a
    /// renderer's per-frame comparisons of a layer's unchanged colours mostly are).
    public static func == (l: CGColor, r: CGColor) -> Bool {
        l === r || l.components == r.components && l.colorSpace?.name == r.colorSpace?.name
    }
    public func hash(into h: inout Hasher) { h.combine(components) }
    public var description: String {
        "CGColor(\(colorSpace?.name ?? "no space"), components: \(components ?? []))"
    }
}

/// A colour space family (Apple's `CGColorSpaceModel`, same raw values).
public enum CGColorSpaceModel: Int32, Sendable {
    case unknown = -1, monochrome = 0, rgb, cmyk, lab, deviceN, indexed, pattern, XYZ
}

/// A colour space. Citrine supports sRGB (also used for device RGB and linear sRGB names) and
/// gray (gamma 2.2, also device gray); pixels are always sRGB.
public final class CGColorSpace: @unchecked Sendable {
    public typealias Model = CGColorSpaceModel
    public let name: String?
    public let model: CGColorSpaceModel
    /// Colour components, excluding alpha.
    public var numberOfComponents: Int { model == .rgb ? 3 : 1 }

    public static let sRGB: CFString = "kCGColorSpaceSRGB"
    public static let extendedSRGB: CFString = "kCGColorSpaceExtendedSRGB"
    public static let linearSRGB: CFString = "kCGColorSpaceLinearSRGB"
    public static let genericRGBLinear: CFString = "kCGColorSpaceGenericRGBLinear"
    public static let genericGrayGamma2_2: CFString = "kCGColorSpaceGenericGrayGamma2_2"
    public static let linearGray: CFString = "kCGColorSpaceLinearGray"

    /// The named space, or nil for names Citrine does not support.
    public init?(name: CFString) {
        switch name {
        case CGColorSpace.sRGB, CGColorSpace.extendedSRGB, CGColorSpace.linearSRGB,
             CGColorSpace.genericRGBLinear:
            model = .rgb
        case CGColorSpace.genericGrayGamma2_2, CGColorSpace.linearGray:
            model = .monochrome
        default: return nil
        }
        self.name = name
    }
}

/// Apple's free functions for device colour spaces (sRGB and gray gamma 2.2 here).
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace(name: CGColorSpace.sRGB)! }
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace {
    CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)!
}
