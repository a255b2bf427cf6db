import CKernels
/// Paints coverage runs into a `Pixmap` with a `Paint`, optionally through a clip `Mask`.
///
/// Pipeline per run of pixels:
///
/// ```
///   shader ──▶ premultiplied source words (row scratch) ──▶ × opacity ──▶ × coverage × clip
///          ──▶ blend with the destination (source-over: integer fast path; others: `BlendMode`)
/// ```
///
/// Pixels are 32-bit words with R in the low byte and A in the high one. Source-over works on two
/// channels at a time (`0x00FF00FF` masks) with factors in 0…255 and exactly rounded division by
/// 255, so `src + dst·(255 − αs)/255` never overflows a channel; an opaque solid colour at full
/// coverage is a plain store. Everything else falls back to the exact
/// floating-point formulas of `BlendMode`.
public struct PaintBlitter: Blitter {
    public let target: Pixmap
    public let blendMode: BlendMode
    public let clip: Mask?
    /// The target's words and width, read once.
    private let words: UnsafeMutablePointer<UInt32>
    private let width: Int
    private let shader: ShaderProgram
    private let row: UnsafeMutablePointer<UInt32>
    private let masked: UnsafeMutablePointer<UInt8>
    /// Opacity as a factor 0…255.
    private let opacity: UInt32
    private let fastSourceOver: Bool
    /// The blend mode only scales the destination (`BlendMode.keptDestination`).
    private let keepsDestinationOnly: Bool
    /// The premultiplied word of a solid shader drawn without a clip (the common case, served
    /// without shading a row); nil otherwise.
    private let solidWord: UInt32?
    /// `solidWord` when drawn source-over: edge pixels are blended inline in the sweep.
    private let solidSourceOverWord: UInt32?
    /// Whether consecutive quads of a row are gathered into one run before they are shaded and
    /// blended (`mergeQuad`): a shader whose words do not depend on the run
    /// (`ShaderProgram.shadesAnyRunAlike`, not a solid colour) drawn source-over, for which a
    /// pixel of coverage 0 — the quads' ends, no longer trimmed — keeps its word. Each quad was a
    /// run of its own: S4's circle edges made ≈ 2 800 runs a frame of one to four pixels.
    private let mergesQuads: Bool
    /// The gathered quads: their row, first pixel and pixel count (their coverage is in
    /// `gathered`). Drawn when a quad does not continue them and after the fill's last row
    /// (`flush`); spans and coverage rows in between are other pixels.
    private var pendingY = 0, pendingX = 0, pendingCount = 0
    /// `solidWord` × opacity: the source word of full-coverage spans (interiors), scaled once.
    private let solidInteriorWord: UInt32
    /// How a full-coverage span is drawn: the shader's `FullCoverageRun` when drawn source-over at
    /// full opacity without a clip, else `.chunks`.
    private let interior: ShaderProgram.FullCoverageRun
    /// Whether spans may be blended straight from an image's words (`ShaderProgram.texels`): a
    /// nearest-filtered image drawn source-over without a clip.
    private let blendsTexels: Bool
    /// The image's texels under a whole-texel translation when `blendsTexels`
    /// (`ShaderProgram.texelLender`): asked first, as `shader.texels` copies the 136-byte
    /// program on every span (S8: 403.8 → 392.0 M instructions a frame, callgrind).
    private let texelLender: ImageSampler.TexelLender?
    /// Whether a pixel's words do not depend on how its row is split into quads and spans
    /// (`ShaderProgram.shadesAnyRunAlike`; coverage, clip and blending are per pixel). Asked
    /// only for whole-pixel rectangles: worked out in `init`, it cost every fill (S1 +0.3 %).
    var drawsAnySplitAlike: Bool { shader.shadesAnyRunAlike }

