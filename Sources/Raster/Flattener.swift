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
/// Culling (issue 18: a path's cost follows what is drawn): a sink may declare a curve off its
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

/// Collects fill edges, closing every subpath and dropping subpaths with non-finite points.
///
/// Edges that cannot change a pixel of the clip are culled as they arrive (issue 18: a
/// 10 M-segment path mostly off the target held every edge). An edge wholly above or below the
/// clip adds nothing to any pixel in it (the rasterizer's area deposits reach only the edge's
/// rows), and is dropped. An edge wholly left of it only adds its winding, and one wholly right
/// of it only tells the rasterizer's sweep to run to the clip's right edge: each becomes a
/// vertical edge on that edge of the clip — which the rasterizer's clipping made of it anyway —
/// and a run of such edges on one side becomes one (the signed heights of consecutive vertical
/// edges on one line add up to the run's, row by row). On the right edge that changes no pixel
/// (the sweep never reads those cells); on the left edge it changes the float sums' rounding,
/// so left runs are folded, and curves off the clip drawn as their chords, only once a fill
/// has made `foldingStart` edges. The device bounds of the culled edges are kept
/// (`culledBounds`), so the rasterizer, adding those of the held edges, picks the same box.
/// Culling starts once a fill holds `min(limit, foldingStart)` edges (before, every edge is
/// held, as the rasterizer always had them): an ordinary fill costs and draws exactly what it
/// did. Until then an edge costs one comparison, `out.count < plainEnd`, which is also the
/// list's capacity check (`plainEnd` is the smaller of the two; past it, `appendPastPlainEnd`
/// grows the list or starts culling).
///
/// At most `limit` edges are held: past it, a sink with a `drain` hands them over and starts
/// again; one without marks itself `overflowed` and keeps only the bounds and which subpaths
/// were not finite, for a second pass that drops those (their edges cannot be taken back once
/// drained, so that pass counts them non-finite from their first point).
struct EdgeSink: FlattenSink {
    static var preservesArea: Bool { true }
    /// The rasterizer's edge list, which outlives every sink made for it (not retained).
    unowned(unsafe) let out: EdgeList
    /// The clip's edges (device pixels): left, top, right, bottom.
    private let left: Double, top: Double, right: Double, bottom: Double
    private let limit: Int
    /// Deposits the held edges (a second pass); nil while collecting.
    private let drain: (() -> Void)?
    /// Whether more than `limit` edges arrived (without a drain).
    private(set) var overflowed = false
    /// The bounds of the edges of finite subpaths that are not held — culled, or dropped when
    /// overflowing — as (minX, minY, −maxX, −maxY); all +∞ when there was none.
    var culledBounds: SIMD4<Double> { SIMD4(minX, minY, -maxX, -maxY) }
    private var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    /// Indices of the subpaths with a non-finite point, in order (when collecting), or those to
    /// drop (when draining).
    private(set) var nonFiniteSubpaths: [Int]
    /// The next of `nonFiniteSubpaths` to drop; `Int.max` when collecting.
    private var nextSkipped: Int
    private var subpathIndex = -1
    private var subpathStart = 0
    private var start = Point.zero, current = Point.zero
    /// Σ (x·0 + y·0) over the subpath's points: ±0 while they are all finite, NaN after one is
    /// not (∞·0 and NaN·0 are NaN) — one multiply-add per point instead of two finiteness tests.
    private var nonFinite = 0.0
    /// The bounds of the subpath's culled edges (merged at its end, if it is finite).
    private var subMinX = Double.infinity, subMinY = Double.infinity
    private var subMaxX = -Double.infinity, subMaxY = -Double.infinity
    /// Edges after which a fill culls, folds runs left of the clip into one edge and draws
    /// curves off the clip as their chords. Folding changes the float sums' rounding (and a
    /// chord's bounds can move the box by whole pixels), so an ordinary fill, with fewer edges,
    /// keeps exactly the pixels it had before culling.
    static let foldingStart = 1 << 12
    /// Edges held without a test (`foldingStart`, or `limit` if smaller: no hand-over can come
    /// first).
    private let plainEdges: Int
    /// While every edge is held as it comes: the smaller of `plainEdges` and the list's
    /// capacity; 0 once culling has started.
    private var plainEnd: Int
    /// Edges appended since culling started, counting those it started with.
    private var appended = 0
    /// The vertical edge on the clip's left or right edge (at x = `sideRunX`) that the latest
    /// culled edges add up to, from `sideRunStart` to `sideRunEnd` (equal: none).
    private var sideRunX = 0.0, sideRunStart = 0.0, sideRunEnd = 0.0

