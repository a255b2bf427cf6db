import CKernels
/// Collects fill edges, closing every subpath and dropping subpaths with non-finite points.
///
/// Edges that cannot change a pixel of the clip are culled as they arrive (a
/// 10 M-segment path mostly off the target held every edge). An edge wholly above or below the
/// clip adds nothing to any pixel in it (the rasterizer's area deposits reach only the edge's
/// rows), and is dropped. An edge wholly left of it only adds its winding, and one wholly right
/// of it only tells the rasterizer's sweep to run to the clip's right edge: each becomes a
/// vertical edge on that edge of the clip — which the rasterizer's clipping made of it anyway —
/// and a run of such edges on one side becomes one (the signed heights of consecutive vertical
/// edges on one line add up to the run's, row by row). On the right edge that changes no pixel
/// (the sweep never reads those cells); on the left edge it changes the float sums' rounding,
/// so left runs are folded, and curves off the clip drawn as their chords, only once a fill
/// has made `EdgeList.foldingStart` edges. The device bounds of the culled edges are kept
/// (`EdgeList.culledBounds`), so the rasterizer, adding those of the held edges, picks the same
/// box. Culling starts once a fill holds `min(limit, foldingStart)` edges (before, every edge
/// is held, as the rasterizer always had them): an ordinary fill costs and draws exactly what it
/// did.
///
/// At most `limit` edges are held: past it, a sink with a `drain` hands them over and starts
/// again; one without marks the list `overflowed` and keeps only the bounds and which subpaths
/// were not finite, for a second pass that drops those (their edges cannot be taken back once
/// drained, so that pass counts them non-finite from their first point).
///
/// Cost: until culling starts an edge costs one comparison, `out.count < out.plainEnd`, which
/// is also the list's capacity check. The culling state lives in the list (`EdgeList`, the
/// rasterizer's, reused from fill to fill), and everything past that comparison is a call on
/// the list: no call in the flattener's loops is handed the sink, so its few fields (the
/// current point, the finiteness sum) stay in registers there.
struct EdgeSink: FlattenSink {
    static var preservesArea: Bool { true }
    /// The rasterizer's edge list, which outlives every sink made for it (not retained).
    unowned(unsafe) let out: EdgeList
    /// Indices of the subpaths with a non-finite point, in order (when collecting), or those to
    /// drop (when draining).
    private(set) var nonFiniteSubpaths: [Int]
    /// The next of `nonFiniteSubpaths` to drop; `Int.max` when collecting.
    private var nextSkipped: Int
    private var subpathIndex = -1
    private var start = Point.zero, current = Point.zero
    /// Σ (x·0, y·0) over the subpath's points: ±0 in both lanes while they are all finite, NaN
    /// in a lane after one is not (∞·0 and NaN·0 are NaN) — one vector multiply-add per point
    /// instead of two finiteness tests.
    private var nonFinite = SIMD2<Double>()

    /// Collects into `out` (a first pass), or with `drain`, a second pass dropping the
    /// subpaths listed in `skipping`; `out` is emptied and its culling state reset.
    init(out: EdgeList, clip: IntRect, limit: Int = .max, skipping: [Int] = [], drain: (() -> Void)? = nil) {
        self.out = out
        out.startFill(clip: clip, limit: limit, drain: drain)
        nonFiniteSubpaths = skipping
        nextSkipped = drain == nil ? .max : 0
    }

    mutating func begin(_ p: Point) {
        subpathIndex &+= 1
        out.beginSubpath()
        start = p; current = p
        nonFinite = SIMD2(p.x, p.y) * 0
        if nextSkipped < nonFiniteSubpaths.count, nonFiniteSubpaths[nextSkipped] == subpathIndex {
            nextSkipped &+= 1
            nonFinite = SIMD2(repeating: .nan)
        }
    }

    @inline(__always)
    mutating func line(to p: Point) {
        nonFinite += SIMD2(p.x, p.y) * 0
        if current.y != p.y {   // horizontal edges sweep no area
            if out.count < out.plainEnd {
                out.appendWithinCapacity(SIMD4(current.x, current.y, p.x, p.y))
            } else {
                out.appendPastPlainEnd(current, p, dropsSubpath: !isFinite)
            }
        }
        current = p
    }

    /// Whether every point of the subpath so far is finite.
    private var isFinite: Bool { nonFinite[0] + nonFinite[1] == 0 }

    @inline(__always)
    mutating func end(closed: Bool) {
        line(to: start)
        let finite = isFinite
        out.endSubpath(finite: finite)
        if !finite, nextSkipped == .max { nonFiniteSubpaths.append(subpathIndex) }
    }

    /// A curve wholly above or below the clip is dropped edge by edge anyway, and one wholly left
    /// or right of it adds up to the vertical of its chord (from `foldingStart` edges on).
    var cullsCurves: Bool { out.folds }

    func isOffTarget(hull: SIMD4<Double>, slack: Double) -> Bool { out.isOffClip(hull: hull, slack: slack) }
}

