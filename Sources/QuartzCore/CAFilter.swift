import Foundation

/// A layer filter (Apple's private `CAFilter` class, which iOS code reaches through
/// `NSClassFromString("CAFilter")` and `filterWithType:`, and which CAML files spell
/// `<filter type="gaussianBlur" name="blur" inputRadius="10"/>`). Put it in a layer's
/// `filters` (applied to the layer and its sublayers), `backgroundFilters` (applied to what is
/// behind the layer) or `compositingFilter` (the blend mode the layer is composited with).
///
/// Types the compositor draws (raw strings from Apple's `kCAFilter…` constants, whose values
/// GNUstep's QuartzCore tests check against Apple's library):
///
/// | type | inputs (default) | effect |
/// |---|---|---|
/// | `gaussianBlur` | `inputRadius` (10) | Gaussian blur of standard deviation `inputRadius` points |
/// | `colorMatrix`, `vibrantColorMatrix` | `inputColorMatrix` (identity) | 4×5 matrix on un-premultiplied RGBA |
/// | `colorSaturate` | `inputAmount` (1) | CSS `saturate(amount)` |
/// | `colorMonochrome` | `inputAmount` (1) | CSS `grayscale(amount)` |
/// | `colorHueRotate` | `inputAngle` (0, radians) | CSS `hue-rotate(angle)` |
/// | `colorBrightness` | `inputAmount` (0) | c → c + amount |
/// | `colorContrast` | `inputAmount` (1) | c → (c − ½)·amount + ½ |
/// | `colorInvert` | — | c → 1 − c |
/// | `multiplyColor` | `inputColor` (white) | c → c·colour, α → α·colour alpha |
/// | `…BlendMode`, Porter-Duff names | — | `compositingFilter` only: see `CALayer.compositingFilter` |
///
/// Sources: the standard deviation is CIGaussianBlur's (Apple, `CIImage.applyingGaussianBlur(sigma:)`:
/// "equivalent to using the CIGaussianBlur filter with the specified radius"; WebKit maps CSS
/// `blur(σ)` onto `kCAFilterGaussianBlur`'s `inputRadius = σ`). WebKit (PlatformCAFiltersCocoa.mm)
/// maps CSS `grayscale`, `saturate` and `hue-rotate` onto `colorMonochrome`, `colorSaturate` and
/// `colorHueRotate` with the CSS amount, and builds `CAColorMatrix` values row by row (output R,
/// G, B, A; columns R, G, B, A, bias in 0…1), so those filters follow the Filter Effects
/// specification's matrices, which act on un-premultiplied colour. Brightness and contrast follow
/// the formulas the community documents for `kCAFilterColorBrightness` / `kCAFilterColorContrast`
/// (Lessica/TrollSpeed's HUD). Filters act on the gamma-encoded sRGB values Citrine composites
/// in; between two filters values are clamped to 0…1.
///
/// Defaults where Apple documents none: `inputRadius` 10 is CIGaussianBlur's default; every
/// other default leaves colours unchanged.
///
/// Bad input, never a trap: a value of the wrong type (anything that is not a number, a numeric
/// string as in a CAML file, or for `inputColorMatrix` a `CAColorMatrix` or 20 numbers) or a
/// non-finite number counts as not set (the default applies); `inputRadius` is clamped to
/// 0…`maxRadius`; a type the compositor does not know leaves the layer unfiltered.
///
/// Change inputs of a filter that is already on a layer through the layer's key path
/// (`layer.setValue(20, forKeyPath: "filters.blur.inputRadius")`), as Apple requires ("you must
/// use the layer's setValue:forKeyPath:"); that key path is also what animations target.
open class CAFilter: _LayerFilter {
    /// A filter of `type` (Apple's `+filterWithType:` / `-initWithType:`).
    public init(type: String) { super.init(_type: type) }

    /// Apple's older spelling, `+filterWithName:`: a filter of type `name`.
    public convenience init(name: String) { self.init(type: name) }

    /// Largest `inputRadius` (points) drawn; larger values blur as this one. A blur spreads
    /// over 3σ on each side, so beyond this the result is flat across any layer on a screen.
    public static let maxRadius: Double = 1_000

    /// Every type the compositor draws, filters and compositing filters.
    open class var filterTypes: [String] { FilterKind.caTypes }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = CAFilter(type: type)
        c.copyState(from: self)
        return c
    }
}

