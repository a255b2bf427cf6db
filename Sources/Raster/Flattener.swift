/// Turns a `Path` into polylines.
///
/// Curves are subdivided uniformly in t into n segments, with n from Wang's formula so that the
/// polyline stays within `tolerance` of the curve: `n = ⌈√(d(d−1)/8 · L / tolerance)⌉` for
/// degree d, L the largest second difference of the control points (|P0 − 2P1 + P2| …). n is
/// capped by `maxSegmentsPerCurve`, so absurdly large curves cannot hang the engine. A subpath
/// with a non-finite coordinate is skipped whole.
///
/// For fills the polyline is made *area-preserving*: a chord of a curve segment of parameter
/// length Δt lies inside the curve by the sagitta s ≈ |B''⊥|·Δt²/8 and loses (2/3)·s·length of
/// area, so every interior vertex is moved by −B''⊥·Δt²/12 (towards the outside of the bend). The
/// polyline then straddles the curve — at most (2/3)·s away from it — and encloses the curve's
/// area to O(Δt⁴). Fills choose n for a deviation of `tolerance`, i.e. a sagitta of 1.5× it.
/// (For a circular arc the offset is the familiar area-preserving radius r·√(θ/sin θ) ≈ r(1 + θ²/12).)
///
/// Culling (a path's cost follows what is drawn): a sink may declare a curve off its
/// target (`FlattenSink.isOffTarget`), which then stands as its chord — a curve lies in the hull
/// of its control points, so a hull wholly beyond one side of the target keeps its polyline
/// beyond it too, by the area-preserving offset's bound (`offsetBound`). Fills cull edges in
/// `EdgeSink`, strokes whole runs of segments in `NearPolylineSink`.
enum Flattener {
    /// Maximum distance, in device pixels, between a filled curve and its polyline.
    static let tolerance = 0.1
    /// Largest number of line segments one curve is flattened into.
    static let maxSegmentsPerCurve = 512

    /// The subpaths of `path` mapped by `transform` as polylines, within `tolerance`.
    static func polylines(_ path: Path, transform: Transform = .identity, tolerance: Double) -> [Polyline] {
        var sink = PolylineSink()
        walk(path, transform: transform, tolerance: tolerance, into: &sink)
        return sink.lines
    }

    /// Feeds `sink` the flattened subpaths of `path` mapped by `transform`.
    static func walk<S: FlattenSink>(_ path: Path, transform: Transform, tolerance: Double, into sink: inout S) {
        var start = Point.zero, current = Point.zero
        var open = false
        var pointIndex = 0
        let points = path.points
        func ensureOpen() {
            if !open { sink.begin(current); start = current; open = true }
        }
        for verb in path.verbs {
            switch verb {
            case .move:
                if open { sink.end(closed: false) }
                current = transform.apply(points[pointIndex])
                start = current
                sink.begin(current)
                open = true
            case .line:
                ensureOpen()
                current = transform.apply(points[pointIndex])
                sink.line(to: current)
            case .quad:
                ensureOpen()
                let c = transform.apply(points[pointIndex])
                let p = transform.apply(points[pointIndex + 1])
                quad(current, c, p, tolerance: tolerance, into: &sink)
                current = p
            case .cubic:
                ensureOpen()
                let c1 = transform.apply(points[pointIndex])
                let c2 = transform.apply(points[pointIndex + 1])
                let p = transform.apply(points[pointIndex + 2])
                cubic(current, c1, c2, p, tolerance: tolerance, into: &sink)
                current = p
            case .close:
                if open { sink.end(closed: true) }
                open = false
                current = start
            }
            pointIndex += verb.pointCount
        }
        if open { sink.end(closed: false) }
    }

    /// Segments for a curve whose control polygon has largest second difference `l`.
    @inline(__always)
    static func segmentCount(secondDifference l: Double, factor: Double, tolerance: Double) -> Int {
        let n = (factor * l / tolerance).squareRoot().rounded(.up)
        guard !n.isNaN else { return maxSegmentsPerCurve }
        return Int(clamping: n, to: 1...maxSegmentsPerCurve)
    }

    static func quad<S: FlattenSink>(_ p0: Point, _ p1: Point, _ p2: Point, tolerance: Double, into sink: inout S) {
        let l = length(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y)
        let sagitta = S.preservesArea ? tolerance * 1.5 : tolerance
        let n = segmentCount(secondDifference: l, factor: 0.25, tolerance: sagitta)
        // |B''| = 2l everywhere: vertices move by at most 2l·Δt²/12.
        if n > 1, sink.cullsCurves,
           sink.isOffTarget(hull: hull(p0, p1, p2, p2), slack: S.preservesArea ? offsetBound(l / 6, n) : 0) {
            sink.line(to: p2)
            return
        }
        let dt = 1 / Double(n)
        for i in 1..<n {
            let t = Double(i) * dt, u = 1 - t
            var p = Point(x: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x,
                          y: u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y)
            if S.preservesArea {
                let d1 = Point(x: 2 * (u * (p1.x - p0.x) + t * (p2.x - p1.x)), y: 2 * (u * (p1.y - p0.y) + t * (p2.y - p1.y)))
                let d2 = Point(x: 2 * (p0.x - 2 * p1.x + p2.x), y: 2 * (p0.y - 2 * p1.y + p2.y))
                p = areaPreserving(p, d1, d2, dt)
            }
            sink.line(to: p)
        }
        sink.line(to: p2)
    }

