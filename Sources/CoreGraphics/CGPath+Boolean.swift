import Raster

// Boolean operations on paths (Apple's iOS 16 / macOS 13 CGPath API: `union(_:using:)`,
// `intersection`, `subtracting`, `symmetricDifference`, `lineIntersection`, `lineSubtracting`,
// `normalized`, `componentsSeparated`, `intersects`). The geometry is `PathBoolean`.
//
// What differs from Apple, and the limits (every method below follows these):
// - Output is polygonal: Apple's results keep curves; ours are the curves flattened to within
//   1/100 of a unit (the tolerance Citrine draws with at scale 1), or 1/10 000 of the operands'
//   size when that is finer, so a result drawn up to 100× magnified still looks smooth.
// - Coordinates are snapped to a grid of 2⁻³² of the operands' combined extent; edges closer
//   than that merge.
// - Region results are closed contours oriented with the inside on their left (counter-clockwise
//   when y is up): holes run the other way, and the result fills the same under either fill rule
//   (Apple documents the same for its region operations).
// - A subpath with a non-finite coordinate (NaN, ±∞) is left out of the operation. Open subpaths
//   count as closed in region operations, as when filling (Apple: "Any unclosed subpaths in either
//   path are assumed to be closed").
// - Work is bounded: more than 200 000 flattened points, or a sweep past 2·10⁷ edge visits,
//   gives an empty path (an empty array, false) instead of running unbounded.

extension CGPath {
    /// A path filling the area this path or `other` fills under `rule` (Apple's
    /// `union(_:using:)`; default `.winding`). Polygonal; see the notes in `CGPath+Boolean.swift`.
    public func union(_ other: CGPath, using rule: CGPathFillRule = .winding) -> CGPath {
        combined(with: other, rule: rule) { $0 || $1 }
    }

    /// A path filling the area both this path and `other` fill under `rule` (Apple's
    /// `intersection(_:using:)`; default `.winding`). Polygonal.
    public func intersection(_ other: CGPath, using rule: CGPathFillRule = .winding) -> CGPath {
        combined(with: other, rule: rule) { $0 && $1 }
    }

    /// A path filling the area this path fills and `other` does not, under `rule` (Apple's
    /// `subtracting(_:using:)`; default `.winding`). Polygonal.
    public func subtracting(_ other: CGPath, using rule: CGPathFillRule = .winding) -> CGPath {
        combined(with: other, rule: rule) { $0 && !$1 }
    }

    /// A path filling the area exactly one of this path and `other` fills under `rule` (Apple's
    /// `symmetricDifference(_:using:)`; default `.winding`). Polygonal.
    public func symmetricDifference(_ other: CGPath, using rule: CGPathFillRule = .winding) -> CGPath {
        combined(with: other, rule: rule) { $0 != $1 }
    }

    /// This path's filled area under `rule` as non-overlapping contours, which fill the same
    /// under either rule (Apple's `normalized(using:)`; default `.winding`). Polygonal.
    public func normalized(using rule: CGPathFillRule = .winding) -> CGPath {
        combined(with: CGPath(), rule: rule) { a, _ in a }
    }

    /// This path's filled area under `rule` split into its connected parts, each an outer
    /// contour with its holes (Apple's `componentsSeparated(using:)`; default `.winding`).
    /// Parts that touch at a single point count as separate. Order: as the sweep meets their
    /// outer contours, bottom (smallest y) first.
    public func componentsSeparated(using rule: CGPathFillRule = .winding) -> [CGPath] {
        guard let (contours, grid) = regionContours(with: CGPath(), rule: rule, { a, _ in a }) else { return [] }
        return PathBoolean.components(of: contours).map { PathBoolean.path(of: $0, on: grid) }
    }

    /// True when this path's and `other`'s filled areas under `rule` overlap (Apple's
    /// `intersects(_:using:)`; default `.winding`): their intersection is not empty.
    public func intersects(_ other: CGPath, using rule: CGPathFillRule = .winding) -> Bool {
        guard let (contours, _) = regionContours(with: other, rule: rule, { $0 && $1 }) else { return false }
        return !contours.isEmpty
    }

    /// The parts of this path's line (its segments, open or closed) inside the area `other`
    /// fills under `rule` (Apple's `lineIntersection(_:using:)`; default `.winding`). Clipped
    /// subpaths become open; closed subpaths kept whole stay closed. Polygonal.
    public func lineIntersection(_ other: CGPath, using rule: CGPathFillRule = .winding) -> CGPath {
        clippedLine(by: other, rule: rule, keepInside: true)
    }

    /// The parts of this path's line outside the area `other` fills under `rule` (Apple's
    /// `lineSubtracting(_:using:)`; default `.winding`). Polygonal, as `lineIntersection`.
    public func lineSubtracting(_ other: CGPath, using rule: CGPathFillRule = .winding) -> CGPath {
        clippedLine(by: other, rule: rule, keepInside: false)
    }

    // MARK: Internals

    private func combined(with other: CGPath, rule: CGPathFillRule, _ op: @escaping (Bool, Bool) -> Bool) -> CGPath {
        guard let (contours, grid) = regionContours(with: other, rule: rule, op) else { return CGPath() }
        return PathBoolean.path(of: contours, on: grid)
    }

    /// The contours of the region where `op(inside self, inside other)` holds, on their grid;
    /// nil when there is nothing or the work limit is reached.
    private func regionContours(with other: CGPath, rule: CGPathFillRule, _ op: @escaping (Bool, Bool) -> Bool)
        -> ([PathBoolean.Contour], PathBoolean.Grid)? {
        let tolerance = PathBoolean.tolerance(extent: PathBoolean.extent(of: [self, other]))
        guard let a = PathBoolean.polylines(of: self, tolerance: tolerance, limit: PathBoolean.pointLimit),
              let b = PathBoolean.polylines(of: other, tolerance: tolerance,
                                            limit: PathBoolean.pointLimit - a.reduce(0) { $0 + $1.points.count }),
              let grid = PathBoolean.Grid(a + b) else { return nil }
        var edges: [PathBoolean.Edge] = []
        PathBoolean.edges(of: a, on: grid, operand: 0, into: &edges)
        PathBoolean.edges(of: b, on: grid, operand: 1, into: &edges)
        let fills: (Int) -> Bool = rule == .winding ? { $0 != 0 } : { $0 & 1 != 0 }
        guard let pieces = PathBoolean.outline(of: edges, inside: { op(fills($0), fills($1)) }) else { return nil }
        return (PathBoolean.contours(of: pieces), grid)
    }

    private func clippedLine(by other: CGPath, rule: CGPathFillRule, keepInside: Bool) -> CGPath {
        let tolerance = PathBoolean.tolerance(extent: PathBoolean.extent(of: [self, other]))
        guard let lines = PathBoolean.polylines(of: self, tolerance: tolerance, limit: PathBoolean.pointLimit),
              let region = PathBoolean.polylines(of: other, tolerance: tolerance, limit: PathBoolean.pointLimit),
              let kept = PathBoolean.clip(lines, to: region, rule: rule, keepInside: keepInside) else { return CGPath() }
        let path = CGMutablePath()
        for line in kept {
            path.move(to: line.points[0])
            for p in line.points.dropFirst() { path.addLine(to: p) }
            if line.closed { path.closeSubpath() }
        }
        return path
    }
}