/// What `CAFilter` and `CIFilter` share (Citrine: on Apple they are unrelated classes; here both
/// carry a type or name and inputs to the compositor): key-value coding of the inputs, copying,
/// and the effect the compositor draws.
open class _LayerFilter: NSCopying {
    /// What the filter does (Apple's `type`; a CIFilter's name): one of `CAFilter.filterTypes`
    /// or `CIFilter.filterNames(inCategory:)`, or any string.
    public let type: String
    /// The name key paths use (`filters.<name>.<input>`). Default: the type.
    open var name: String
    /// A disabled filter is skipped. Default true.
    open var isEnabled = true
    /// Accepted for source compatibility (no effect). Default false.
    open var cachesInputImage = false
    /// The inputs set so far, by key.
    var inputs: [String: Any] = [:] { didSet { resolved = nil } }
    /// `_effect`, computed once per change of the inputs.
    private var resolved: _FilterEffect??

    package init(_type type: String) {
        self.type = type
        name = type
    }

    /// The input keys of the filter's type (empty for an unknown type).
    open var inputKeys: [String] { FilterKind(named: type)?.inputKeys ?? [] }
    /// Filters have no output keys a caller reads (the compositor applies them).
    open var outputKeys: [String] { [] }

    /// Resets every input to its default.
    open func setDefaults() { inputs = [:] }

    /// `name`, `type`, `enabled`, `cachesInputImage` or an input (its default when not set).
    open func value(forKey key: String) -> Any? {
        switch key {
        case "name": return name
        case "type": return type
        case "enabled": return isEnabled
        case "cachesInputImage": return cachesInputImage
        default: return inputs[key] ?? FilterKind(named: type)?.defaultValue(forKey: key)
        }
    }

    /// Sets `name`, `enabled`, `cachesInputImage` or an input (nil or `NSNull` removes it). Any
    /// other key is stored as an input too, as CAML files may carry keys of other versions.
    open func setValue(_ value: Any?, forKey key: String) {
        switch key {
        case "name": if let s = value as? String { name = s }
        case "type": break
        case "enabled": if let b = FilterInputs.bool(value) { isEnabled = b }
        case "cachesInputImage": if let b = FilterInputs.bool(value) { cachesInputImage = b }
        default: inputs[key] = value is NSNull ? nil : value
        }
    }

    open func value(forKeyPath keyPath: String) -> Any? { value(forKey: keyPath) }
    open func setValue(_ value: Any?, forKeyPath keyPath: String) { setValue(value, forKey: keyPath) }

    /// A copy with the same type, name, state and inputs.
    open func copy(with zone: NSZone? = nil) -> Any {
        let c = _LayerFilter(_type: type)
        c.copyState(from: self)
        return c
    }

    /// `copy(with: nil)` (NSObject's `copy()`).
    public func copy() -> Any { copy(with: nil) }

    /// Copies name, state and inputs from `other` (subclasses' `copy(with:)`).
    func copyState(from other: _LayerFilter) {
        name = other.name
        isEnabled = other.isEnabled
        cachesInputImage = other.cachesInputImage
        inputs = other.inputs
    }

    /// Citrine extension for renderers: what the filter does with its current inputs, or nil when
    /// it does nothing (disabled, or a type the compositor does not draw).
    package var _effect: _FilterEffect? {
        guard isEnabled else { return nil }
        if let resolved { return resolved }
        let fresh = FilterKind(named: type).flatMap { $0.resolve(FilterInputs(values: inputs)) }
        resolved = .some(fresh)
        return fresh
    }
}

/// A 4×5 colour matrix (Apple's `CAColorMatrix`, the value of `kCAFilterColorMatrix`'s
/// `inputColorMatrix`): row i gives output channel i (R, G, B, A) as
/// `m_i1·R + m_i2·G + m_i3·B + m_i4·A + m_i5`, on un-premultiplied components in 0…1.
public struct CAColorMatrix: Equatable, Sendable {
    public var m11: Float, m12: Float, m13: Float, m14: Float, m15: Float
    public var m21: Float, m22: Float, m23: Float, m24: Float, m25: Float
    public var m31: Float, m32: Float, m33: Float, m34: Float, m35: Float
    public var m41: Float, m42: Float, m43: Float, m44: Float, m45: Float

