import Raster

/// Which points a fill covers (Apple's `CGPathFillRule`).
public enum CGPathFillRule: Int, Sendable {
    /// Non-zero winding number.
    case winding = 0
    /// Odd number of crossings.
    case evenOdd = 1

    /// The pixel engine's rule.
    public var rasterFillRule: FillRule { self == .winding ? .nonZero : .evenOdd }
}

/// How the ends of open subpaths are stroked (Apple's `CGLineCap`; default `.butt`).
public enum CGLineCap: Int32, Sendable {
    case butt = 0, round, square

    var rasterCap: StrokeStyle.Cap {
        switch self {
        case .butt: return .butt
        case .round: return .round
        case .square: return .square
        }
    }
}

/// How stroked segments are joined (Apple's `CGLineJoin`; default `.miter`).
public enum CGLineJoin: Int32, Sendable {
    case miter = 0, round, bevel

    var rasterJoin: StrokeStyle.Join {
        switch self {
        case .miter: return .miter
        case .round: return .round
        case .bevel: return .bevel
        }
    }
}

/// What `CGContext.drawPath(using:)` does (Apple's `CGPathDrawingMode`).
public enum CGPathDrawingMode: Int32, Sendable {
    case fill = 0, eoFill, stroke, fillStroke, eoFillStroke
}

/// How drawn colour combines with what is already in the context (Apple's `CGBlendMode`, same
/// cases and raw values; default `.normal`, i.e. source-over).
public enum CGBlendMode: Int32, Sendable, CaseIterable {
    case normal = 0, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn
    case softLight, hardLight, difference, exclusion, hue, saturation, color, luminosity
    case clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver, destinationIn
    case destinationOut, destinationAtop, xor, plusDarker, plusLighter

    /// The pixel engine's blend mode.
    public var rasterBlendMode: BlendMode {
        switch self {
        case .normal: return .sourceOver
        case .multiply: return .multiply
        case .screen: return .screen
        case .overlay: return .overlay
        case .darken: return .darken
        case .lighten: return .lighten
        case .colorDodge: return .colorDodge
        case .colorBurn: return .colorBurn
        case .softLight: return .softLight
        case .hardLight: return .hardLight
        case .difference: return .difference
        case .exclusion: return .exclusion
        case .hue: return .hue
        case .saturation: return .saturation
        case .color: return .color
        case .luminosity: return .luminosity
        case .clear: return .clear
        case .copy: return .copy
        case .sourceIn: return .sourceIn
        case .sourceOut: return .sourceOut
        case .sourceAtop: return .sourceAtop
        case .destinationOver: return .destinationOver
        case .destinationIn: return .destinationIn
        case .destinationOut: return .destinationOut
        case .destinationAtop: return .destinationAtop
        case .xor: return .xor
        case .plusDarker: return .plusDarker
        case .plusLighter: return .plusLighter
        }
    }
}

/// Image sampling quality (Apple's `CGInterpolationQuality`, same raw values). Citrine maps
/// `.none` to nearest-neighbour, `.low` to bilinear, and `.default`/`.medium`/`.high` to
/// bilinear with minification filtering.
public enum CGInterpolationQuality: Int32, Sendable {
    case `default` = 0, none, low, high, medium

    var rasterFilter: ImageFilter {
        switch self {
        case .none: return .nearest
        case .low: return .bilinear
        case .default, .medium, .high: return .smooth
        }
    }
}

/// Whether a gradient extends its end colours beyond its start and end (Apple's
/// `CGGradientDrawingOptions`, same raw values; default `[]`: nothing drawn outside).
public struct CGGradientDrawingOptions: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let drawsBeforeStartLocation = CGGradientDrawingOptions(rawValue: 1 << 0)
    public static let drawsAfterEndLocation = CGGradientDrawingOptions(rawValue: 1 << 1)
}
