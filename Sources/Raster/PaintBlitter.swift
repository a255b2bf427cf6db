/// Paints coverage runs into a `Pixmap` with a `Paint`, optionally through a clip `Mask`.
///
/// Placeholder from the skeleton: solid colours with source-over only, one pixel at a time.
/// The paint work replaces it with the full pipeline (shaders, blend modes, fast paths).
public struct PaintBlitter: Blitter {
    public let target: Pixmap
    public let paint: Paint
    public let clip: Mask?
    private let source: PremultipliedColor

    public init(target: Pixmap, paint: Paint, clip: Mask? = nil) {
        self.target = target
        self.paint = paint
        self.clip = clip
        if case let .solid(c) = paint.shader {
            var color = c
            color.a *= paint.opacity
            source = color.premultiplied
        } else {
            source = .transparent
        }
    }

    public mutating func blitSpan(y: Int, x: Int, count: Int, coverage: UInt8) {
        for i in 0..<count { blend(x: x + i, y: y, coverage: coverage) }
    }

    public mutating func blitCoverage(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        for i in 0..<coverage.count { blend(x: x + i, y: y, coverage: coverage[i]) }
    }

    private func blend(x: Int, y: Int, coverage: UInt8) {
        var cov = UInt32(coverage)
        if let clip { cov = cov * UInt32(clip.value(x: x, y: y)) / 255 }
        let p = target.pixels + (y * target.width + x) * 4
        let sa = UInt32(source.a) * cov / 255
        func mix(_ s: UInt8, _ d: UInt8) -> UInt8 {
            UInt8((UInt32(s) * cov + UInt32(d) * (255 - sa) + 127) / 255)
        }
        p[0] = mix(source.r, p[0]); p[1] = mix(source.g, p[1]); p[2] = mix(source.b, p[2])
        p[3] = UInt8(min(255, sa + (UInt32(p[3]) * (255 - sa) + 127) / 255))
    }
}
