/// Turns a `Path` into closed polygons of line segments in device space.
///
/// Curves are subdivided uniformly in t into n segments, with n from Wang's formula so that the
/// polyline stays within `tolerance` device pixels of the curve:
/// `n = ⌈√(d(d−1)/8 · L / tolerance)⌉` for degree d, L the largest second difference of the
/// control points (|P0 − 2P1 + P2| …). n is capped by `Rasterizer.maxSegmentsPerCurve`, so
/// absurdly large curves cannot hang the engine. Every subpath is closed implicitly (fills close
/// open subpaths, as Core Graphics does). A subpath with a non-finite coordinate is skipped whole.
enum Flattener {
    /// Maximum distance, in device pixels, between a curve and its polyline.
    static let tolerance = 0.05

    /// Appends (x0, y0, x1, y1) quadruples for every edge of the filled `path`.
    static func flatten(_ path: Path, transform: Transform, into out: inout [Double]) {
        var subpathStart = out.count
        var start = Point.zero, current = Point.zero
        var open = false
        var finite = true
        var pointIndex = 0
        let points = path.points

        func closeSubpath() {
            if open {
                if finite {
                    line(current, start, &out)
                } else {
                    out.removeSubrange(subpathStart...)
                }
            }
            open = false
            finite = true
            subpathStart = out.count
        }

        for verb in path.verbs {
            switch verb {
            case .move:
                closeSubpath()
                start = transform.apply(points[pointIndex])
                current = start
                finite = start.isFinite
                open = true
            case .line:
                let p = transform.apply(points[pointIndex])
                if !open { start = current; open = true }
                finite = finite && p.isFinite
                line(current, p, &out)
                current = p
            case .quad:
                let c = transform.apply(points[pointIndex])
                let p = transform.apply(points[pointIndex + 1])
                if !open { start = current; open = true }
                finite = finite && c.isFinite && p.isFinite
                if finite { quad(current, c, p, &out) }
                current = p
            case .cubic:
                let c1 = transform.apply(points[pointIndex])
                let c2 = transform.apply(points[pointIndex + 1])
                let p = transform.apply(points[pointIndex + 2])
                if !open { start = current; open = true }
                finite = finite && c1.isFinite && c2.isFinite && p.isFinite
                if finite { cubic(current, c1, c2, p, &out) }
                current = p
            case .close:
                closeSubpath()
                current = start
            }
            pointIndex += verb.pointCount
        }
        closeSubpath()
    }

    @inline(__always)
    static func line(_ a: Point, _ b: Point, _ out: inout [Double]) {
        if a.y == b.y { return }   // horizontal edges sweep no area
        out.append(a.x); out.append(a.y); out.append(b.x); out.append(b.y)
    }

    /// Segments for a curve whose control polygon has largest second difference `l`.
    @inline(__always)
    static func segmentCount(secondDifference l: Double, factor: Double) -> Int {
        let n = (factor * l / tolerance).squareRoot().rounded(.up)
        guard n.isFinite else { return Rasterizer.maxSegmentsPerCurve }
        return Swift.max(1, Swift.min(Int(n), Rasterizer.maxSegmentsPerCurve))
    }

    static func quad(_ p0: Point, _ p1: Point, _ p2: Point, _ out: inout [Double]) {
        let l = hypot(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y)
        let n = segmentCount(secondDifference: l, factor: 0.25)
        var prev = p0
        for i in 1...n {
            let t = Double(i) / Double(n), u = 1 - t
            let p = i == n ? p2 : Point(x: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x,
                                        y: u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y)
            line(prev, p, &out)
            prev = p
        }
    }

    static func cubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ out: inout [Double]) {
        let l = Swift.max(hypot(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y),
                          hypot(p1.x - 2 * p2.x + p3.x, p1.y - 2 * p2.y + p3.y))
        let n = segmentCount(secondDifference: l, factor: 0.75)
        var prev = p0
        for i in 1...n {
            let t = Double(i) / Double(n), u = 1 - t
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
            let p = i == n ? p3 : Point(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x,
                                        y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
            line(prev, p, &out)
            prev = p
        }
    }

    @inline(__always)
    static func hypot(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }
}
