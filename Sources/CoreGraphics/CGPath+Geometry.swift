import Raster

// Bounding boxes and hit testing.

extension CGPath {
    /// The smallest rectangle containing every point of the path *including control points*
    /// (Apple's `boundingBox`); `CGRect.null` for an empty path.
    public var boundingBox: CGRect {
        CGPath.bounds(of: path.points)
    }

    /// The smallest rectangle containing every point of the path's curves, excluding control
    /// points (Apple's `boundingBoxOfPath`); `CGRect.null` for an empty path.
    public var boundingBoxOfPath: CGRect {
        var extremes: [CGPoint] = []
        forEachSegment { segment in
            switch segment {
            case .move(let p): extremes.append(p)
            case .line(_, let p): extremes.append(p)
            case .quad(let p0, let c, let p):
                extremes.append(p)
                for t in Self.quadExtremaParameters(p0, c, p) { extremes.append(Self.quadPoint(p0, c, p, t)) }
            case .cubic(let p0, let c1, let c2, let p):
                extremes.append(p)
                for t in Self.cubicExtremaParameters(p0, c1, c2, p) {
                    extremes.append(Self.cubicPoint(p0, c1, c2, p, t))
                }
            }
        }
        return CGPath.bounds(of: extremes.lazy.map(Point.init))
    }