    public init(target: Pixmap, paint: Paint, clip: Mask? = nil) {
        self.target = target
        blendMode = paint.blendMode
        self.clip = clip
        words = target.words
        width = target.width
        let scratch = target.paintScratch
        row = scratch.row
        masked = scratch.coverage
        let program = ShaderProgram(paint.shader, tablesFrom: scratch)
        let o = Swift.max(0, Swift.min(1, paint.opacity.isNaN ? 0 : paint.opacity))
        opacity = UInt32(o * 255 + 0.5)
        fastSourceOver = paint.blendMode == .sourceOver
        keepsDestinationOnly = paint.blendMode.keepsDestinationOnly
        solidWord = clip == nil ? program.solidWord : nil
        solidSourceOverWord = fastSourceOver ? solidWord : nil
        solidInteriorWord = PaintBlitter.scale(solidWord ?? 0, opacity)
        interior = fastSourceOver && clip == nil && opacity == 255 ? program.fullCoverageRun : .chunks
        blendsTexels = fastSourceOver && clip == nil && program.mayLendTexels
        texelLender = blendsTexels ? program.texelLender : nil
        mergesQuads = solidWord == nil && fastSourceOver && program.shadesAnyRunAlike
        shader = program    // last: moved, not copied
    }

    /// For a solid colour drawn source-over without a clip: its premultiplied word, the opacity
    /// (0…255), and the target's words and width, for the rasterizer's vector sweep
    /// (`citrine_sweep_solid_avx2`, the same pixels as `blitQuad` and `blitSpan`); nil otherwise.
    var solidSweep: (color: UInt32, opacity: UInt32, words: UnsafeMutablePointer<UInt32>, width: Int)? {
        solidSourceOverWord.map { ($0, opacity, words, width) }
    }

    /// Solid colours without a clip (most fills) are blended inline in the rasterizer's sweep.
    @inline(__always)
    public mutating func blitSpan(y: Int, x: Int, count: Int, coverage: UInt8) {
        guard count > 0 else { return }
        guard let solidWord else {
            blitShadedSpan(y: y, x: x, count: count, coverage: coverage)
            return
        }
        solidSpan(y: y, x: x, count: count, color: solidWord, coverage: coverage)
    }

    /// `blitSpan` for every paint but a solid colour without a clip. An opaque shader's
    /// full-coverage span is shaded straight into the target in one run (no scratch row, so no
    /// chunks); a translucent one's is shaded and blended in one pass where the shader can
    /// (`ShaderProgram.shadeOver`). A span
    /// whose source words are an image's own (`ShaderProgram.texels`: a group surface composited
    /// at its place) is blended source-over straight from the image, the coverage row filled
    /// once: the words `blitChunk` gives it, without copying the texels into the scratch row (not
    /// when the image is the target itself: the blend would read words it has already written).
    @inline(never)
    private mutating func blitShadedSpan(y: Int, x: Int, count: Int, coverage: UInt8) {
        if coverage == 255 && interior != .chunks {
            if interior == .opaque {
                shader.shade(y: y, x: x, count: count, into: words + (y * width + x))
                return
            }
            if shader.shadeOver(y: y, x: x, count: count, onto: words + (y * width + x)) { return }
        }
        if blendsTexels,
           let texels = texelLender.map({ $0.texels(y: y, x: x, count: count) }) ?? shader.texels(y: y, x: x, count: count),
           texels + count <= words || texels >= words + width * target.height {
            let dst = words + (y * width + x)
            if AVX2Kernels.isEnabled {
                // The destination `rowsAhead` rows below, fetched while this row is blended (a
                // surface is composited row after row; the target's rows are far apart in memory).
                if y + Pixmap.rowsAhead < target.height { Pixmap.prefetch(dst + Pixmap.rowsAhead * width, count: count) }
                // One factor for the whole span: no coverage row (the same words, `sourceOver`'s
                // arithmetic with coverage × opacity / 255 worked out once).
                let factor = PaintBlitter.div255(UInt32(coverage) &* opacity)
                if AVX512Kernels.isEnabled {
                    citrine_source_over_span_avx512(dst, texels, count, factor)
                } else {
                    citrine_source_over_span_avx2(dst, texels, count, factor)
                }
                return
            }
            let filled = Swift.min(count, PaintScratch.chunk)
            for i in 0..<filled { masked[i] = coverage }
            var start = 0
            while start < count {
                let n = Swift.min(count - start, PaintScratch.chunk)
                PaintBlitter.sourceOver(dst + start, source: texels + start, coverage: masked, count: n, opacity: opacity)
                start += n
            }
            return
        }
        var start = 0
        while start < count {
            let n = Swift.min(count - start, PaintScratch.chunk)
            for i in 0..<n { masked[i] = coverage }
            blitChunk(y: y, x: x + start, count: n)
            start += n
        }
    }

