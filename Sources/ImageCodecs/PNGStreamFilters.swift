#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// PNG row filters (PNG specification, §9 "Filtering"), for 8-bit RGBA (4 bytes per pixel).
//
// Design note
// -----------
// * Each row is filtered with the filter type whose output has the smallest sum of absolute
//   values, the bytes taken as signed differences (the heuristic the specification suggests,
//   §12.8, and libpng's default). A row equal to the one above is sent as Up at once (all zeros,
//   the smallest sum possible).
// * Two implementations with the same results: a scalar reference, written as the specification
//   reads, and a vector one over `SIMD16<UInt8>` (sixteen bytes per step, Paeth's predictor done
//   in bytes, see `paethPredictor`). Tests compare them on random rows.
// * Rows are passed as pointers to their first byte, and the four bytes before each row (the
//   "pixel" left of the first one) must be readable zeros: the callers keep rows in buffers with
//   zeroed padding in front, so no filter needs a special case for the first pixel.

/// The five PNG filter types (filter method 0).
enum PNGFilter: UInt8, CaseIterable, Sendable {
    case none = 0, sub, up, average, paeth
}

/// Filtering of 8-bit RGBA rows. See the design note above for the padding convention.
enum PNGRowFilters {
    /// Bytes per pixel.
    static let bpp = 4

    // MARK: - Vector implementation

    /// The filter whose output for `row` (above it `previous`; `count` bytes each) has the
    /// smallest sum of absolute signed values; the first such in the order none, sub, up,
    /// average, paeth. Both rows need four readable zero bytes before them.
    static func choose(row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>, count: Int) -> PNGFilter {
        if memcmp(row, previous, count) == 0 { return .up }
        var sums = SIMD8<Int>()  // lanes 0…4: none, sub, up, average, paeth
        var i = 0
        let vectorEnd = count & ~15
        while i < vectorEnd {
            // At most 255 steps per block: a 16-bit lane adds two magnitudes (≤ 2·128) per step.
            let blockEnd = min(vectorEnd, i + 255 * 16)
            var none = SIMD8<UInt16>(), sub = none, up = none, average = none, paeth = none
            while i < blockEnd {
                let x = load(row, i), a = load(row, i - bpp), b = load(previous, i), c = load(previous, i - bpp)
                none &+= pairSums(signedMagnitude(x))
                sub &+= pairSums(signedMagnitude(x &- a))
                up &+= pairSums(signedMagnitude(x &- b))
                average &+= pairSums(signedMagnitude(x &- averagePredictor(a, b)))
                paeth &+= pairSums(signedMagnitude(x &- paethPredictor(a, b, c)))
                i += 16
            }
            sums &+= SIMD8<Int>(widenedSum(none), widenedSum(sub), widenedSum(up), widenedSum(average),
                                widenedSum(paeth), 0, 0, 0)
        }
        if i < count { addReferenceSums(row: row, previous: previous, from: i, to: count, into: &sums) }
        return best(sums)
    }

    /// Writes `filter` applied to `row` (above it `previous`; `count` bytes each) to `out`
    /// (`count` bytes, without the filter-type byte).
    static func apply(_ filter: PNGFilter, row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>, count: Int,
                      into out: UnsafeMutablePointer<UInt8>) {
        let vectorEnd = count & ~15
        var i = 0
        switch filter {
        case .none:
            out.update(from: row, count: count)
            return
        case .sub:
            while i < vectorEnd { store(load(row, i) &- load(row, i - bpp), out, i); i += 16 }
        case .up:
            while i < vectorEnd { store(load(row, i) &- load(previous, i), out, i); i += 16 }
        case .average:
            while i < vectorEnd {
                store(load(row, i) &- averagePredictor(load(row, i - bpp), load(previous, i)), out, i)
                i += 16
            }
        case .paeth:
            while i < vectorEnd {
                let predictor = paethPredictor(load(row, i - bpp), load(previous, i), load(previous, i - bpp))
                store(load(row, i) &- predictor, out, i)
                i += 16
            }
        }
        applyReference(filter, row: row, previous: previous, from: i, to: count, into: out)
    }

    // MARK: - Vector helpers

    @inline(__always)
    static func load(_ p: UnsafePointer<UInt8>, _ offset: Int) -> SIMD16<UInt8> {
        UnsafeRawPointer(p + offset).loadUnaligned(as: SIMD16<UInt8>.self)
    }

    @inline(__always)
    static func store(_ v: SIMD16<UInt8>, _ p: UnsafeMutablePointer<UInt8>, _ offset: Int) {
        UnsafeMutableRawPointer(p + offset).storeBytes(of: v, as: SIMD16<UInt8>.self)
    }

