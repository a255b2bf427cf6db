// The fixed-point stepping behind ImageSampler's affine runs: positions along a run (FixedRun)
// and the stretch of a run whose bilinear quads lie inside the image (QuadStretches).
import CKernels

/// Sample positions along an affine run of pixels, minus ½ texel (texel centres at integers),
/// in fixed point with 32 fractional bits: over a run of any length the stepping error stays far
/// below the 1/256 weight resolution.
struct FixedRun {
    static let one = 4_294_967_296.0
    private(set) var fu: Int64, fv: Int64
    let dfu: Int64, dfv: Int64
    /// (width − 1, height − 1) of the image in fixed point: a quad is inside below them.
    private let maxU: UInt64, maxV: UInt64

    /// Starts at image position (u, v) stepping (du, dv) per pixel; nil when the run reaches
    /// beyond ±10⁹ texels. `image` is borrowed: an initializer's argument is otherwise passed
    /// retained, and a run starts for every row (S8's image layers, shared by the bands of a
    /// frame on several threads, were retained and released at each).
    init?(u: Double, v: Double, du: Double, dv: Double, count: Int, image: borrowing Pixmap) {
        let su = u - 0.5, sv = v - 0.5
        let endU = su + du * Double(count), endV = sv + dv * Double(count)
        let limit = 1e9
        guard abs(su) < limit, abs(sv) < limit, abs(endU) < limit, abs(endV) < limit else { return nil }
        fu = 0; fv = 0
        dfu = FixedRun.rounded(du * FixedRun.one); dfv = FixedRun.rounded(dv * FixedRun.one)
        maxU = UInt64(image.width - 1) << 32; maxV = UInt64(image.height - 1) << 32
        let steps = SIMD4<UInt32>(0, 1, 2, 3)
        quadU = steps &* UInt32(truncatingIfNeeded: dfu); quadV = steps &* UInt32(truncatingIfNeeded: dfv)
        start(u: u, v: v)
    }

    /// Moves the run to image position (u, v), keeping its steps, with `init`'s arithmetic; the
    /// caller keeps the run within `init`'s ±10⁹ texels.
    @inline(__always)
    mutating func start(u: Double, v: Double) {
        fu = FixedRun.rounded((u - 0.5) * FixedRun.one)
        fv = FixedRun.rounded((v - 0.5) * FixedRun.one)
    }

    /// `x.rounded()` (to nearest, halves away from zero) for |x| < 2⁶³, without the libm call
    /// Swift makes for it on baseline x86-64 (`citrine_rounded_fixed`, shared with the turned
    /// rows' C loop).
    @inline(__always)
    static func rounded(_ x: Double) -> Int64 { citrine_rounded_fixed(x) }

    /// How many pixels from the current one on have their quads wholly inside the image (0 when
    /// the current one has not), exactly, in two divisions.
    var insideCount: Int64 {
        /// Steps k ≥ 0 with 0 ≤ f + k·d < limit, given 0 ≤ f < limit.
        func steps(_ f: Int64, _ d: Int64, below limit: UInt64) -> Int64 {
            d > 0 ? (Int64(limit) - 1 - f) / d + 1 : d < 0 ? f / -d + 1 : .max
        }
        guard inside(at: 0) else { return 0 }
        return Swift.min(steps(fu, dfu, below: maxU), steps(fv, dfv, below: maxV))
    }

    /// The quad positions (top-left texels, fixed point) whose quads lie wholly inside the image,
    /// as half-open bounds (`QuadStretches`).
    var insideBox: (u: (Int64, Int64), v: (Int64, Int64)) { ((0, Int64(maxU)), (0, Int64(maxV))) }

    /// Index (row · width + column) of the top-left texel of the quad `k` pixels ahead.
    @inline(__always)
    func texelIndex(at k: Int64, width: Int) -> Int {
        Int(truncatingIfNeeded: (fv &+ k &* dfv) >> 32) &* width &+ Int(truncatingIfNeeded: (fu &+ k &* dfu) >> 32)
    }

    /// The fractions (low 32 bits) of the steps to the next 0…3 pixels: 0, d, 2d, 3d.
    private let quadU: SIMD4<UInt32>, quadV: SIMD4<UInt32>

    /// Whether the texel quad `k` pixels ahead lies wholly inside the image.
    @inline(__always)
    func inside(at k: Int64) -> Bool {
        UInt64(bitPattern: fu &+ k &* dfu) < maxU && UInt64(bitPattern: fv &+ k &* dfv) < maxV
    }

    /// The quad's top-left texel.
    var column: Int { Int(truncatingIfNeeded: fu >> 32) }
    var row: Int { Int(truncatingIfNeeded: fv >> 32) }
    /// The fractions rounded to 8 bits (0…256).
    var weights: (x: UInt32, y: UInt32) {
        (UInt32(truncatingIfNeeded: ((fu & 0xFFFF_FFFF) &+ (1 << 23)) >> 24),
         UInt32(truncatingIfNeeded: ((fv & 0xFFFF_FFFF) &+ (1 << 23)) >> 24))
    }

    /// The fractions of this pixel's position and the next three's, for their weights.
    var quadFractions: QuadFractions {
        QuadFractions(u: SIMD4(repeating: UInt32(truncatingIfNeeded: fu)) &+ quadU,
                      v: SIMD4(repeating: UInt32(truncatingIfNeeded: fv)) &+ quadV,
                      step: (SIMD4(repeating: 4 &* UInt32(truncatingIfNeeded: dfu)), SIMD4(repeating: 4 &* UInt32(truncatingIfNeeded: dfv))))
    }

