/// The seam between coverage (geometry) and paint (colour).
///
/// A rasterizer walks the rows of a shape top to bottom and, for each row, reports which pixels
/// the shape covers and by how much (0 = not at all, 255 = fully), left to right, never
/// overlapping within a row. Coordinates are device pixels already clipped to the target.
public protocol Blitter {
    /// Pixels `x ..< x + coverage.count` of row `y`, each with its own coverage.
    mutating func blitCoverage(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>)
    /// Pixels `x ..< x + count` of row `y`, all with the same coverage (255 for interiors).
    mutating func blitSpan(y: Int, x: Int, count: Int, coverage: UInt8)
    /// Pixels `x ..< x + count` of row `y` (count 1…4), pixel `x + k` with coverage `coverage[k]`
    /// (0…255; the lanes from `count` on are 0). Anti-aliased edges arrive this way.
    mutating func blitQuad(y: Int, x: Int, count: Int, coverage: SIMD4<UInt32>)
    /// Draws what the blitter has held back (`PaintBlitter` gathers a row's consecutive quads
    /// into one run). The rasterizer calls it after a fill's last row; by default nothing.
    mutating func flush()
}

extension Blitter {
    public mutating func flush() {}

    /// By default a quad is `blitCoverage` of its lanes without their zero-coverage ends.
    public mutating func blitQuad(y: Int, x: Int, count: Int, coverage: SIMD4<UInt32>) {
        blitQuadAsCoverage(y: y, x: x, count: count, coverage: coverage)
    }

    /// `blitQuad` through `blitCoverage`: the lanes from the first to the last non-zero one.
    @inline(never)
    mutating func blitQuadAsCoverage(y: Int, x: Int, count: Int, coverage: SIMD4<UInt32>) {
        var first = 0, last = count - 1
        while first <= last && coverage[first] == 0 { first += 1 }
        while last > first && coverage[last] == 0 { last -= 1 }
        guard first <= last else { return }
        var bytes = SIMD4<UInt8>(truncatingIfNeeded: coverage)
        withUnsafeBytes(of: &bytes) { raw in
            let levels = raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + first
            blitCoverage(y: y, x: x + first, coverage: UnsafeBufferPointer(start: levels, count: last - first + 1))
        }
    }
}
