import CKernels

/// A `Shader` prepared for drawing: colours premultiplied, gradients baked into lookup tables,
/// transforms inverted (device → shader space). Produces premultiplied words for a run of pixels,
/// sampled at pixel centres.
enum ShaderProgram {
    case solid(UInt32)
    case linear(GradientRamp, inverse: Transform, start: Point, ax: Double, ay: Double)
    /// The gradient's per-draw constants solved once (`RadialSolver`): a smaller payload to copy
    /// into each span's call than the `RadialGradient` with its stops.
    case radial(GradientRamp, inverse: Transform, RadialSolver)
    case conic(GradientRamp, inverse: Transform, center: Point, startAngle: Double)
    case image(ImageSampler)
    /// A singular transform or invalid geometry: nothing is painted.
    case none

    /// `scratch`'s cache keeps gradient tables from draw to draw (nil: a table built for this
    /// draw alone); it is looked at only for gradients.
    init(_ shader: Shader, tablesFrom scratch: PaintScratch? = nil) {
        /// The gradient's table, kept or built.
        func ramp(_ stops: [GradientStop], _ spread: SpreadMode) -> GradientRamp {
            scratch?.ramps.ramp(stops, spread: spread) ?? GradientRamp(stops, spread: spread)
        }
        switch shader {
        case let .solid(color):
            self = .solid(color.premultiplied.word)
        case let .linearGradient(g):
            let dx = g.end.x - g.start.x, dy = g.end.y - g.start.y
            let len2 = dx * dx + dy * dy
            guard let inv = g.transform.inverted(), len2 > 0, len2.isFinite else { self = .none; return }
            // t = ((p − start) · d) / |d|²
            self = .linear(ramp(g.stops, g.spread), inverse: inv, start: g.start,
                           ax: dx / len2, ay: dy / len2)
        case let .radialGradient(g):
            guard let inv = g.transform.inverted(), g.startRadius >= 0, g.endRadius >= 0 else { self = .none; return }
            self = .radial(ramp(g.stops, g.spread), inverse: inv, RadialSolver(g))
        case let .conicGradient(g):
            guard let inv = g.transform.inverted() else { self = .none; return }
            self = .conic(ramp(g.stops, .repeat), inverse: inv, center: g.center,
                          startAngle: g.startAngle)
        case let .image(pattern):
            if let sampler = ImageSampler(pattern) { self = .image(sampler) } else { self = .none }
        }
    }

    /// The premultiplied word of a solid colour; nil for every other shader.
    var solidWord: UInt32? {
        if case let .solid(word) = self { return word }
        return nil
    }

    /// How a span at full coverage can be drawn source-over at full opacity without a clip.
    enum FullCoverageRun {
        /// Through the scratch row, in chunks, blended.
        case chunks
        /// Shaded straight into the target: every word `shade` writes is opaque (alpha 255), and
        /// source-over of an opaque source is the source.
        case opaque
        /// Shaded and blended in one pass where `shadeOver` can (radial gradients), else in chunks.
        case onePass
    }

    /// This shader's `FullCoverageRun`: `.opaque` for opaque solid colours and for gradients whose
    /// colours are all opaque and that colour every pixel (linear and conic ones; radial ones
    /// leave pixels on no circle transparent), `.onePass` for radial gradients.
    var fullCoverageRun: FullCoverageRun {
        switch self {
        case let .solid(word): return word >> 24 == 255 ? .opaque : .chunks
        case let .linear(ramp, _, _, _, _), let .conic(ramp, _, _, _):
            return ramp.isOpaque && ramp.spread != .decal ? .opaque : .chunks
        case .radial: return .onePass
        case .image, .none: return .chunks
        }
    }

    /// Whether each pixel's word is the same whichever run it is shaded in: a solid colour,
    /// gradients (a pixel's gradient position comes from its row's pixel 0 and its column;
    /// `GradientRamp.fill(from:step:first:count:into:)` says where the linear one's pad runs can
    /// differ), or an image's texels under a whole-texel translation; a filtered image's
    /// positions are stepped from the start of their run, so its words may depend on where it
    /// starts.
    var shadesAnyRunAlike: Bool {
        switch self {
        case .solid, .linear, .radial, .conic: return true
        case let .image(sampler): return sampler.isWholeTexelTranslation
        case .none: return false
        }
    }

    /// Whether `texels` can return words: an image sampled with nearest filtering.
    var mayLendTexels: Bool {
        if case let .image(sampler) = self { return !sampler.bilinear }
        return false
    }

    /// The words `shade` would write for pixels x ..< x + count of row y where they are an
    /// image's own words in place (`ImageSampler.texels`); nil otherwise.
    func texels(y: Int, x: Int, count: Int) -> UnsafeMutablePointer<UInt32>? {
        if case let .image(sampler) = self { return sampler.texels(y: y, x: x, count: count) }
        return nil
    }

    /// An image's texel lender (`ImageSampler.lender`): its texels under a whole-texel
    /// translation, found without this program; nil for any other shader.
    var texelLender: ImageSampler.TexelLender? {
        if case let .image(sampler) = self { return sampler.lender }
        return nil
    }

