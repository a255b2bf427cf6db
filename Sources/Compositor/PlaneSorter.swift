// Depth order of planar layers — a BSP tree over convex polygons, as 3D compositors build one
// (Chromium's cc `BspTree`, CoreAnimation's render server: intersecting layers are split along the
// intersection and the pieces drawn back to front).
//
// The polygons live in a *view space* whose screen projection is orthographic along z: x and y
// are screen coordinates and a larger z is nearer the viewer (a layer's 3D space after the
// perspective divide — a projective map keeps planes planar, and with w > 0 it keeps the order of
// points along each line of sight). The sorter picks a polygon of a list as the splitting plane
// (the one nearest the list's mean depth), sends every other polygon of the list to the side it lies on, cuts those that straddle
// the plane in two, and emits, for each node, the far side's pieces, the polygons in the plane
// (in insertion order: equal depth keeps array order), then the near side's pieces.
//
// Storage (points, pieces, the order and the work lists) is kept between sorts and only grows,
// so sorting the same scene frame after frame does not allocate.

/// Back-to-front order of convex planar polygons, splitting the ones that intersect.
struct PlaneSorter {
    /// A convex polygon: a whole input polygon, or a piece of one cut by other polygons' planes.
    struct Piece {
        /// The index the caller gave its polygon (`add(owner:_:)`).
        let owner: Int
        /// Its vertices: `points[first ..< first + count]`, in order round the outline.
        let first: Int, count: Int
        /// Whether this is the input polygon uncut (then it may be drawn without clipping).
        let isWhole: Bool
        /// The plane n·p + d = 0 (unit normal n), the same for every piece of one polygon.
        let plane: SIMD4<Double>
    }

    /// Distance (view-space units, points) within which a vertex counts as lying in a plane:
    /// layers that only touch (a cube's faces at its edges, a fold's halves at the hinge) are
    /// not cut.
    static let planeTolerance = 1e-6

    private(set) var points: [SIMD3<Double>] = []
    private(set) var pieces: [Piece] = []
    /// Indices into `pieces`, back to front, after `sort()`.
    private(set) var order: [Int] = []
    /// The lists of pieces still to sort (regions of one buffer, reused).
    private var work: [Int] = []
    private var nearScratch: [Int] = []
    private var inPlaneScratch: [Int] = []

    /// Forgets every polygon (keeping the storage).
    mutating func removeAll() {
        points.removeAll(keepingCapacity: true)
        pieces.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        work.removeAll(keepingCapacity: true)
    }

    /// Adds a convex polygon (at least three points, in order round its outline). A polygon
    /// without area (its points on one line) has no plane and is not added; the result says
    /// whether it was.
    @discardableResult
    mutating func add(owner: Int, _ polygon: [SIMD3<Double>]) -> Bool {
        guard polygon.count >= 3, let plane = Self.plane(of: polygon) else { return false }
        pieces.append(Piece(owner: owner, first: points.count, count: polygon.count, isWhole: true, plane: plane))
        points.append(contentsOf: polygon)
        return true
    }

    /// The vertices of `piece`.
    func vertices(of piece: Piece) -> ArraySlice<SIMD3<Double>> { points[piece.first ..< piece.first + piece.count] }

    /// Orders the pieces back to front into `order`, cutting polygons that straddle another's plane.
    ///
    /// Iterative, with the lists still to sort stacked at the end of one buffer (`work`): the list
    /// on top is always the last region of the buffer, so partitioning it replaces it in place
    /// (near side, in-plane pieces, far side, the far side on top). Memory stays proportional to
    /// the number of pieces, and no recursion deepens with the tree (a thousand parallel layers
    /// make a tree a thousand levels deep).
    mutating func sort() {
        order.removeAll(keepingCapacity: true)
        work.removeAll(keepingCapacity: true)
        tasks.removeAll(keepingCapacity: true)
        work.append(contentsOf: pieces.indices)
        tasks.append(Task(lo: 0, hi: work.count, isOrdered: false))
        while let task = tasks.popLast() {
            if task.isOrdered || task.hi - task.lo <= 1 {
                order.append(contentsOf: work[task.lo ..< task.hi])
                work.removeSubrange(task.lo...)
            } else {
                partition(task.lo, task.hi)
            }
        }
    }

    /// A list still to sort (`work[lo ..< hi]`), or one already in order (pieces in one plane).
    private struct Task { let lo: Int, hi: Int, isOrdered: Bool }
    private var tasks: [Task] = []
    private var listScratch: [Int] = []
    private var farScratch: [Int] = []

