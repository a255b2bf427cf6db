/// Collects a path's subpaths as polylines in the path's own space (as `PolylineSink`), without
/// the runs of segments whose stroke cannot reach the target (a stroke's cost follows
/// what it draws, not the path's length).
///
/// A segment is kept when its device box grown by `margin` — the farthest the stroke's outline
/// lies from its segment: half the width, times the miter limit or √2 as the style has it, in
/// device pixels, plus slack for round arcs' area-preserving radius — meets the target. A
/// subpath with a culled segment splits into open polylines, one per run of kept segments,
/// each ending where a culled segment begins. Every point of a culled segment, its ends
/// included, lies farther than `margin` from the target, so the caps and joins that change at
/// those ends stay off it, and so does the outline of the culled runs: its winding about any
/// point farther than the stroke's reach from it is 0 (the outline shrinks within the stroke's
/// band onto the polyline traced there and back), so dropping it leaves every pixel of the
/// target as it was. A closed subpath whose only culled segments lie between its first and
/// last kept runs draws those runs as one polyline through its start.
struct NearPolylineSink: FlattenSink {
    static var preservesArea: Bool { false }
    /// Path space → device pixels.
    let transform: Transform
    /// The target grown by the margin: (x0, y0, x1, y1), device pixels.
    let area: SIMD4<Double>
    private(set) var lines: [Polyline] = []
    /// The run of kept segments being collected (path space).
    private var run: [Point] = []
    private var start = Point.zero, startDevice = Point.zero, currentDevice = Point.zero
    /// Whether no segment of the subpath has been culled yet.
    private var allKept = true
    /// The index in `lines` of the subpath's first run when that run begins at its start.
    private var firstRun: Int?
    /// The index in `lines` of the subpath's first polyline (dropped if the subpath is not finite).
    private var subpathLines = 0
    /// Σ (x·0 + y·0) over the subpath's points: NaN once one is not finite (as `EdgeSink`).
    private var nonFinite = 0.0

    /// Keeps what can reach `width`×`height` device pixels grown by `margin`.
    init(transform: Transform, width: Int, height: Int, margin: Double) {
        self.transform = transform
        area = SIMD4(-margin, -margin, Double(width) + margin, Double(height) + margin)
    }

    mutating func begin(_ p: Point) {
        start = p
        startDevice = transform.apply(p)
        currentDevice = startDevice
        run.removeAll(keepingCapacity: true)
        run.append(p)
        allKept = true
        firstRun = nil
        subpathLines = lines.count
        nonFinite = p.x * 0 + p.y * 0
    }

    mutating func line(to p: Point) {
        nonFinite += p.x * 0 + p.y * 0
        let q = transform.apply(p)
        if reaches(currentDevice, q) {
            run.append(p)
        } else {
            if allKept, run.count >= 2 { firstRun = lines.count }
            allKept = false
            endRun()
            run.append(p)
        }
        currentDevice = q
    }

    mutating func end(closed: Bool) {
        defer { run.removeAll(keepingCapacity: true) }
        guard nonFinite == 0 else {
            lines.removeSubrange(subpathLines...)
            return
        }
        if allKept && (!closed || reaches(currentDevice, startDevice)) {
            // Nothing culled: the subpath as it is (a lone point only if its dot can reach).
            if run.count > 1 || reaches(currentDevice, currentDevice) { lines.append(Polyline(points: run, closed: closed)) }
            return
        }
        if closed && !allKept {
            line(to: start)   // the closing segment, kept or culled like the others
            if let first = firstRun, run.count >= 2 {
                lines[first].points = run + lines[first].points.dropFirst()
                return
            }
        }
        endRun()
    }

    /// Hands over the run as an open polyline if it has a segment, and empties it.
    private mutating func endRun() {
        if run.count >= 2 {
            lines.append(Polyline(points: run, closed: false))
            run = []
        } else {
            run.removeAll(keepingCapacity: true)
        }
    }

    /// Whether the device box of the segment a → b meets `area` (NaN never does).
    @inline(__always)
    private func reaches(_ a: Point, _ b: Point) -> Bool {
        Swift.max(a.x, b.x) >= area[0] && Swift.max(a.y, b.y) >= area[1]
            && Swift.min(a.x, b.x) <= area[2] && Swift.min(a.y, b.y) <= area[3]
    }

    var cullsCurves: Bool { true }

    /// A curve whose control points' device box misses `area` is culled like its chord.
    func isOffTarget(hull: SIMD4<Double>, slack: Double) -> Bool {
        let a = transform.apply(Point(x: hull[0], y: hull[1])), b = transform.apply(Point(x: hull[2], y: hull[3]))
        let c = transform.apply(Point(x: hull[0], y: hull[3])), d = transform.apply(Point(x: hull[2], y: hull[1]))
        let minX = Swift.min(Swift.min(a.x, b.x), Swift.min(c.x, d.x)), maxX = Swift.max(Swift.max(a.x, b.x), Swift.max(c.x, d.x))
        let minY = Swift.min(Swift.min(a.y, b.y), Swift.min(c.y, d.y)), maxY = Swift.max(Swift.max(a.y, b.y), Swift.max(c.y, d.y))
        return maxX < area[0] || maxY < area[1] || minX > area[2] || minY > area[3]
    }
}
