import CKernels

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

    /// The separable kernel of standard deviation `sigma`, `radius` taps each side (> 0): each
    /// row, then each column (read from the rounded words of the row pass). With the vector
    /// loops on, two (AVX2) or four (AVX-512) neighbouring outputs are summed in one vector
    /// (`citrine_blur_taps_avx2`/`_avx512`): pixels of a row, or columns side by side, with the
    /// Swift loop's operations in its order, and the words go to floats and back two at a time
    /// (`citrine_blur_unpack_avx2`, `_pack_avx2`), so the words are the same either way
    /// (`AVX2KernelsTests.blurMatchesTheSwiftLoop`).
    private func exactGaussianBlur(sigma: Double, radius: Int) {
        guard let content = nonzeroBox() else { return }   // all transparent: stays so
        var kernel = [Float](repeating: 0, count: 2 * radius + 1)
        var total: Float = 0
        for i in -radius...radius {
            let w = Float(exponential(-Double(i * i) / (2 * sigma * sigma)))
            kernel[i + radius] = w
            total += w
        }
        for i in kernel.indices { kernel[i] /= total }
        // Only the content's rows, and the columns and rows it spreads to, are blurred: a word
        // whose taps are all transparent sums to zero, and a transparent tap adds nothing to
        // a sum, so every word is the same as when the whole pixmap is blurred.
        let (x0, x1) = (Swift.max(0, content.x0 - radius), Swift.min(width, content.x1 + radius))
        let (y0, y1) = (Swift.max(0, content.y0 - radius), Swift.min(height, content.y1 + radius))
        let lanes = !AVX2Kernels.isEnabled ? 1 : AVX512Kernels.isEnabled ? 4 : 2
        let longest = Swift.max(x1 - x0, y1 - y0) * lanes
        let line = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: longest + 2 * radius * lanes)
        let sums = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: longest)
        defer { line.deallocate(); sums.deallocate() }
        kernel.withUnsafeBufferPointer { k in
            for y in content.y0..<content.y1 {
                blurLine(BlurLine(start: y * width + x0, step: 1, count: x1 - x0, group: 1, lanes: lanes), k, radius, line, sums)
            }
            var x = x0
            while x < x1 {
                let group = x + lanes <= x1 ? lanes : 1
                blurLine(BlurLine(start: y0 * width + x, step: width, count: y1 - y0, group: group, lanes: lanes), k, radius, line, sums)
                x += group
            }
        }
    }

    /// The smallest box holding every word that is not zero (transparent), as half-open pixel
    /// ranges; nil when there is none. Reads each row from both ends only as far as the box
    /// found so far, so a pixmap covered from edge to edge costs two words a row.
    private func nonzeroBox() -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        let p = words
        func rowIsClear(_ y: Int) -> Bool {
            let row = p + y * width
            for x in 0..<width where row[x] != 0 { return false }
            return true
        }
        var y0 = 0
        while y0 < height, rowIsClear(y0) { y0 += 1 }
        guard y0 < height else { return nil }
        var y1 = height
        while rowIsClear(y1 - 1) { y1 -= 1 }
        var (x0, x1) = (width, 0)
        for y in y0..<y1 {
            let row = p + y * width
            var x = 0
            while x < x0, row[x] == 0 { x += 1 }
            x0 = x
            x = width
            while x > x1, row[x - 1] == 0 { x -= 1 }
            x1 = x
        }
        return (x0, y0, x1, y1)
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

    /// One line of a blur pass: `count` entries `step` words apart from `start`, each `group`
    /// neighbouring pixels (1: a row's pixels; 2 or 4: a group of columns, row by row), and the
    /// pixels a vector loop sums at once (`lanes`, 1 without one).
    private struct BlurLine {
        let start: Int, step: Int, count: Int, group: Int, lanes: Int
    }

    /// Blurs `l` in place with `kernel` (`radius` taps each side), through `line` (room for
    /// (`count` + 2 × `radius`) × `group` pixels) and `sums`
    /// (`count` × `group`). Entry i, pixel b is Σ line[j, b] × kernel[j − i + radius] over the
    /// entries j within the line and the radius, summed from zero in order of j.
    ///
    /// With a vector loop the line sits between `radius` transparent entries on each side, so
    /// every entry sums all its taps in the C loop: a tap past the line's end adds 0 × weight,
    /// +0 to a sum of non-negative terms, which leaves it as it is — the words are those of the
    /// Swift loop, which stops at the line's ends.
    private func blurLine(_ l: BlurLine, _ kernel: UnsafeBufferPointer<Float>, _ radius: Int,
                          _ line: UnsafeMutablePointer<SIMD4<Float>>, _ sums: UnsafeMutablePointer<SIMD4<Float>>) {
        let (g, count) = (l.group, l.count)
        guard l.lanes > 1 else {
            for i in 0..<count {
                for b in 0..<g { line[i * g + b] = SIMD4<Float>(unpack: words[l.start + i * l.step + b]) }
            }
            for i in 0..<count {
                let lo = Swift.max(0, i - radius), hi = Swift.min(count - 1, i + radius)
                for b in 0..<g {
                    var acc = SIMD4<Float>.zero
                    var j = lo
                    while j <= hi {
                        acc += line[j * g + b] * kernel[j - i + radius]
                        j += 1
                    }
                    sums[i * g + b] = acc
                }
            }
            for i in 0..<count {
                for b in 0..<g { words[l.start + i * l.step + b] = sums[i * g + b].packed }
            }
            return
        }
        let pad = radius * g, data = line + radius * g
        line.initialize(repeating: .zero, count: pad)
        citrine_blur_unpack_avx2(words + l.start, l.step, count, g, UnsafeMutableRawPointer(data).assumingMemoryBound(to: Float.self))
        (data + count * g).initialize(repeating: .zero, count: pad)
        // Whole vectors of entries through the C loop, the rest (fewer than a vector's) here.
        let perVector = l.lanes / g, vectors = count / perVector
        if vectors > 0 {
            let src = UnsafeRawPointer(line).assumingMemoryBound(to: Float.self)
            let dst = UnsafeMutableRawPointer(sums).assumingMemoryBound(to: Float.self)
            if l.lanes == 4 {
                citrine_blur_taps_avx512(src, dst, vectors, 4 * g, kernel.baseAddress, kernel.count)
            } else {
                citrine_blur_taps_avx2(src, dst, vectors, 4 * g, kernel.baseAddress, kernel.count)
            }
        }
        for i in (vectors * perVector)..<count {
            for b in 0..<g {
                var acc = SIMD4<Float>.zero
                for j in 0..<kernel.count { acc += line[(i + j) * g + b] * kernel[j] }
                sums[i * g + b] = acc
            }
        }
        citrine_blur_pack_avx2(UnsafeRawPointer(sums).assumingMemoryBound(to: Float.self), count, g, words + l.start, l.step)
    }
}
