/// Stroke outlines: turns a path and a `StrokeStyle` into a path whose non-zero fill is the stroke.
///
/// The path is flattened to polylines (tolerance in the path's own units), optionally dashed,
/// and each polyline becomes one outline polygon:
///
/// ```
///   left side, forward:    L0 ──── L1 ╮ (outer join: miter tip / round arc / bevel)
///   polyline:              P0 ──── P1 ──── P2
///   right side, backward:  R0 ──── R1 ◁── pivot through P1 on the inner side of the turn
/// ```
///
/// On the inner side of each turn the outline passes through the vertex itself (a pivot), so
/// overlapping offsets never cancel under the non-zero rule; on the outer side it adds the join.
/// Open polylines get caps joining the two sides; closed ones become two loops (the left one
/// forward, the right one backward) so the area between them has winding ±1.
///
/// Semantics follow Core Graphics: the miter limit compares the miter length to the line width
/// (`1 / sin(φ/2)` for an angle φ between the segments) and falls back to a bevel above it; a
/// zero-length subpath draws a dot with round caps and a square with square caps, nothing with
/// butt caps.
public extension Path {
    /// The outline of the stroke of this path, to be filled with the non-zero rule.
    /// `tolerance` is the largest allowed distance from the true outline, in this path's units.
    func stroked(_ style: StrokeStyle, tolerance: Double = 0.05) -> Path {
        var out = Path()
        guard style.width > 0, style.width.isFinite, tolerance > 0 else { return out }
        var stroker = Stroker(style: style, tolerance: tolerance)
        var lines = Flattener.polylines(self, tolerance: tolerance)
        if !style.dash.isEmpty {
            lines = Dasher.dash(lines, lengths: style.dash, phase: style.dashPhase)
        }
        for line in lines { stroker.outline(line, into: &out) }
        return out
    }
}

extension Pixmap {
    /// Strokes `path` (user space) with `style` (widths and dashes in user space), mapped to
    /// device pixels by `transform`. Each stroke is composited once: overlaps within one stroke
    /// never blend twice. Solid and dashed strokes alike go to the rasterizer as outlines in
    /// batches (`fillOutlines`); a dashed stroke's dashes are cut as the path is flattened
    /// (`DashPlan`), and are bounded by `Dasher.maxDashes`.
    public func stroke(_ path: Path, style: StrokeStyle, paint: Paint, transform: Transform = .identity,
                       clip: Mask? = nil) {
        let scale = Swift.max((transform.a * transform.a + transform.b * transform.b).squareRoot(),
                              (transform.c * transform.c + transform.d * transform.d).squareRoot())
        guard scale > 0, scale.isFinite else { return }
        stroke(path, style: style, paint: paint, transform: transform, clip: clip, tolerance: Flattener.tolerance / scale)
    }

    /// `stroke` with the flattening tolerance given (user space). `pathTransform` maps `path`
    /// into user space first (e.g. device → user, to stroke a device-space path with a
    /// user-space pen without a user-space copy of it).
    public func stroke(_ path: Path, style: StrokeStyle, paint: Paint, transform: Transform, clip: Mask?,
                       tolerance: Double, pathTransform: Transform = .identity) {
        guard style.width > 0, style.width.isFinite, tolerance > 0 else { return }
        // Checked before any dash is made: a pattern of gaps too fine to see is a solid stroke.
        if !style.dash.isEmpty, Dasher.isValidPattern(style.dash), Self.dashesMergeIntoSolid(style, tolerance: tolerance) {
            var solid = style
            solid.join = .round
            strokeSolid(path, style: solid, paint: paint, transform: transform, clip: clip, tolerance: tolerance,
                        pathTransform: pathTransform)
            return
        }
        guard !style.dash.isEmpty,
              let plan = DashPlan(path, transform: pathTransform, tolerance: tolerance, lengths: style.dash,
                                  phase: style.dashPhase) else {
            strokeSolid(path, style: style, paint: paint, transform: transform, clip: clip, tolerance: tolerance,
                        pathTransform: pathTransform)
            return
        }
        strokeDashes(path, plan: plan, style: style, paint: paint, transform: transform, clip: clip,
                     tolerance: tolerance, pathTransform: pathTransform)
    }

