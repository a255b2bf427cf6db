/// Compositing whole pixmaps: transparency layers and group opacity.
extension Pixmap {
    /// Composites `source` onto this pixmap with its top-left corner at integer (x, y), scaled by
    /// `opacity` (0…1), with `blendMode`, through `clip` if given. Pixels outside either pixmap
    /// are skipped. This is how a group (a layer with opacity < 1, a transparency layer) lands on
    /// its parent: `dst = blend(src·opacity, dst)`.
    public func draw(_ source: Pixmap, atX x: Int, y: Int, opacity: Float = 1,
                     blendMode: BlendMode = .sourceOver, clip: Mask? = nil) {
        let x0 = Swift.max(0, x), y0 = Swift.max(0, y)
        let x1 = Swift.min(width, x + source.width), y1 = Swift.min(height, y + source.height)
        guard x1 > x0, y1 > y0 else { return }
        if blendMode == .sourceOver && clip == nil {
            sourceOverRows(source, dx: x, dy: y, columns: x0..<x1, rows: y0..<y1, opacity: opacity)
            return
        }
        let image = ImagePattern(image: source, transform: Transform(a: 1, b: 0, c: 0, d: 1,
                                                                     tx: Double(x), ty: Double(y)),
                                 filter: .nearest, spread: .decal)
        var blitter = PaintBlitter(target: self, paint: Paint(shader: .image(image), blendMode: blendMode,
                                                              opacity: opacity), clip: clip)
        for row in y0..<y1 { blitter.blitSpan(y: row, x: x0, count: x1 - x0, coverage: 255) }
    }

    /// The common case of `draw`: premultiplied source-over at an integer offset, row by row,
    /// with the same integer arithmetic (and so the same result) as `PaintBlitter`.
    private func sourceOverRows(_ source: Pixmap, dx: Int, dy: Int, columns: Range<Int>, rows: Range<Int>,
                                opacity: Float) {
        let o = Swift.max(0, Swift.min(1, opacity.isNaN ? 0 : opacity))
        let f = UInt32(o * 255 + 0.5)
        guard f > 0 else { return }
        let count = columns.count
        for row in rows {
            let dst = words + row * width + columns.lowerBound
            let src = source.words + (row - dy) * source.width + (columns.lowerBound - dx)
            for i in 0..<count {
                var s = src[i]
                if s == 0 { continue }
                if f != 255 { s = PaintBlitter.scale(s, f) }
                let a = s >> 24
                dst[i] = a == 255 ? s : s &+ PaintBlitter.scale(dst[i], 255 - a)
            }
        }
    }
}
