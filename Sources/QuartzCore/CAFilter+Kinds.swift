import Foundation

/// For Citrine's renderer (package, not API): what one filter does, resolved from its type and inputs.
package enum _FilterEffect: Equatable, Sendable {
    /// A Gaussian blur of standard deviation `radius` (layer points, 0…`CAFilter.maxRadius`).
    case blur(radius: Double)
    /// A colour matrix on un-premultiplied RGBA (`CAColorMatrix`).
    case colorMatrix(CAColorMatrix)
    /// A compositing filter: the blend mode the layer is composited with.
    case composite(CGBlendMode)
}

/// The filters the compositor draws, by the names Core Animation (`kCAFilter…`, CAML) and
/// Core Image (`CIFilter(name:)`) give them, with their inputs and what they resolve to.
enum FilterKind: Sendable {
    case gaussianBlur, colorMatrix, colorSaturate, colorMonochrome, colorHueRotate
    case colorBrightness, colorContrast, colorInvert, multiplyColor
    /// Core Image's forms: CIColorMatrix (row vectors), CIColorControls, CIColorMonochrome.
    case ciColorMatrix, ciColorControls, ciColorMonochrome
    case blend(CGBlendMode)

    /// The kind a type or filter name stands for; nil when the compositor does not know it.
    init?(named name: String) {
        guard let kind = FilterKind.byName[name] else { return nil }
        self = kind
    }

    /// Which API names a filter: Core Animation (`CAFilter` types) or Core Image (`CIFilter` names).
    enum API { case coreAnimation, coreImage }