    /// Fills the outline of `path` (mapped by `pathTransform`) stroked solid with `style` (its
    /// dashes ignored), as
    /// `fill(path.stroked(style), …)` does, with its cost following what reaches this pixmap
    /// (a 10 M-segment path was outlined whole, and its outline held at once): runs of
    /// segments whose stroke cannot reach the pixmap are left out (`NearPolylineSink`, for paths
    /// of more than `strokeCullingPoints` points), and the outline goes to the rasterizer in
    /// batches (`fillOutlines`).
    func strokeSolid(_ path: Path, style: StrokeStyle, paint: Paint, transform: Transform, clip: Mask?,
                     tolerance: Double, pathTransform: Transform = .identity, batchPoints: Int = outlineBatchPoints,
                     heldEdges: Int = Rasterizer.maxHeldEdges) {
        let lines: [Polyline]
        if path.points.count > Self.strokeCullingPoints {
            var near = NearPolylineSink(transform: transform, width: width, height: height,
                                        margin: Self.strokeMargin(style, transform: transform))
            Flattener.walk(path, transform: pathTransform, tolerance: tolerance, into: &near)
            lines = near.lines
        } else {
            lines = Flattener.polylines(path, transform: pathTransform, tolerance: tolerance)
        }
        fillOutlines(style: style, paint: paint, transform: transform, clip: clip, tolerance: tolerance,
                     batchPoints: batchPoints, heldEdges: heldEdges) { add in
            for line in lines { add(line) }
        }
    }

    /// Fills the outlines of the dashes of `path` (mapped by `pathTransform`; `plan` made for
    /// it with the same transform and `tolerance`), as `fill(path.stroked(style), …)` does —
    /// the same coverage, exactly, however many batches (a stroke of a million
    /// round-capped dashes built as one outline took gigabytes; then batches whose rounded
    /// coverage was added into a mask the size of the target, capped, could draw a pixel two
    /// batches shared a level off). Dashes are cut as the flattener walks the path and outlined one by one,
    /// those whose stroke cannot reach the pixmap skipped: memory follows one batch, not the
    /// path or its dash count.
    func strokeDashes(_ path: Path, plan: DashPlan, style: StrokeStyle, paint: Paint, transform: Transform,
                      clip: Mask?, tolerance: Double, pathTransform: Transform = .identity,
                      batchPoints: Int = outlineBatchPoints, heldEdges: Int = Rasterizer.maxHeldEdges) {
        let reach = Self.strokeMargin(style, transform: transform)
        fillOutlines(style: style, paint: paint, transform: transform, clip: clip, tolerance: tolerance,
                     batchPoints: batchPoints, heldEdges: heldEdges) { add in
            plan.walk(path, transform: pathTransform, tolerance: tolerance) { dash, _ in
                if reaches(dash, transform: transform, margin: reach) { add(dash) }
            }
        }
    }