/// Flattened fill edges (x0, y0, x1, y1), device space, and the state of culling them as an
/// `EdgeSink` makes them: storage owned by the rasterizer and reused from draw to draw,
/// appended to in place (no copy-on-write check per edge).
final class EdgeList {
    private var base: UnsafeMutablePointer<SIMD4<Double>>
    private(set) var capacity = 64
    private(set) var count = 0

    /// Capacity kept between draws; a larger list is freed after its draw (`trim`).
    static let keptCapacity = 1 << 14

    // MARK: Culling state of the current fill (`startFill`)

    /// Edges after which a fill culls, folds runs left of the clip into one edge and draws
    /// curves off the clip as their chords. Folding changes the float sums' rounding (and a
    /// chord's bounds can move the box by whole pixels), so an ordinary fill, with fewer edges,
    /// keeps exactly the pixels it had before culling.
    static let foldingStart = 1 << 12
    private var clip = IntRect(x0: 0, y0: 0, x1: 0, y1: 0)
    /// The clip's edges (device pixels), once culling has started: left, top, right, bottom.
    private var left = 0.0, top = 0.0, right = 0.0, bottom = 0.0
    private var limit = Int.max
    /// Edges held without a test (`foldingStart`, or `limit` if smaller: no hand-over can come
    /// first).
    private var plainEdges = 0
    /// While every edge is held as it comes: the smaller of `plainEdges` and `capacity`; 0 once
    /// culling has started.
    private(set) var plainEnd = 0
    /// Edges appended since culling started, counting those it started with.
    private var appended = 0
    /// Deposits the held edges (a second pass); nil while collecting.
    private var drain: (() -> Void)?
    /// Whether more than `limit` edges arrived (without a drain).
    private(set) var overflowed = false
    /// The bounds of the edges of finite subpaths that are not held — culled, or dropped when
    /// overflowing — as (minX, minY, −maxX, −maxY); all +∞ when there was none.
    var culledBounds: SIMD4<Double> { SIMD4(minX, minY, -maxX, -maxY) }
    private var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    /// Where the current subpath's edges start.
    private var subpathStart = 0
    /// The bounds of the subpath's culled edges (merged at its end, if it is finite).
    private var subMinX = Double.infinity, subMinY = Double.infinity
    private var subMaxX = -Double.infinity, subMaxY = -Double.infinity
    /// The vertical edge on the clip's left or right edge (at x = `sideRunX`) that the latest
    /// culled edges add up to, from `sideRunStart` to `sideRunEnd` (equal: none).
    private var sideRunX = 0.0, sideRunStart = 0.0, sideRunEnd = 0.0
    /// Whether the current subpath is known not to be finite (a hand-over drops its edges).
    private var dropsSubpath = false

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
        if AVX2Kernels.isEnabled {
            // Four coordinates at a time (`citrine_edge_bounds_avx2`): the same bounds.
            var all = other
            withUnsafeMutableBytes(of: &all) { raw in
                citrine_edge_bounds_avx2(coordinates.baseAddress, count, raw.baseAddress!.assumingMemoryBound(to: Double.self))
            }
            return all
        }
        var minX = other[0], minY = other[1]
        var maxX = -other[2], maxY = -other[3]
        // Every end point as an (x, y) pair of the edges' coordinates.
        let points = coordinates
        var i = 0
        while i &+ 1 < points.count {
            let x = points[i], y = points[i &+ 1]
            // Accumulator first: one `minpd`/`maxpd` per pair, no register copies.
            minX = minX < x ? minX : x; maxX = maxX > x ? maxX : x
            minY = minY < y ? minY : y; maxY = maxY > y ? maxY : y
            i &+= 2
        }
        return SIMD4(minX, minY, -maxX, -maxY)
    }

    /// Drops the edges from index `start` on.
    func truncate(to start: Int) { count = Swift.min(count, start) }

    func removeAll() { count = 0 }

    /// Empties the list and gives back storage beyond `keptCapacity` (a huge path's edges are
    /// not held by the target's scratch buffers after its draw), and the fill's drain.
    func trim() {
        removeAll()
        drain = nil
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

    // MARK: Culling (`EdgeSink`)

    /// Empties the list for a fill (pass) clipped to `clip` holding at most `limit` edges. The
    /// state only culling uses is set when culling starts (`startCulling`).
    func startFill(clip: IntRect, limit: Int, drain: (() -> Void)?) {
        removeAll()
        self.clip = clip
        self.limit = limit
        plainEdges = Swift.min(limit, EdgeList.foldingStart)
        plainEnd = Swift.min(plainEdges, capacity)
        appended = 0
        self.drain = drain
        overflowed = false
        minX = .infinity; minY = .infinity; maxX = -.infinity; maxY = -.infinity
        sideRunStart = 0; sideRunEnd = 0
    }

    private func startCulling() {
        plainEnd = 0
        appended = count
        left = Double(clip.x0); top = Double(clip.y0); right = Double(clip.x1); bottom = Double(clip.y1)
    }

    func beginSubpath() {
        subpathStart = count
        subMinX = .infinity; subMinY = .infinity; subMaxX = -.infinity; subMaxY = -.infinity
    }

    /// Ends the subpath: its side run is appended, and its edges are dropped unless `finite`
    /// (its culled bounds kept if it is).
    func endSubpath(finite: Bool) {
        dropsSubpath = !finite
        endSideRun()
        if !finite {
            truncate(to: subpathStart)
        } else if subMinX <= subMaxX {
            minX = Swift.min(minX, subMinX); minY = Swift.min(minY, subMinY)
            maxX = Swift.max(maxX, subMaxX); maxY = Swift.max(maxY, subMaxY)
        }
    }

    /// Whether curves off the clip are drawn as their chords (`foldingStart` edges made).
    var folds: Bool { appended >= EdgeList.foldingStart }

    func isOffClip(hull: SIMD4<Double>, slack: Double) -> Bool {
        (hull[0] - slack >= right || hull[1] - slack >= bottom || hull[2] + slack <= left || hull[3] + slack <= top)
    }

    /// An edge from `a` to `b` once the list holds `plainEnd` edges: held after growing the
    /// list while fewer than `plainEdges` are held, culled or held by `add` after that.
    /// `dropsSubpath`: the subpath is known not to be finite (a hand-over drops its edges).
    @inline(never)
    func appendPastPlainEnd(_ a: Point, _ b: Point, dropsSubpath: Bool) {
        self.dropsSubpath = dropsSubpath
        if plainEnd > 0 {
            if count < plainEdges {
                append(SIMD4(a.x, a.y, b.x, b.y))
                plainEnd = Swift.min(plainEdges, capacity)
                return
            }
            startCulling()
        }
        add(a, b)
    }

    /// Keeps, drops or folds into a side run one non-horizontal edge from `a` to `b` (from
    /// `plainEdges` on).
    @inline(__always)
    private func add(_ a: Point, _ b: Point) {
        let x0 = a.x < b.x ? a.x : b.x, x1 = a.x < b.x ? b.x : a.x
        let y0 = a.y < b.y ? a.y : b.y, y1 = a.y < b.y ? b.y : a.y
        if x0 > left && x1 < right && y0 > top && y1 < bottom {
            // Inside the clip (the common case).
            endSideRun()
            appendCounted(SIMD4(a.x, a.y, b.x, b.y))
        } else {
            addOutside(a, b, box: SIMD4(x0, y0, x1, y1))
        }
    }

    /// Keeps, drops or folds into a side run one non-horizontal edge from `a` to `b` that is
    /// not inside the clip; `box` is its (minX, minY, maxX, maxY).
    private func addOutside(_ a: Point, _ b: Point, box: SIMD4<Double>) {
        let culled = box[3] <= top || box[1] >= bottom || box[2] <= left || box[0] >= right
        if culled {
            subMinX = Swift.min(subMinX, box[0]); subMinY = Swift.min(subMinY, box[1])
            subMaxX = Swift.max(subMaxX, box[2]); subMaxY = Swift.max(subMaxY, box[3])
        }
        if box[3] <= top || box[1] >= bottom { return }
        if box[2] <= left {
            if appended >= EdgeList.foldingStart {
                addToSideRun(x: left, a.y, b.y)
            } else {
                endSideRun()
                appendCounted(SIMD4(left, Swift.min(Swift.max(a.y, top), bottom), left, Swift.min(Swift.max(b.y, top), bottom)))
            }
        } else if box[0] >= right {
            addToSideRun(x: right, a.y, b.y)
        } else {
            endSideRun()
            appendCounted(SIMD4(a.x, a.y, b.x, b.y))
        }
    }

    /// Adds the vertical from `y0` to `y1` (clamped to the clip's rows) on the clip edge at `x`.
    @inline(__always)
    private func addToSideRun(x: Double, _ y0: Double, _ y1: Double) {
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
    private func endSideRun() {
        if sideRunStart != sideRunEnd { appendSideRun() }
    }

    @inline(never)
    private func appendSideRun() {
        appendCounted(SIMD4(sideRunX, sideRunStart, sideRunX, sideRunEnd))
        sideRunStart = 0; sideRunEnd = 0
    }

    @inline(__always)
    private func appendCounted(_ edge: SIMD4<Double>) {
        if count >= limit { handOver() }
        append(edge)
        appended &+= 1
    }

    /// Drains the held edges, or (collecting) keeps their bounds, drops them and marks the list
    /// overflowed. The edges of a subpath already known not to be finite are dropped first.
    @inline(never)
    private func handOver() {
        if dropsSubpath { truncate(to: subpathStart) }
        if let drain {
            drain()
        } else {
            overflowed = true
            let all = bounds(with: culledBounds)
            minX = all[0]; minY = all[1]; maxX = -all[2]; maxY = -all[3]
        }
        removeAll()
        subpathStart = 0
    }
}
