import CKernels
/// Samples an `ImagePattern` at device pixel centres.
///
/// The pattern's transform maps image pixel space to device space; the sampler inverts it once
/// and maps each device pixel centre (x + ½, y + ½) back into the image (with the homogeneous
/// divide for projective transforms; points whose w ≤ 0 lie behind the projection and are not
/// painted). Bilinear filtering treats texel (i, j) as sitting at (i + ½, j + ½), as Core Graphics,
/// Skia and Cairo do. `.smooth` first picks the mipmap level whose texels are closest to one
/// device pixel (box-filtered halvings, built once per image; `levelOfDetailBias` shifts the
/// choice), then filters bilinearly in it.
struct ImageSampler {
    let image: Pixmap
    /// Device → image (or mip level) space, row-major 3×3.
    let inverse: Projective
    let bilinear: Bool
    let spread: SpreadMode
    /// For nearest filtering under a translation by whole texels (device pixel (x, y) shows
    /// texel (x + dx, y + dy)): the image's words and that offset; nil otherwise. `texels` then
    /// finds a run's texels with integer arithmetic, as `rowTexels` would from the mapped pixel
    /// centre.
    let lender: TexelLender?

    /// An image's words under a translation by whole texels, small enough for a blitter to keep
    /// beside its shader and ask for each span's texels without copying the shader (a group
    /// surface composited at its place: S8 asks ≈ 274 000 times a frame).
    ///
    /// Its numbers are 32-bit (a side is at most `Pixmap.maxDimension`, an offset under 10⁹):
    /// with 64-bit ones the sampler made `ShaderProgram` larger than 120 bytes, which a `switch`
    /// then copied whole at every span (`RadialSolver` says more).
    struct TexelLender {
        let words: UnsafeMutablePointer<UInt32>
        let width: Int32
        let height: Int32
        /// Device pixel (x, y) shows texel (x + dx, y + dy).
        let dx: Int32
        let dy: Int32

        /// The words of pixels x ..< x + count of row y, or nil when the run is not wholly inside
        /// the image.
        @inline(__always)
        func texels(y: Int, x: Int, count: Int) -> UnsafeMutablePointer<UInt32>? {
            let tx = x &+ Int(dx), ty = y &+ Int(dy), width = Int(width)
            guard ty >= 0, ty < Int(height), tx >= 0, tx &+ count <= width else { return nil }
            return words + (ty &* width &+ tx)
        }
    }

    init?(_ pattern: ImagePattern) {
        guard pattern.image.width > 0, pattern.image.height > 0,
              var inv = pattern.transform.inverted() else { return nil }
        var source = pattern.image
        if pattern.filter == .smooth {
            // Texels per device pixel: √|det| of the inverse's linear part (at its centre for
            // projective maps, the usual approximation).
            let det = abs(inv.m.0 * inv.m.4 - inv.m.1 * inv.m.3) / (inv.m.8 * inv.m.8)
            // Level ⌊log₂(texels per pixel) + bias⌋, at least 0, at most 16.
            let lod = logarithm2(det.squareRoot()) + pattern.levelOfDetailBias
            let level = lod >= 1 ? Int(min(16, lod).rounded(.down)) : 0
            if level > 0 {
                source = pattern.image.mipmap(level: level)
                let fx = Double(source.width) / Double(pattern.image.width)
                let fy = Double(source.height) / Double(pattern.image.height)
                inv = Projective(inv.m.0 * fx, inv.m.1 * fx, inv.m.2 * fx,
                                 inv.m.3 * fy, inv.m.4 * fy, inv.m.5 * fy,
                                 inv.m.6, inv.m.7, inv.m.8)
            }
        }
        image = source
        inverse = inv
        bilinear = pattern.filter != .nearest
        spread = pattern.spread
        let m = inv.m
        if !bilinear, m.0 == 1, m.1 == 0, m.3 == 0, m.4 == 1, m.6 == 0, m.7 == 0, m.8 == 1,
           abs(m.2) < 1e9, abs(m.5) < 1e9, m.2 == m.2.rounded(), m.5 == m.5.rounded() {
            lender = TexelLender(words: source.words, width: Int32(source.width), height: Int32(source.height),
                                 dx: Int32(m.2), dy: Int32(m.5))
        } else {
            lender = nil
        }
    }