    /// Fills, non-zero and composited once, the stroke outlines (`style`, user space, mapped to
    /// pixels by `transform`) of the polylines `polylines` hands to the function it is given.
    /// Outlines go to the rasterizer in batches of about `batchPoints` points, long polylines
    /// a band at a time (`Stroker.outline`); the rasterizer adds every batch's edges into the
    /// one fill (`Rasterizer.fill(…edges:)`, which runs `polylines` a second time when they
    /// make more than `heldEdges` edges), so the pixels are those of one fill of all outlines.
    private func fillOutlines(style: StrokeStyle, paint: Paint, transform: Transform, clip: Mask?, tolerance: Double,
                              batchPoints: Int, heldEdges: Int, polylines: (_ add: (Polyline) -> Void) -> Void) {
        var blitter = PaintBlitter(target: self, paint: paint, clip: clip)
        rasterizer.fill(rule: .nonZero, antiAlias: paint.antiAlias, clip: IntRect(x0: 0, y0: 0, x1: width, y1: height),
                        rows: drawableRows, into: &blitter, heldEdges: heldEdges) { edges in
            func flatten(_ outline: inout Path) {
                Flattener.walk(outline, transform: transform, tolerance: Flattener.tolerance, into: &edges)
                outline.removeAll()
            }
            // The buffers of the last stroke drawn into this pixmap, moved out and back (so
            // they stay uniquely referenced and grow in place): no allocation per stroke.
            let scratch = paintScratch.strokes
            var stroker = Stroker(style: style, tolerance: tolerance)
            swap(&stroker.buffers, &scratch.buffers)
            var batch = Path()
            swap(&batch, &scratch.batch)
            defer {
                swap(&stroker.buffers, &scratch.buffers)
                swap(&batch, &scratch.batch)
                scratch.trim()
            }
            polylines { line in stroker.outline(line, into: &batch, batchPoints: batchPoints, emit: flatten) }
            flatten(&batch)
        }
    }

    /// Points of a path from which its solid stroke leaves out what cannot reach the target.
    /// Leaving out a run left of the target changes the float sums' rounding where the fill
    /// sweeps from the target's left edge, so a path with fewer points — an ordinary one — is
    /// stroked whole, with exactly the pixels it had before culling.
    static let strokeCullingPoints = 1 << 12

    /// How far (device pixels) the outline of a stroke of `style` mapped by `transform` can lie
    /// from its polyline: `Stroker.reach` stretched by the transform's largest row sum, plus 2
    /// pixels for round arcs' area-preserving radius and rounding.
    static func strokeMargin(_ style: StrokeStyle, transform: Transform) -> Double {
        Stroker.reach(style) * Swift.max(abs(transform.a) + abs(transform.c), abs(transform.b) + abs(transform.d)) + 2
    }

    /// Whether round-capped dashes whose gaps are all within the flattening tolerance draw
    /// (within that tolerance) the solid stroke with round caps and joins: each dash is its
    /// segment grown by a disc of half the width and every point of the path lies within a
    /// gap's length of a dash, so the union of the dashes is the path grown by the disc up to a
    /// sag of at most half a gap (a stroke of 500 000 dashes 0.001 long at width
    /// 2 000 otherwise rasterizes 500 000 discs covering the whole target). Gaps are the odd
    /// lengths of an even pattern, every length of an odd one (it alternates). With a join
    /// other than round the painted lengths must be within the tolerance too: a long dash
    /// across a corner would have that join. (Where a tiny dash happens to straddle a sharp
    /// corner, Core Graphics would add its miter or bevel; the merged stroke is round there.)
    static func dashesMergeIntoSolid(_ style: StrokeStyle, tolerance: Double) -> Bool {
        guard style.cap == .round else { return false }
        let gaps = style.dash.enumerated().filter { style.dash.count % 2 == 1 || $0.offset % 2 == 1 }.map(\.element)
        return gaps.allSatisfy { $0 <= tolerance } && (style.join == .round || style.dash.allSatisfy { $0 <= tolerance })
    }

    /// About how many outline points a stroke hands the rasterizer at once.
    static let outlineBatchPoints = 1 << 16

    /// Whether the device box of `line`'s points, grown by `margin` pixels, meets the pixmap.
    private func reaches(_ line: Polyline, transform: Transform, margin: Double) -> Bool {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for p in line.points {
            let q = transform.apply(p)
            x0 = Swift.min(x0, q.x); x1 = Swift.max(x1, q.x)
            y0 = Swift.min(y0, q.y); y1 = Swift.max(y1, q.y)
        }
        // NaN coordinates fail every comparison: such a dash is left to the rasterizer.
        return !(x1 + margin < 0 || y1 + margin < 0 || x0 - margin > Double(width) || y0 - margin > Double(height))
    }
}

/// An open or closed run of points produced by flattening.
struct Polyline {
    var points: [Point]
    var closed: Bool
}