    /// Solid colours drawn source-over without a clip (most fills) go straight to
    /// `sourceOverSolid`: the check is inlined into the rasterizer's sweep.
    @inline(__always)
    public mutating func blitCoverage(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        guard let solidSourceOverWord, let base = coverage.baseAddress else {
            blitShadedCoverage(y: y, x: x, coverage: coverage)
            return
        }
        PaintBlitter.sourceOverSolid(words + (y &* width &+ x), color: solidSourceOverWord, coverage: base,
                                     count: coverage.count, opacity: opacity)
    }

    /// A solid colour drawn source-over without a clip blends the quad inline, as one load and
    /// store of four destination words when all four lie in the row (lanes past `count` have
    /// coverage 0 and store the destination unchanged); other paints and the row's last three
    /// pixels go through `blitCoverage`.
    @inline(__always)
    public mutating func blitQuad(y: Int, x: Int, count: Int, coverage: SIMD4<UInt32>) {
        guard let solidSourceOverWord, x &+ 4 <= width else {
            if mergesQuads { mergeQuad(y: y, x: x, count: count, coverage: coverage) } else {
                blitQuadAsCoverage(y: y, x: x, count: count, coverage: coverage)
            }
            return
        }
        let dst = UnsafeMutableRawPointer(words + (y &* width &+ x))
        let blended = PaintBlitter.sourceOver(dst.loadUnaligned(as: SIMD4<UInt32>.self), source: SIMD4(repeating: solidSourceOverWord),
                                              coverage: coverage, opacity: opacity)
        dst.storeBytes(of: blended, as: SIMD4<UInt32>.self)
    }

