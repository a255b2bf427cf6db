@testable import Raster
import Testing

/// `GradientRamp.fill` (a linear gradient along a row) against the colour of each pixel computed
/// on its own: for the pad spread, the 32.32 fixed-point parameter of pixel i, v + i·dv, clamped
/// to the table; for the other spreads, `GradientRamp.color(at:spread:table:)` of t + i·step. The fast path splits a run
/// into stretches inside the table, whose lengths come from divisions: runs that start, end or
/// cross outside it in either direction, and steps of zero, must give the same words.
struct GradientRampTests {
    /// A ramp with distinct neighbouring entries, so an index off by one shows.
    static func ramp(_ spread: SpreadMode) -> GradientRamp {
        GradientRamp([GradientStop(offset: 0, color: Color(r: 0, g: 0, b: 0, a: 1)),
                      GradientStop(offset: 1, color: Color(r: 1, g: 0.5, b: 0.25, a: 1))], spread: spread)
    }

    /// The pad spread's words, pixel by pixel, as the fixed-point formula defines them.
    static func padReference(_ ramp: GradientRamp, from t: Double, step: Double, count: Int) -> [UInt32] {
        let last = Double(GradientRamp.size - 1), one = 4_294_967_296.0
        let v = Int64(((t * last + 0.5) * one).rounded(.down))
        let dv = Int64((step * last * one).rounded(.down))
        let top = Int64(GradientRamp.size - 1) << 32
        return (0..<count).map { i in ramp.table[Int(min(max(v + Int64(i) * dv, 0), top) >> 32)] }
    }

    /// `ramp.fill`'s words with the Swift loops, which the vector loops (AVX2 alone, AVX-512) must
    /// repeat word for word, writing nothing past the run.
    static func fill(_ ramp: GradientRamp, from t: Double, step: Double, count: Int) -> [UInt32] {
        let words = AVX2KernelsTests.Kernels.allCases.map { kernels in
            AVX2KernelsTests.with(kernels) {
                var out = [UInt32](repeating: 0xDEAD_BEEF, count: count + 1)
                out.withUnsafeMutableBufferPointer { ramp.fill(from: t, step: step, first: 0, count: count, into: $0.baseAddress!) }
                #expect(out[count] == 0xDEAD_BEEF, "a word written past the run")
                return Array(out.prefix(count))
            }
        }
        #expect(words[1] == words[0] && words[2] == words[0], "vector loops differ: t \(t) step \(step) n \(count)")
        return words[0]
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func padRunsMatchThePerPixelClamp(seed: UInt64) {
        var g = DifferentialTests.Generator(state: seed)
        let ramp = Self.ramp(.pad)
        for _ in 0..<200 {
            let count = 1 + Int(g.next() % 700)
            let t = g.unit() * 3 - 1                       // starts before, inside and after 0…1
            let kind = g.next() % 4
            let step = kind == 0 ? 0 : (g.unit() * 2 - 1) * (kind == 1 ? 0.01 : 3 / Double(count))
            #expect(Self.fill(ramp, from: t, step: step, count: count)
                        == Self.padReference(ramp, from: t, step: step, count: count), "t \(t) step \(step) n \(count)")
        }
    }