struct Stroker {
    let style: StrokeStyle
    let halfWidth: Double
    /// Angle step for round joins and caps so the arc stays within `tolerance`.
    let arcStep: Double
    /// Storage the outlines are built in, reused from outline to outline.
    var buffers = Buffers()
    /// cos(θ/2) above which a turn by θ is *smooth*: the offset lines' intersection lies within
    /// `tolerance` of the round join's arc (h/cos(θ/2) − h ≤ tolerance), and so of every join.
    let smoothHalfTurnCosine: Double

    init(style: StrokeStyle, tolerance: Double) {
        self.style = style
        halfWidth = style.width / 2
        let ratio = Swift.min(1, tolerance / halfWidth)
        arcStep = Swift.max(2 * arccosine(1 - ratio), Stroker.minArcStep)
        smoothHalfTurnCosine = halfWidth / (halfWidth + tolerance)
    }

    /// Smallest angle step (radians) of a round join or cap, whatever the width.
    static let minArcStep = 0.01
    /// Most points of a round join or cap (a full circle at `minArcStep`).
    static let maxArcSteps = Int((2 * Double.pi / minArcStep).rounded(.up))

    /// The farthest an outline point of `style` lies from its polyline, in user space: half the
    /// width, times √2 for square caps' corners, times the miter limit for miter joins.
    static func reach(_ style: StrokeStyle) -> Double {
        let miter = style.join == .miter && style.miterLimit.isFinite ? Swift.max(1, style.miterLimit) : 1
        return style.width / 2 * Swift.max(miter, style.cap == .square ? 2.0.squareRoot() : 1)
    }

    /// Appends the outline of one polyline to `out`, calling `emit` (which empties `out`) each
    /// time `out` holds `batchPoints` points or more. A polyline whose two sides grow past
    /// `batchPoints` points is outlined a band at a time: each band is the polygon of its part of
    /// the left side forward and the right side back, closed by the segments across the stroke
    /// where it meets its neighbours — one band's closing segment is the next one's reversed, so
    /// they cancel in the fill and the bands fill as the one outline would (a
    /// 10 M-point polyline held its whole outline several times over).
    mutating func outline(_ line: Polyline, into out: inout Path, batchPoints: Int = .max,
                          emit: (inout Path) -> Void = { _ in }) {
        // The buffers as locals (moved, not copied: they stay uniquely referenced), emptied.
        var pts: [Point] = [], sides = Sides(), outline: [Point] = []
        swap(&pts, &buffers.points)
        swap(&sides, &buffers.sides)
        swap(&outline, &buffers.outline)
        defer {
            swap(&pts, &buffers.points)
            swap(&sides, &buffers.sides)
            swap(&outline, &buffers.outline)
        }
        Stroker.copyWithoutRepeats(line.points, into: &pts)
        sides.removeAll()
        outline.removeAll(keepingCapacity: true)
        if line.closed, pts.count > 2, pts.first == pts.last { pts.removeLast() }
        defer { if out.points.count >= batchPoints { emit(&out) } }
        if pts.count == 1 || (pts.count == 2 && pts[0] == pts[1]) {
            dot(at: pts[0], into: &out)
            return
        }
        guard pts.count >= 2 else { return }
        if line.closed && pts.count >= 3 {
            let n = pts.count
            // Each segment's direction is computed once, for the joins at both its ends.
            var d1 = direction(pts[n - 1], pts[0])
            for i in 0..<n {
                let prev = pts[(i + n - 1) % n], p = pts[i], next = pts[(i + 1) % n]
                let d2 = direction(p, next)
                join(prev: prev, at: p, next: next, d1: d1, d2: d2, left: &sides.left, right: &sides.right)
                d1 = d2
                if sides.count >= batchPoints { sides.emitBand(into: &out, self, batchPoints: batchPoints, emit: emit) { _ in } }
            }
            if let first = sides.firstBandStart {
                sides.left.append(first.left)
                sides.right.append(first.right)
                outline.append(contentsOf: sides.left)
                outline.append(contentsOf: sides.right.reversed())
                append(polygon: outline, to: &out)
            } else {
                append(polygon: sides.left, to: &out)
                outline.append(contentsOf: sides.right.reversed())
                append(polygon: outline, to: &out)
            }
            return
        }
        let n0 = normal(pts[0], pts[1])
        sides.left.append(pts[0] + n0)
        sides.right.append(pts[0] - n0)
        // The start cap runs from the right side's first point back to the left side's.
        func startCap(_ outline: inout [Point]) {
            cap(at: pts[0], direction: direction(pts[1], pts[0]), from: pts[0] - n0, to: pts[0] + n0, into: &outline)
        }
        var d1 = direction(pts[0], pts[1])
        for i in 1..<(pts.count - 1) {
            let d2 = direction(pts[i], pts[i + 1])
            join(prev: pts[i - 1], at: pts[i], next: pts[i + 1], d1: d1, d2: d2, left: &sides.left, right: &sides.right)
            d1 = d2
            if sides.count >= batchPoints { sides.emitBand(into: &out, self, batchPoints: batchPoints, emit: emit, startCap: startCap) }
        }
        let last = pts.count - 1
        let n1 = normal(pts[last - 1], pts[last])
        sides.left.append(pts[last] + n1)
        sides.right.append(pts[last] - n1)
        outline.append(contentsOf: sides.left)
        cap(at: pts[last], direction: direction(pts[last - 1], pts[last]), from: pts[last] + n1,
            to: pts[last] - n1, into: &outline)
        outline.append(contentsOf: sides.right.reversed())
        if sides.firstBandStart == nil { startCap(&outline) }
        append(polygon: outline, to: &out)
    }