    /// Whether the sampler shows whole texels under a whole-texel translation (`lender`):
    /// each pixel's word is then the same whichever run it is sampled in.
    var isWholeTexelTranslation: Bool { lender != nil }

    func sample(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let py = Double(y) + 0.5
        let px = Double(x) + 0.5
        if let (u, v, du, dv) = affineRun(y: y, x: x) {
            if bilinear {
                sampleBilinearRun(u: u, v: v, du: du, dv: dv, count: count, into: out)
            } else if !(du == 1 && dv == 0 && copyRow(u: u, v: v, count: count, into: out)) {
                sampleNearestRun(u: u, v: v, du: du, dv: dv, count: count, into: out)
            }
        } else {
            sampleProjective(px: px, py: py, count: count, into: out)
        }
    }

    /// `sample` under a projective map: pixel k of the run has its centre at (px + k, py). Out
    /// of line, so that `sample`'s affine runs compile as they did before it had a vector loop.
    @inline(never)
    private func sampleProjective(px: Double, py: Double, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        guard bilinear && AVX2Kernels.isEnabled else {
            for i in 0..<count { out[i] = projectiveSample(px + Double(i), py) }
            return
        }
        // Eight (AVX2) or sixteen (AVX-512) pixels at a time in vector lanes while their texel
        // quads lie inside the image; the eight pixels after where that stops one by one here.
        withUnsafeBytes(of: inverse.m) { matrix in
            let matrix = matrix.baseAddress!.assumingMemoryBound(to: Double.self)
            var i = 0
            while i < count {
                i += AVX512Kernels.isEnabled
                    ? citrine_projective_row_avx512(matrix, image.words, image.width, image.height, px + Double(i), py,
                                                    count - i, out + i)
                    : citrine_projective_row_avx2(matrix, image.words, image.width, image.height, px + Double(i), py,
                                                  count - i, out + i)
                let groupEnd = Swift.min(count, i + 8)
                while i < groupEnd {
                    out[i] = projectiveSample(px + Double(i), py)
                    i += 1
                }
            }
        }
    }

    /// The sample at device point (px, py) under a projective map: its image position by the
    /// homogeneous divide (multiplies and adds in this order, which `citrine_projective_row_avx2`
    /// repeats lane for lane); 0 behind the projection (w ≤ 10⁻¹²).
    @inline(__always)
    private func projectiveSample(_ px: Double, _ py: Double) -> UInt32 {
        let m = inverse.m
        let w = m.6 * px + m.7 * py + m.8
        if w <= 1e-12 { return 0 }
        let u = (m.0 * px + m.1 * py + m.2) / w
        let v = (m.3 * px + m.4 * py + m.5) / w
        return bilinear ? sampleBilinear(u, v) : sampleNearest(u, v)
    }

    /// For an affine map: the image position of pixel (x, y)'s centre and its step per pixel
    /// along the row; nil for a projective map.
    @inline(__always)
    private func affineRun(y: Int, x: Int) -> (u: Double, v: Double, du: Double, dv: Double)? {
        let m = inverse.m
        guard m.6 == 0 && m.7 == 0 else { return nil }
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let invW = 1 / m.8
        return ((m.0 * px + m.1 * py + m.2) * invW, (m.3 * px + m.4 * py + m.5) * invW, m.0 * invW, m.3 * invW)
    }

    /// Nearest samples along an affine run.
    private func sampleNearestRun(u: Double, v: Double, du: Double, dv: Double, count: Int,
                                  into out: UnsafeMutablePointer<UInt32>) {
        var u = u, v = v
        for i in 0..<count {
            out[i] = sampleNearest(u, v)
            u += du
            v += dv
        }
    }