    /// Every name the compositor draws, with its kind: the one table the lists below derive
    /// from, in the order `CAFilter.filterTypes` lists Core Animation's. Core Animation's names
    /// are the `kCAFilter…` constants' values (CAFilter.swift; the four HSL blend modes have no
    /// public constant); Core Image's are the `CIFilter(name:)` names of Apple's Core Image
    /// documentation ("Composite Operations": `CI<Mode>BlendMode` for every blend mode, the
    /// Porter-Duff `…Compositing` filters).
    private static let table: [(name: String, kind: FilterKind, api: API)] = [
        (kCAFilterGaussianBlur, .gaussianBlur, .coreAnimation), (kCAFilterColorMatrix, .colorMatrix, .coreAnimation),
        (kCAFilterVibrantColorMatrix, .colorMatrix, .coreAnimation), (kCAFilterColorSaturate, .colorSaturate, .coreAnimation),
        (kCAFilterColorMonochrome, .colorMonochrome, .coreAnimation), (kCAFilterColorHueRotate, .colorHueRotate, .coreAnimation),
        (kCAFilterColorBrightness, .colorBrightness, .coreAnimation), (kCAFilterColorContrast, .colorContrast, .coreAnimation),
        (kCAFilterColorInvert, .colorInvert, .coreAnimation), (kCAFilterMultiplyColor, .multiplyColor, .coreAnimation),
        // Compositing filters: Apple's `kCAFilter…BlendMode` and Porter-Duff constants.
        (kCAFilterNormalBlendMode, .blend(.normal), .coreAnimation), (kCAFilterMultiplyBlendMode, .blend(.multiply), .coreAnimation),
        (kCAFilterScreenBlendMode, .blend(.screen), .coreAnimation), (kCAFilterOverlayBlendMode, .blend(.overlay), .coreAnimation),
        (kCAFilterDarkenBlendMode, .blend(.darken), .coreAnimation), (kCAFilterLightenBlendMode, .blend(.lighten), .coreAnimation),
        (kCAFilterColorDodgeBlendMode, .blend(.colorDodge), .coreAnimation),
        (kCAFilterColorBurnBlendMode, .blend(.colorBurn), .coreAnimation),
        (kCAFilterSoftLightBlendMode, .blend(.softLight), .coreAnimation),
        (kCAFilterHardLightBlendMode, .blend(.hardLight), .coreAnimation),
        (kCAFilterDifferenceBlendMode, .blend(.difference), .coreAnimation),
        (kCAFilterExclusionBlendMode, .blend(.exclusion), .coreAnimation),
        ("hueBlendMode", .blend(.hue), .coreAnimation), ("saturationBlendMode", .blend(.saturation), .coreAnimation),
        ("colorBlendMode", .blend(.color), .coreAnimation), ("luminosityBlendMode", .blend(.luminosity), .coreAnimation),
        (kCAFilterClear, .blend(.clear), .coreAnimation), (kCAFilterCopy, .blend(.copy), .coreAnimation),
        (kCAFilterSourceOver, .blend(.normal), .coreAnimation), (kCAFilterSourceIn, .blend(.sourceIn), .coreAnimation),
        (kCAFilterSourceOut, .blend(.sourceOut), .coreAnimation), (kCAFilterSourceAtop, .blend(.sourceAtop), .coreAnimation),
        (kCAFilterDestOver, .blend(.destinationOver), .coreAnimation), (kCAFilterDestIn, .blend(.destinationIn), .coreAnimation),
        (kCAFilterDestOut, .blend(.destinationOut), .coreAnimation), (kCAFilterDestAtop, .blend(.destinationAtop), .coreAnimation),
        (kCAFilterXor, .blend(.xor), .coreAnimation), (kCAFilterPlusL, .blend(.plusLighter), .coreAnimation),
        (kCAFilterPlusD, .blend(.plusDarker), .coreAnimation),
        // Core Image.
        ("CIGaussianBlur", .gaussianBlur, .coreImage), ("CIColorMatrix", .ciColorMatrix, .coreImage),
        ("CIColorControls", .ciColorControls, .coreImage), ("CIColorInvert", .colorInvert, .coreImage),
        ("CIHueAdjust", .colorHueRotate, .coreImage), ("CIColorMonochrome", .ciColorMonochrome, .coreImage),
        ("CIMultiplyBlendMode", .blend(.multiply), .coreImage), ("CIScreenBlendMode", .blend(.screen), .coreImage),
        ("CIOverlayBlendMode", .blend(.overlay), .coreImage), ("CIDarkenBlendMode", .blend(.darken), .coreImage),
        ("CILightenBlendMode", .blend(.lighten), .coreImage), ("CIColorDodgeBlendMode", .blend(.colorDodge), .coreImage),
        ("CIColorBurnBlendMode", .blend(.colorBurn), .coreImage), ("CISoftLightBlendMode", .blend(.softLight), .coreImage),
        ("CIHardLightBlendMode", .blend(.hardLight), .coreImage), ("CIDifferenceBlendMode", .blend(.difference), .coreImage),
        ("CIExclusionBlendMode", .blend(.exclusion), .coreImage), ("CIHueBlendMode", .blend(.hue), .coreImage),
        ("CISaturationBlendMode", .blend(.saturation), .coreImage), ("CIColorBlendMode", .blend(.color), .coreImage),
        ("CILuminosityBlendMode", .blend(.luminosity), .coreImage),
        ("CISourceOverCompositing", .blend(.normal), .coreImage), ("CISourceInCompositing", .blend(.sourceIn), .coreImage),
        ("CISourceOutCompositing", .blend(.sourceOut), .coreImage), ("CISourceAtopCompositing", .blend(.sourceAtop), .coreImage),
        ("CIMultiplyCompositing", .blend(.multiply), .coreImage), ("CIAdditionCompositing", .blend(.plusLighter), .coreImage),
    ]

    /// Core Animation's filter types (`CAFilter.filterTypes`), in the table's order.
    static let caTypes: [String] = table.filter { $0.api == .coreAnimation }.map(\.name)

    /// Core Image's filter names (what `CIFilter(name:)` accepts) and their kinds.
    static let ciNames: [String: FilterKind] = names(of: table.filter { $0.api == .coreImage })

    private static let byName: [String: FilterKind] = names(of: table)

