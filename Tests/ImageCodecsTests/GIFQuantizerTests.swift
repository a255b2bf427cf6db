@testable import ImageCodecs
import TestSupport
import Testing

/// The nearest-colour cache against a full search (the obviously correct reference), and the
/// quantizer's guarantees.
struct GIFQuantizerTests {
    static func randomPalette(_ count: Int, _ rng: inout GIFTesting.Random, spread: UInt64 = 256, base: UInt32 = 0) -> [UInt32] {
        (0..<count).map { _ in
            let r = base + UInt32(rng.next() % spread), g = base + UInt32(rng.next() % spread), b = base + UInt32(rng.next() % spread)
            return r | g << 8 | b << 16 | 0xFF00_0000
        }
    }

    /// Same index as a full search (lowest index among equally near entries) for random,
    /// clustered and duplicated palettes, random colours, a grid, and the palette's own colours
    /// and their neighbours; with a tiny candidate pool the cache starts over many times.
    @Test(arguments: [1 << 23, 600])
    func cacheMatchesFullSearch(poolLimit: Int) {
        var rng = GIFTesting.Random(seed: 11)
        var palettes: [[UInt32]] = [[0xFF00_0000], [0xFF00_0000, 0xFFFF_FFFF]]
        for n in [3, 16, 100, 255, 256] { palettes.append(Self.randomPalette(n, &rng)) }
        palettes.append(Self.randomPalette(256, &rng, spread: 12, base: 100))  // clustered
        palettes.append(Self.randomPalette(40, &rng, spread: 4, base: 0) + Self.randomPalette(40, &rng, spread: 4, base: 250))
        let dup = Self.randomPalette(60, &rng)
        palettes.append(dup + dup)  // duplicates: the lower index wins
        // With a tiny pool the cache starts over every few cells: two palettes are enough.
        if poolLimit < 1_000 { palettes = [palettes[6], palettes[7]] }
        let search = GIFPaletteSearch(poolLimit: poolLimit)
        var mismatches = 0
        for palette in palettes {
            search.load(palette)
            var queries: [(Int32, Int32, Int32)] = []
            for _ in 0..<(poolLimit < 1_000 ? 300 : 600) { queries.append((Int32(rng.next() % 256), Int32(rng.next() % 256), Int32(rng.next() % 256))) }
            for r in stride(from: 0, to: 256, by: 51) { for g in stride(from: 0, to: 256, by: 51) { for b in stride(from: 0, to: 256, by: 51) {
                queries.append((Int32(r), Int32(g), Int32(b)))
            } } }
            for c in palette {
                let (r, g, b) = (Int32(c & 0xFF), Int32(c >> 8 & 0xFF), Int32(c >> 16 & 0xFF))
                queries.append((r, g, b))
                queries.append((min(r + 1, 255), max(g - 1, 0), b))
            }
            for (r, g, b) in queries where search.nearest(r, g, b) != search.nearestByFullSearch(r, g, b) { mismatches += 1 }
            // Exact membership.
            for c in palette where search.index(of: c | 0xFF00_0000) != palette.firstIndex(of: c) { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    /// Histogram helpers: `count` pixels of `colors` cycling, all "changed" (shown = 0).
    static func histogram(_ colors: [UInt32], repeat count: Int) -> GIFQuantizer {
        let q = GIFQuantizer()
        q.reset()
        let row = (0..<count).map { colors[$0 % colors.count] }
        let shown = [UInt32](repeating: 0, count: count)
        row.withUnsafeBufferPointer { r in shown.withUnsafeBufferPointer { s in
            _ = q.add(row: r.baseAddress!, shown: s.baseAddress!, count: count)
        } }
        q.finishHistogram()
        return q
    }

    /// Up to the limit the palette is the histogram's exact colours.
    @Test func fewColoursAreKeptExactly() {
        var rng = GIFTesting.Random(seed: 3)
        let colors = Array(Set(Self.randomPalette(255, &rng)))
        let q = Self.histogram(colors, repeat: 5_000)
        #expect(Set(q.makePalette(maxColors: 255)) == Set(colors))
        #expect(q.makePalette(maxColors: 100).count <= 100)
    }

    /// k-means only lowers the median cut's squared error (up to rounding the centres to whole
    /// levels, at most 3 × 0.5² per pixel), on exact colours and on binned ones (beyond
    /// `exactLimit` distinct colours).
    @Test(arguments: [5_000, 40_000])
    func kMeansImprovesOnTheMedianCut(distinct: Int) {
        var rng = GIFTesting.Random(seed: 8)
        // Three blobs of colours.
        let colors = (0..<distinct).map { i -> UInt32 in
            let centre: [UInt32] = [[200, 40, 40], [30, 180, 90], [60, 60, 220]][i % 3]
            let spread = UInt64(48)
            func ch(_ c: UInt32) -> UInt32 { min(255, max(0, c + UInt32(rng.next() % spread) &- 24)) }
            return ch(centre[0]) | ch(centre[1]) << 8 | ch(centre[2]) << 16 | 0xFF00_0000
        }
        let q = Self.histogram(colors, repeat: distinct)
        #expect(q.binned == (Set(colors).count > GIFQuantizer.exactLimit))
        let candidate = q.candidatePalette(maxColors: 255)
        let palette = q.finishPalette(candidate.centres, exact: candidate.exact)
        #expect(palette.count <= 255 && palette.count > 200)
        let search = GIFPaletteSearch()
        search.load(palette)
        let weight = Double(distinct)
        let refined = q.squaredError(of: search)
        #expect(refined <= candidate.error + 0.75 * weight, "k-means \(refined / weight) vs median cut \(candidate.error / weight)")
    }
}