    /// Bilinear samples along an affine run.
    private func sampleBilinearRun(u: Double, v: Double, du: Double, dv: Double, count: Int,
                                   into out: UnsafeMutablePointer<UInt32>) {
        // The image's words and width, not the sampler, go into the closure: capturing the
        // sampler copied it, retaining and releasing the image at every run — a write to an
        // object shared by the bands of a frame drawn on several threads (S8's image).
        let words = image.words, width = image.width
        walkBilinearRun(u: u, v: v, du: du, dv: dv, count: count,
                        single: { out[$0] = $1 },
                        stretch: { i, n, run in
                            // The stretch inside the image eight pixels at a time (the same words);
                            // an edge's run often has none.
                            guard AVX2Kernels.isEnabled, n > 0 else { return 0 }
                            citrine_bilinear_row_avx2(words, width, run.fu, run.fv, run.dfu, run.dfv, n, out + i)
                            return n
                        },
                        quad: { UnsafeMutableRawPointer(out + $0).storeBytes(of: $1, as: SIMD4<UInt32>.self) })
    }

    /// `sample` of a bilinear sampler with an affine map, composited: the samples, scaled by
    /// `factor`/255, go source-over onto `dst` (`Pixmap.drawTexture`).
    func composite(y: Int, x: Int, count: Int, factor: UInt32, into dst: UnsafeMutablePointer<UInt32>) {
        guard let (u, v, du, dv) = affineRun(y: y, x: x) else { return }
        walkBilinearRun(u: u, v: v, du: du, dv: dv, count: count,
                        single: { Pixmap.sourceOver(dst + $0, $1, factor: factor) },
                        stretch: { _, _, _ in 0 },
                        quad: { Pixmap.sourceOver4(dst + $0, $1, factor: factor) })
    }

    /// The fixed-point run of pixel row `y` from its pixel 0 over `count` pixels, with the
    /// arithmetic `sample` and `composite` use for a run starting there (so every pixel gets the
    /// position a pattern fill of the whole row gives it); nil for a projective map or a run
    /// reaching beyond ±10⁹ texels.
    func rowRun(y: Int, count: Int) -> FixedRun? {
        guard let (u, v, du, dv) = affineRun(y: y, x: 0) else { return nil }
        return FixedRun(u: u, v: v, du: du, dv: dv, count: count, image: image)
    }

    /// Moves `run` (a `rowRun` of this sampler) to pixel 0 of row `y` with `rowRun`'s arithmetic,
    /// for a row between two whose `rowRun` exists (so within its ±10⁹ texels).
    @inline(__always)
    func move(_ run: inout FixedRun, toRow y: Int) {
        guard let (u, v, _, _) = affineRun(y: y, x: 0) else { return }
        run.start(u: u, v: v)
    }

    /// For an affine map, the step in image space from one pixel row to the next: (∂u/∂y, ∂v/∂y).
    var rowStep: (u: Double, v: Double) {
        let m = inverse.m
        return (m.1 / m.8, m.4 / m.8)
    }

    /// Composites pixels `pixels` of a row whose run from pixel 0 is `row` (`rowRun`): each
    /// bilinear sample, scaled by `factor`/255, goes source-over onto `dst` (pixel 0 of the row).
    /// `inside`: all their texel quads lie wholly inside the image, so four are sampled at a time;
    /// otherwise each is sampled alone, texels outside the image transparent.
    func composite(_ row: FixedRun, pixels: Range<Int>, inside: Bool, factor: UInt32, into dst: UnsafeMutablePointer<UInt32>) {
        guard !pixels.isEmpty else { return }
        var run = row
        run.advance(Int64(pixels.lowerBound))
        if inside && AVX2Kernels.isEnabled {
            let kernel = AVX512Kernels.isEnabled ? citrine_turned_row_avx512 : citrine_turned_row_avx2
            kernel(image.words, image.width, run.fu, run.fv, run.dfu, run.dfv, pixels.count, factor, dst + pixels.lowerBound)
            return
        }
        var i = pixels.lowerBound
        if inside && i + 4 <= pixels.upperBound {
            // The image's size and texels held in registers, the weights stepped four pixels at a time.
            let width = image.width, words = UnsafeRawPointer(image.words)
            var fractions = run.quadFractions
            repeat {
                Pixmap.sourceOver4(dst + i, ImageSampler.sampleQuad(run, fractions.weights, width: width, words: words), factor: factor)
                run.advance(4)
                fractions.advance()
                i += 4
            } while i + 4 <= pixels.upperBound
        }
        while i < pixels.upperBound {
            Pixmap.sourceOver(dst + i, sample(run), factor: factor)
            run.advance(1)
            i += 1
        }
    }