    /// `entries` by name (a name listed twice keeps its first kind).
    private static func names(of entries: [(name: String, kind: FilterKind, api: API)]) -> [String: FilterKind] {
        Dictionary(entries.map { ($0.name, $0.kind) }, uniquingKeysWith: { first, _ in first })
    }

    /// The input keys, in Apple's spelling.
    var inputKeys: [String] {
        switch self {
        case .gaussianBlur: ["inputRadius"]
        case .colorMatrix: ["inputColorMatrix"]
        case .colorSaturate, .colorMonochrome, .colorBrightness, .colorContrast: ["inputAmount"]
        case .colorHueRotate: ["inputAngle"]
        case .multiplyColor: ["inputColor"]
        case .ciColorMatrix: ["inputRVector", "inputGVector", "inputBVector", "inputAVector", "inputBiasVector"]
        case .ciColorControls: ["inputSaturation", "inputBrightness", "inputContrast"]
        case .ciColorMonochrome: ["inputColor", "inputIntensity"]
        case .colorInvert, .blend: []
        }
    }

    /// The value an input has until it is set.
    func defaultValue(forKey key: String) -> Any? {
        switch (self, key) {
        case (.gaussianBlur, "inputRadius"): return 10.0
        case (.colorMatrix, "inputColorMatrix"): return CAColorMatrix.identity
        case (.colorSaturate, "inputAmount"), (.colorMonochrome, "inputAmount"), (.colorContrast, "inputAmount"): return 1.0
        case (.colorBrightness, "inputAmount"): return 0.0
        case (.colorHueRotate, "inputAngle"): return 0.0
        case (.multiplyColor, "inputColor"), (.ciColorMonochrome, "inputColor"): return CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        case (.ciColorControls, "inputSaturation"), (.ciColorControls, "inputContrast"), (.ciColorMonochrome, "inputIntensity"): return 1.0
        case (.ciColorControls, "inputBrightness"): return 0.0
        case (.ciColorMatrix, "inputRVector"): return CIVector(x: 1, y: 0, z: 0, w: 0)
        case (.ciColorMatrix, "inputGVector"): return CIVector(x: 0, y: 1, z: 0, w: 0)
        case (.ciColorMatrix, "inputBVector"): return CIVector(x: 0, y: 0, z: 1, w: 0)
        case (.ciColorMatrix, "inputAVector"): return CIVector(x: 0, y: 0, z: 0, w: 1)
        case (.ciColorMatrix, "inputBiasVector"): return CIVector(x: 0, y: 0, z: 0, w: 0)
        default: return nil
        }
    }

    /// What the filter does with `inputs` (unset or unusable inputs take their defaults).
    func resolve(_ inputs: FilterInputs) -> _FilterEffect? {
        func number(_ key: String) -> Double {
            inputs.number(key) ?? FilterInputs.number(defaultValue(forKey: key)) ?? 0
        }
        switch self {
        case .gaussianBlur: return .blur(radius: min(max(number("inputRadius"), 0), CAFilter.maxRadius))
        case .colorMatrix: return .colorMatrix(inputs.matrix("inputColorMatrix") ?? .identity)
        case .colorSaturate: return .colorMatrix(ColorMatrices.saturate(number("inputAmount")))
        case .colorMonochrome: return .colorMatrix(ColorMatrices.grayscale(number("inputAmount")))
        case .colorHueRotate: return .colorMatrix(ColorMatrices.hueRotate(number("inputAngle")))
        case .colorBrightness: return .colorMatrix(ColorMatrices.brightness(number("inputAmount")))
        case .colorContrast: return .colorMatrix(ColorMatrices.contrast(number("inputAmount")))
        case .colorInvert: return .colorMatrix(ColorMatrices.invert)
        case .multiplyColor: return .colorMatrix(ColorMatrices.multiply(inputs.color("inputColor") ?? (1, 1, 1, 1)))
        case .ciColorMatrix:
            let rows = ["inputRVector", "inputGVector", "inputBVector", "inputAVector"].map {
                inputs.vector($0) ?? FilterInputs.vector(defaultValue(forKey: $0))!
            }
            let bias = inputs.vector("inputBiasVector") ?? [0, 0, 0, 0]
            return .colorMatrix(ColorMatrices.rows(rows, bias: bias))
        case .ciColorControls:
            return .colorMatrix(ColorMatrices.colorControls(saturation: number("inputSaturation"),
                                                            brightness: number("inputBrightness"),
                                                            contrast: number("inputContrast")))
        case .ciColorMonochrome:
            return .colorMatrix(ColorMatrices.monochrome(inputs.color("inputColor") ?? (1, 1, 1, 1),
                                                         intensity: number("inputIntensity")))
        case let .blend(mode): return .composite(mode)
        }
    }
}