    /// |d| of each byte read as a signed value (0…128): min(d, −d) in wrapping byte arithmetic.
    @inline(__always)
    static func signedMagnitude(_ d: SIMD16<UInt8>) -> SIMD16<UInt8> {
        pointwiseMin(d, SIMD16<UInt8>() &- d)
    }

    /// Sums of neighbouring byte pairs, as eight 16-bit lanes.
    @inline(__always)
    static func pairSums(_ v: SIMD16<UInt8>) -> SIMD8<UInt16> {
        let wide = unsafeBitCast(v, to: SIMD8<UInt16>.self)
        return (wide & 0x00FF) &+ (wide &>> 8)
    }

    @inline(__always)
    static func widenedSum(_ v: SIMD8<UInt16>) -> Int {
        Int(SIMD8<UInt32>(truncatingIfNeeded: v).wrappedSum())
    }

    /// ⌊(a + b)/2⌋ without leaving bytes: (a & b) + ((a ^ b) >> 1).
    @inline(__always)
    static func averagePredictor(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> SIMD16<UInt8> {
        (a & b) &+ ((a ^ b) &>> 1)
    }

    /// Paeth's predictor in bytes. With p = a + b − c: pa = |p − a| = |b − c|,
    /// pb = |p − b| = |a − c|, pc = |p − c| = |(b − c) + (a − c)|, which is pa + pb when the two
    /// differences have the same sign and |pa − pb| otherwise. pa + pb may exceed a byte; it is
    /// saturated at 255, which keeps it ≥ pa and ≥ pb, so every comparison decides as the
    /// unbounded one does.
    @inline(__always)
    static func paethPredictor(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>, _ c: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let pa = pointwiseMax(b, c) &- pointwiseMin(b, c)
        let pb = pointwiseMax(a, c) &- pointwiseMin(a, c)
        let sameSign = (b .< c) .== (a .< c)
        let saturatedSum = pa &+ pointwiseMin(pb, ~pa)
        let difference = pointwiseMax(pa, pb) &- pointwiseMin(pa, pb)
        let pc = difference.replacing(with: saturatedSum, where: sameSign)
        let chooseA = (pa .<= pb) .& (pa .<= pc)
        let chooseB = pb .<= pc
        return c.replacing(with: b, where: chooseB).replacing(with: a, where: chooseA)
    }

    // MARK: - Scalar reference

    /// The reference for `choose`: the specification's heuristic, byte by byte.
    static func chooseReference(row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>, count: Int) -> PNGFilter {
        var sums = SIMD8<Int>()
        addReferenceSums(row: row, previous: previous, from: 0, to: count, into: &sums)
        return best(sums)
    }

    /// The reference for `apply`.
    static func applyReference(_ filter: PNGFilter, row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>,
                               count: Int, into out: UnsafeMutablePointer<UInt8>) {
        applyReference(filter, row: row, previous: previous, from: 0, to: count, into: out)
    }

    /// The Paeth predictor as the specification writes it (§9.4).
    @inline(__always)
    static func paethReference(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    @inline(__always)
    static func filtered(_ filter: PNGFilter, _ x: UInt8, _ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        switch filter {
        case .none: return x
        case .sub: return x &- a
        case .up: return x &- b
        case .average: return x &- UInt8((UInt16(a) + UInt16(b)) >> 1)
        case .paeth: return x &- paethReference(a, b, c)
        }
    }

    private static func addReferenceSums(row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>,
                                         from start: Int, to end: Int, into sums: inout SIMD8<Int>) {
        for i in start..<end {
            let x = row[i], a = row[i - bpp], b = previous[i], c = previous[i - bpp]
            for filter in PNGFilter.allCases {
                sums[Int(filter.rawValue)] += Int(Int8(bitPattern: filtered(filter, x, a, b, c)).magnitude)
            }
        }
    }

    private static func applyReference(_ filter: PNGFilter, row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>,
                                       from start: Int, to end: Int, into out: UnsafeMutablePointer<UInt8>) {
        for i in start..<end { out[i] = filtered(filter, row[i], row[i - bpp], previous[i], previous[i - bpp]) }
    }

    /// The first filter with the smallest sum (lanes 0…4 of `sums`).
    private static func best(_ sums: SIMD8<Int>) -> PNGFilter {
        var chosen = 0
        for k in 1..<5 where sums[k] < sums[chosen] { chosen = k }
        return PNGFilter(rawValue: UInt8(chosen))!
    }
}