    /// The bilinear samples of `count` pixels from image position (u, v) stepping (du, dv), handed
    /// out in order: `quad(i, s)` for pixels i…i + 3 when all their texel quads lie inside the
    /// image (sampled together in 16-bit lanes), else `single(i, s)` for pixel i alone — with the
    /// same positions and rounding either way. Runs beyond ±10⁹ texels go through `sampleBilinear`.
    /// `stretch(i, n, run)` may first take the n pixels from i on whose quads lie inside the image
    /// (`run` at pixel i) and returns how many of them it handled (0 or n).
    @inline(__always)
    private func walkBilinearRun(u: Double, v: Double, du: Double, dv: Double, count: Int,
                                 single: (Int, UInt32) -> Void, stretch: (Int, Int, FixedRun) -> Int,
                                 quad: (Int, SIMD4<UInt32>) -> Void) {
        guard var run = FixedRun(u: u, v: v, du: du, dv: dv, count: count, image: image) else {
            var u = u, v = v
            for i in 0..<count {
                single(i, sampleBilinear(u, v))
                u += du
                v += dv
            }
            return
        }
        // The quads of a run lie on a line and the image's interior is convex: pixels whose quads
        // are inside form one stretch.
        var i = 0
        while i < count && !run.inside(at: 0) {
            single(i, sample(run))
            run.advance(1)
            i += 1
        }
        let inside = i + Int(Swift.min(Int64(count - i), run.insideCount))
        let handled = stretch(i, inside - i, run)
        run.advance(Int64(handled))
        i += handled
        while i + 4 <= inside {
            quad(i, ImageSampler.sampleQuad(run, run.quadFractions.weights, width: image.width, words: UnsafeRawPointer(image.words)))
            run.advance(4)
            i += 4
        }
        while i < count {
            single(i, sample(run))
            run.advance(1)
            i += 1
        }
    }

    /// The bilinear samples of the run's current pixel and the three after it, whose texel quads
    /// all lie inside the image (`width` texels wide, at `words`), with their `weights`
    /// (`FixedRun.QuadFractions`): each pixel's two texel pairs are read as two 8-byte words.
    @inline(__always)
    private static func sampleQuad(_ run: FixedRun, _ weights: (x: SIMD8<UInt16>, y: SIMD8<UInt16>),
                                   width w: Int, words: UnsafeRawPointer) -> SIMD4<UInt32> {
        /// Texels (x, y), (x + 1, y) and (x, y + 1), (x + 1, y + 1) of pixel k's quad.
        @inline(__always) func pairs(_ k: Int64) -> (top: SIMD2<UInt32>, bottom: SIMD2<UInt32>) {
            let p = words + 4 &* run.texelIndex(at: k, width: w)
            return (p.loadUnaligned(as: SIMD2<UInt32>.self), p.loadUnaligned(fromByteOffset: 4 &* w, as: SIMD2<UInt32>.self))
        }
        let q0 = pairs(0), q1 = pairs(1), q2 = pairs(2), q3 = pairs(3)
        let top01 = SIMD4(lowHalf: q0.top, highHalf: q1.top), top23 = SIMD4(lowHalf: q2.top, highHalf: q3.top)
        let bottom01 = SIMD4(lowHalf: q0.bottom, highHalf: q1.bottom), bottom23 = SIMD4(lowHalf: q2.bottom, highHalf: q3.bottom)
        let full = SIMD8<UInt16>(repeating: 256)
        return ImageSampler.weigh4(SIMD4(lowHalf: top01.evenHalf, highHalf: top23.evenHalf),
                                   SIMD4(lowHalf: top01.oddHalf, highHalf: top23.oddHalf),
                                   SIMD4(lowHalf: bottom01.evenHalf, highHalf: bottom23.evenHalf),
                                   SIMD4(lowHalf: bottom01.oddHalf, highHalf: bottom23.oddHalf),
                                   left: full &- weights.x, right: weights.x, upper: full &- weights.y, lower: weights.y)
    }

