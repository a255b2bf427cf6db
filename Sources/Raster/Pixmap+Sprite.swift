/// Sprites: small tinted images drawn many times per frame (particles).
extension Pixmap {
    /// How a sprite's pixels combine with the pixmap's.
    public enum SpriteBlend: Sendable {
        /// dst = src + dst·(1 − src.a)
        case sourceOver
        /// dst = min(1, src + dst) per channel (Core Graphics' plusLighter, Core Animation's
        /// additive particles).
        case additive
    }

    /// Draws the `source` rectangle of `image` (image pixels, texel centres at i + 0.5) mapped to
    /// device pixels by `transform`, each sample multiplied by `tint` (straight r, g, b, a in
    /// 0…1: premultiplied texel rgb × r·a, g·a, b·a and alpha × a). Every device pixel whose
    /// centre maps into the source rectangle grown by half a texel gets the bilinear sample there
    /// (texels outside the rectangle transparent, as `drawTexture` samples). Nothing is drawn for
    /// a non-invertible or non-finite map.
    public func drawSprite(_ image: Pixmap, source: Rect, transform: Transform,
                           tint: (r: Float, g: Float, b: Float, a: Float), blend: SpriteBlend) {
        guard tint.a > 0, let inverse = transform.inverted(), source.width > 0, source.height > 0 else { return }
        // Clamped conversions: a cell's contentsRect or a particle's place may be 1e30 or NaN
        // (found by fuzz-layers).
        let sx0 = Int(clamping: source.x.rounded(.down), to: 0...image.width)
        let sy0 = Int(clamping: source.y.rounded(.down), to: 0...image.height)
        let sx1 = Int(clamping: (source.x + source.width).rounded(.up), to: 0...image.width)
        let sy1 = Int(clamping: (source.y + source.height).rounded(.up), to: 0...image.height)
        guard sx1 > sx0, sy1 > sy0 else { return }
        // Device box of the source rectangle's corners, grown by the half texel filtering reaches.
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (u, v) in [(Double(sx0) - 0.5, Double(sy0) - 0.5), (Double(sx1) + 0.5, Double(sy0) - 0.5),
                       (Double(sx0) - 0.5, Double(sy1) + 0.5), (Double(sx1) + 0.5, Double(sy1) + 0.5)] {
            let p = transform.apply(Point(x: u, y: v))
            minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x)
            minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
        }
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return }
        let x0 = Int(clamping: minX.rounded(.down), to: 0...width), x1 = Int(clamping: maxX.rounded(.up), to: 0...width)
        // Only the drawable rows (a band's): every pixel's sample depends on its own place alone.
        let y0 = Swift.max(Int(clamping: minY.rounded(.down), to: 0...height), drawableRows.lowerBound)
        let y1 = Swift.min(Int(clamping: maxY.rounded(.up), to: 0...height), drawableRows.upperBound)
        guard x1 > x0, y1 > y0 else { return }
        let a = Swift.min(1, tint.a)
        let factors = SIMD4<Float>(Swift.min(1, Swift.max(0, tint.r)) * a, Swift.min(1, Swift.max(0, tint.g)) * a,
                                   Swift.min(1, Swift.max(0, tint.b)) * a, a)
        let texels = image.words, stride = image.width, target = words
        /// The premultiplied texel (x, y) as floats, transparent outside the source rectangle.
        @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
            guard x >= sx0, x < sx1, y >= sy0, y < sy1 else { return .zero }
            let w = texels[y * stride + x]
            return SIMD4(Float(w & 0xFF), Float((w >> 8) & 0xFF), Float((w >> 16) & 0xFF), Float(w >> 24))
        }
        for y in y0..<y1 {
            let row = target + y * width
            let yc = Double(y) + 0.5
            // Texel position of the row's first pixel centre, and its step per pixel.
            var u = inverse.a * (Double(x0) + 0.5) + inverse.c * yc + inverse.tx - 0.5
            var v = inverse.b * (Double(x0) + 0.5) + inverse.d * yc + inverse.ty - 0.5
            for x in x0..<x1 {
                defer { u += inverse.a; v += inverse.b }
                guard u > Double(sx0) - 1, u < Double(sx1), v > Double(sy0) - 1, v < Double(sy1) else { continue }
                // ⌊u⌋, ⌊v⌋ without libm's floor (a call per pixel): the guard keeps both within
                // −1 … the image's size, where truncation then a step down is exact.
                let tu = Int(u), tv = Int(v)
                let iu = Double(tu) > u ? tu - 1 : tu, iv = Double(tv) > v ? tv - 1 : tv
                let fu = Float(u - Double(iu)), fv = Float(v - Double(iv))
                let top = texel(iu, iv) * (1 - fu) + texel(iu + 1, iv) * fu
                let bottom = texel(iu, iv + 1) * (1 - fu) + texel(iu + 1, iv + 1) * fu
                let s = (top * (1 - fv) + bottom * fv) * factors
                guard s.w > 0.5 || (blend == .additive && s.max() > 0.5) else { continue }
                let d = row[x]
                let dst = SIMD4<Float>(Float(d & 0xFF), Float((d >> 8) & 0xFF), Float((d >> 16) & 0xFF), Float(d >> 24))
                var out: SIMD4<Float>
                switch blend {
                case .sourceOver: out = s + dst * (1 - s.w / 255)
                case .additive: out = s + dst
                }
                // + 0.5, at most 255 (s and dst are never negative, so neither is the sum):
                // `clamped(lowerBound: 0, upperBound: 255)`'s values, without its generic calls.
                out += 0.5
                out.replace(with: 255, where: out .> 255)
                row[x] = UInt32(out.x) | UInt32(out.y) << 8 | UInt32(out.z) << 16 | UInt32(out.w) << 24
            }
        }
    }
}
