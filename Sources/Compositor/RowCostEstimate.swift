/// The processor time a banded frame's rows are expected to cost, learned from the bands'
/// measured costs frame after frame, and the band edges that split it evenly
/// (`LayerRenderer.Bands.rebalance`).
///
/// The estimate is a density over rows (seconds a row). After a frame, `record` spreads what
/// each band cost over its rows in the shape the estimate had there — what earlier frames found
/// inside the band when its edges were elsewhere — so a cost concentrated in a few rows is
/// found to the row, and a scene whose cost grows everywhere keeps its edges. When a band's
/// cost is far from its share of the estimate (`surprise`: the scene changed, the cost moved
/// inside a band), the shape is dropped and every band's cost spread evenly over its rows.
/// `splitRows` then puts the edges where the estimate divides into equal shares.
/// Spreading each band's cost evenly over its rows at every frame, and moving each edge
/// half-way to where that says (what `rebalance` did before), made the edges swing across a
/// cost concentrated in a few rows: in band-bench's fire demo (its flames) one band cost
/// 41–76 % more than the other at every other frame (Benchmarks/NOTES.md).
/// RowCostEstimateTests checks the split against known densities: concentrated, growing,
/// moving, measured with errors.
struct RowCostEstimate {
    /// Seconds a row; empty until the first `record`.
    private(set) var density: [Double] = []

    /// How far (a factor, either way) a band's measured cost may be from its share of the
    /// estimate before the estimate's shape is dropped. A measurement a few tens of per cent off
    /// keeps it (RowCostEstimateTests.measuredCostsOffBy10PercentDoNotMakeTheEdgesSwing); a
    /// cost that moved away from a band leaves it costing far less than its share
    /// (RowCostEstimateTests.aCostThatMovesIsFollowed: kept, the shape holds the edges near
    /// where the cost was, and they creep after it over many frames).
    static let surprise = 2.0

    /// Takes in what the frame's `count` bands cost: `band(i)` gives band i's rows (of a frame
    /// `height` rows tall) and its cost in seconds (negative counts as 0). Every row keeps at
    /// least a thousandth of the mean row's cost, so that a band found to cost nothing can be
    /// found to cost again.
    mutating func record(bands count: Int, height: Int, _ band: (Int) -> (rows: Range<Int>, cost: Double)) {
        if density.count != height { density = Array(repeating: 0, count: height) }
        density.withUnsafeMutableBufferPointer { density in
            func sum(_ rows: Range<Int>) -> Double {
                var s = 0.0
                for r in rows { s += density[r] }
                return s
            }
            var measured = 0.0, estimated = 0.0
            for i in 0..<count {
                let (rows, cost) = band(i)
                measured += max(cost, 0)
                estimated += sum(rows.clamped(to: 0..<height))
            }
            guard measured > 0 else { return }
            let floor = measured / Double(height) * 1e-3
            var keepsShape = estimated > 0
            for i in 0..<count where keepsShape {
                let (rows, cost) = band(i)
                let share = sum(rows.clamped(to: 0..<height)) / estimated * measured
                keepsShape = max(cost, 0) <= Self.surprise * share && share <= Self.surprise * max(cost, 0)
            }
            for i in 0..<count {
                let (bandRows, bandCost) = band(i)
                let rows = bandRows.clamped(to: 0..<height), cost = max(bandCost, 0)
                guard !rows.isEmpty else { continue }
                let estimate = sum(rows)
                if keepsShape && estimate > 0 {
                    let factor = cost / estimate
                    for r in rows { density[r] = max(density[r] * factor, floor) }
                } else {
                    let even = max(cost / Double(rows.count), floor)
                    for r in rows { density[r] = even }
                }
            }
        }
    }

    /// Writes into `starts` (`starts.count` bands) the first row of each band that splits the
    /// estimate into equal shares, every band at least `minRows` rows of the `height`. False,
    /// `starts` left as it is, while the estimate holds no cost (before the first `record` of
    /// a cost above 0).
    func splitRows(into starts: inout [Int], height: Int, minRows: Int) -> Bool {
        let count = starts.count
        guard count > 0, density.count == height else { return false }
        return density.withUnsafeBufferPointer { density in
            var total = 0.0
            for r in 0..<height { total += density[r] }
            guard total > 0 else { return false }
            var row = 0, before = 0.0
            starts[0] = 0
            for k in 1..<count {
                let goal = total * Double(k) / Double(count)
                while row < height, before + density[row] <= goal {
                    before += density[row]
                    row += 1
                }
                starts[k] = min(max(row, starts[k - 1] + minRows), height - (count - k) * minRows)
            }
            return true
        }
    }
}