    /// The bilinear sample at a run's current position: the texel quad read directly when it
    /// lies inside the image (the common case), else after the spread mode (`quadTexels`).
    @inline(__always)
    private func sample(_ run: FixedRun) -> UInt32 {
        let x = run.column, y = run.row, w = image.width
        guard run.inside(at: 0) else {
            let (t00, t10, t01, t11) = quadTexels(x, y)
            return ImageSampler.weigh(t00, t10, t01, t11, wx: run.weights.x, wy: run.weights.y)
        }
        let p = image.words + (y &* w &+ x)
        return ImageSampler.weigh(p[0], p[1], p[w], p[w &+ 1], wx: run.weights.x, wy: run.weights.y)
    }

    /// A run that maps pixel centres exactly onto texel centres of one image row (an integer
    /// translation): copies the texels. Returns false when the run is not such a row.
    private func copyRow(u: Double, v: Double, count: Int, into out: UnsafeMutablePointer<UInt32>) -> Bool {
        guard let texels = rowTexels(u: u, v: v, count: count) else { return false }
        out.update(from: texels, count: count)
        return true
    }

    /// The texels of `copyRow`'s run (nil when the run is not such a row).
    @inline(__always)
    private func rowTexels(u: Double, v: Double, count: Int) -> UnsafeMutablePointer<UInt32>? {
        guard abs(u) < 1e9, abs(v) < 1e9 else { return nil }
        let fu = u.rounded(.down), fv = v.rounded(.down)
        guard u - fu == 0.5, v - fv == 0.5 else { return nil }
        let x0 = Int(fu), y0 = Int(fv)
        let w = image.width, h = image.height
        guard y0 >= 0, y0 < h, x0 >= 0, x0 + count <= w else { return nil }
        return image.words + y0 * w + x0
    }

    /// The image's own words that `sample` would write for pixels x ..< x + count of row y, when
    /// it copies them (nearest filtering under an integer translation, the run inside the
    /// image: a group or offscreen surface composited at its place); nil for any other run.
    /// Lets a blitter blend straight from the image instead of copying the row first.
    func texels(y: Int, x: Int, count: Int) -> UnsafeMutablePointer<UInt32>? {
        if let lender { return lender.texels(y: y, x: x, count: count) }
        guard !bilinear, let (u, v, du, dv) = affineRun(y: y, x: x), du == 1, dv == 0 else { return nil }
        return rowTexels(u: u, v: v, count: count)
    }

    @inline(__always)
    private func sampleNearest(_ u: Double, _ v: Double) -> UInt32 {
        guard u.isFinite, v.isFinite, abs(u) < 1e9, abs(v) < 1e9 else { return 0 }
        return texel(Int(u.rounded(.down)), Int(v.rounded(.down)))
    }

    @inline(__always)
    private func sampleBilinear(_ u: Double, _ v: Double) -> UInt32 {
        guard u.isFinite, v.isFinite, abs(u) < 1e9, abs(v) < 1e9 else { return 0 }
        let su = u - 0.5, sv = v - 0.5
        let fu = su.rounded(.down), fv = sv.rounded(.down)
        let x0 = Int(fu), y0 = Int(fv)
        let wx = UInt32((su - fu) * 256 + 0.5), wy = UInt32((sv - fv) * 256 + 0.5)
        let w = image.width, h = image.height
        let t00: UInt32, t10: UInt32, t01: UInt32, t11: UInt32
        if x0 >= 0, y0 >= 0, x0 + 1 < w, y0 + 1 < h {
            let p = image.words + y0 * w + x0
            t00 = p[0]; t10 = p[1]; t01 = p[w]; t11 = p[w + 1]
        } else {
            (t00, t10, t01, t11) = quadTexels(x0, y0)
        }
        return ImageSampler.weigh(t00, t10, t01, t11, wx: wx, wy: wy)
    }

