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

    static func fill(_ ramp: GradientRamp, from t: Double, step: Double, count: Int) -> [UInt32] {
        var out = [UInt32](repeating: 0, count: count)
        out.withUnsafeMutableBufferPointer { ramp.fill(from: t, step: step, count: count, into: $0.baseAddress!) }
        return out
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
