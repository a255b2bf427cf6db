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
}