    /// Steps narrower than a quarter of an entry per pixel (`GradientRamp.padStretches`: whole
    /// stretches of one entry, their lengths from the step): runs that start before, inside and
    /// after the table, both directions, steps that divide 2³² exactly, and runs long enough to
    /// cross the whole table.
    @Test(arguments: [1, 2, 3, 4])
    func padStretchesMatchThePerPixelClamp(seed: UInt64) {
        var g = DifferentialTests.Generator(state: 100 + seed)
        let ramp = Self.ramp(.pad)
        for n in 0..<300 {
            let count = 1 + Int(g.next() % (n % 3 == 0 ? 3000 : 300))
            let t = g.unit() * 3 - 1
            let step: Double
            switch n % 5 {
            case 0: step = (g.unit() * 2 - 1) / (255 * 4)                       // up to a quarter entry per pixel
            case 1: step = Double(1 << (g.next() % 8)) / (255 * 256) * (g.next() % 2 == 0 ? 1 : -1)  // 2³²/|dv| whole
            case 2: step = (g.unit() * 2 - 1) * 2 / (255 * Double(count))       // crosses the table at most twice
            case 3: step = 1 / (255 * 4.0000001)                                 // just under the limit
            default: step = (g.unit() * 2 - 1) * 1e-9
            }
            #expect(Self.fill(ramp, from: t, step: step, count: count)
                        == Self.padReference(ramp, from: t, step: step, count: count), "t \(t) step \(step) n \(count)")
        }
    }

    /// Steps from a quarter of an entry to one entry per pixel and just past it (the vector loops
    /// take steps up to one entry, eight or sixteen pixels from one window of the table), in both
    /// directions, from positions near the ±10⁹-entry limit of the fixed-point path and around
    /// the table's ends (where the window reaches into the padding past the last entry).
    @Test(arguments: [1, 2, 3])
    func padStepsUpToAnEntryMatchThePerPixelClamp(seed: UInt64) {
        var g = DifferentialTests.Generator(state: 200 + seed)
        let ramp = Self.ramp(.pad)
        let entry = 1 / 255.0
        for n in 0..<300 {
            let count = 1 + Int(g.next() % 90)
            let sign: Double = g.next() % 2 == 0 ? 1 : -1
            let step: Double
            switch n % 4 {
            case 0: step = sign * entry * (0.25 + 0.75 * g.unit())
            case 1: step = sign * entry                                          // exactly one entry
            case 2: step = sign * entry * (1 + 1e-9 + g.unit() * 1e-3)           // just past it
            default: step = sign * entry * g.unit() * 0.25
            }
            let t: Double
            switch n % 5 {
            case 0: t = sign * 3.9e6 * (g.next() % 2 == 0 ? 1 : -1)           // ≈ 10⁹ entries away
            case 1: t = 1 - g.unit() * 0.1                                      // into the top of the table
            case 2: t = g.unit() * 0.1                                          // into its bottom
            default: t = g.unit() * 3 - 1
            }
            #expect(Self.fill(ramp, from: t, step: step, count: count)
                        == Self.padReference(ramp, from: t, step: step, count: count), "t \(t) step \(step) n \(count)")
        }
    }

    /// A gradient drawn again reuses its table (the same storage, built once); other stops or
    /// another spread get tables of their own, equal to freshly built ones, and a full cache
    /// replaces its oldest table first.
    @Test func tablesAreKeptByStopsAndSpread() {
        let cache = GradientRampCache()
        func stops(_ k: Int) -> [GradientStop] {
            [GradientStop(offset: 0, color: Color(r: Float(k) / 16, g: 0.5, b: 0, a: 0.5)),
             GradientStop(offset: 1, color: Color(r: 0, g: 0, b: 1))]
        }
        func storage(_ ramp: GradientRamp) -> UnsafePointer<UInt32>? { ramp.table.withUnsafeBufferPointer { $0.baseAddress } }
        let first = cache.ramp(stops(0), spread: .pad)
        #expect(first.table == GradientRamp(stops(0), spread: .pad).table)
        #expect(storage(cache.ramp(stops(0), spread: .pad)) == storage(first))
        let reflected = cache.ramp(stops(0), spread: .reflect)
        #expect(storage(reflected) != storage(first) && reflected.spread == .reflect)
        let other = cache.ramp(stops(1), spread: .pad)
        #expect(other.table == GradientRamp(stops(1), spread: .pad).table && other.table != first.table)
        for k in 2..<(GradientRampCache.capacity + 1) { _ = cache.ramp(stops(k), spread: .pad) }
        #expect(storage(cache.ramp(stops(1), spread: .pad)) == storage(other), "still kept")
        #expect(storage(cache.ramp(stops(0), spread: .pad)) != storage(first), "the oldest was replaced")
    }

    @Test(arguments: [SpreadMode.repeat, .reflect, .decal])
    func otherSpreadsMatchTheColorAtEachParameter(_ spread: SpreadMode) {
        var g = DifferentialTests.Generator(state: 9)
        let ramp = Self.ramp(spread)
        for _ in 0..<50 {
            let count = 1 + Int(g.next() % 300)
            let t = g.unit() * 6 - 3, step = (g.unit() * 2 - 1) * 0.05
            var expected: [UInt32] = []
            var u = t
            ramp.table.withUnsafeBufferPointer { table in
                for _ in 0..<count {
                    expected.append(GradientRamp.color(at: u, spread: spread, table: table))
                    u += step
                }
            }
            #expect(Self.fill(ramp, from: t, step: step, count: count) == expected)
        }
    }
}