    /// True when `point` is inside the filled path under `rule` (Apple's
    /// `contains(_:using:transform:)`); `transform` is applied to the path first. Open
    /// subpaths count as closed, as when filling. Curves are flattened to 10⁻⁴ of a unit, so
    /// points closer than that to the outline may go either way (Apple does not document its
    /// boundary behaviour either).
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding,
                         transform: CGAffineTransform = .identity) -> Bool {
        guard point.isFinite else { return false }
        let q = point.applying(transform.inverted())
        guard transform.a * transform.d - transform.b * transform.c != 0 else { return false }
        var winding = 0
        forEachFlattenedLine(tolerance: 1e-4) { a, b in
            winding += Self.crossing(from: a, to: b, ray: q)
        }
        return rule == .winding ? winding != 0 : winding & 1 != 0
    }

    // MARK: Internals

    /// One drawing element with its start point resolved; closes become lines.
    enum Segment {
        case move(CGPoint)
        case line(CGPoint, CGPoint)
        case quad(CGPoint, CGPoint, CGPoint)
        case cubic(CGPoint, CGPoint, CGPoint, CGPoint)
    }

    /// Walks the elements with start points resolved; `closeSubpath` is reported as the
    /// closing line (also when it has zero length). `body` gets the element index too.
    func forEachSegment(_ body: (Segment) -> Void) {
        forEachIndexedSegment { _, segment in body(segment) }
    }

    func forEachIndexedSegment(_ body: (Int, Segment) -> Void) {
        let pts = path.points
        var i = 0
        var current = CGPoint.zero, start = CGPoint.zero
        for (index, verb) in path.verbs.enumerated() {
            switch verb {
            case .move:
                current = CGPoint(pts[i]); start = current
                body(index, .move(current))
            case .line:
                let p = CGPoint(pts[i])
                body(index, .line(current, p)); current = p
            case .quad:
                let c = CGPoint(pts[i]), p = CGPoint(pts[i + 1])
                body(index, .quad(current, c, p)); current = p
            case .cubic:
                let c1 = CGPoint(pts[i]), c2 = CGPoint(pts[i + 1]), p = CGPoint(pts[i + 2])
                body(index, .cubic(current, c1, c2, p)); current = p
            case .close:
                body(index, .line(current, start)); current = start
            }
            i += verb.pointCount
        }
    }

    /// The path as straight lines within `tolerance` of the curves, every subpath closed.
    func forEachFlattenedLine(tolerance: CGFloat, _ body: (CGPoint, CGPoint) -> Void) {
        var current = CGPoint.zero, start = CGPoint.zero, open = false
        func closeIfOpen() { if open && current != start { body(current, start) }; open = false }
        forEachSegment { segment in
            switch segment {
            case .move(let p):
                closeIfOpen(); start = p; current = p
            case .line(let a, let b):
                body(a, b); current = b; open = true
            case .quad(let p0, let c, let p):
                let n = Self.subdivisionCount(deviation: (p0 - c * 2 + p).length / 4, tolerance: tolerance)
                var previous = p0
                for k in 1...n {
                    let next = Self.quadPoint(p0, c, p, CGFloat(k) / CGFloat(n))
                    body(previous, next); previous = next
                }
                current = p; open = true
            case .cubic(let p0, let c1, let c2, let p):
                let dd = max((p0 - c1 * 2 + c2).length, (c1 - c2 * 2 + p).length)
                let n = Self.subdivisionCount(deviation: dd * 3 / 4, tolerance: tolerance)
                var previous = p0
                for k in 1...n {
                    let next = Self.cubicPoint(p0, c1, c2, p, CGFloat(k) / CGFloat(n))
                    body(previous, next); previous = next
                }
                current = p; open = true
            }
        }
        closeIfOpen()
    }

    /// Uniform pieces needed so a curve whose second difference is `deviation` stays within
    /// `tolerance` of its chords (capped at 4096).
    static func subdivisionCount(deviation: CGFloat, tolerance: CGFloat) -> Int {
        let n = (deviation / tolerance).squareRoot().rounded(.up)
        return n.isFinite ? Int(min(max(n, 1), 4096)) : 1
    }

    /// +1/−1 when the segment crosses the horizontal ray from `ray` towards +x upwards /
    /// downwards, else 0 (half-open rule on y so shared vertices count once).
    static func crossing(from a: CGPoint, to b: CGPoint, ray q: CGPoint) -> Int {
        if a.y <= q.y {
            guard b.y > q.y, side(a, b, q) > 0 else { return 0 }
            return 1
        } else {
            guard b.y <= q.y, side(a, b, q) < 0 else { return 0 }
            return -1
        }
    }
    private static func side(_ a: CGPoint, _ b: CGPoint, _ q: CGPoint) -> CGFloat {
        (b.x - a.x) * (q.y - a.y) - (q.x - a.x) * (b.y - a.y)
    }

    static func quadPoint(_ p0: CGPoint, _ c: CGPoint, _ p: CGPoint, _ t: CGFloat) -> CGPoint {
        let mt = 1 - t
        return p0 * (mt * mt) + c * (2 * mt * t) + p * (t * t)
    }
    static func cubicPoint(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p: CGPoint, _ t: CGFloat) -> CGPoint {
        let mt = 1 - t
        return p0 * (mt * mt * mt) + c1 * (3 * mt * mt * t) + c2 * (3 * mt * t * t) + p * (t * t * t)
    }

    /// Parameters in (0, 1) where a quadratic's x or y derivative vanishes.
    static func quadExtremaParameters(_ p0: CGPoint, _ c: CGPoint, _ p: CGPoint) -> [CGFloat] {
        [(p0.x, c.x, p.x), (p0.y, c.y, p.y)].compactMap { a, b, e in
            let denominator = a - 2 * b + e
            guard denominator != 0 else { return nil }
            let t = (a - b) / denominator
            return t > 0 && t < 1 ? t : nil
        }
    }

    /// Parameters in (0, 1) where a cubic's x or y derivative vanishes.
    static func cubicExtremaParameters(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p: CGPoint) -> [CGFloat] {
        var result: [CGFloat] = []
        for (a0, a1, a2, a3) in [(p0.x, c1.x, c2.x, p.x), (p0.y, c1.y, c2.y, p.y)] {
            // derivative / 3 = a t² + b t + c
            let a = a3 - 3 * a2 + 3 * a1 - a0, b = 2 * (a2 - 2 * a1 + a0), c = a1 - a0
            for t in quadraticRoots(a, b, c) where t > 0 && t < 1 { result.append(t) }
        }
        return result
    }

    static func quadraticRoots(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat) -> [CGFloat] {
        let scale = max(abs(a), abs(b), abs(c))
        guard scale > 0 else { return [] }
        if abs(a) <= 1e-12 * scale { return b == 0 ? [] : [-c / b] }
        let discriminant = b * b - 4 * a * c
        guard discriminant >= 0 else { return [] }
        let q = -(b + (b < 0 ? -1 : 1) * discriminant.squareRoot()) / 2
        return q == 0 ? [0] : [q / a, c / q]
    }

    /// `Rect.bounding` of `points`; `CGRect.null` when there are none.
    static func bounds(of points: some Sequence<Point>) -> CGRect {
        guard let r = Rect.bounding(points) else { return .null }
        return CGRect(x: r.x, y: r.y, width: r.width, height: r.height)
    }
}