    /// The fractions (low 32 bits) of the positions of four consecutive pixels of a run, stepped
    /// four pixels at a time along with it.
    struct QuadFractions {
        var u: SIMD4<UInt32>, v: SIMD4<UInt32>
        let step: (u: SIMD4<UInt32>, v: SIMD4<UInt32>)

        /// On to the next four pixels.
        @inline(__always)
        mutating func advance() {
            u &+= step.u
            v &+= step.v
        }

        /// `FixedRun.weights` of the four pixels, each in both 16-bit halves of its 32-bit lane
        /// (the layout of `ImageSampler.weigh4`): for a fraction f (32 bits),
        /// ((f >> 23) + 1) >> 1 = (f + 2²³) >> 24.
        @inline(__always)
        var weights: (x: SIMD8<UInt16>, y: SIMD8<UInt16>) {
            @inline(__always) func lanes(_ f: SIMD4<UInt32>) -> SIMD8<UInt16> {
                let w = ((f &>> 23) &+ 1) &>> 1
                return unsafeBitCast(w | w &<< 16, to: SIMD8<UInt16>.self)
            }
            return (lanes(u), lanes(v))
        }
    }

    /// This run moved by `offset` (fixed point, `FixedRun.fixed`), for hints such as
    /// `Pixmap.prefetchTexels` (wrapping, never trapping).
    func shifted(by offset: (u: Int64, v: Int64)) -> FixedRun {
        var run = self
        run.fu &+= offset.u
        run.fv &+= offset.v
        return run
    }

    /// `x` texels in 32.32 fixed point, 0 when out of Int64's range.
    static func fixed(_ x: Double) -> Int64 {
        let f = x * one
        return abs(f) < 9e18 ? Int64(f) : 0
    }

    @inline(__always)
    mutating func advance(_ k: Int64) {
        fu &+= k &* dfu
        fv &+= k &* dfv
    }
}

/// Which pixels of a row's `FixedRun` put their quads (top-left texel positions, fixed point)
/// in a box of image positions, for the rows of one affine draw (runs with the same steps): the
/// reals where the positions meet the box's bounds, from the steps' reciprocals worked out once,
/// narrowed (`Stretch.sure`) or widened by `margin`. A few floating-point operations a row instead of
/// exact integer tests: the caller treats the pixels between the sure and the possible stretch
/// one at a time, with the sampler's own checks.
struct QuadStretches {
    /// 1 / step of u and of v (unused for a zero step).
    private let ru: Double, rv: Double
    private let count: Int

    /// Far above the estimates' error: a crossing is off the exact real by at most four
    /// roundings of relative size 2⁻⁵³, under 2⁻²⁷ px for any crossing within a run of up to
    /// 2²⁴ px (runs are rows of a pixmap, at most `Pixmap.maxDimension` = 2¹⁵ px; farther
    /// crossings are clamped to the run).
    static let margin = 1.0 / 1_048_576

    /// For runs with `run`'s steps over `count` pixels.
    init(_ run: FixedRun, count: Int) {
        ru = 1 / Double(run.dfu)
        rv = 1 / Double(run.dfv)
        self.count = count
    }

    /// The pixels x of `0..<count` (from the run's current pixel) whose quad positions lie in
    /// `u` × `v` (half-open, lower bound first), as the reals where they meet the bounds.
    @inline(__always)
    func stretch(of run: FixedRun, u: (Int64, Int64), v: (Int64, Int64)) -> Stretch {
        let a = QuadStretches.interval(run.fu, run.dfu, ru, u), b = QuadStretches.interval(run.fv, run.dfv, rv, v)
        return Stretch(lo: Swift.max(a.lo, b.lo), hi: Swift.min(a.hi, b.hi), last: Double(count - 1))
    }

    /// Pixels between two reals, `lo` to `hi`, within `0 ... last`.
    struct Stretch {
        let lo: Double, hi: Double, last: Double

        /// Only the pixels that surely lie in the box.
        @inline(__always)
        var sure: Range<Int> { pixels(lo + QuadStretches.margin, hi - QuadStretches.margin) }

        /// Every pixel that may lie in the box.
        @inline(__always)
        var possible: Range<Int> { pixels(lo - QuadStretches.margin, hi + QuadStretches.margin) }

        @inline(__always)
        private func pixels(_ lo: Double, _ hi: Double) -> Range<Int> {
            let lo = Swift.max(lo, 0), hi = Swift.min(hi, last)
            guard lo <= hi else { return 0..<0 }
            // 0 ≤ lo ≤ hi ≤ last: truncation is the floor.
            let first = Int(lo), end = Int(hi) + 1
            let lower = Double(first) < lo ? first + 1 : first
            return lower..<Swift.max(lower, end)
        }
    }

    /// The reals x with bounds.0 ≤ f + x·d ≤ bounds.1 (r = 1/d); all or none of them for d = 0,
    /// exactly.
    @inline(__always)
    private static func interval(_ f: Int64, _ d: Int64, _ r: Double, _ bounds: (Int64, Int64)) -> (lo: Double, hi: Double) {
        guard d != 0 else { return bounds.0 <= f && f < bounds.1 ? (-.infinity, .infinity) : (.infinity, -.infinity) }
        let a = Double(bounds.0 &- f) * r, b = Double(bounds.1 &- f) * r
        return (Swift.min(a, b), Swift.max(a, b))
    }
}
