import Raster

// The engine behind CGPath's boolean operations (`CGPath+Boolean.swift`).
//
// Design note
// -----------
// Both operands are flattened to closed polygons (`PathBoolean.tolerance`) and every vertex is
// snapped to an integer grid of 2⁻³² of their combined extent (`Grid`), so all the maths below is
// on integers below 2³³ held in Doubles, whatever the input's scale. The plane is then cut into
// horizontal slabs at every vertex y; inside a slab the edges that span it are sorted left to
// right, and where two of them would cross inside the slab the slab is cut again at the crossing
// (rounded to the grid). So inside a slab no two edges cross and both operands' winding numbers
// are constant between neighbouring edges: each gap is a trapezoid ("cell") that is in the
// result or not (`op(inside A, inside B)`, each under the caller's fill rule). The result's
// outline is the boundary of the union of the cells:
// - edges at the same place in a slab (shared by both operands, or traced twice) form one bundle
//   with their windings summed; a bundle is an outline piece when the gaps on its two sides differ;
// - along a slab boundary, the bottoms of the cells above and the tops of the cells below cancel
//   where both are in; what is left are the horizontal outline pieces.
// The pieces are directed with the inside on their left (counter-clockwise when y is up), so they
// form closed cycles, which are chained into contours with collinear runs merged
// (`PathBoolean+Contours.swift`). Coincident edges, zero-length and horizontal segments and
// self-intersections need no special case; near-coincident edges (within a grid step) merge.
//
// Limits (documented on the public API): at most `pointLimit` flattened points per operation and
// `workLimit` edge visits in the sweep; past either the operation gives an empty path.

/// Boolean operations on filled regions of flattened paths.
enum PathBoolean {
    /// Most flattened points one operation takes (both operands together).
    static let pointLimit = 200_000
    /// Most edge visits (edges × slabs, sorting counted) one sweep may make.
    static let workLimit = 20_000_000

    /// One subpath flattened to line segments.
    struct Polyline {
        var points: [CGPoint]
        var closed: Bool
    }

    /// The flattening tolerance for operands that span `extent` units: 1/100 of a unit (what
    /// Citrine draws with at scale 1), finer for small paths (1/10 000 of the extent), coarser
    /// for huge ones (10⁻⁹ of the extent, so the grid, not the curves, limits the precision).
    static func tolerance(extent: Double) -> Double {
        guard extent.isFinite, extent > 0 else { return 0.01 }
        return max(min(0.01, extent * 1e-4), extent * 1e-9)
    }

    /// The combined control-point extent of `paths` (their largest width or height), or 0.
    static func extent(of paths: [CGPath]) -> Double {
        var box = CGRect.null
        for path in paths { box = box.union(path.boundingBox) }
        guard !box.isNull, box.width.isFinite, box.height.isFinite else { return 0 }
        return Double(max(box.width, box.height))
    }

    /// `path`'s subpaths as polylines within `tolerance` of its curves, in the path's units. A
    /// subpath with a non-finite coordinate is left out (it has no meaningful outline); nil when
    /// there would be more than `limit` points in all.
    static func polylines(of path: CGPath, tolerance: Double, limit: Int) -> [Polyline]? {
        var result: [Polyline] = []
        var current: [CGPoint] = [], start = CGPoint.zero, total = 0, overflow = false
        func finish(closed: Bool) {
            if current.count > 1, current.allSatisfy(\.isFinite) {
                result.append(Polyline(points: current, closed: closed))
            }
            current = []
        }
        func add(_ p: CGPoint) {
            total += 1
            if total > limit { overflow = true } else { current.append(p) }
        }
        let verbs = path.path.verbs
        path.forEachIndexedSegment { index, segment in
            guard !overflow else { return }
            // After a close, a segment without a move starts again from the closed subpath's start.
            if current.isEmpty, verbs[index] != .move, verbs[index] != .close { add(start) }
            switch segment {
            case .move(let p):
                finish(closed: false)
                start = p
                add(p)
            case .line(_, let p):
                if verbs[index] == .close {
                    finish(closed: true)
                } else {
                    add(p)
                }
            case .quad(let p0, let c, let p):
                let n = nearChord(p0, [c], p, tolerance) ? 1
                    : CGPath.subdivisionCount(deviation: (p0 - c * 2 + p).length / 4, tolerance: tolerance)
                for k in 1...n where !overflow { add(CGPath.quadPoint(p0, c, p, CGFloat(k) / CGFloat(n))) }
            case .cubic(let p0, let c1, let c2, let p):
                let dd = max((p0 - c1 * 2 + c2).length, (c1 - c2 * 2 + p).length)
                let n = nearChord(p0, [c1, c2], p, tolerance) ? 1
                    : CGPath.subdivisionCount(deviation: dd * 3 / 4, tolerance: tolerance)
                for k in 1...n where !overflow { add(CGPath.cubicPoint(p0, c1, c2, p, CGFloat(k) / CGFloat(n))) }
            }
        }
        if overflow { return nil }
        finish(closed: false)
        return result
    }

