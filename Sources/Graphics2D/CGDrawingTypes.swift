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