    /// Storage of `outline`, kept from one outline to the next (and by `StrokeScratch` from one
    /// stroke to the next).
    struct Buffers {
        /// The polyline being outlined, without repeated points.
        fileprivate var points: [Point] = []
        fileprivate var sides = Sides()
        /// The outline polygon being assembled.
        fileprivate var outline: [Point] = []

        /// The most points any of the buffers holds room for.
        var capacity: Int {
            Swift.max(points.capacity, sides.left.capacity, sides.right.capacity, outline.capacity)
        }
    }

    /// The two offset sides of the polyline being outlined, as far as they are not yet handed
    /// out in bands.
    fileprivate struct Sides {
        var left: [Point] = []
        var right: [Point] = []
        /// The first points of both sides, once a band has been handed out (closed polylines
        /// return to them).
        var firstBandStart: (left: Point, right: Point)?

        var count: Int { left.count + right.count }

        /// Empties both sides, keeping their storage.
        mutating func removeAll() {
            left.removeAll(keepingCapacity: true)
            right.removeAll(keepingCapacity: true)
            firstBandStart = nil
        }

        /// Appends the band of the sides so far (the first one closed by `startCap`, which adds
        /// an open polyline's start cap) and keeps their last points, where the next band starts.
        mutating func emitBand(into out: inout Path, _ stroker: Stroker, batchPoints: Int, emit: (inout Path) -> Void,
                               startCap: (inout [Point]) -> Void) {
            guard let lastLeft = left.last, let lastRight = right.last else { return }
            var band = left + right.reversed()
            if firstBandStart == nil {
                firstBandStart = (left[0], right[0])
                startCap(&band)
            }
            stroker.append(polygon: band, to: &out)
            if out.points.count >= batchPoints { emit(&out) }
            left.removeAll(keepingCapacity: true)
            right.removeAll(keepingCapacity: true)
            left.append(lastLeft)
            right.append(lastRight)
        }
    }

    // MARK: joins