    /// Collects into `out` (a first pass), or with `drain`, a second pass dropping the
    /// subpaths listed in `skipping`.
    init(out: EdgeList, clip: IntRect, limit: Int = .max, skipping: [Int] = [], drain: (() -> Void)? = nil) {
        self.out = out
        left = Double(clip.x0); top = Double(clip.y0); right = Double(clip.x1); bottom = Double(clip.y1)
        self.limit = limit
        plainEdges = Swift.min(limit, EdgeSink.foldingStart)
        plainEnd = Swift.min(plainEdges, out.capacity)
        self.drain = drain
        nonFiniteSubpaths = skipping
        nextSkipped = drain == nil ? .max : 0
    }

    mutating func begin(_ p: Point) {
        subpathIndex &+= 1
        subpathStart = out.count
        start = p; current = p
        nonFinite = p.x * 0 + p.y * 0
        subMinX = .infinity; subMinY = .infinity; subMaxX = -.infinity; subMaxY = -.infinity
        if nextSkipped < nonFiniteSubpaths.count, nonFiniteSubpaths[nextSkipped] == subpathIndex {
            nextSkipped &+= 1
            nonFinite = .nan
        }
    }

    @inline(__always)
    mutating func line(to p: Point) {
        nonFinite += p.x * 0 + p.y * 0
        if current.y != p.y {   // horizontal edges sweep no area
            if out.count < plainEnd {
                out.appendWithinCapacity(SIMD4(current.x, current.y, p.x, p.y))
            } else {
                appendPastPlainEnd(current, p)
            }
        }
        current = p
    }

    /// An edge from `a` to `b` once the list holds `plainEnd` edges: held after growing the
    /// list while fewer than `plainEdges` are held, culled or held by `add` after that.
    @inline(never)
    private mutating func appendPastPlainEnd(_ a: Point, _ b: Point) {
        if plainEnd > 0 {
            if out.count < plainEdges {
                out.append(SIMD4(a.x, a.y, b.x, b.y))
                plainEnd = Swift.min(plainEdges, out.capacity)
                return
            }
            plainEnd = 0
            appended = out.count
        }
        add(a, b)
    }

    /// Keeps, drops or folds into a side run one non-horizontal edge from `a` to `b` (from
    /// `plainEdges` on).
    @inline(__always)
    private mutating func add(_ a: Point, _ b: Point) {
        let x0 = a.x < b.x ? a.x : b.x, x1 = a.x < b.x ? b.x : a.x
        let y0 = a.y < b.y ? a.y : b.y, y1 = a.y < b.y ? b.y : a.y
        if x0 > left && x1 < right && y0 > top && y1 < bottom {
            // Inside the clip (the common case).
            endSideRun()
            append(SIMD4(a.x, a.y, b.x, b.y))
        } else {
            addOutside(a, b, box: SIMD4(x0, y0, x1, y1))
        }
    }

    /// Keeps, drops or folds into a side run one non-horizontal edge from `a` to `b` that is
    /// not inside the clip; `box` is its (minX, minY, maxX, maxY).
    private mutating func addOutside(_ a: Point, _ b: Point, box: SIMD4<Double>) {
        let culled = box[3] <= top || box[1] >= bottom || box[2] <= left || box[0] >= right
        if culled {
            subMinX = Swift.min(subMinX, box[0]); subMinY = Swift.min(subMinY, box[1])
            subMaxX = Swift.max(subMaxX, box[2]); subMaxY = Swift.max(subMaxY, box[3])
        }
        if box[3] <= top || box[1] >= bottom { return }
        if box[2] <= left {
            if appended >= EdgeSink.foldingStart {
                addToSideRun(x: left, a.y, b.y)
            } else {
                endSideRun()
                append(SIMD4(left, Swift.min(Swift.max(a.y, top), bottom), left, Swift.min(Swift.max(b.y, top), bottom)))
            }
        } else if box[0] >= right {
            addToSideRun(x: right, a.y, b.y)
        } else {
            endSideRun()
            append(SIMD4(a.x, a.y, b.x, b.y))
        }
    }

    /// Adds the vertical from `y0` to `y1` (clamped to the clip's rows) on the clip edge at `x`.
    @inline(__always)
    private mutating func addToSideRun(x: Double, _ y0: Double, _ y1: Double) {
        let from = Swift.min(Swift.max(y0, top), bottom), to = Swift.min(Swift.max(y1, top), bottom)
        if x != sideRunX || from != sideRunEnd {
            endSideRun()
            sideRunX = x
            sideRunStart = from
        }
        sideRunEnd = to
    }

    /// Appends the side run's vertical edge, if it has a height.
    @inline(__always)
    private mutating func endSideRun() {
        if sideRunStart != sideRunEnd { appendSideRun() }
    }

