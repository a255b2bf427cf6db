import Foundation

/// The Core Image filters a layer accepts (Apple's `CIFilter`, as macOS code puts them in
/// `CALayer.filters`, `backgroundFilters` and `compositingFilter`): a small class of Apple's
/// name, not Core Image — Citrine has no Core Image module (a module of that name would clash
/// with the toolchain's cross-import overlays); it only carries a filter's name and inputs to the
/// compositor, which draws it as the matching `CAFilter` would.
///
/// `CIFilter(name:)` accepts (nil for any other name, as Apple's returns nil for an unknown one):
/// `CIGaussianBlur` (`inputRadius`, `kCIInputRadiusKey`: the standard deviation, default 10),
/// `CIColorMatrix` (`inputRVector` … `inputAVector`, `inputBiasVector`: `CIVector`s, arrays of
/// numbers or their strings), `CIColorControls` (`inputSaturation` 1, `inputBrightness` 0,
/// `inputContrast` 1), `CIColorInvert`, `CIHueAdjust` (`inputAngle`, radians),
/// `CIColorMonochrome` (`inputColor` as a `CGColor`, `inputIntensity` 1), and as compositing
/// filters `CI<Mode>BlendMode` for every Core Graphics blend mode (`CIMultiplyBlendMode`,
/// `CIScreenBlendMode`, …) and `CISourceOverCompositing`, `CISourceInCompositing`,
/// `CISourceOutCompositing`, `CISourceAtopCompositing`, `CIMultiplyCompositing`,
/// `CIAdditionCompositing` (as plusLighter). Core Image applies its kernels in a linear working
/// space; Citrine applies them to gamma-encoded sRGB, as it composites.
///
/// `name` (what `filters.<name>.<input>` key paths use) starts as the filter's name, as on Apple.
open class CIFilter: _LayerFilter {
    /// A filter of the Core Image name `name`, or nil when Citrine does not draw it.
    public init?(name: String) {
        guard FilterKind.ciNames[name] != nil else { return nil }
        super.init(_type: name)
    }

    /// A filter with `parameters` set (Apple's `init?(name:parameters:)`).
    public convenience init?(name: String, parameters: [String: Any]?) {
        self.init(name: name)
        for (key, value) in parameters ?? [:] { setValue(value, forKey: key) }
    }

    /// The Core Image names `CIFilter(name:)` accepts.
    open class func filterNames(inCategory category: String?) -> [String] { FilterKind.ciNames.keys.sorted() }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = CIFilter(name: type)!
        c.copyState(from: self)
        return c
    }
}

/// Core Image's input keys Citrine reads.
public let kCIInputRadiusKey = "inputRadius"
public let kCIInputAngleKey = "inputAngle"
public let kCIInputSaturationKey = "inputSaturation"
public let kCIInputBrightnessKey = "inputBrightness"
public let kCIInputContrastKey = "inputContrast"
public let kCIInputColorKey = "inputColor"
public let kCIInputIntensityKey = "inputIntensity"
public let kCIInputBiasVectorKey = "inputBiasVector"

/// A vector of numbers (Apple's `CIVector`), for `CIColorMatrix`'s row and bias vectors.
public final class CIVector: @unchecked Sendable {
    public let values: [CGFloat]
    public init(values: [CGFloat]) { self.values = values }
    /// The first `count` values at `values` (Apple's `init(values:count:)`).
    public convenience init(values: UnsafePointer<CGFloat>, count: Int) {
        self.init(values: Array(UnsafeBufferPointer(start: values, count: max(0, count))))
    }
    public convenience init(x: CGFloat) { self.init(values: [x]) }
    public convenience init(x: CGFloat, y: CGFloat) { self.init(values: [x, y]) }
    public convenience init(x: CGFloat, y: CGFloat, z: CGFloat) { self.init(values: [x, y, z]) }
    public convenience init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) { self.init(values: [x, y, z, w]) }
    /// From a string such as "[1 0 0 0]" (Apple's `init(string:)`); an unreadable string gives
    /// an empty vector.
    public convenience init(string: String) { self.init(values: (FilterInputs.vector(string) ?? []).map { CGFloat($0) }) }
    public var count: Int { values.count }
    /// The value at `index`, 0 beyond the end (as Apple's).
    public func value(at index: Int) -> CGFloat { index >= 0 && index < values.count ? values[index] : 0 }
    public var x: CGFloat { value(at: 0) }
    public var y: CGFloat { value(at: 1) }
    public var z: CGFloat { value(at: 2) }
    public var w: CGFloat { value(at: 3) }
}
