/// Drawing into clip masks: the coverage of a path, and intersection of masks (Core Graphics'
/// `clip()` after an earlier clip multiplies the two).
extension Mask {
    /// Writes the coverage (0…255) of `path`, mapped by `transform` to mask pixels, into the mask;
    /// pixels the path does not touch are left as they are (a fresh mask is all 0).
    public func fill(_ path: Path, rule: FillRule = .nonZero, transform: Transform = .identity,
                     antiAlias: Bool = true) {
        fill(path, rule: rule, transform: transform, antiAlias: antiAlias, with: Rasterizer())
    }

    /// `fill`, with the scan-conversion buffers of `pixmap` (one being drawn into: its buffers
    /// hold nothing between fills), so that a mask made for one frame's clip neither allocates
    /// nor clears buffers of its own.
    package func fill(_ path: Path, rule: FillRule = .nonZero, transform: Transform = .identity, antiAlias: Bool = true,
                      scratchOf pixmap: Pixmap) {
        fill(path, rule: rule, transform: transform, antiAlias: antiAlias, with: pixmap.rasterizer)
    }

    private func fill(_ path: Path, rule: FillRule, transform: Transform, antiAlias: Bool, with rasterizer: Rasterizer) {
        var blitter = MaskBlitter(mask: self)
        rasterizer.fill(path, transform: transform, rule: rule, antiAlias: antiAlias,
                        clip: IntRect(x0: 0, y0: 0, x1: width, y1: height), rows: 0..<height, into: &blitter)
    }

    /// Multiplies every value by `other`'s (same size; a smaller `other` counts as 0 outside).
    public func intersect(_ other: Mask) {
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                data[i] = UInt8((UInt32(data[i]) * UInt32(other.value(x: x, y: y)) + 127) / 255)
            }
        }
    }
}

/// Stores coverage runs into a mask.
struct MaskBlitter: Blitter {
    let mask: Mask

    mutating func blitSpan(y: Int, x: Int, count: Int, coverage: UInt8) {
        (mask.data + y * mask.width + x).update(repeating: coverage, count: count)
    }

    mutating func blitCoverage(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        guard let base = coverage.baseAddress else { return }
        (mask.data + y * mask.width + x).update(from: base, count: coverage.count)
    }
}