    /// Adds the offset points around vertex `p` (between segments prev→p and p→next, whose
    /// directions are `d1` and `d2`) to both sides.
    private func join(prev: Point, at p: Point, next: Point, d1: Point, d2: Point, left: inout [Point], right: inout [Point]) {
        let n1 = normal(d1), n2 = normal(d2)
        let cross = d1.x * d2.y - d1.y * d2.x
        let dot = d1.x * d2.x + d1.y * d2.y
        if let m = smoothOffset(n1: n1, n2: n2, cross: cross, dot: dot,
                                shorterSegment: Swift.min(distance(prev, p), distance(p, next))) {
            left.append(p + m); right.append(p - m)
            return
        }
        // With y down and the normal (−dy, dx)·h, `left` is the side the normal points to. A turn
        // with cross > 0 bends towards the normal: the left side is the inner side.
        if cross > 0 {
            left.append(p + n1); left.append(p); left.append(p + n2)
            outerJoin(at: p, from: p - n1, to: p - n2, d1: d1, d2: d2, into: &right)
        } else {
            outerJoin(at: p, from: p + n1, to: p + n2, d1: d1, d2: d2, into: &left)
            right.append(p - n1); right.append(p); right.append(p - n2)
        }
    }

    /// At a smooth vertex (a turn θ within `smoothHalfTurnCosine`, e.g. inside a flattened
    /// curve), the offset from the vertex to where the two offset lines meet, (n1 + n2)/(1 + cos θ):
    /// one point per side instead of a join. Nil unless that point lies, on each segment, within
    /// the half nearer the vertex (h·tan(θ/2) ≤ shorter segment / 2): then neighbouring vertices
    /// never fold the offset polyline back, every segment's band stays a simple quadrilateral of
    /// the same orientation, and the non-zero fill is the union of the bands without the
    /// inner-side pivot (whose loop only covers the stroke a second time).
    private func smoothOffset(n1: Point, n2: Point, cross: Double, dot: Double, shorterSegment: Double) -> Point? {
        guard dot > 0, ((1 + dot) / 2).squareRoot() >= smoothHalfTurnCosine,
              2 * halfWidth * abs(cross) <= (1 + dot) * shorterSegment else { return nil }
        let k = 1 / (1 + dot)
        return Point(x: (n1.x + n2.x) * k, y: (n1.y + n2.y) * k)
    }

    /// The outer side of a join, from offset point `a` to offset point `b` around `p`.
    private func outerJoin(at p: Point, from a: Point, to b: Point, d1: Point, d2: Point,
                           into side: inout [Point]) {
        side.append(a)
        switch style.join {
        case .bevel:
            break
        case .round:
            arc(center: p, from: a, to: b, into: &side)
        case .miter:
            // φ = angle between the segments; miter length / width = 1 / sin(φ/2).
            let cosTurn = Swift.max(-1, Swift.min(1, d1.x * d2.x + d1.y * d2.y))
            let sinHalfPhi = ((1 + cosTurn) / 2).squareRoot()   // φ = π − turn angle
            if sinHalfPhi > 0 && 1 / sinHalfPhi <= style.miterLimit {
                // Tip: intersection of the two offset lines, along the bisector.
                let mid = Point(x: (a.x + b.x) / 2 - p.x, y: (a.y + b.y) / 2 - p.y)
                let len = (mid.x * mid.x + mid.y * mid.y).squareRoot()
                if len > 0 {
                    let scale = halfWidth / sinHalfPhi / len
                    side.append(Point(x: p.x + mid.x * scale, y: p.y + mid.y * scale))
                }
            }
        }
        side.append(b)
    }

    // MARK: caps

    /// Adds the cap at the end point `p` of a polyline heading along `direction`, between the
    /// offset points `from` and `to` (already on the outline).
    private func cap(at p: Point, direction d: Point, from a: Point, to b: Point, into out: inout [Point]) {
        switch style.cap {
        case .butt:
            break
        case .square:
            out.append(Point(x: a.x + d.x * halfWidth, y: a.y + d.y * halfWidth))
            out.append(Point(x: b.x + d.x * halfWidth, y: b.y + d.y * halfWidth))
        case .round:
            arc(center: p, from: a, to: b, into: &out, through: d)
        }
    }

