@testable import Compositor
import Testing

/// The band edges of a banded frame (`RowCostEstimate`, `LayerRenderer.Bands.rebalance`): fed
/// the costs a known density over rows gives each band, frame after frame, the edges settle
/// where that density splits into equal shares — worked out here in closed form — and stay
/// there while the cost grows.
@Suite struct RowCostEstimateTests {
    /// A 1 080-row frame whose rows cost 1 each but rows 900..<1000, which cost 20 each (a
    /// flame near the bottom): 2 980 in all.
    static func flame(_ row: Int) -> Double { (900..<1000).contains(row) ? 20 : 1 }

    /// What `starts` (with `height`) makes each band cost under `density`.
    static func bandCosts(_ starts: [Int], height: Int, _ density: (Int) -> Double) -> [Double] {
        starts.indices.map { k in
            let end = k + 1 < starts.count ? starts[k + 1] : height
            return (starts[k]..<end).reduce(0) { $0 + density($1) }
        }
    }

    /// Runs `frames` frames from bands of equal height and returns the edges after each; the
    /// density may change with the frame, and each measured cost is off by up to `noise` (a
    /// fraction; deterministic).
    static func history(bands: Int, height: Int = 1080, frames: Int, minRows: Int = 8, noise: Double = 0,
                        _ density: (Int, Int) -> Double) -> [[Int]] {
        var estimate = RowCostEstimate()
        var starts = (0..<bands).map { height * $0 / bands }
        var seed: UInt64 = 1
        var history: [[Int]] = []
        for frame in 0..<frames {
            let costs = bandCosts(starts, height: height) { density(frame, $0) }.map { cost in
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return cost * (1 + noise * (Double(seed >> 11) / Double(1 << 53) * 2 - 1))
            }
            estimate.record(bands: bands, height: height) { k in
                (starts[k]..<(k + 1 < bands ? starts[k + 1] : height), costs[k])
            }
            #expect(estimate.splitRows(into: &starts, height: height, minRows: minRows))
            history.append(starts)
        }
        return history
    }

    /// The edges after `frames` frames (`history`).
    static func settle(bands: Int, height: Int = 1080, frames: Int, minRows: Int = 8,
                       _ density: (Int, Int) -> Double) -> [Int] {
        history(bands: bands, height: height, frames: frames, minRows: minRows, density).last!
    }

    @Test func twoBandsSplitAConcentratedCostEvenly() {
        // Half of 2 980 is 1 490: rows 0..<900 give 900, and 590 more are 29.5 rows of 20.
        let starts = Self.settle(bands: 2, frames: 16) { _, row in Self.flame(row) }
        #expect((928...931).contains(starts[1]), "edge at \(starts[1])")
        let costs = Self.bandCosts(starts, height: 1080, Self.flame)
        #expect(abs(costs[0] - costs[1]) <= 20, "\(costs)")
    }

    @Test func measuredCostsOffBy10PercentDoNotMakeTheEdgesSwing() {
        // The flame's edges over frames 20–99 with every cost measured up to 10 % off: each
        // frame's bands, under the true density, within 30 % of each other (edges that follow
        // one frame's measurements alone are off by up to 1.1 / 0.9 ≈ 1.22).
        let history = Self.history(bands: 2, frames: 100, noise: 0.1) { _, row in Self.flame(row) }
        for starts in history.dropFirst(20) {
            let costs = Self.bandCosts(starts, height: 1080, Self.flame)
            #expect(costs.max()! <= 1.3 * costs.min()!, "\(starts) \(costs)")
        }
    }

    @Test func edgesStayWhileTheWholeFrameGetsDearer() {
        // Every row 10 % dearer each frame (a fire whose particles multiply): the shares do not move.
        let starts = Self.settle(bands: 2, frames: 16) { frame, row in Self.flame(row) * (1 + 0.1 * Double(frame)) }
        #expect((928...931).contains(starts[1]), "edge at \(starts[1])")
    }

    @Test func fourBandsOfAUniformFrameAreEqual() {
        let starts = Self.settle(bands: 4, frames: 4) { _, _ in 1 }
        #expect(starts == [0, 270, 540, 810])
    }

    @Test func aCostThatMovesIsFollowed() {
        // Every row costs 0.01 (the fill); 1 more in the top 100 rows for 6 frames, then in the
        // bottom 100 (rows 980..<1080) instead: 110.8 in all, half of it (55.4) once rows
        // 0..<980 (9.8) and 45 rows of 1.01 are in, so the edge is at 1 025 six frames later
        // (keeping the stale shape, it crept there in 13).
        let starts = Self.settle(bands: 2, frames: 12) { frame, row in
            0.01 + (frame < 6 ? (row < 100 ? 1 : 0) : (row >= 980 ? 1 : 0))
        }
        #expect((1024...1026).contains(starts[1]), "edge at \(starts[1])")
    }

    @Test func nothingMeasuredLeavesTheEdges() {
        // Bands that cost nothing say nothing about where the cost is: the edges stay where
        // they are (before, two of three bands were squeezed to the bottom rows).
        var estimate = RowCostEstimate()
        var starts = [0, 360, 720]
        estimate.record(bands: 3, height: 1080) { k in (starts[k]..<(k + 1 < 3 ? starts[k + 1] : 1080), 0) }
        #expect(!estimate.splitRows(into: &starts, height: 1080, minRows: 8))
        #expect(starts == [0, 360, 720])
    }

    @Test func everyBandKeepsItsFewestRows() {
        // The whole cost in the last row: three bands squeezed into it would have no rows.
        let starts = Self.settle(bands: 4, height: 100, frames: 6, minRows: 8) { _, row in row == 99 ? 1 : 0 }
        #expect(starts == [0, 76, 84, 92], "\(starts)")
    }
}