/// Reading filter inputs of any type, tolerantly: what does not convert counts as not set.
struct FilterInputs {
    var values: [String: Any]

    func number(_ key: String) -> Double? { FilterInputs.number(values[key]) }
    func vector(_ key: String) -> [Double]? { FilterInputs.vector(values[key]) }

    /// A finite number: Swift numbers, `NSNumber`, or a numeric string (CAML attributes).
    static func number(_ v: Any?) -> Double? {
        let x: Double?
        if case let .number(n) = AnimatableValue(v) {
            x = n
        } else if let s = v as? String {
            x = Double(s.trimmingCharacters(in: .whitespaces))
        } else {
            x = nil
        }
        return x.flatMap { $0.isFinite ? $0 : nil }
    }

    static func bool(_ v: Any?) -> Bool? {
        if let b = v as? Bool { return b }
        if let s = v as? String { return s == "true" || s == "1" ? true : s == "false" || s == "0" ? false : nil }
        return number(v).map { $0 != 0 }
    }

    /// A list of finite numbers: a `CIVector`, an array of numbers, or a string of numbers
    /// separated by spaces or commas (optionally in brackets, as `CIVector(string:)` takes).
    static func vector(_ v: Any?) -> [Double]? {
        switch v {
        case let vector as CIVector: return vector.values.allSatisfy(\.isFinite) ? vector.values.map(Double.init) : nil
        case let s as String:
            let parts = s.split(whereSeparator: { " ,[]\t\n".contains($0) })
            let numbers = parts.compactMap { Double($0) }
            return numbers.count == parts.count && numbers.allSatisfy(\.isFinite) ? numbers : nil
        case let list as [Any]:
            let numbers = list.compactMap(number)
            return numbers.count == list.count ? numbers : nil
        default: return nil
        }
    }

    /// A `CAColorMatrix`, or 20 numbers (row-major).
    func matrix(_ key: String) -> CAColorMatrix? {
        if let m = values[key] as? CAColorMatrix {
            return m.values.allSatisfy(\.isFinite) ? m : nil
        }
        return vector(key).flatMap { CAColorMatrix($0.map(Float.init)) }
    }

    /// A colour's un-premultiplied components: a `CGColor`, or four numbers.
    func color(_ key: String) -> (Double, Double, Double, Double)? {
        if let c = values[key] as? CGColor {
            let v = c.rgba
            let comps = [v.r, v.g, v.b, v.a].map(Double.init)
            return comps.allSatisfy(\.isFinite) ? (comps[0], comps[1], comps[2], comps[3]) : nil
        }
        guard let v = vector(key), v.count == 4 else { return nil }
        return (v[0], v[1], v[2], v[3])
    }
}

/// The colour filters as 4×5 matrices on un-premultiplied RGBA (rows: output R, G, B, A).
/// `saturate`, `grayscale` and `hueRotate` are the Filter Effects Module Level 1 matrices
/// (W3C, §"feColorMatrix" and the CSS shorthand filters), with its luminance weights.
enum ColorMatrices {
    /// Rows for R, G, B (three columns each); alpha passes through, no bias.
    private static func rgb(_ m: [Double]) -> CAColorMatrix {
        CAColorMatrix([m[0], m[1], m[2], 0, 0, m[3], m[4], m[5], 0, 0, m[6], m[7], m[8], 0, 0, 0, 0, 0, 1, 0].map(Float.init))!
    }