    /// The centre of pixel 0 of row `y` in gradient space (`inv` maps device to gradient space):
    /// gradients step from it by the column, so a pixel's word does not depend on its run.
    @inline(__always)
    static func rowOrigin(_ inv: Transform, y: Int) -> Point {
        let py = Double(y) + 0.5
        return Point(x: inv.a * 0.5 + inv.c * py + inv.tx, y: inv.b * 0.5 + inv.d * py + inv.ty)
    }

    /// Writes `count` premultiplied words for pixels x… of row y.
    func shade(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        switch self {
        case let .solid(word):
            Pixmap.fill(out, count: count, with: word)
        case let .linear(ramp, inv, start, ax, ay):
            // The row's pixel 0 in gradient space, then a constant step per pixel: each pixel's
            // parameter from its column, whichever run holds it.
            let g = ShaderProgram.rowOrigin(inv, y: y)
            let t = (g.x - start.x) * ax + (g.y - start.y) * ay
            let dt = inv.a * ax + inv.b * ay
            ramp.fill(from: t, step: dt, first: x, count: count, into: out)
        case let .radial(ramp, inv, solver):
            // From the row's pixel 0, as the linear gradient.
            let start = ShaderProgram.rowOrigin(inv, y: y)
            if abs(solver.a) < 1e-12 {
                ramp.withColorLookup { color in
                    for i in 0..<count {
                        let k = Double(x + i)
                        let p = Point(x: start.x + inv.a * k, y: start.y + inv.b * k)
                        out[i] = solver.parameter(at: p).map(color) ?? 0
                    }
                }
            } else {
                solver.quadraticRun(ramp, from: start, first: x, dx: inv.a, dy: inv.b, count: count, into: out)
            }
        case let .conic(ramp, inv, center, start):
            let py = Double(y) + 0.5
            ramp.withColorLookup { color in
                for i in 0..<count {
                    let px = Double(x + i) + 0.5
                    let gx = inv.a * px + inv.c * py + inv.tx - center.x
                    let gy = inv.b * px + inv.d * py + inv.ty - center.y
                    var t = (arctangent(gy, gx) - start) / (2 * Double.pi)
                    t -= t.rounded(.down)
                    out[i] = color(t)
                }
            }
        case let .image(sampler):
            sampler.sample(y: y, x: x, count: count, into: out)
        case .none:
            out.update(repeating: 0, count: count)
        }
    }

    /// Blends the words of pixels x… of row y source-over onto `dst` at full coverage and
    /// opacity in one pass, where a vector loop shades and blends together (a radial gradient
    /// with a ≠ 0, the vector loops on: `citrine_radial_over_row_*`): the words of `shade` then
    /// `PaintBlitter.sourceOver`. Returns false, drawing nothing, for every other shader. Out of
    /// line: inlined into `PaintBlitter.blitShadedSpan` it made every span of other paints copy
    /// the blitter (S8 +0.14 % instructions).
    @inline(never)
    func shadeOver(y: Int, x: Int, count: Int, onto dst: UnsafeMutablePointer<UInt32>) -> Bool {
        guard case let .radial(ramp, inv, solver) = self, AVX2Kernels.isEnabled else { return false }
        guard abs(solver.a) >= 1e-12 else { return false }
        solver.quadraticRunOver(ramp, from: ShaderProgram.rowOrigin(inv, y: y), first: x, dx: inv.a, dy: inv.b, count: count, onto: dst)
        return true
    }
}

/// Two-circle radial gradients as Core Graphics, PDF and the HTML canvas define them: for a point
/// p, t is the largest value with r(t) = r0 + t·(r1 − r0) ≥ 0 such that p lies on the circle of
/// centre c(t) = c0 + t·(c1 − c0) and radius r(t). Points on no such circle are not painted.
/// The per-gradient constants are computed once per draw (`ShaderProgram.radial`).
struct RadialSolver {
    let cx: Double, cy: Double, cdx: Double, cdy: Double, r0: Double, dr: Double, a: Double
    /// r0² and r0·dr, worked out where they are used (the same doubles each time) rather than
    /// stored: with them stored, `ShaderProgram` was 136 bytes, and a `switch` over a program
    /// that large copied it whole (a call to `memcpy`) at every span, where at 120 bytes it
    /// reads the payload in place (disassembly of `ShaderProgram.shade`).
    var r0Squared: Double { r0 * r0 }
    var r0dr: Double { r0 * dr }

    init(_ g: RadialGradient) {
        cx = g.startCenter.x; cy = g.startCenter.y
        cdx = g.endCenter.x - g.startCenter.x; cdy = g.endCenter.y - g.startCenter.y
        r0 = g.startRadius
        dr = g.endRadius - g.startRadius
        a = cdx * cdx + cdy * cdy - dr * dr
    }

