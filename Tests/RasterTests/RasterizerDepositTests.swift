@testable import Raster
import Testing

/// The area accumulation in C (`citrine_deposit_avx2`, `citrine_deposit_segment_avx2`) against
/// `Rasterizer.deposit` in Swift, cell by cell: the same float bits in every cell and the same
/// touched columns and blocks of columns per row, every cell with a delta in a marked block.
/// (Pixels hide most one-ulp differences in a cell: a level rounds a·255, so this compares the
/// cells themselves.) On a processor without AVX2 both runs take the Swift code and the test
/// holds trivially, but for the blocks' check.
struct RasterizerDepositTests {
    typealias Generator = DifferentialTests.Generator

    /// The cells, row bounds and block bits (`Rasterizer.rowBlocks`) a fresh rasterizer deposits
    /// `edges` into over `box`, the box holding every edge (`containsAll`) or clipping them.
    static func deposit(_ edges: [SIMD4<Double>], box: IntRect, containsAll: Bool,
                        avx2: Bool) -> ([UInt32], [Int], [Int], [UInt64]) {
        let saved = AVX2Kernels.isEnabled
        defer { AVX2Kernels.isEnabled = saved }
        AVX2Kernels.isEnabled = avx2 && saved
        let rasterizer = Rasterizer()
        for edge in edges { rasterizer.segments.append(edge) }
        rasterizer.prepare(box)
        rasterizer.marksBlocks = true
        let stride = Rasterizer.stride(box)
        rasterizer.depositSegments(box: box, containsAll: containsAll, stride: stride)
        let cells = (0..<stride * (box.height + 1)).map { rasterizer.cells[$0].bitPattern }
        let blocks = (0..<box.height).map { rasterizer.rowBlocks[$0] }
        for row in 0..<box.height {
            for column in 0..<stride where cells[row * stride + column] != 0 {
                #expect(blocks[row] >> (column >> rasterizer.blockShift) & 1 == 1, "row \(row), column \(column): no block bit")
            }
        }
        return (cells, (0..<box.height).map { rasterizer.rowMin[$0] }, (0..<box.height).map { rasterizer.rowMax[$0] }, blocks)
    }

    /// Random closed polygons — long, short, vertical, nearly horizontal edges (many columns in a
    /// row), edges within one column — inside a box (every edge deposited whole) and over a
    /// smaller box (clipped pieces, edges left of it folded onto its left edge).
    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func cellsMatchTheSwiftDeposit(seed: UInt64) {
        var g = Generator(state: 90 + seed)
        let box = IntRect(x0: 7, y0: 5, x1: 7 + 83, y1: 5 + 61)
        for containsAll in [true, false] {
            var edges: [SIMD4<Double>] = []
            for _ in 0..<6 {
                func point() -> SIMD2<Double> {
                    containsAll ? SIMD2(7 + g.unit() * 83, 5 + g.unit() * 61) : SIMD2(g.unit() * 120 - 10, g.unit() * 90 - 10)
                }
                let first = point()
                var last = first
                for i in 0..<(4 + Int(g.next() % 12)) {
                    var p = point()
                    switch i % 5 {
                    case 1: p.x = last.x                                              // vertical
                    case 2: p.y = last.y + (g.unit() - 0.5) * 0.3                     // nearly horizontal
                    case 3: p = last + SIMD2(g.unit() - 0.5, g.unit() - 0.5) * 0.8    // within a pixel or two
                    default: break
                    }
                    if containsAll { p = p.clamped(lowerBound: SIMD2(7, 5), upperBound: SIMD2(90, 66)) }
                    edges.append(SIMD4(last.x, last.y, p.x, p.y))
                    last = p
                }
                edges.append(SIMD4(last.x, last.y, first.x, first.y))
            }
            let swift = Self.deposit(edges, box: box, containsAll: containsAll, avx2: false)
            let vector = Self.deposit(edges, box: box, containsAll: containsAll, avx2: true)
            let differing = zip(swift.0, vector.0).filter { $0 != $1 }.count
            #expect(differing == 0, "seed \(seed), containsAll \(containsAll): cells")
            #expect(swift.1 == vector.1 && swift.2 == vector.2, "seed \(seed), containsAll \(containsAll): row bounds")
            #expect(swift.3 == vector.3, "seed \(seed), containsAll \(containsAll): blocks")
            #expect(swift.0.contains { $0 != 0 }, "seed \(seed): something deposited")
        }
    }
}