    /// Bilinear combination of four texels with 8-bit fractional weights, per channel in full
    /// precision (the four weights sum to 65536), rounded once.
    @inline(__always)
    static func weigh(_ t00: UInt32, _ t10: UInt32, _ t01: UInt32, _ t11: UInt32,
                      wx: UInt32, wy: UInt32) -> UInt32 {
        weigh(t00, t10, t01, t11, UInt64((256 - wx) * (256 - wy)), UInt64(wx * (256 - wy)),
              UInt64((256 - wx) * wy), UInt64(wx * wy))
    }

    /// `weigh` with the four products given (their sum at most 65536).
    @inline(__always)
    static func weigh(_ t00: UInt32, _ t10: UInt32, _ t01: UInt32, _ t11: UInt32,
                      _ w00: UInt64, _ w10: UInt64, _ w01: UInt64, _ w11: UInt64) -> UInt32 {
        // Two channels per 64-bit word in 32-bit lanes: each weighted sum is < 2^24, so lanes
        // never carry into each other.
        let rb = spreadEven(t00) &* w00 &+ spreadEven(t10) &* w10 &+ spreadEven(t01) &* w01
            &+ spreadEven(t11) &* w11 &+ 0x0000_8000_0000_8000
        let ga = spreadEven(t00 >> 8) &* w00 &+ spreadEven(t10 >> 8) &* w10 &+ spreadEven(t01 >> 8) &* w01
            &+ spreadEven(t11 >> 8) &* w11 &+ 0x0000_8000_0000_8000
        let r = UInt32(truncatingIfNeeded: rb >> 16) & 0xFF, b = UInt32(truncatingIfNeeded: rb >> 48) & 0xFF
        let g = UInt32(truncatingIfNeeded: ga >> 16) & 0xFF, a = UInt32(truncatingIfNeeded: ga >> 48) & 0xFF
        return r | g << 8 | b << 16 | a << 24
    }