    @inline(__always)
    func parameter(at p: Point) -> Double? {
        let pdx = p.x - cx, pdy = p.y - cy
        let b = pdx * cdx + pdy * cdy + r0 * dr
        let c = pdx * pdx + pdy * pdy - r0Squared
        if abs(a) < 1e-12 {
            guard b != 0 else { return nil }
            let t = c / (2 * b)
            return r0 + t * dr >= 0 ? t : nil
        }
        let disc = b * b - a * c
        guard disc >= 0 else { return nil }
        let root = disc.squareRoot()
        let t1 = (b + root) / a, t2 = (b - root) / a
        let (hi, lo) = t1 > t2 ? (t1, t2) : (t2, t1)
        if r0 + hi * dr >= 0 { return hi }
        if r0 + lo * dr >= 0 { return lo }
        return nil
    }

    /// The words of the run p = start + k·(dx, dy), k in first..<first + count, when a ≠ 0: the
    /// parameters of `quadraticRun` through `ramp`'s colour lookup (0 where p lies on no
    /// circle), or the same words from the AVX-512 or AVX2 loop (`citrine_radial_row_avx512`/
    /// `_avx2`: every pixel's operations in double-precision lanes, in the same order).
    func quadraticRun(_ ramp: GradientRamp, from start: Point, first: Int, dx: Double, dy: Double, count: Int,
                      into out: UnsafeMutablePointer<UInt32>) {
        guard AVX2Kernels.isEnabled else {
            ramp.withColorLookup { color in
                quadraticRun(from: start, first: first, dx: dx, dy: dy, count: count) { i, t in out[i] = t.map(color) ?? 0 }
            }
            return
        }
        var run = kernelRun(ramp, from: start, first: first, dx: dx, dy: dy)
        ramp.table.withUnsafeBufferPointer { table in
            if AVX512Kernels.isEnabled {
                citrine_radial_row_avx512(&run, table.baseAddress!, count, out)
            } else {
                citrine_radial_row_avx2(&run, table.baseAddress!, count, out)
            }
        }
    }

    /// `quadraticRun`'s words blended source-over onto `dst` at full coverage and opacity in one
    /// pass (`citrine_radial_over_row_avx512`/`_avx2`): the words `PaintBlitter.sourceOver` gives
    /// for the run's row. Only with the vector loops on (`AVX2Kernels.isEnabled`).
    func quadraticRunOver(_ ramp: GradientRamp, from start: Point, first: Int, dx: Double, dy: Double, count: Int,
                          onto dst: UnsafeMutablePointer<UInt32>) {
        var run = kernelRun(ramp, from: start, first: first, dx: dx, dy: dy)
        ramp.table.withUnsafeBufferPointer { table in
            if AVX512Kernels.isEnabled {
                citrine_radial_over_row_avx512(&run, table.baseAddress!, count, dst)
            } else {
                citrine_radial_over_row_avx2(&run, table.baseAddress!, count, dst)
            }
        }
    }

    /// The run p = start + k·(dx, dy), k from `first`, as the C loops take it.
    private func kernelRun(_ ramp: GradientRamp, from start: Point, first: Int, dx: Double, dy: Double) -> citrine_radial_run {
        citrine_radial_run(sx: start.x - cx, sy: start.y - cy, dx: dx, dy: dy, first: Double(first), cdx: cdx, cdy: cdy, r0: r0, dr: dr,
                           r0dr: r0dr, r0Squared: r0Squared, a: a, invA: 1 / a, rootSign: a > 0 ? 1 : -1,
                           spread: ramp.spread.kernelCode)
    }

    /// `parameter(at:)` for p = start + k·(dx, dy), k = first + i, i in 0..<count, when a ≠ 0
    /// (emitted with i): the division becomes a multiply, and the larger root is picked by the
    /// sign of a. Each pixel's position is computed from its k on its own (no running sum), so
    /// vector lanes can repeat the loop exactly, and a pixel's parameter is the same whichever
    /// run holds it (start is the row's pixel 0, k its column).
    @inline(__always)
    func quadraticRun(from start: Point, first: Int, dx: Double, dy: Double, count: Int,
                      _ emit: (Int, Double?) -> Void) {
        let invA = 1 / a
        let rootSign: Double = a > 0 ? 1 : -1
        let sx = start.x - cx, sy = start.y - cy
        for i in 0..<count {
            let k = Double(first + i)
            let pdx = sx + k * dx, pdy = sy + k * dy
            let b = pdx * cdx + pdy * cdy + r0dr
            let c = pdx * pdx + pdy * pdy - r0Squared
            let disc = b * b - a * c
            if disc >= 0 {
                let root = disc.squareRoot() * rootSign
                let hi = (b + root) * invA
                if r0 + hi * dr >= 0 {
                    emit(i, hi)
                } else {
                    let lo = (b - root) * invA
                    emit(i, r0 + lo * dr >= 0 ? lo : nil)
                }
            } else {
                emit(i, nil)
            }
        }
    }
}

extension SpreadMode {
    /// The spread mode as the C loops name it (`citrine_radial_run.spread`).
    var kernelCode: Int {
        switch self {
        case .pad: 0
        case .repeat: 1
        case .reflect: 2
        case .decal: 3
        }
    }
}

extension PremultipliedColor {
    /// The pixel as a little-endian word (R in the low byte).
    @inlinable var word: UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }
}