    /// True when the control points lie within `tolerance` of the line through the ends, so the
    /// curve (inside their hull) is its chord within `tolerance`: a straight segment written as a
    /// curve, as Lottie files write every corner of a polygon.
    private static func nearChord(_ p0: CGPoint, _ controls: [CGPoint], _ p: CGPoint, _ tolerance: Double) -> Bool {
        let d = p - p0, length = d.length
        return controls.allSatisfy { c in
            let e = c - p0
            return length > 0 ? abs(d.x * e.y - d.y * e.x) <= tolerance * length : e.length <= tolerance
        }
    }

    /// Maps path coordinates onto an integer grid of 2³² steps across the points' extent and back.
    struct Grid {
        let origin: CGPoint
        /// Half a grid step, in path units (halves keep every intermediate value finite for
        /// coordinates up to ±`Double.greatestFiniteMagnitude`).
        let halfStep: Double

        init?(_ polylines: [Polyline]) {
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            for line in polylines {
                for p in line.points {
                    minX = min(minX, p.x); maxX = max(maxX, p.x)
                    minY = min(minY, p.y); maxY = max(maxY, p.y)
                }
            }
            guard minX <= maxX, minY <= maxY else { return nil }
            origin = CGPoint(x: minX, y: minY)
            let halfExtent = max(maxX / 2 - minX / 2, maxY / 2 - minY / 2)
            halfStep = halfExtent > 0 ? max(halfExtent / 0x1p32, .leastNormalMagnitude) : 1
        }

        func snap(_ p: CGPoint) -> SIMD2<Double> {
            SIMD2(((p.x / 2 - origin.x / 2) / halfStep).rounded(), ((p.y / 2 - origin.y / 2) / halfStep).rounded())
        }

        func point(_ q: SIMD2<Double>) -> CGPoint {
            CGPoint(x: origin.x + q.x * halfStep + q.x * halfStep, y: origin.y + q.y * halfStep + q.y * halfStep)
        }
    }

    /// A non-horizontal polygon edge on the grid, from its lower to its upper end.
    struct Edge {
        var lower: SIMD2<Double>
        var upper: SIMD2<Double>
        /// +1 when the contour runs upwards (increasing y) here, −1 downwards.
        var direction: Int
        /// 0 for the first operand, 1 for the second.
        var operand: Int

        /// The edge's x at height `y` (within its span), rounded to the grid; its own end
        /// points exactly, so neighbouring slabs agree on where a piece starts and ends.
        func x(at y: Double) -> Double {
            if y == lower.y { return lower.x }
            if y == upper.y { return upper.x }
            return (lower.x + (y - lower.y) * (upper.x - lower.x) / (upper.y - lower.y)).rounded()
        }
    }

    /// The edges of `polylines` (every one treated as closed) on `grid`, tagged with `operand`.
    static func edges(of polylines: [Polyline], on grid: Grid, operand: Int, into edges: inout [Edge]) {
        for line in polylines {
            let snapped = line.points.map(grid.snap)
            for (i, a) in snapped.enumerated() {
                let b = snapped[(i + 1) % snapped.count]
                guard a.y != b.y else { continue }
                edges.append(a.y < b.y ? Edge(lower: a, upper: b, direction: 1, operand: operand)
                                       : Edge(lower: b, upper: a, direction: -1, operand: operand))
            }
        }
    }

    /// A directed piece of the result's outline on the grid (inside on its left, y up).
    typealias Piece = (from: SIMD2<Double>, to: SIMD2<Double>)

