import Raster

// Clipping: the clip is an anti-aliased device-space coverage mask in the graphics state
// (nil = the whole bitmap). Each clip call intersects it with new coverage, so clips only
// shrink until `restoreGState` or `resetClip`.

extension CGContext {
    /// Intersects the clip with the current path filled under `rule`, then clears the path
    /// (Apple). An empty path clips everything away.
    public func clip(using rule: CGPathFillRule = .winding) {
        let path = takePath()
        intersectClip(with: path, rule: rule.rasterFillRule)
    }
    /// Intersects the clip with `rect` (user space).
    public func clip(to rect: CGRect) { clip(to: [rect]) }
    /// Intersects the clip with the union of `rects` (user space).
    public func clip(to rects: [CGRect]) {
        intersectClip(with: devicePath { $0.addRects(rects, transform: deviceTransform) }, rule: .nonZero)
    }
    /// Back to no clip (the whole bitmap), as Apple's `resetClip()`.
    public func resetClip() { state.clip = nil }

    /// The bounding box of the clip in user space (the whole bitmap without a clip).
    public var boundingBoxOfClipPath: CGRect {
        let device = state.clip.map(CGContext.bounds(of:)) ?? CGRect(x: 0, y: 0, width: width, height: height)
        guard !device.isNull else { return .null }
        return device.applying(deviceTransform.inverted())
    }

    private func intersectClip(with path: CGPath, rule: FillRule) {
        guard let mask = try? Mask(width: target.width, height: target.height) else { return }
        if !path.isEmpty {
            RasterBackend.renderCoverage(path.rasterPath, rule: rule, antiAlias: state.shouldAntialias, into: mask)
        }
        if let old = state.clip { CGContext.multiply(mask, by: old) }
        state.clip = mask
    }

    /// `mask = mask × other / 255`, pixel by pixel (rounded).
    static func multiply(_ mask: Mask, by other: Mask) {
        let count = mask.width * mask.height
        let a = mask.data, b = other.data
        for i in 0..<count {
            let product = UInt32(a[i]) * UInt32(b[i]) + 128
            a[i] = UInt8((product + (product >> 8)) >> 8)
        }
    }

    /// Device-space bounds of the non-zero part of `mask` (null when all zero).
    static func bounds(of mask: Mask) -> CGRect {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<mask.height {
            let row = mask.data + y * mask.width
            for x in 0..<mask.width where row[x] != 0 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = y
            }
        }
        guard maxX >= 0 else { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}
