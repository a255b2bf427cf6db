import Raster

/// A colour in a colour space (Apple's `CGColor`). Citrine works in sRGB: RGB colours have
/// components [r, g, b, a], gray colours [white, a], all nominally in 0…1 (values outside are
/// kept, as Apple's extended ranges are, and clamped when drawing).
public final class CGColor: Equatable, Hashable, CustomStringConvertible, @unchecked Sendable {
    /// The components including alpha, in the order of the colour space.
    public let components: [CGFloat]?
    public let colorSpace: CGColorSpace?
    /// The tile of a pattern colour (`UIColor(patternImage:)`), nil for every other colour.
    package let _patternImage: CGImage?
    /// Pixels per point of `_patternImage` (the `UIImage`'s scale): a tile is its pixel size
    /// divided by this, in the user space it is drawn in.
    package let _patternScale: CGFloat

    /// Alpha, 0…1 (the last component).
    public var alpha: CGFloat { components?.last ?? 1 }
    /// Number of components including alpha.
    public var numberOfComponents: Int { components?.count ?? 0 }

    /// An sRGB colour (Citrine has no separate generic RGB space).
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        components = [red, green, blue, alpha]
        colorSpace = CGColorSpace(name: CGColorSpace.sRGB)
        (_patternImage, _patternScale) = (nil, 1)
    }
    /// An sRGB colour.
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }
    /// A gray colour (gamma 2.2 gray space; drawn as the sRGB gray with equal components).
    public init(gray: CGFloat, alpha: CGFloat) {
        components = [gray, alpha]
        colorSpace = CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)
        (_patternImage, _patternScale) = (nil, 1)
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
        (_patternImage, _patternScale) = (nil, 1)
    }

    /// A colour that paints `image` tiled (what `UIColor(patternImage:)` makes; Apple builds it
    /// from a `CGPattern`, which Citrine does not have). As on Apple, its colour space has the
    /// `.pattern` model and its components are only the alpha, 1. Tiles start at the origin of
    /// the user space they are drawn in — for a layer's `backgroundColor`, its bounds origin, as
    /// a view's pattern background starts at its top-left corner on iOS — and are
    /// `image`'s pixel size / `scale` points large (a scale that is not finite and positive is 1).
    package init(_patternImage image: CGImage, scale: CGFloat) {
        components = [1]
        colorSpace = CGColorSpace(patternModel: ())
        _patternImage = image
        _patternScale = scale.isFinite && scale > 0 ? scale : 1
    }

    /// The same colour with a different alpha.
    public func copy(alpha: CGFloat) -> CGColor? {
        guard _patternImage == nil, var c = components, let space = colorSpace, !c.isEmpty else { return nil }
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

    /// How the pixel engine paints this colour: solid, or for a pattern colour its tile repeated,
    /// `tileToDevice` mapping the tile's upright point space (y down, a tile's top-left corner at
    /// the origin) to device pixels (project API).
    package func _shader(tileToDevice: Transform) -> Shader {
        guard let image = _patternImage else { return .solid(rasterColor) }
        let pixelToPoint = 1 / Double(_patternScale)
        let imageToDevice = Transform(a: pixelToPoint, b: 0, c: 0, d: pixelToPoint, tx: 0, ty: 0).concatenating(tileToDevice)
        return .image(ImagePattern(image: image.pixmap, transform: imageToDevice, filter: .bilinear, spread: .repeat))
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
            && l._patternImage === r._patternImage && l._patternScale == r._patternScale
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
    public var numberOfComponents: Int {
        switch model {
        case .rgb: 3
        case .pattern: 0
        default: 1
        }
    }

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

    /// The colour space of pattern colours (Apple's pattern spaces have no name).
    init(patternModel: ()) {
        name = nil
        model = .pattern
    }
}

/// Apple's free functions for device colour spaces (sRGB and gray gamma 2.2 here).
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace(name: CGColorSpace.sRGB)! }
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace {
    CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)!
}