    /// The outline of the region where `inside(windingA, windingB)` holds, as directed pieces;
    /// nil when the sweep would exceed `workLimit`.
    static func outline(of edges: [Edge], inside: (Int, Int) -> Bool) -> [Piece]? {
        let sorted = edges.sorted { $0.lower.y < $1.lower.y }
        let ys = Array(Set(edges.flatMap { [$0.lower.y, $0.upper.y] })).sorted()
        var pieces: [Piece] = []
        // Horizontal intervals per slab boundary: (from x, to x, +1 for a cell bottom, −1 for a top).
        var horizontal: [Double: [(Double, Double, Int)]] = [:]
        var active: [Int] = [], next = 0, work = 0
        var x0: [Double] = [], x1: [Double] = [], order: [Int] = []
        for k in ys.indices.dropLast() {
            var y0 = ys[k]
            let target = ys[k + 1]
            while next < sorted.count, sorted[next].lower.y <= y0 { active.append(next); next += 1 }
            active.removeAll { sorted[$0].upper.y <= y0 }
            while y0 < target, !active.isEmpty {
                x0 = active.map { sorted[$0].x(at: y0) }
                var y1 = target
                x1 = active.map { sorted[$0].x(at: y1) }
                order = Array(active.indices)
                order.sort { x0[$0] < x0[$1] || (x0[$0] == x0[$1] && x1[$0] < x1[$1]) }
                // Cut the slab at the lowest crossing until no two edges cross inside it. The
                // order stays valid: it is by x at y0, and edges leaving one point keep their
                // order at any height above it.
                while true {
                    work += active.count * 8
                    if work > workLimit { return nil }
                    var lowest = y1
                    for (i, j) in zip(order, order.dropFirst()) where x1[i] > x1[j] {
                        let d0 = x0[j] - x0[i], d1 = x1[i] - x1[j]
                        let y = max((y0 + (y1 - y0) * d0 / (d0 + d1)).rounded(), y0 + 1)
                        lowest = min(lowest, y)
                    }
                    if lowest >= y1 { break }
                    y1 = lowest
                    x1 = active.map { sorted[$0].x(at: y1) }
                }
                // Walk the bundles left to right with both operands' winding numbers; a run of
                // gaps in the result, from bundle `runStart` to the one that ends it, adds its
                // bottom and top (the cells' bottoms and tops joined) to the horizontal intervals.
                var winding = (0, 0), leftIn = false, runStart = 0
                var i = 0
                while i < order.count {
                    let first = order[i]
                    while i < order.count, x0[order[i]] == x0[first], x1[order[i]] == x1[first] {
                        let edge = sorted[active[order[i]]]
                        if edge.operand == 0 { winding.0 += edge.direction } else { winding.1 += edge.direction }
                        i += 1
                    }
                    let rightIn = inside(winding.0, winding.1)
                    if leftIn != rightIn {
                        let bottom = SIMD2(x0[first], y0), top = SIMD2(x1[first], y1)
                        pieces.append(leftIn ? (bottom, top) : (top, bottom))
                        if rightIn {
                            runStart = first
                        } else {
                            horizontal[y0, default: []].append((x0[runStart], x0[first], 1))
                            horizontal[y1, default: []].append((x1[runStart], x1[first], -1))
                        }
                    }
                    leftIn = rightIn
                }
                y0 = y1
                active.removeAll { sorted[$0].upper.y <= y0 }
            }
        }
        // In order of height, so the result does not depend on the dictionary's (per-process) order.
        for (y, intervals) in horizontal.sorted(by: { $0.key < $1.key }) {
            work += intervals.count * 8
            if work > workLimit { return nil }
            pieces += cancelled(intervals, at: y)
        }
        return pieces
    }

    /// The horizontal pieces left at height `y` once cell bottoms (+1, running +x) and cell
    /// tops (−1, running −x) cancel: coverage summed along x, a piece where it is not zero.
    private static func cancelled(_ intervals: [(Double, Double, Int)], at y: Double) -> [Piece] {
        var events: [(x: Double, delta: Int)] = []
        for (a, b, sign) in intervals where a != b {
            events += a < b ? [(a, sign), (b, -sign)] : [(b, -sign), (a, sign)]
        }
        events.sort { $0.x < $1.x }
        var result: [Piece] = [], coverage = 0
        for (e, f) in zip(events, events.dropFirst()) {
            coverage += e.delta
            guard f.x > e.x, coverage != 0 else { continue }
            let piece: Piece = coverage > 0 ? (SIMD2(e.x, y), SIMD2(f.x, y)) : (SIMD2(f.x, y), SIMD2(e.x, y))
            for _ in 0..<abs(coverage) { result.append(piece) }
        }
        return result
    }
}