    public init(m11: Float, m12: Float, m13: Float, m14: Float, m15: Float,
                m21: Float, m22: Float, m23: Float, m24: Float, m25: Float,
                m31: Float, m32: Float, m33: Float, m34: Float, m35: Float,
                m41: Float, m42: Float, m43: Float, m44: Float, m45: Float) {
        (self.m11, self.m12, self.m13, self.m14, self.m15) = (m11, m12, m13, m14, m15)
        (self.m21, self.m22, self.m23, self.m24, self.m25) = (m21, m22, m23, m24, m25)
        (self.m31, self.m32, self.m33, self.m34, self.m35) = (m31, m32, m33, m34, m35)
        (self.m41, self.m42, self.m43, self.m44, self.m45) = (m41, m42, m43, m44, m45)
    }

    /// From 20 row-major values; nil unless there are exactly 20.
    public init?(_ values: [Float]) {
        guard values.count == 20 else { return nil }
        let v = values
        self.init(m11: v[0], m12: v[1], m13: v[2], m14: v[3], m15: v[4],
                  m21: v[5], m22: v[6], m23: v[7], m24: v[8], m25: v[9],
                  m31: v[10], m32: v[11], m33: v[12], m34: v[13], m35: v[14],
                  m41: v[15], m42: v[16], m43: v[17], m44: v[18], m45: v[19])
    }

    /// The 20 values, row-major.
    public var values: [Float] {
        [m11, m12, m13, m14, m15, m21, m22, m23, m24, m25, m31, m32, m33, m34, m35, m41, m42, m43, m44, m45]
    }

    public static let identity = CAColorMatrix([1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0])!
}

/// Apple's `CAColorMatrixIdentity`.
public let CAColorMatrixIdentity = CAColorMatrix.identity

// Apple's filter type constants (values as Apple's library has them; see `CAFilter`).
public let kCAFilterGaussianBlur = "gaussianBlur"
public let kCAFilterColorMatrix = "colorMatrix"
public let kCAFilterVibrantColorMatrix = "vibrantColorMatrix"
public let kCAFilterColorSaturate = "colorSaturate"
public let kCAFilterColorMonochrome = "colorMonochrome"
public let kCAFilterColorHueRotate = "colorHueRotate"
public let kCAFilterColorBrightness = "colorBrightness"
public let kCAFilterColorContrast = "colorContrast"
public let kCAFilterColorInvert = "colorInvert"
public let kCAFilterMultiplyColor = "multiplyColor"
public let kCAFilterNormalBlendMode = "normalBlendMode"
public let kCAFilterMultiplyBlendMode = "multiplyBlendMode"
public let kCAFilterScreenBlendMode = "screenBlendMode"
public let kCAFilterOverlayBlendMode = "overlayBlendMode"
public let kCAFilterDarkenBlendMode = "darkenBlendMode"
public let kCAFilterLightenBlendMode = "lightenBlendMode"
public let kCAFilterColorDodgeBlendMode = "colorDodgeBlendMode"
public let kCAFilterColorBurnBlendMode = "colorBurnBlendMode"
public let kCAFilterSoftLightBlendMode = "softLightBlendMode"
public let kCAFilterHardLightBlendMode = "hardLightBlendMode"
public let kCAFilterDifferenceBlendMode = "differenceBlendMode"
public let kCAFilterExclusionBlendMode = "exclusionBlendMode"
public let kCAFilterClear = "clear"
public let kCAFilterCopy = "copy"
public let kCAFilterSourceOver = "sourceOver"
public let kCAFilterSourceIn = "sourceIn"
public let kCAFilterSourceOut = "sourceOut"
public let kCAFilterSourceAtop = "sourceAtop"
public let kCAFilterDestOver = "destOver"
public let kCAFilterDestIn = "destIn"
public let kCAFilterDestOut = "destOut"
public let kCAFilterDestAtop = "destAtop"
public let kCAFilterXor = "xor"
public let kCAFilterPlusL = "plusL"
public let kCAFilterPlusD = "plusD"
// Input keys.
public let kCAFilterInputRadius = "inputRadius"
public let kCAFilterInputColorMatrix = "inputColorMatrix"
public let kCAFilterInputAmount = "inputAmount"
public let kCAFilterInputAngle = "inputAngle"
public let kCAFilterInputColor = "inputColor"
