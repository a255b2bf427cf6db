/// A colour (Apple's `UIColor`), holding a `CGColor`: RGB colours in sRGB, white/alpha colours in
/// the gray space, as UIKit creates them.
///
/// The named colours have the component values Apple documents (e.g. `orange` is
/// red 1, green 0.5, blue 0; `darkGray` is white 1/3). Two colours are equal when their
/// `CGColor`s are (same colour space and components), as on iOS, where `UIColor.black` (gray
/// space) differs from `UIColor(red: 0, green: 0, blue: 0, alpha: 1)`.
open class UIColor: Hashable, CustomStringConvertible, _ExpressibleByColorLiteral, @unchecked Sendable {
    /// The Core Graphics colour.
    public let cgColor: CGColor

    /// An sRGB colour; components are used as given (extended range is allowed, as on iOS 10+).
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        cgColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// A gray-space colour.
    public init(white: CGFloat, alpha: CGFloat) {
        cgColor = CGColor(gray: white, alpha: alpha)
    }

    /// A colour from hue, saturation and brightness (each 0…1; the hue wraps), converted to sRGB
    /// by the standard HSB→RGB mapping.
    public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        let (r, g, b) = UIColor.rgb(hue: hue, saturation: saturation, brightness: brightness)
        self.init(red: r, green: g, blue: b, alpha: alpha)
    }

    /// The colour a `#colorLiteral(red:green:blue:alpha:)` literal makes (Swift's
    /// `_ExpressibleByColorLiteral`, as in Apple's UIKit overlay): an sRGB colour.
    public required convenience init(_colorLiteralRed red: Float, green: Float, blue: Float, alpha: Float) {
        self.init(red: CGFloat(red), green: CGFloat(green), blue: CGFloat(blue), alpha: CGFloat(alpha))
    }

    /// Wraps a Core Graphics colour.
    public init(cgColor: CGColor) { self.cgColor = cgColor }

    /// A colour that paints `image` tiled (Apple's `init(patternImage:)`): as a view's
    /// `backgroundColor` the tiles start at the view's top-left corner, each `image.size` points
    /// large, upright; a shape layer's fill or stroke, and `CGContext` fills in `draw(_:)`, tile
    /// the same way. An image without pixels gives a clear colour.
    public convenience init(patternImage image: UIImage) {
        guard let tile = image.cgImage else {
            self.init(cgColor: .clear)
            return
        }
        self.init(cgColor: CGColor(_patternImage: tile, scale: image.scale))
    }

    /// iOS 10's Display P3 initializer; Citrine has no colour management, so the components are
    /// taken as sRGB.
    public convenience init(displayP3Red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: displayP3Red, green: green, blue: blue, alpha: alpha)
    }

    /// The same colour with alpha `alpha`.
    open func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
        UIColor(cgColor: cgColor.copy(alpha: alpha) ?? cgColor)
    }

    /// The RGB components (gray colours give white, white, white). Always succeeds here.
    @discardableResult
    open func getRed(_ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?,
                     blue: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        let c = cgColor.rgba
        red?.pointee = c.r; green?.pointee = c.g; blue?.pointee = c.b; alpha?.pointee = c.a
        return true
    }

    /// The white component; false (and nothing written) for a colour that is not in the gray space.
    @discardableResult
    open func getWhite(_ white: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        guard let components = cgColor.components, components.count == 2 else { return false }
        white?.pointee = components[0]; alpha?.pointee = components[1]
        return true
    }

    /// Hue, saturation and brightness (each 0…1) of the RGB components.
    @discardableResult
    open func getHue(_ hue: UnsafeMutablePointer<CGFloat>?, saturation: UnsafeMutablePointer<CGFloat>?,
                     brightness: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        let c = cgColor.rgba
        let maxC = max(c.r, c.g, c.b), minC = min(c.r, c.g, c.b), delta = maxC - minC
        var h: CGFloat = 0
        if delta > 0 {
            if maxC == c.r { h = (c.g - c.b) / delta } else if maxC == c.g { h = 2 + (c.b - c.r) / delta } else { h = 4 + (c.r - c.g) / delta }
            h /= 6
            if h < 0 { h += 1 }
        }
        hue?.pointee = h
        saturation?.pointee = maxC > 0 ? delta / maxC : 0
        brightness?.pointee = maxC
        alpha?.pointee = c.a
        return true
    }

    /// Sets the current graphics context's fill and stroke colours (UIKit's `set()`).
    open func set() { setFill(); setStroke() }
    /// Sets the current graphics context's fill colour.
    open func setFill() { UIGraphicsGetCurrentContext()?.setFillColor(cgColor) }
    /// Sets the current graphics context's stroke colour.
    open func setStroke() { UIGraphicsGetCurrentContext()?.setStrokeColor(cgColor) }

    public static func == (l: UIColor, r: UIColor) -> Bool { l.cgColor == r.cgColor }
    public func hash(into h: inout Hasher) { h.combine(cgColor) }
    open var description: String { "UIColor(\(cgColor))" }

    // MARK: Named colours (Apple's documented component values)

    /// White 0, alpha 1.
    open class var black: UIColor { UIColor(white: 0, alpha: 1) }
    /// White 1/3, alpha 1.
    open class var darkGray: UIColor { UIColor(white: 1.0 / 3.0, alpha: 1) }
    /// White 2/3, alpha 1.
    open class var lightGray: UIColor { UIColor(white: 2.0 / 3.0, alpha: 1) }
    /// White 1, alpha 1.
    open class var white: UIColor { UIColor(white: 1, alpha: 1) }
    /// White 0.5, alpha 1.
    open class var gray: UIColor { UIColor(white: 0.5, alpha: 1) }
    /// RGB (1, 0, 0).
    open class var red: UIColor { UIColor(red: 1, green: 0, blue: 0, alpha: 1) }
    /// RGB (0, 1, 0).
    open class var green: UIColor { UIColor(red: 0, green: 1, blue: 0, alpha: 1) }
    /// RGB (0, 0, 1).
    open class var blue: UIColor { UIColor(red: 0, green: 0, blue: 1, alpha: 1) }
    /// RGB (0, 1, 1).
    open class var cyan: UIColor { UIColor(red: 0, green: 1, blue: 1, alpha: 1) }
    /// RGB (1, 1, 0).
    open class var yellow: UIColor { UIColor(red: 1, green: 1, blue: 0, alpha: 1) }
    /// RGB (1, 0, 1).
    open class var magenta: UIColor { UIColor(red: 1, green: 0, blue: 1, alpha: 1) }
    /// RGB (1, 0.5, 0).
    open class var orange: UIColor { UIColor(red: 1, green: 0.5, blue: 0, alpha: 1) }
    /// RGB (0.5, 0, 0.5).
    open class var purple: UIColor { UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1) }
    /// RGB (0.6, 0.4, 0.2).
    open class var brown: UIColor { UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1) }
    /// White 0, alpha 0.
    open class var clear: UIColor { UIColor(white: 0, alpha: 0) }

    /// HSB → RGB (hue in turns; a NaN or infinite hue counts as 0, red).
    static func rgb(hue: CGFloat, saturation s: CGFloat, brightness v: CGFloat) -> (CGFloat, CGFloat, CGFloat) {
        var h = hue.isFinite ? hue.truncatingRemainder(dividingBy: 1) : 0
        if h < 0 { h += 1 }
        let sector = h * 6
        let i = Int(sector.rounded(.down)) % 6
        let f = sector - sector.rounded(.down)
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        switch i {
        case 0: return (v, t, p)
        case 1: return (q, v, p)
        case 2: return (p, v, t)
        case 3: return (p, q, v)
        case 4: return (t, p, v)
        default: return (v, p, q)
        }
    }
}

/// The type a `#colorLiteral` makes when the context names none (as in Apple's UIKit overlay).
public typealias _ColorLiteralType = UIColor