    /// Adds a quad to the gathered run when it continues it in the same row (and the run's
    /// coverage still fits `gathered`), else draws the run and starts a new one.
    @inline(never)
    private mutating func mergeQuad(y: Int, x: Int, count: Int, coverage: SIMD4<UInt32>) {
        if pendingCount > 0 && (y != pendingY || x != pendingX &+ pendingCount || pendingCount &+ 4 > PaintScratch.chunk) {
            flush()
        }
        if pendingCount == 0 { (pendingY, pendingX) = (y, x) }
        // All four lanes stored (room is left for them), `count` of them kept.
        UnsafeMutableRawPointer(gathered + pendingCount).storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: coverage),
                                                                  as: SIMD4<UInt8>.self)
        pendingCount &+= count
    }

    /// Draws the gathered quads as one run.
    public mutating func flush() {
        guard pendingCount > 0 else { return }
        // Copied down rather than passed: a coverage pointer parameter cost every chunk of other
        // paints (S5 +0.2 % instructions).
        masked.update(from: gathered, count: pendingCount)
        blitChunk(y: pendingY, x: pendingX, count: pendingCount)
        pendingCount = 0
    }

    /// The gathered quads' coverage: the upper half of the scratch coverage (spans and
    /// coverage rows drawn meanwhile — other pixels — use the lower half, `masked`).
    private var gathered: UnsafeMutablePointer<UInt8> { masked + PaintScratch.chunk }

    /// `blitCoverage` for every paint but a solid colour drawn source-over without a clip.
    @inline(never)
    private mutating func blitShadedCoverage(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        var start = 0
        let count = coverage.count
        while start < count {
            let n = Swift.min(count - start, PaintScratch.chunk)
            for i in 0..<n { masked[i] = coverage[start + i] }
            blitChunk(y: y, x: x + start, count: n)
            start += n
        }
    }

    // MARK: - Runs

    /// A solid colour over a run of constant coverage, without a clip.
    @inline(__always)
    private func solidSpan(y: Int, x: Int, count: Int, color: UInt32, coverage: UInt8) {
        let dst = words + (y &* width &+ x)
        let f = PaintBlitter.div255(UInt32(coverage) &* opacity)
        let src = coverage == 255 ? solidInteriorWord : PaintBlitter.scale(color, f)
        if fastSourceOver {
            PaintBlitter.sourceOverSolid(dst, count: count, source: src)
        } else {
            blendSolidSpan(dst, count: count, color: color, factor: f)
        }
    }

    /// `count` pixels of one colour at factor `f` blended with a mode other than source-over.
    /// Out of line: the sweep inlines `solidSpan`.
    @inline(never)
    private func blendSolidSpan(_ dst: UnsafeMutablePointer<UInt32>, count: Int, color: UInt32, factor f: UInt32) {
        if keepsDestinationOnly, let kept = blendMode.keptDestination(sourceAlpha: color >> 24, factor: f) {
            if kept != 255 { for i in 0..<count { dst[i] = PaintBlitter.scale(dst[i], kept) } }
        } else {
            for i in 0..<count { dst[i] = blendMode.blend(source: color, destination: dst[i], factor: f) }
        }
    }

    /// `count` pixels whose coverage is in `masked`.
    ///
    /// `mutating` though it writes only through pointers: its callers are mutating, and a
    /// non-mutating callee made Swift copy the whole blitter (memcpy) at every chunk
    /// (callgrind, anchor scene S8: memcpy 10.4 → 6.1 M instructions a frame).
    private mutating func blitChunk(y: Int, x: Int, count: Int) {
        if let clip {
            let m = clip.data + y * clip.width + x
            for i in 0..<count { masked[i] = UInt8((UInt32(masked[i]) * UInt32(m[i]) + 127) / 255) }
        }
        shader.shade(y: y, x: x, count: count, into: row)
        let dst = words + y * width + x
        if fastSourceOver {
            PaintBlitter.sourceOver(dst, source: row, coverage: masked, count: count, opacity: opacity)
        } else if keepsDestinationOnly {
            for i in 0..<count {
                let f = PaintBlitter.div255(UInt32(masked[i]) * opacity)
                if let kept = blendMode.keptDestination(sourceAlpha: row[i] >> 24, factor: f) { dst[i] = PaintBlitter.scale(dst[i], kept) }
            }
        } else if blendMode == .copy {
            // Four source words at once where four coverages are 255 (a backdrop filter's
            // write-back inside its outline, a blur's enlargement): `blend`'s copy shortcut,
            // four at a time (div255(255 · 255) is 255); the others pixel by pixel.
            @inline(__always) func copy(_ i: Int) {
                dst[i] = blendMode.blend(source: row[i], destination: dst[i], factor: PaintBlitter.div255(UInt32(masked[i]) * opacity))
            }
            var i = 0
            while opacity == 255 && i + 4 <= count {
                let coverage = UnsafeRawPointer(masked + i).loadUnaligned(as: UInt32.self)
                if coverage == .max {
                    let words = UnsafeRawPointer(row + i).loadUnaligned(as: SIMD4<UInt32>.self)
                    UnsafeMutableRawPointer(dst + i).storeBytes(of: BlendMode.clampedToAlpha(words), as: SIMD4<UInt32>.self)
                } else if coverage != 0 {
                    for k in i..<i + 4 { copy(k) }
                }
                i += 4
            }
            for i in i..<count { copy(i) }
        } else {
            for i in 0..<count {
                let f = PaintBlitter.div255(UInt32(masked[i]) * opacity)
                dst[i] = blendMode.blend(source: row[i], destination: dst[i], factor: f)
            }
        }
    }

    /// `dst = src + dst·(255 − αs)/255` over a run of one colour: an opaque one is stored (the
    /// same words: dst·0/255 is 0), any other blended sixteen pixels per step (four independent
    /// quads), then four; the last one to three with the run's last quad. Runs shorter than a
    /// quad go pixel by pixel. Out of line: inlined into the rasterizer's sweep, `scaleBytes`'
    /// widening conversions compile to calls.
    @inline(never)
    static func sourceOverSolid(_ dst: UnsafeMutablePointer<UInt32>, count: Int, source src: UInt32) {
        guard src >> 24 != 255 else {
            Pixmap.fill(dst, count: count, with: src)
            return
        }
        if count >= 8 && AVX2Kernels.isEnabled {
            citrine_source_over_solid(dst, count, src)     // the AVX-512 loop where it is on
            return
        }
        let inv = 255 - (src >> 24)
        guard count >= 4 else {
            for i in 0..<count { dst[i] = src &+ scale(dst[i], inv) }
            return
        }
        let source = unsafeBitCast(SIMD4<UInt32>(repeating: src), to: SIMD16<UInt8>.self)
        let factor = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: inv))
        /// The four pixels at `dst + k` blended.
        @inline(__always) func quad(_ k: Int) -> SIMD16<UInt8> {
            source &+ scaleBytes(UnsafeRawPointer(dst + k).loadUnaligned(as: SIMD16<UInt8>.self), factor)
        }
        @inline(__always) func store(_ pixels: SIMD16<UInt8>, at k: Int) {
            UnsafeMutableRawPointer(dst + k).storeBytes(of: pixels, as: SIMD16<UInt8>.self)
        }
        // The last four pixels are blended first, from the destination as it was, and stored
        // last: where they overlap the quads before them they hold the same values.
        let last = quad(count &- 4)
        var i = 0
        while i &+ 16 <= count {
            let a = quad(i), b = quad(i &+ 4), c = quad(i &+ 8), d = quad(i &+ 12)
            store(a, at: i)
            store(b, at: i &+ 4)
            store(c, at: i &+ 8)
            store(d, at: i &+ 12)
            i &+= 16
        }
        while i &+ 4 <= count {
            store(quad(i), at: i)
            i &+= 4
        }
        store(last, at: count &- 4)
    }

    /// `sourceOver` of a solid colour. The short runs of anti-aliased edges (one to three
    /// pixels, most of them) are one quad whose lanes are filled from the run (empty lanes have
    /// coverage 0 and are stored nowhere).
    @inline(never)
    static func sourceOverSolid(_ dst: UnsafeMutablePointer<UInt32>, color: UInt32,
                                coverage: UnsafePointer<UInt8>, count: Int, opacity: UInt32) {
        guard count < 4 else {
            sourceOver(dst, source: nil, color: color, coverage: coverage, count: count, opacity: opacity)
            return
        }
        let raw = UnsafeMutableRawPointer(dst)
        var d = SIMD4<UInt32>(), f = SIMD4<UInt32>()
        f[0] = UInt32(coverage[0])
        if count >= 2 {
            d.lowHalf = raw.loadUnaligned(as: SIMD2<UInt32>.self)
            f[1] = UInt32(coverage[1])
        } else {
            d[0] = dst[0]
        }
        if count == 3 {
            d[2] = dst[2]
            f[2] = UInt32(coverage[2])
        }
        let blended = sourceOver(d, source: SIMD4(repeating: color), coverage: f, opacity: opacity)
        if count >= 2 { raw.storeBytes(of: blended.lowHalf, as: SIMD2<UInt32>.self) } else { dst[0] = blended[0] }
        if count == 3 { dst[2] = blended[2] }
    }

    /// Source-over of a row of source words with per-pixel coverage: `sourceOver` below, or its
    /// AVX-512 or AVX2 version (the same words).
    @inline(__always)
    static func sourceOver(_ dst: UnsafeMutablePointer<UInt32>, source: UnsafeMutablePointer<UInt32>,
                           coverage: UnsafePointer<UInt8>, count: Int, opacity: UInt32) {
        if AVX2Kernels.isEnabled {
            if AVX512Kernels.isEnabled {
                citrine_source_over_row_avx512(dst, source, coverage, count, opacity)
            } else {
                citrine_source_over_row_avx2(dst, source, coverage, count, opacity)
            }
        } else {
            sourceOver(dst, source: source, color: 0, coverage: coverage, count: count, opacity: opacity)
        }
    }

    /// Source-over of a run with per-pixel coverage: source words from `source`, or `color`
    /// everywhere when it is nil; factor = coverage × opacity / 255. Four pixels at a time, with
    /// exactly the rounding of the scalar `scale`/`div255` (transparent quads are skipped); the
    /// last one to three pixels go through the same arithmetic in a partly filled quad (empty
    /// lanes have coverage 0 and leave nothing behind).
    @inline(__always)
    static func sourceOver(_ dst: UnsafeMutablePointer<UInt32>, source: UnsafeMutablePointer<UInt32>?,
                           color: UInt32, coverage: UnsafePointer<UInt8>, count: Int, opacity: UInt32) {
        var i = 0
        let solid = SIMD4<UInt32>(repeating: color)
        while i &+ 4 <= count {
            let f = SIMD4<UInt32>(UInt32(coverage[i]), UInt32(coverage[i + 1]),
                                  UInt32(coverage[i + 2]), UInt32(coverage[i + 3]))
            let s = source.map { UnsafeRawPointer($0 + i).loadUnaligned(as: SIMD4<UInt32>.self) } ?? solid
            if f != SIMD4() && s != SIMD4() {
                let raw = UnsafeMutableRawPointer(dst + i)
                raw.storeBytes(of: sourceOver(raw.loadUnaligned(as: SIMD4<UInt32>.self), source: s, coverage: f,
                                              opacity: opacity), as: SIMD4<UInt32>.self)
            }
            i &+= 4
        }
        let rest = count &- i
        guard rest > 0 else { return }
        var f = SIMD4<UInt32>(), s = solid, d = SIMD4<UInt32>()
        for k in 0..<rest {
            f[k] = UInt32(coverage[i + k])
            if let source { s[k] = source[i + k] }
            d[k] = dst[i + k]
        }
        let blended = sourceOver(d, source: s, coverage: f, opacity: opacity)
        for k in 0..<rest { dst[i + k] = blended[k] }
    }

    /// Four destination words after source-over of `s` with factors coverage × opacity / 255.
    @inline(__always)
    static func sourceOver(_ d: SIMD4<UInt32>, source s: SIMD4<UInt32>, coverage: SIMD4<UInt32>,
                           opacity: UInt32) -> SIMD4<UInt32> {
        var f = coverage
        if opacity != 255 {
            let t = f &* opacity &+ 128
            f = (t &+ (t &>> 8)) &>> 8
        }
        let src = scale4(s, f)
        return src &+ scale4(d, 255 &- (src &>> 24))
    }

    /// `scale` on four pixels, each with its own factor (0…255): the words as eight 16-bit lanes
    /// holding (R, G) and (B, A) byte pairs. (Dividing with `div255`'s one `pmulhuw` instead
    /// gives the same words, but inlined into the rasterizer's sweep its widening conversions
    /// compile to calls: S1 39.7 → 50.1 M instructions.)
    @inline(__always)
    static func scale4(_ c: SIMD4<UInt32>, _ f: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let low = SIMD8<UInt16>(repeating: 0x00FF), high = SIMD8<UInt16>(repeating: 0xFF00)
        let half = SIMD8<UInt16>(repeating: 0x80)
        let factor = unsafeBitCast(f | (f &<< 16), to: SIMD8<UInt16>.self)
        let d = unsafeBitCast(c, to: SIMD8<UInt16>.self)
        var even = (d & low) &* factor &+ half        // R and B channels
        even = ((even &+ (even &>> 8)) &>> 8) & low
        var odd = (d &>> 8) &* factor &+ half          // G and A channels
        odd = (odd &+ (odd &>> 8)) & high
        return unsafeBitCast(even | odd, to: SIMD4<UInt32>.self)
    }

    /// `scale` on the sixteen channels of four pixels, all with the factor in `f`'s lanes (0…255):
    /// each channel widened to 16 bits, x·f + 128 divided by 255 as ⌊(x·f + 128)·257 / 2¹⁶⌋
    /// (one `pmulhuw`), which is `scale`'s ⌊(t + ⌊t / 256⌋) / 256⌋ for t = x·f + 128 < 2¹⁶.
    /// For the solid spans only: the texture paths keep `scale4`, whose code they were tuned with.
    @inline(__always)
    static func scaleBytes(_ c: SIMD16<UInt8>, _ f: SIMD8<UInt16>) -> SIMD16<UInt8> {
        /// Eight channels: ⌊(x·f + 128)·257 / 2¹⁶⌋.
        @inline(__always) func half(_ x: SIMD8<UInt8>) -> SIMD8<UInt8> {
            SIMD8<UInt8>(truncatingIfNeeded: div255(SIMD8<UInt16>(truncatingIfNeeded: x) &* f &+ 128))
        }
        return SIMD16(lowHalf: half(c.lowHalf), highHalf: half(c.highHalf))
    }

    /// ⌊t·257 / 2¹⁶⌋ in every lane (one `pmulhuw`): for t = x·f + 128 with x, f in 0…255, the
    /// rounded x·f / 255 of `scale` and `div255`.
    @inline(__always)
    static func div255(_ t: SIMD8<UInt16>) -> SIMD8<UInt16> {
        SIMD8<UInt16>(truncatingIfNeeded: (SIMD8<UInt32>(truncatingIfNeeded: t) &* 257) &>> 16)
    }

    // MARK: - Word arithmetic

    /// x / 255 rounded to nearest, for x in 0…65025.
    @inline(__always)
    static func div255(_ x: UInt32) -> UInt32 {
        let t = x &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// Every channel of `c` times `f`/255 (f in 0…255), rounded to nearest, two channels at a time.
    @inline(__always)
    package static func scale(_ c: UInt32, _ f: UInt32) -> UInt32 {
        var rb = (c & 0x00FF_00FF) &* f &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((c >> 8) & 0x00FF_00FF) &* f &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }
}