    /// A zero-length subpath: a dot (round caps) or an axis-aligned square (square caps), wound
    /// the same way as every other outline (negative shoelace area) so overlaps never cancel.
    private func dot(at p: Point, into out: inout Path) {
        let h = halfWidth
        switch style.cap {
        case .butt:
            return
        case .square:
            append(polygon: [Point(x: p.x - h, y: p.y - h), Point(x: p.x - h, y: p.y + h),
                             Point(x: p.x + h, y: p.y + h), Point(x: p.x + h, y: p.y - h)], to: &out)
        case .round:
            var pts: [Point] = []
            let steps = Int(clamping: (2 * Double.pi / arcStep).rounded(.up), to: 8...Stroker.maxArcSteps)
            let r = h * Stroker.areaPreservingScale(step: 2 * Double.pi / Double(steps))
            for i in 0..<steps {
                let t = -2 * Double.pi * Double(i) / Double(steps)
                pts.append(Point(x: p.x + r * cosine(t), y: p.y + r * sine(t)))
            }
            append(polygon: pts, to: &out)
        }
    }

    /// Points of the arc around `c` from `a` to `b` (both at distance halfWidth), excluding `a`
    /// and `b`. Without `through`, the shorter way; with it, the half turn passing that direction.
    private func arc(center c: Point, from a: Point, to b: Point, into out: inout [Point],
                     through: Point? = nil) {
        let a0 = arctangent(a.y - c.y, a.x - c.x)
        var sweep = arctangent(b.y - c.y, b.x - c.x) - a0
        if let dir = through {
            // A semicircle: choose the sweep sign whose midpoint points along `dir`.
            let mid = a0 + Double.pi / 2
            let plus = cosine(mid) * dir.x + sine(mid) * dir.y
            sweep = plus >= 0 ? Double.pi : -Double.pi
        } else {
            while sweep > Double.pi { sweep -= 2 * Double.pi }
            while sweep < -Double.pi { sweep += 2 * Double.pi }
        }
        let steps = Int(clamping: (abs(sweep) / arcStep).rounded(.up), to: 0...Stroker.maxArcSteps)
        guard steps > 1 else { return }
        let r = halfWidth * Stroker.areaPreservingScale(step: abs(sweep) / Double(steps))
        for i in 1..<steps {
            let t = a0 + sweep * Double(i) / Double(steps)
            out.append(Point(x: c.x + r * cosine(t), y: c.y + r * sine(t)))
        }
    }

    /// Radius factor that gives a polygon with vertices every `step` radians the area of the
    /// circle it approximates: a sector's triangle ½r'²·sin θ equals the sector ½r²·θ.
    static func areaPreservingScale(step θ: Double) -> Double {
        θ > 1e-9 ? (θ / sine(θ)).squareRoot() : 1
    }

    // MARK: helpers

    private func normal(_ a: Point, _ b: Point) -> Point {
        normal(direction(a, b))
    }

    /// The normal of half the width to a segment of direction `d`.
    private func normal(_ d: Point) -> Point {
        Point(x: -d.y * halfWidth, y: d.x * halfWidth)
    }

    private func distance(_ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        return (dx * dx + dy * dy).squareRoot()
    }

    private func direction(_ a: Point, _ b: Point) -> Point {
        let len = distance(a, b)
        return len > 0 ? Point(x: (b.x - a.x) / len, y: (b.y - a.y) / len) : Point(x: 1, y: 0)
    }

    /// Replaces `out`'s points (keeping its storage) by `points` without consecutive repeats.
    private static func copyWithoutRepeats(_ points: [Point], into out: inout [Point]) {
        out.removeAll(keepingCapacity: true)
        for p in points where out.last != p { out.append(p) }
    }

    fileprivate func append(polygon: [Point], to out: inout Path) {
        guard polygon.count >= 3 else { return }
        out.move(to: polygon[0])
        for p in polygon.dropFirst() { out.line(to: p) }
        out.close()
    }
}

private func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
private func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
