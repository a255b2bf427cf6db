import Raster

// Stroked and dashed copies of paths (Apple's copy(strokingWithWidth:…) and
// copy(dashingWithPhase:…)), computed by the pixel engine's stroker and dasher.

extension CGPath {
    /// The outline of the stroke of this path, as a path to fill with the non-zero rule
    /// (Apple's `copy(strokingWithWidth:lineCap:lineJoin:miterLimit:transform:)`), with
    /// `transform` applied to the result. Curves are flattened to within 1/100 of a unit.
    public func copy(strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin,
                     miterLimit: CGFloat, transform: CGAffineTransform = .identity) -> CGPath {
        copy(strokingWithWidth: lineWidth, lineCap: lineCap, lineJoin: lineJoin, miterLimit: miterLimit,
             dashPhase: 0, dashLengths: [], transform: transform)
    }

    /// The path cut into dashes (Apple's `copy(dashingWithPhase:lengths:transform:)`):
    /// `lengths` alternate on/off, starting `phase` units into the pattern; `transform` is
    /// applied to the result; curves become line segments within 1/100 unit. An empty,
    /// all-zero or negative pattern returns the path as is.
    public func copy(dashingWithPhase phase: CGFloat, lengths: [CGFloat],
                     transform: CGAffineTransform = .identity) -> CGPath {
        let result = CGMutablePath()
        guard CGPath.isValidDash(lengths) else {
            result.append(self, transform: transform)
            return result
        }
        let dashed = RasterBackend.dash(path, lengths: lengths.map(Double.init),
                                        phase: phase.isFinite ? Double(phase) : 0,
                                        tolerance: CGPath.tolerance(for: transform))
        result.append(CGPath(rasterPath: dashed), transform: transform)
        return result
    }

    /// Dashing (when `dashLengths` is a valid pattern) then stroking, with the outline mapped
    /// by `transform`; flattening tolerance 1/100 unit of the transformed result.
    func copy(strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin,
              miterLimit: CGFloat, dashPhase: CGFloat, dashLengths: [CGFloat],
              transform: CGAffineTransform) -> CGPath {
        let result = CGMutablePath()
        guard lineWidth.isFinite, lineWidth >= 0, !isEmpty else { return result }
        let tolerance = CGPath.tolerance(for: transform)
        var source = path
        if CGPath.isValidDash(dashLengths) {
            source = RasterBackend.dash(source, lengths: dashLengths.map(Double.init),
                                        phase: dashPhase.isFinite ? Double(dashPhase) : 0, tolerance: tolerance)
        }
        guard let style = CGPath.rasterStyle(width: lineWidth, cap: lineCap, join: lineJoin, miterLimit: miterLimit,
                                             dashPhase: 0, dashLengths: []) else { return result }
        let outline = RasterBackend.stroke(source, style: style, tolerance: tolerance)
        result.append(CGPath(rasterPath: outline), transform: transform)
        return result
    }

    /// The pixel engine's stroke style for Core Graphics' line state; nil for a negative or
    /// non-finite width. A dash pattern that is not valid (`isValidDash`) strokes solid; a
    /// non-finite phase counts as 0, a non-finite miter limit as 10 (the default).
    static func rasterStyle(width: CGFloat, cap: CGLineCap, join: CGLineJoin, miterLimit: CGFloat,
                            dashPhase: CGFloat, dashLengths: [CGFloat]) -> StrokeStyle? {
        guard width.isFinite, width >= 0 else { return nil }
        let dashes = isValidDash(dashLengths)
        return StrokeStyle(width: Double(width), cap: cap.rasterCap, join: join.rasterJoin,
                           miterLimit: miterLimit.isFinite ? Double(miterLimit) : 10,
                           dash: dashes ? dashLengths.map(Double.init) : [],
                           dashPhase: dashes && dashPhase.isFinite ? Double(dashPhase) : 0)
    }

    /// Flattening tolerance in path units so the result, after `transform`, is within 1/100
    /// of a unit (a device pixel when drawing).
    static func tolerance(for transform: CGAffineTransform) -> Double {
        let scale = abs(transform.a * transform.d - transform.b * transform.c).squareRoot()
        return 0.01 / (scale > 0 && scale.isFinite ? Double(scale) : 1)
    }

    static func isValidDash(_ lengths: [CGFloat]) -> Bool {
        !lengths.isEmpty && lengths.allSatisfy { $0 >= 0 && $0.isFinite } && lengths.contains { $0 > 0 }
    }
}