    /// Bilinear samples of a translated image, composited: pixel i combines texels i and i + 1 of
    /// rows `top` and `bottom` with weights that are the same for every pixel (`horizontal` for
    /// the two columns, `vertical` for the two rows; each pair sums to at most 256), rounded
    /// exactly as `weigh` rounds; the samples, scaled by `factor`/255, go source-over onto `dst`.
    /// Reads texels up to `top[count]`. Four pixels at a time in 16-bit lanes.
    @inline(__always)
    static func translatedRow(top: UnsafePointer<UInt32>, bottom: UnsafePointer<UInt32>, count: Int,
                              horizontal: (Int, Int), vertical: (Int, Int), factor: UInt32,
                              into dst: UnsafeMutablePointer<UInt32>) {
        if AVX2Kernels.isEnabled {
            let kernel = AVX512Kernels.isEnabled ? citrine_translated_row_avx512 : citrine_translated_row_avx2
            kernel(top, bottom, count, UInt16(truncatingIfNeeded: horizontal.0), UInt16(truncatingIfNeeded: horizontal.1),
                   UInt16(truncatingIfNeeded: vertical.0), UInt16(truncatingIfNeeded: vertical.1), factor, dst)
            return
        }
        let left = SIMD8<UInt16>(repeating: UInt16(horizontal.0)), right = SIMD8<UInt16>(repeating: UInt16(horizontal.1))
        let upper = SIMD8<UInt16>(repeating: UInt16(vertical.0)), lower = SIMD8<UInt16>(repeating: UInt16(vertical.1))
        @inline(__always) func load(_ p: UnsafePointer<UInt32>) -> SIMD4<UInt32> {
            UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt32>.self)
        }
        var i = 0
        while i + 4 <= count {
            let t00 = load(top + i), t10 = load(top + i + 1), t01 = load(bottom + i), t11 = load(bottom + i + 1)
            Pixmap.sourceOver4(dst + i, weigh4(t00, t10, t01, t11, left: left, right: right, upper: upper, lower: lower),
                               factor: factor)
            i += 4
        }
        while i < count {
            let w00 = UInt64(horizontal.0 * vertical.0), w10 = UInt64(horizontal.1 * vertical.0)
            let w01 = UInt64(horizontal.0 * vertical.1), w11 = UInt64(horizontal.1 * vertical.1)
            Pixmap.sourceOver(dst + i, weigh(top[i], top[i + 1], bottom[i], bottom[i + 1], w00, w10, w01, w11), factor: factor)
            i += 1
        }
    }

    /// `weigh` on four pixels at once in 16-bit lanes: texel t00 of pixel k is lane k of `t00`, and
    /// the weights of the columns (`left`, `right`) and rows (`upper`, `lower`) of each pixel fill
    /// both 16-bit halves of its 32-bit lane (each pair sums to at most 256). Exactly `weigh`'s
    /// rounding: the horizontal sums (≤ 255·256) fit 16 bits, and the vertical pass weighs their
    /// high and low bytes separately.
    @inline(__always)
    static func weigh4(_ t00: SIMD4<UInt32>, _ t10: SIMD4<UInt32>, _ t01: SIMD4<UInt32>, _ t11: SIMD4<UInt32>,
                       left: SIMD8<UInt16>, right: SIMD8<UInt16>, upper: SIMD8<UInt16>, lower: SIMD8<UInt16>) -> SIMD4<UInt32> {
        let low = SIMD8<UInt16>(repeating: 0xFF)
        /// Two texel columns blended: R, B (even) and G, A (odd) channels in 16-bit lanes.
        @inline(__always) func horizontal(_ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>) -> (even: SIMD8<UInt16>, odd: SIMD8<UInt16>) {
            let a = unsafeBitCast(a, to: SIMD8<UInt16>.self), b = unsafeBitCast(b, to: SIMD8<UInt16>.self)
            return ((a & low) &* left &+ (b & low) &* right, (a &>> 8) &* left &+ (b &>> 8) &* right)
        }
        /// (t·upper + b·lower + 2¹⁵) >> 16 in 16-bit lanes.
        @inline(__always) func vertical(_ t: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> {
            let high = (t &>> 8) &* upper &+ (b &>> 8) &* lower
            let lowBytes = (t & low) &* upper &+ (b & low) &* lower
            return (high &+ 128 &+ (lowBytes &>> 8)) &>> 8
        }
        let top = horizontal(t00, t10), bottom = horizontal(t01, t11)
        return unsafeBitCast(vertical(top.even, bottom.even) | vertical(top.odd, bottom.odd) &<< 8, to: SIMD4<UInt32>.self)
    }

    /// Bytes 0 and 2 of `c` in the low bytes of the two 32-bit halves of a word.
    @inline(__always)
    private static func spreadEven(_ c: UInt32) -> UInt64 {
        UInt64(c & 0xFF) | UInt64((c >> 16) & 0xFF) << 32
    }

    /// The texel at (x, y) after the spread mode.
    @inline(__always)
    private func texel(_ x: Int, _ y: Int) -> UInt32 {
        let w = image.width, h = image.height
        switch spread {
        case .decal: return x < 0 || y < 0 || x >= w || y >= h ? 0 : image.words[y &* w &+ x]
        case .pad: return image.words[ImageSampler.padded(y, h) &* w &+ ImageSampler.padded(x, w)]
        case .repeat: return image.words[ImageSampler.wrapped(y, h) &* w &+ ImageSampler.wrapped(x, w)]
        case .reflect: return image.words[ImageSampler.reflect(y, h) &* w &+ ImageSampler.reflect(x, w)]
        }
    }

    /// The texels at (x, y), (x + 1, y), (x, y + 1) and (x + 1, y + 1) after the spread mode
    /// (`texel`'s four), with one test of the mode and each column and row mapped once: a
    /// bilinear sample's quad where it reaches past the image (|x|, |y| ≤ 10⁹ + 1).
    @inline(__always)
    private func quadTexels(_ x: Int, _ y: Int) -> (UInt32, UInt32, UInt32, UInt32) {
        let w = image.width, h = image.height, words = image.words
        @inline(__always) func at(_ column: Int, _ row: Int) -> UInt32 { words[row &* w &+ column] }
        let x1 = x &+ 1, y1 = y &+ 1
        switch spread {
        case .decal:
            @inline(__always) func inside(_ column: Int, _ row: Int) -> UInt32 {
                column < 0 || row < 0 || column >= w || row >= h ? 0 : at(column, row)
            }
            return (inside(x, y), inside(x1, y), inside(x, y1), inside(x1, y1))
        case .pad:
            let c0 = ImageSampler.padded(x, w), c1 = ImageSampler.padded(x1, w)
            let r0 = ImageSampler.padded(y, h), r1 = ImageSampler.padded(y1, h)
            return (at(c0, r0), at(c1, r0), at(c0, r1), at(c1, r1))
        case .repeat:
            let c0 = ImageSampler.wrapped(x, w), c1 = ImageSampler.wrapped(x1, w)
            let r0 = ImageSampler.wrapped(y, h), r1 = ImageSampler.wrapped(y1, h)
            return (at(c0, r0), at(c1, r0), at(c0, r1), at(c1, r1))
        case .reflect:
            let c0 = ImageSampler.reflect(x, w), c1 = ImageSampler.reflect(x1, w)
            let r0 = ImageSampler.reflect(y, h), r1 = ImageSampler.reflect(y1, h)
            return (at(c0, r0), at(c1, r0), at(c0, r1), at(c1, r1))
        }
    }

    /// Index i of a side of n texels clamped to it (`.pad`).
    @inline(__always)
    private static func padded(_ i: Int, _ n: Int) -> Int { Swift.min(Swift.max(i, 0), n &- 1) }

    /// Index i of a side of n texels wrapped around it (`.repeat`).
    @inline(__always)
    private static func wrapped(_ i: Int, _ n: Int) -> Int {
        let k = i % n
        return k < 0 ? k &+ n : k
    }

    /// Index i of a side of n texels mirrored at its ends (`.reflect`).
    private static func reflect(_ i: Int, _ n: Int) -> Int {
        var k = i % (2 * n)
        if k < 0 { k += 2 * n }
        return k < n ? k : 2 * n - 1 - k
    }
}

