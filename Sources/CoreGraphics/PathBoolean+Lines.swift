import Raster

// A path's line (its segments, open or closed) clipped to another path's filled region: the
// engine of `CGPath.lineIntersection(_:using:)` and `lineSubtracting(_:using:)`.
//
// Each segment of the flattened line is cut where it crosses an edge of the region's flattened
// outline, and each part is kept when its midpoint's inside-ness (under the fill rule) is the one
// asked for. Kept parts that follow each other stay one subpath; a closed subpath kept whole stays
// closed, and one cut somewhere has its last run joined to its first (Apple: "Intersected
// subpaths that are clipped create open subpaths. Closed subpaths that do not intersect other
// remain closed."). Work is segments × region edges, bounded by `workLimit`.

extension PathBoolean {
    /// The parts of `lines` inside (`keepInside`) or outside the region `region` fills under
    /// `rule`, as polylines in the same units; nil past `workLimit`.
    static func clip(_ lines: [Polyline], to region: [Polyline], rule: CGPathFillRule, keepInside: Bool) -> [Polyline]? {
        var edges: [(CGPoint, CGPoint)] = []
        for outline in region {
            for (i, a) in outline.points.enumerated() {
                let b = outline.points[(i + 1) % outline.points.count]
                if a != b { edges.append((a, b)) }
            }
        }
        var work = 0
        func keeps(_ q: CGPoint) -> Bool {
            var winding = 0
            for (a, b) in edges { winding += CGPath.crossing(from: a, to: b, ray: q) }
            return (rule == .winding ? winding != 0 : winding & 1 != 0) == keepInside
        }
        var result: [Polyline] = []
        for line in lines {
            var runs: [[CGPoint]] = [], run: [CGPoint] = []
            var cut = false
            let count = line.closed ? line.points.count : line.points.count - 1
            for i in 0..<count {
                let a = line.points[i], b = line.points[(i + 1) % line.points.count]
                work += edges.count
                if work > workLimit { return nil }
                var ts: [CGFloat] = [0, 1]
                for (c, d) in edges {
                    if let t = crossingParameter(a, b, c, d) { ts.append(t) }
                }
                ts.sort()
                for (t0, t1) in zip(ts, ts.dropFirst()) where t1 > t0 {
                    let p = a + (b - a) * t0, q = a + (b - a) * t1
                    work += edges.count
                    if keeps(a + (b - a) * ((t0 + t1) / 2)) {
                        if run.isEmpty { run = [p] }
                        run.append(q)
                    } else {
                        cut = true
                        if run.count > 1 { runs.append(run) }
                        run = []
                    }
                }
            }
            if run.count > 1 { runs.append(run) }
            if line.closed, !cut, let whole = runs.first {
                result.append(Polyline(points: Array(whole.dropLast()), closed: true))
                continue
            }
            if line.closed, runs.count > 1, let first = runs.first, let last = runs.last,
               first.first == line.points[0], last.last == line.points[0] {
                runs[0] = last + first.dropFirst()
                runs.removeLast()
            }
            result += runs.map { Polyline(points: $0, closed: false) }
        }
        return result
    }

    /// The parameter in (0, 1) along a→b where it crosses segment c→d, if it does.
    private static func crossingParameter(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint, _ d: CGPoint) -> CGFloat? {
        let r = b - a, s = d - c
        let denominator = r.x * s.y - r.y * s.x
        guard denominator != 0 else { return nil }
        let ac = c - a
        let t = (ac.x * s.y - ac.y * s.x) / denominator
        let u = (ac.x * r.y - ac.y * r.x) / denominator
        guard t > 0, t < 1, u >= 0, u <= 1 else { return nil }
        return t
    }
}
