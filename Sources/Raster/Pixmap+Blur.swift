/// Gaussian blur, for shadows (`CALayer.shadowRadius`, `CGContext.setShadow`).
///
/// Separable: one horizontal and one vertical pass with a normalised Gaussian kernel of standard
/// deviation `sigma` pixels, truncated at 3σ (which keeps 99.7 % of the weight; the kernel is
/// renormalised so total alpha is preserved away from the edges). Pixels outside the pixmap count
/// as transparent, so content near the border fades as it would on an unbounded canvas cut to the
/// pixmap; callers that need the full spread allocate a pixmap grown by `Pixmap.blurMargin(sigma:)`
/// on each side. Works on premultiplied channels, as blurring must.
extension Pixmap {
    /// The margin (pixels) a blur of `sigma` spreads content by: ⌈3σ⌉, at most `maxDimension`
    /// (a wider kernel is flat across any pixmap, so a larger σ — up to +∞ — blurs as this one
    /// does). NaN and σ ≤ 0 give 0 (no blur).
    public static func blurMargin(sigma: Double) -> Int {
        sigma > 0 ? Int(clamping: (3 * sigma).rounded(.up), to: 0...maxDimension) : 0
    }

    /// The most multiply-adds (one per kernel tap and pixel, summed over both passes) that
    /// `gaussianBlur` spends on the exact kernel: 2²⁸, a fraction of a second of one core. σ = 20
    /// pixels over a 1 000 × 1 000-pixel pixmap takes 2.4·10⁸ and stays exact; the exact kernel's
    /// cost grows with σ, so σ = 152 over a 2 542²-pixel group (a shadowed, rasterized layer
    /// `scripts/fuzz layers` built: 1.2·10¹⁰, 18 s of CPU in a release build) is blurred by
    /// `boundedGaussianBlur` instead (case `shadow-radius-76-on-a-rasterized-layer-2542-pixels-wide`).
    public static let maxExactBlurWork = 1 << 28

    /// Blurs in place with a Gaussian of standard deviation `sigma` (pixels). σ ≤ 0 does nothing.
    /// Exact (the separable kernel, truncated at 3σ) while that costs at most `maxExactBlurWork`;
    /// past it, with σ above `fullResolutionBlurSigma`, `boundedGaussianBlur`'s approximation,
    /// whose cost does not grow with σ.
    public func gaussianBlur(sigma: Double) {
        let radius = Pixmap.blurMargin(sigma: sigma)
        guard radius > 0, width > 0, height > 0 else { return }
        let taps = 2 * radius + 1
        if sigma > Pixmap.fullResolutionBlurSigma,
           width * height * (Swift.min(taps, width) + Swift.min(taps, height)) > Pixmap.maxExactBlurWork {
            return boundedGaussianBlur(sigma: sigma)
        }
        exactGaussianBlur(sigma: sigma, radius: radius)
    }

    /// The separable kernel of standard deviation `sigma`, `radius` taps each side (> 0).
    private func exactGaussianBlur(sigma: Double, radius: Int) {
        var kernel = [Float](repeating: 0, count: 2 * radius + 1)
        var total: Float = 0
        for i in -radius...radius {
            let w = Float(exponential(-Double(i * i) / (2 * sigma * sigma)))
            kernel[i + radius] = w
            total += w
        }
        for i in kernel.indices { kernel[i] /= total }
        let longest = Swift.max(width, height)
        let line = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: longest)
        defer { line.deallocate() }
        for y in 0..<height { blurLine(start: y * width, step: 1, count: width, kernel, radius, line) }
        for x in 0..<width { blurLine(start: x, step: width, count: height, kernel, radius, line) }
    }

    /// Largest σ (pixels) `boundedGaussianBlur` blurs at full resolution.
    public static let fullResolutionBlurSigma: Double = 8

    /// A Gaussian blur whose cost does not grow with σ: up to `fullResolutionBlurSigma` it is
    /// `gaussianBlur`; beyond, the pixmap is halved n times (2×2 box, as mipmaps are) until σ/2ⁿ
    /// ≤ that limit, blurred there with σ reduced by the variance the halvings and the bilinear
    /// enlargement add (a 2-pixel box at spacing s adds s²/4, the bilinear tent of width 2ⁿ adds
    /// 4ⁿ/6), and enlarged back bilinearly — as GPU compositors blur with large radii. Any σ,
    /// up to +∞, costs about two passes over the pixels; NaN and σ ≤ 0 do nothing.
    public func boundedGaussianBlur(sigma: Double) {
        guard sigma > Pixmap.fullResolutionBlurSigma else { return gaussianBlur(sigma: sigma) }
        guard width > 0, height > 0 else { return }
        var levels = 0
        var small = self
        while sigma / Double(1 << levels) > Pixmap.fullResolutionBlurSigma, small.width > 1 || small.height > 1,
              let next = small.halved() {
            small = next
            levels += 1
        }
        guard levels > 0 else { return exactGaussianBlur(sigma: sigma, radius: Pixmap.blurMargin(sigma: sigma)) }
        let scale = Double(1 << levels)
        let added = (scale * scale - 1) / 12 + scale * scale / 6
        let clampedSigma = Swift.min(sigma, Double(Pixmap.maxDimension))
        let smallSigma = (Swift.max(0, clampedSigma * clampedSigma - added)).squareRoot() / scale
        if Pixmap.blurMargin(sigma: smallSigma) > 0 {
            small.exactGaussianBlur(sigma: smallSigma, radius: Pixmap.blurMargin(sigma: smallSigma))
        }
        let enlarge = ImagePattern(image: small, transform: Transform(a: scale, b: 0, c: 0, d: scale, tx: 0, ty: 0),
                                   filter: .bilinear, spread: .pad)
        fill(Rect(x: 0, y: 0, width: Double(width), height: Double(height)),
             paint: Paint(shader: .image(enlarge), blendMode: .copy))
    }

    private func blurLine(start: Int, step: Int, count: Int, _ kernel: [Float], _ radius: Int,
                          _ line: UnsafeMutablePointer<SIMD4<Float>>) {
        for i in 0..<count { line[i] = SIMD4<Float>(unpack: words[start + i * step]) }
        kernel.withUnsafeBufferPointer { k in
            for i in 0..<count {
                var acc = SIMD4<Float>.zero
                let lo = Swift.max(0, i - radius), hi = Swift.min(count - 1, i + radius)
                var j = lo
                while j <= hi {
                    acc += line[j] * k[j - i + radius]
                    j += 1
                }
                words[start + i * step] = acc.packed
            }
        }
    }
}