extension Projective {
    /// The inverse, or nil when singular or not finite.
    public func inverted() -> Projective? {
        let (a, b, c, d, e, f, g, h, i) = m
        let A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
        let det = a * A + b * B + c * C
        guard det != 0, det.isFinite else { return nil }
        let r = 1 / det
        return Projective(A * r, -(b * i - c * h) * r, (b * f - c * e) * r,
                          B * r, (a * i - c * g) * r, -(a * f - c * d) * r,
                          C * r, -(a * h - b * g) * r, (a * e - b * d) * r)
    }

    /// Maps a point with the homogeneous divide; nil when it lands at or behind w = 0.
    public func apply(_ p: Point) -> Point? {
        let w = m.6 * p.x + m.7 * p.y + m.8
        guard w > 1e-12 else { return nil }
        return Point(x: (m.0 * p.x + m.1 * p.y + m.2) / w, y: (m.3 * p.x + m.4 * p.y + m.5) / w)
    }

    /// `self` first, then `t` (t · self as matrices on column vectors).
    public func concatenating(_ t: Projective) -> Projective {
        let l = t.m, r = m
        return Projective(
            l.0 * r.0 + l.1 * r.3 + l.2 * r.6, l.0 * r.1 + l.1 * r.4 + l.2 * r.7, l.0 * r.2 + l.1 * r.5 + l.2 * r.8,
            l.3 * r.0 + l.4 * r.3 + l.5 * r.6, l.3 * r.1 + l.4 * r.4 + l.5 * r.7, l.3 * r.2 + l.4 * r.5 + l.5 * r.8,
            l.6 * r.0 + l.7 * r.3 + l.8 * r.6, l.6 * r.1 + l.7 * r.4 + l.8 * r.7, l.6 * r.2 + l.7 * r.5 + l.8 * r.8)
    }
}