    @inline(never)
    private mutating func appendSideRun() {
        append(SIMD4(sideRunX, sideRunStart, sideRunX, sideRunEnd))
        sideRunStart = 0; sideRunEnd = 0
    }

    @inline(__always)
    private mutating func append(_ edge: SIMD4<Double>) {
        if out.count >= limit { handOver() }
        out.append(edge)
        appended &+= 1
    }

    /// Drains the held edges, or (collecting) keeps their bounds, drops them and marks the sink
    /// overflowed. The edges of a subpath already known not to be finite are dropped first.
    @inline(never)
    private mutating func handOver() {
        if nonFinite != 0 { out.truncate(to: subpathStart) }
        if let drain {
            drain()
        } else {
            overflowed = true
            let all = out.bounds(with: culledBounds)
            minX = all[0]; minY = all[1]; maxX = -all[2]; maxY = -all[3]
        }
        out.removeAll()
        subpathStart = 0
    }

    mutating func end(closed: Bool) {
        line(to: start)
        endSideRun()
        if nonFinite != 0 {
            out.truncate(to: subpathStart)
            if drain == nil { nonFiniteSubpaths.append(subpathIndex) }
        } else if subMinX <= subMaxX {
            minX = Swift.min(minX, subMinX); minY = Swift.min(minY, subMinY)
            maxX = Swift.max(maxX, subMaxX); maxY = Swift.max(maxY, subMaxY)
        }
    }

    /// A curve wholly above or below the clip is dropped edge by edge anyway, and one wholly left
    /// or right of it adds up to the vertical of its chord (from `foldingStart` edges on).
    var cullsCurves: Bool { appended >= EdgeSink.foldingStart }

    func isOffTarget(hull: SIMD4<Double>, slack: Double) -> Bool {
        (hull[0] - slack >= right || hull[1] - slack >= bottom || hull[2] + slack <= left || hull[3] + slack <= top)
    }
}

/// Flattened fill edges (x0, y0, x1, y1), device space: storage owned by the rasterizer and
/// reused from draw to draw, appended to in place (no copy-on-write check per edge).
final class EdgeList {
    private var base: UnsafeMutablePointer<SIMD4<Double>>
    private(set) var capacity = 64
    private(set) var count = 0

    /// Capacity kept between draws; a larger list is freed after its draw (`trim`).
    static let keptCapacity = 1 << 14

    init() { base = .allocate(capacity: capacity) }
    deinit { base.deallocate() }

    var isEmpty: Bool { count == 0 }
    /// The edges; valid until the next append.
    var edges: UnsafeBufferPointer<SIMD4<Double>> { UnsafeBufferPointer(start: base, count: count) }
    /// The edges as x0, y0, x1, y1, x0, … ; valid until the next append.
    var coordinates: UnsafeBufferPointer<Double> {
        UnsafeBufferPointer(start: UnsafeRawPointer(base).assumingMemoryBound(to: Double.self), count: 4 * count)
    }

    @inline(__always)
    func append(_ edge: SIMD4<Double>) {
        if count == capacity { grow() }
        appendWithinCapacity(edge)
    }

    /// `append` when the caller knows `count < capacity`.
    @inline(__always)
    func appendWithinCapacity(_ edge: SIMD4<Double>) {
        base[count] = edge
        count &+= 1
    }

    /// The bounds of the edges and of `other`, both as (minX, minY, −maxX, −maxY) (all +∞ for
    /// no edges).
    @inline(__always)
    func bounds(with other: SIMD4<Double>) -> SIMD4<Double> {
        var minX = other[0], minY = other[1]
        var maxX = -other[2], maxY = -other[3]
        // Every end point as an (x, y) pair of the edges' coordinates.
        let points = coordinates
        var i = 0
        while i &+ 1 < points.count {
            let x = points[i], y = points[i &+ 1]
            minX = x < minX ? x : minX; maxX = x > maxX ? x : maxX
            minY = y < minY ? y : minY; maxY = y > maxY ? y : maxY
            i &+= 2
        }
        return SIMD4(minX, minY, -maxX, -maxY)
    }

    /// Drops the edges from index `start` on.
    func truncate(to start: Int) { count = Swift.min(count, start) }

    func removeAll() { count = 0 }

    /// Empties the list and gives back storage beyond `keptCapacity` (a huge path's edges are
    /// not held by the target's scratch buffers after its draw).
    func trim() {
        removeAll()
        guard capacity > EdgeList.keptCapacity else { return }
        base.deallocate()
        capacity = EdgeList.keptCapacity
        base = .allocate(capacity: capacity)
    }

    @inline(never)
    private func grow() {
        let larger = UnsafeMutablePointer<SIMD4<Double>>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }
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