    static func saturate(_ s: Double) -> CAColorMatrix {
        rgb([0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s,
             0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s,
             0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s])
    }

    /// CSS `grayscale(amount)`, the amount clamped to 0…1 as CSS does.
    static func grayscale(_ amount: Double) -> CAColorMatrix {
        let k = 1 - min(max(amount, 0), 1)
        return rgb([0.2126 + 0.7874 * k, 0.7152 - 0.7152 * k, 0.0722 - 0.0722 * k,
                    0.2126 - 0.2126 * k, 0.7152 + 0.2848 * k, 0.0722 - 0.0722 * k,
                    0.2126 - 0.2126 * k, 0.7152 - 0.7152 * k, 0.0722 + 0.9278 * k])
    }

    static func hueRotate(_ angle: Double) -> CAColorMatrix {
        let c = cos(angle), s = sin(angle)
        return rgb([0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928,
                    0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283,
                    0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072])
    }

    static func brightness(_ b: Double) -> CAColorMatrix {
        CAColorMatrix([1, 0, 0, 0, b, 0, 1, 0, 0, b, 0, 0, 1, 0, b, 0, 0, 0, 1, 0].map(Float.init))!
    }

    static func contrast(_ c: Double) -> CAColorMatrix {
        let t = 0.5 - 0.5 * c
        return CAColorMatrix([c, 0, 0, 0, t, 0, c, 0, 0, t, 0, 0, c, 0, t, 0, 0, 0, 1, 0].map(Float.init))!
    }

    static let invert = CAColorMatrix([-1, 0, 0, 0, 1, 0, -1, 0, 0, 1, 0, 0, -1, 0, 1, 0, 0, 0, 1, 0])!

    static func multiply(_ color: (Double, Double, Double, Double)) -> CAColorMatrix {
        CAColorMatrix([color.0, 0, 0, 0, 0, 0, color.1, 0, 0, 0, 0, 0, color.2, 0, 0, 0, 0, 0, color.3, 0].map(Float.init))!
    }

    /// CIColorMatrix: each row vector (R, G, B, A weights) and the bias vector; missing
    /// components count as 0.
    static func rows(_ rows: [[Double]], bias: [Double]) -> CAColorMatrix {
        func at(_ v: [Double], _ i: Int) -> Double { i < v.count ? v[i] : 0 }
        let values = (0..<4).flatMap { r in (0..<4).map { at(rows[r], $0) } + [at(bias, r)] }
        return CAColorMatrix(values.map(Float.init))!
    }

    /// CIColorControls as saturation (the `saturate` matrix), then brightness (added), then
    /// contrast (about ½) — Core Image's order of the three adjustments.
    static func colorControls(saturation: Double, brightness b: Double, contrast c: Double) -> CAColorMatrix {
        let s = saturate(saturation).values.map(Double.init)
        var out = s
        for r in 0..<3 {
            for k in 0..<4 { out[5 * r + k] = c * s[5 * r + k] }
            out[5 * r + 4] = c * (s[5 * r + 4] + b) + 0.5 - 0.5 * c
        }
        return CAColorMatrix(out.map(Float.init))!
    }

    /// CIColorMonochrome: the pixel's luminance times `color`, mixed with the pixel by `intensity`.
    static func monochrome(_ color: (Double, Double, Double, Double), intensity: Double) -> CAColorMatrix {
        let i = min(max(intensity, 0), 1), tint = [color.0, color.1, color.2], luma = [0.2126, 0.7152, 0.0722]
        var m = identityValues
        for r in 0..<3 {
            for k in 0..<3 { m[5 * r + k] = (r == k ? 1 - i : 0) + i * tint[r] * luma[k] }
        }
        return CAColorMatrix(m.map(Float.init))!
    }

    private static let identityValues = CAColorMatrix.identity.values.map(Double.init)
}