/// Scratch rows and gradient tables reused by every draw into one pixmap.
final class PaintScratch {
    /// Made at the first gradient drawn into the pixmap: most pixmaps (a deep tree's nested
    /// group surfaces) draw none and pay nothing for it.
    lazy var ramps = GradientRampCache()
    /// Made at the first stroke drawn into the pixmap.
    lazy var strokes = StrokeScratch()
    /// Pixels processed per chunk of a run.
    static let chunk = 256
    let row = UnsafeMutablePointer<UInt32>.allocate(capacity: chunk)
    /// Coverage of a chunk, and above it that of `PaintBlitter`'s gathered quads.
    let coverage = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * chunk)
    deinit {
        row.deallocate()
        coverage.deallocate()
    }
}

/// Storage a stroke's outlines are built in (`Pixmap.fillOutlines`), reused by every stroke
/// drawn into one pixmap: its points and outline batch grow to the largest stroke's and stay.
final class StrokeScratch {
    var buffers = Stroker.Buffers()
    var batch = Path()

    /// Points of storage kept between strokes; a larger stroke's buffers are given back after
    /// its draw (a 10 M-point polyline's copy is not held by the target).
    static let keptPoints = 1 << 14

    /// Gives back buffers that grew past `keptPoints` points.
    func trim() {
        if buffers.capacity > StrokeScratch.keptPoints { buffers = Stroker.Buffers() }
        if batch.points.capacity > StrokeScratch.keptPoints || batch.verbs.capacity > StrokeScratch.keptPoints { batch = Path() }
    }
}