    /// Replaces the list `work[lo ..< hi]` (the last region of `work`) by its far side, in-plane
    /// pieces and near side relative to the plane of its splitter (`splitterIndex()`: the piece
    /// nearest the list's mean depth), and stacks them so that the far
    /// side is ordered first.
    private mutating func partition(_ lo: Int, _ hi: Int) {
        listScratch.removeAll(keepingCapacity: true)
        listScratch.append(contentsOf: work[lo ..< hi])
        work.removeSubrange(lo...)
        farScratch.removeAll(keepingCapacity: true)
        nearScratch.removeAll(keepingCapacity: true)
        inPlaneScratch.removeAll(keepingCapacity: true)
        let chosen = splitterIndex()
        let splitter = pieces[chosen].plane
        // The side towards the viewer (+z) is the near one; for a plane seen edge-on either will do.
        let towardsViewer = splitter.z >= 0
        for index in listScratch {
            // In-plane pieces, the splitter among them, keep the list's (insertion) order.
            if index == chosen {
                inPlaneScratch.append(index)
                continue
            }
            switch classify(pieces[index], by: splitter) {
            case .inPlane: inPlaneScratch.append(index)
            case .front: if towardsViewer { nearScratch.append(index) } else { farScratch.append(index) }
            case .back: if towardsViewer { farScratch.append(index) } else { nearScratch.append(index) }
            case .straddling:
                let (front, back) = split(index, by: splitter)
                farScratch.append(towardsViewer ? back : front)
                nearScratch.append(towardsViewer ? front : back)
            }
        }
        let nearLo = work.count
        work.append(contentsOf: nearScratch)
        let inPlaneLo = work.count
        work.append(contentsOf: inPlaneScratch)
        let farLo = work.count
        work.append(contentsOf: farScratch)
        tasks.append(Task(lo: nearLo, hi: inPlaneLo, isOrdered: false))
        tasks.append(Task(lo: inPlaneLo, hi: farLo, isOrdered: true))
        tasks.append(Task(lo: farLo, hi: work.count, isOrdered: false))
    }

    /// The piece of `listScratch` to split the list by: the one whose centre lies nearest the
    /// list's mean depth, so that layers stacked in depth make a balanced tree (n log n
    /// classifications) rather than a chain (n² for n parallel layers).
    private func splitterIndex() -> Int {
        guard listScratch.count > 2 else { return listScratch[0] }
        func centreDepth(_ index: Int) -> Double {
            let piece = pieces[index]
            var z = 0.0
            for p in vertices(of: piece) { z += p.z }
            return z / Double(piece.count)
        }
        var mean = 0.0
        for index in listScratch { mean += centreDepth(index) }
        mean /= Double(listScratch.count)
        var best = listScratch[0], bestDistance = Double.infinity
        for index in listScratch {
            let d = abs(centreDepth(index) - mean)
            if d < bestDistance { (best, bestDistance) = (index, d) }
        }
        return best
    }

    private enum Side { case front, back, inPlane, straddling }

    private func classify(_ piece: Piece, by plane: SIMD4<Double>) -> Side {
        var front = false, back = false
        for p in vertices(of: piece) {
            let d = Self.distance(p, plane)
            if d > Self.planeTolerance { front = true } else if d < -Self.planeTolerance { back = true }
        }
        switch (front, back) {
        case (true, true): return .straddling
        case (true, false): return .front
        case (false, true): return .back
        case (false, false): return .inPlane
        }
    }

    /// Cuts a straddling piece in two along `plane`: (front piece, back piece), appended to
    /// `pieces`. A cut point is computed from its edge's end points in one fixed order, so both
    /// pieces get it bit for bit and their shared edge has neither gap nor overlap on screen.
    private mutating func split(_ index: Int, by plane: SIMD4<Double>) -> (Int, Int) {
        (appendSide(of: pieces[index], by: plane, sign: 1), appendSide(of: pieces[index], by: plane, sign: -1))
    }

    /// The part of `piece` on the side of `plane` where sign · distance ≥ 0, appended as a new piece.
    private mutating func appendSide(of piece: Piece, by plane: SIMD4<Double>, sign: Double) -> Int {
        let first = points.count
        let tolerance = Self.planeTolerance
        for i in 0 ..< piece.count {
            let a = points[piece.first + i], b = points[piece.first + (i + 1) % piece.count]
            let da = sign * Self.distance(a, plane), db = sign * Self.distance(b, plane)
            if da >= -tolerance { points.append(a) }
            if (da > tolerance && db < -tolerance) || (da < -tolerance && db > tolerance) {
                points.append(Self.crossing(a, b, plane))
            }
        }
        pieces.append(Piece(owner: piece.owner, first: first, count: points.count - first, isWhole: false, plane: piece.plane))
        return pieces.count - 1
    }

    /// Where the edge a–b crosses `plane`, computed from the end points ordered
    /// lexicographically (so the edge gives the same point whichever way it is walked).
    private static func crossing(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ plane: SIMD4<Double>) -> SIMD3<Double> {
        let (p, q) = (a.x, a.y, a.z) < (b.x, b.y, b.z) ? (a, b) : (b, a)
        let dp = distance(p, plane), dq = distance(q, plane)
        let t = dp / (dp - dq)
        return p + (q - p) * t
    }

    static func distance(_ p: SIMD3<Double>, _ plane: SIMD4<Double>) -> Double {
        plane.x * p.x + plane.y * p.y + plane.z * p.z + plane.w
    }

    /// The plane of a polygon by Newell's method (robust for nearly collinear vertices), unit
    /// normal; nil when the polygon has no area or a point is not finite.
    static func plane(of polygon: [SIMD3<Double>]) -> SIMD4<Double>? {
        var n = SIMD3<Double>(0, 0, 0), centre = SIMD3<Double>(0, 0, 0)
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            n.x += (a.y - b.y) * (a.z + b.z)
            n.y += (a.z - b.z) * (a.x + b.x)
            n.z += (a.x - b.x) * (a.y + b.y)
            centre += a
        }
        let length = (n * n).sum().squareRoot()
        guard length.isFinite, length > 1e-12 else { return nil }
        n /= length
        centre /= Double(polygon.count)
        return SIMD4(n.x, n.y, n.z, -(n * centre).sum())
    }
}