    /// `p` moved by −B''⊥·Δt²/12, B''⊥ being the second derivative's part normal to B'.
    @inline(__always)
    static func areaPreserving(_ p: Point, _ d1: Point, _ d2: Point, _ dt: Double) -> Point {
        let speed2 = d1.x * d1.x + d1.y * d1.y
        guard speed2 > 1e-18 else { return p }
        let along = (d2.x * d1.x + d2.y * d1.y) / speed2
        let nx = d2.x - along * d1.x, ny = d2.y - along * d1.y
        let k = dt * dt / 12
        return Point(x: p.x - nx * k, y: p.y - ny * k)
    }

    static func cubic<S: FlattenSink>(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, tolerance: Double,
                                      into sink: inout S) {
        let l = Swift.max(length(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y),
                          length(p1.x - 2 * p2.x + p3.x, p1.y - 2 * p2.y + p3.y))
        let sagitta = S.preservesArea ? tolerance * 1.5 : tolerance
        let n = segmentCount(secondDifference: l, factor: 0.75, tolerance: sagitta)
        // |B''| ≤ 6l (a blend of the two second differences): vertices move by at most 6l·Δt²/12.
        if n > 1, sink.cullsCurves,
           sink.isOffTarget(hull: hull(p0, p1, p2, p3), slack: S.preservesArea ? offsetBound(l / 2, n) : 0) {
            sink.line(to: p3)
            return
        }
        let dt = 1 / Double(n)
        // B(t) = a·t³ + b·t² + c·t + P0, B' and B'' stepped by forward differences in steps of
        // dt: exact for polynomials up to rounding, whose drift over at most 512 steps stays
        // orders of magnitude below a pixel; the last vertex is P3 itself.
        let q0 = SIMD2(p0.x, p0.y), q1 = SIMD2(p1.x, p1.y), q2 = SIMD2(p2.x, p2.y), q3 = SIMD2(p3.x, p3.y)
        let a = q3 - 3 * q2 + 3 * q1 - q0, b = 3 * (q0 - 2 * q1 + q2), c = 3 * (q1 - q0)
        let h2 = dt * dt, h3 = h2 * dt
        var point = q0, step = a * h3 + b * h2 + c * dt, step2 = 6 * a * h3 + 2 * b * h2
        let step3 = 6 * a * h3
        var d1 = c, d1Step = 3 * a * h2 + 2 * b * dt
        let d1Step2 = 6 * a * h2
        var d2 = 2 * b
        let d2Step = 6 * a * dt
        for _ in 1..<n {
            point += step; step += step2; step2 += step3
            var p = Point(x: point.x, y: point.y)
            if S.preservesArea {
                d1 += d1Step; d1Step += d1Step2
                d2 += d2Step
                p = areaPreserving(p, Point(x: d1.x, y: d1.y), Point(x: d2.x, y: d2.y), dt)
            }
            sink.line(to: p)
        }
        sink.line(to: p3)
    }

    @inline(__always)
    static func length(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }

    /// The box (minX, minY, maxX, maxY) of a curve's control points, which holds the curve.
    @inline(__always)
    static func hull(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) -> SIMD4<Double> {
        SIMD4(Swift.min(Swift.min(p0.x, p1.x), Swift.min(p2.x, p3.x)), Swift.min(Swift.min(p0.y, p1.y), Swift.min(p2.y, p3.y)),
              Swift.max(Swift.max(p0.x, p1.x), Swift.max(p2.x, p3.x)), Swift.max(Swift.max(p0.y, p1.y), Swift.max(p2.y, p3.y)))
    }

    /// How far an area-preserving vertex can leave the curve: `k`/n² (k = |B''|max / 12), plus
    /// a pixel for rounding.
    @inline(__always)
    static func offsetBound(_ k: Double, _ n: Int) -> Double { k / Double(n * n) + 1 }
}

/// Receives flattened subpaths: `begin`, then `line(to:)` calls, then `end`.
protocol FlattenSink {
    /// Whether curve vertices are moved so the polyline keeps the curve's area (fills).
    static var preservesArea: Bool { get }
    mutating func begin(_ p: Point)
    mutating func line(to p: Point)
    mutating func end(closed: Bool)
    /// Whether the sink may cull curves now (`isOffTarget` is asked only then).
    var cullsCurves: Bool { get }
    /// Whether a curve whose polyline lies in `hull` (minX, minY, maxX, maxY, in the walk's
    /// output space) grown by `slack` draws the same as its chord: the walk then hands over
    /// the chord alone.
    func isOffTarget(hull: SIMD4<Double>, slack: Double) -> Bool
}

extension FlattenSink {
    var cullsCurves: Bool { false }
    func isOffTarget(hull: SIMD4<Double>, slack: Double) -> Bool { false }
}

/// Collects subpaths as polylines, dropping those with non-finite points.
struct PolylineSink: FlattenSink {
    static var preservesArea: Bool { false }
    var lines: [Polyline] = []
    private var points: [Point] = []

    mutating func begin(_ p: Point) { points = [p] }
    mutating func line(to p: Point) { points.append(p) }
    mutating func end(closed: Bool) {
        if points.allSatisfy(\.isFinite) { lines.append(Polyline(points: points, closed: closed)) }
        points = []
    }
}
