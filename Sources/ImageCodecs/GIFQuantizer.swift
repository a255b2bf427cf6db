#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A colour of the histogram: its (mean) RGB and how many pixels it stands for.
struct GIFColorPoint {
    var r: Float, g: Float, b: Float, weight: Float
}

/// The colour quantizer: a histogram of the pixels a frame writes, cut into at most 256 colours
/// by a variance-minimizing median cut, then refined by k-means (Lloyd) iterations.
///
/// * Histogram: exact 24-bit colours in an open-addressing hash while there are at most
///   `exactLimit` of them (then a frame with ≤ 256 colours comes back exactly, and smooth
///   gradients keep every level); beyond that the colours are merged into 64×64×64 bins that
///   keep the sum of their colours, so each bin stands for its mean.
/// * Median cut: the box with the largest squared error is split along its axis of largest
///   variance, at the cut that minimizes the two halves' total squared error (found with a
///   256-bucket histogram of that axis, no sort).
/// * k-means: each point goes to its nearest centre (centres sorted along their principal axis
///   for a pruned search), centres move to their points' weighted mean, empty centres jump to
///   the worst-served point; up to `kMeansRounds` rounds, stopping when the error improves by
///   less than 0.1 %. k-means minimizes exactly the squared error PSNR measures.
final class GIFQuantizer {
    static let exactLimit = 1 << 15
    private static let hashBits = 16
    private static let binCount = 1 << 18
    static let kMeansRounds = 4

    // Exact histogram: keys are opaque colour words (never 0), 0 marks an empty slot.
    private let keys: UnsafeMutablePointer<UInt32>
    private let counts: UnsafeMutablePointer<UInt32>
    private let usedSlots: UnsafeMutablePointer<Int32>
    private(set) var distinct = 0
    // Binned histogram (6 bits per channel): (Σr, Σg, Σb, n).
    private var bins: UnsafeMutablePointer<SIMD4<Int64>>?
    private var usedBins: UnsafeMutablePointer<Int32>?
    private var binsUsed = 0
    /// True once the exact histogram overflowed into bins.
    private(set) var binned = false
    // Run-length state of `add`.
    private var runColor: UInt32 = 0
    private var runLength: UInt32 = 0

    /// The histogram as points (after `finishHistogram`).
    private(set) var points: UnsafeMutablePointer<GIFColorPoint>
    private(set) var pointCount = 0
    private let pointCapacity = 1 << 18
    /// Per-point scratch: nearest centre and its squared distance.
    private let assignment: UnsafeMutablePointer<Int32>
    private let pointError: UnsafeMutablePointer<Float>

    init() {
        let slots = 1 << Self.hashBits
        keys = .allocate(capacity: slots)
        keys.initialize(repeating: 0, count: slots)
        counts = .allocate(capacity: slots)
        counts.initialize(repeating: 0, count: slots)
        usedSlots = .allocate(capacity: Self.exactLimit + 1)
        points = .allocate(capacity: pointCapacity)
        assignment = .allocate(capacity: pointCapacity)
        pointError = .allocate(capacity: pointCapacity)
    }

    deinit {
        keys.deallocate(); counts.deallocate(); usedSlots.deallocate()
        bins?.deallocate(); usedBins?.deallocate()
        points.deallocate(); assignment.deallocate(); pointError.deallocate()
    }

    // MARK: - Histogram

    /// Empties the histogram.
    func reset() {
        for i in 0..<distinct { let s = Int(usedSlots[i]); keys[s] = 0; counts[s] = 0 }
        distinct = 0
        if let bins, let usedBins {
            for i in 0..<binsUsed { bins[Int(usedBins[i])] = .zero }
        }
        binsUsed = 0
        binned = false
        runLength = 0
        pointCount = 0
    }

    /// Adds the pixels of `row` (opaque colour words) that differ from `shown`; returns how many.
    @inline(__always)
    func add(row: UnsafePointer<UInt32>, shown: UnsafePointer<UInt32>, count: Int) -> Int {
        var added = 0
        var color = runColor, length = runLength
        GIFRows.forEachChanged(row, shown, count: count) { x in
            let p = row[x]
            added &+= 1
            if p == color { length &+= 1; return }
            if length > 0 { insert(color, length) }
            color = p
            length = 1
        }
        runColor = color
        runLength = length
        return added
    }

    /// Adds `n` pixels of colour `color`.
    private func insert(_ color: UInt32, _ n: UInt32) {
        if binned { addToBin(color, n); return }
        let mask = UInt32((1 << Self.hashBits) - 1)
        var slot = (color &* 0x9E37_79B1) >> UInt32(32 - Self.hashBits)
        while true {
            let key = keys[Int(slot)]
            if key == color { counts[Int(slot)] &+= n; return }
            if key == 0 { break }
            slot = (slot &+ 1) & mask
        }
        if distinct == Self.exactLimit {
            overflowToBins()
            addToBin(color, n)
            return
        }
        keys[Int(slot)] = color
        counts[Int(slot)] = n
        usedSlots[distinct] = Int32(slot)
        distinct += 1
    }

    private func overflowToBins() {
        if bins == nil {
            let b = UnsafeMutablePointer<SIMD4<Int64>>.allocate(capacity: Self.binCount)
            b.initialize(repeating: .zero, count: Self.binCount)
            bins = b
            usedBins = .allocate(capacity: Self.binCount)
        }
        binned = true
        for i in 0..<distinct {
            let s = Int(usedSlots[i])
            addToBin(keys[s], counts[s])
        }
    }

    @inline(__always)
    private func addToBin(_ color: UInt32, _ n: UInt32) {
        guard let bins, let usedBins else { return }
        let r = color & 0xFF, g = color >> 8 & 0xFF, b = color >> 16 & 0xFF
        let bin = Int(r >> 2) << 12 | Int(g >> 2) << 6 | Int(b >> 2)
        if bins[bin].w == 0 { usedBins[binsUsed] = Int32(bin); binsUsed += 1 }
        let w = Int64(n)
        bins[bin] &+= SIMD4(Int64(r) &* w, Int64(g) &* w, Int64(b) &* w, w)
    }

    /// Ends the histogram: `points` holds one point per distinct colour (or non-empty bin).
    func finishHistogram() {
        if runLength > 0 { insert(runColor, runLength); runLength = 0 }
        pointCount = 0
        if binned, let bins, let usedBins {
            for i in 0..<binsUsed {
                let s = bins[Int(usedBins[i])]
                let w = Double(s.w)
                points[pointCount] = GIFColorPoint(r: Float(Double(s.x) / w), g: Float(Double(s.y) / w),
                                                   b: Float(Double(s.z) / w), weight: Float(w))
                pointCount += 1
            }
        } else {
            for i in 0..<distinct {
                let s = Int(usedSlots[i])
                let c = keys[s]
                points[pointCount] = GIFColorPoint(r: Float(c & 0xFF), g: Float(c >> 8 & 0xFF),
                                                   b: Float(c >> 16 & 0xFF), weight: Float(counts[s]))
                pointCount += 1
            }
        }
    }

    /// The histogram holds exact colours and at most `limit` of them.
    func fitsExactly(_ limit: Int) -> Bool { !binned && distinct <= limit }

    /// The exact colours (valid when not `binned`), in first-seen order.
    var exactColors: [UInt32] { (0..<distinct).map { keys[Int(usedSlots[$0])] } }

    /// Σ weight · squared distance from each point to its nearest colour of `search`.
    func squaredError(of search: GIFPaletteSearch) -> Double {
        var total = 0.0
        for i in 0..<pointCount {
            let p = points[i]
            let r = Int32(p.r.rounded()), g = Int32(p.g.rounded()), b = Int32(p.b.rounded())
            let c = search.colors[search.nearest(r, g, b)]
            let dr = p.r - Float(c & 0xFF), dg = p.g - Float(c >> 8 & 0xFF), db = p.b - Float(c >> 16 & 0xFF)
            total += Double(p.weight) * Double(dr * dr + dg * dg + db * db)
        }
        return total
    }

    // MARK: - Palette

    /// A first palette of at most `maxColors` (1…256) colours for the histogram, and its squared
    /// error over the histogram (Σ weight · distance² to the colour standing for each point):
    /// the exact colours (error 0) when they fit, else the median cut's box means. Empty when
    /// the histogram is. `refine` improves a median-cut palette.
    func candidatePalette(maxColors: Int) -> (centres: [GIFColorPoint], error: Double, exact: Bool) {
        if pointCount == 0 { return ([], 0, true) }
        if fitsExactly(maxColors) {
            let centres = exactColors.map { c in
                GIFColorPoint(r: Float(c & 0xFF), g: Float(c >> 8 & 0xFF), b: Float(c >> 16 & 0xFF), weight: 1)
            }
            return (centres, 0, true)
        }
        let (centres, error) = medianCut(maxColors)
        return (centres, error, false)
    }

    /// The palette as colour words (duplicates removed), after `kMeansRounds` of k-means unless
    /// `exact`.
    func finishPalette(_ centres: [GIFColorPoint], exact: Bool) -> [UInt32] {
        var centres = centres
        if !exact { refine(&centres) }
        var palette: [UInt32] = []
        palette.reserveCapacity(centres.count)
        var seen = Set<UInt32>()
        for c in centres {
            let word = Self.word(c.r, c.g, c.b)
            if seen.insert(word).inserted { palette.append(word) }
        }
        return palette
    }

    /// `candidatePalette` then `finishPalette`.
    func makePalette(maxColors: Int) -> [UInt32] {
        let (centres, _, exact) = candidatePalette(maxColors: maxColors)
        return finishPalette(centres, exact: exact)
    }

    static func word(_ r: Float, _ g: Float, _ b: Float) -> UInt32 {
        func channel(_ v: Float) -> UInt32 { v.isFinite ? UInt32(min(max(v.rounded(), 0), 255)) : 0 }
        return channel(r) | channel(g) << 8 | channel(b) << 16 | 0xFF00_0000
    }

    private struct Box {
        var lo: Int, hi: Int
        var sum: SIMD3<Double>, sumSquares: SIMD3<Double>, weight: Double
        var splittable = true
        var error: Double { ((sumSquares - sum * sum / weight)).sum() }
    }

    private func box(_ lo: Int, _ hi: Int) -> Box {
        var sum = SIMD3<Double>.zero, squares = SIMD3<Double>.zero, weight = 0.0
        for i in lo..<hi {
            let p = points[i]
            let v = SIMD3<Double>(Double(p.r), Double(p.g), Double(p.b)), w = Double(p.weight)
            sum += w * v
            squares += w * v * v
            weight += w
        }
        return Box(lo: lo, hi: hi, sum: sum, sumSquares: squares, weight: weight)
    }

    /// Splits the point set into at most `k` boxes; returns their weighted means and the total
    /// squared error of the points about them.
    private func medianCut(_ k: Int) -> ([GIFColorPoint], Double) {
        var boxes = [box(0, pointCount)]
        boxes.reserveCapacity(k)
        var bucketSum = [SIMD4<Double>](repeating: .zero, count: 256)  // Σw·r, Σw·g, Σw·b, Σw
        var bucketSquares = [Double](repeating: 0, count: 256)
        while boxes.count < k {
            var pick = -1, worst = 0.0
            for (i, b) in boxes.enumerated() where b.splittable && b.hi - b.lo > 1 && b.error > worst { worst = b.error; pick = i }
            if pick < 0 { break }
            let b = boxes[pick]
            let variance = b.sumSquares - b.sum * b.sum / b.weight
            let axis = variance.x >= variance.y && variance.x >= variance.z ? 0 : (variance.y >= variance.z ? 1 : 2)
            for i in 0..<256 { bucketSum[i] = .zero; bucketSquares[i] = 0 }
            for i in b.lo..<b.hi {
                let p = points[i]
                let v = axis == 0 ? p.r : (axis == 1 ? p.g : p.b)
                let bucket = Int(min(max(v, 0), 255))
                let w = Double(p.weight), r = Double(p.r), g = Double(p.g), bl = Double(p.b)
                bucketSum[bucket] += SIMD4(w * r, w * g, w * bl, w)
                bucketSquares[bucket] += w * (r * r + g * g + bl * bl)
            }
            // The cut after bucket t minimizing the halves' total squared error.
            var left = SIMD4<Double>.zero, leftSquares = 0.0
            let total = SIMD4(b.sum.x, b.sum.y, b.sum.z, b.weight), totalSquares = b.sumSquares.sum()
            var bestCut = -1, bestError = Double.infinity
            for t in 0..<255 {
                left += bucketSum[t]
                leftSquares += bucketSquares[t]
                let right = total - left
                guard left.w > 0, right.w > 0 else { continue }
                let l3 = SIMD3(left.x, left.y, left.z), r3 = SIMD3(right.x, right.y, right.z)
                let e = leftSquares - (l3 * l3).sum() / left.w + (totalSquares - leftSquares) - (r3 * r3).sum() / right.w
                if e < bestError { bestError = e; bestCut = t }
            }
            if bestCut < 0 {
                // Every point of the box falls in one bucket (binned means): never split it.
                boxes[pick].splittable = false
                continue
            }
            // Partition in place: points whose bucket is ≤ bestCut first.
            var i = b.lo, j = b.hi - 1
            while i <= j {
                let p = points[i]
                let v = axis == 0 ? p.r : (axis == 1 ? p.g : p.b)
                if Int(min(max(v, 0), 255)) <= bestCut { i += 1 } else { let t = points[i]; points[i] = points[j]; points[j] = t; j -= 1 }
            }
            boxes[pick] = box(b.lo, i)
            boxes.append(box(i, b.hi))
        }
        let centres = boxes.map { b in
            GIFColorPoint(r: Float(b.sum.x / b.weight), g: Float(b.sum.y / b.weight), b: Float(b.sum.z / b.weight),
                          weight: Float(b.weight))
        }
        return (centres, boxes.reduce(0) { $0 + max($1.error, 0) })
    }

    /// Lloyd iterations over the points, starting from `centres`.
    private func refine(_ centres: inout [GIFColorPoint]) {
        let k = centres.count
        guard k > 1 else { return }
        var previousError = Double.infinity
        let sums = sortedCentres.sums
        for round in 0..<Self.kMeansRounds {
            sortedCentres.load(centres)
            sums.update(repeating: .zero, count: k)
            var error = 0.0
            for i in 0..<pointCount {
                let p = points[i]
                let (j, d) = sortedCentres.nearest(p, hint: round == 0 ? -1 : Int(assignment[i]))
                assignment[i] = Int32(truncatingIfNeeded: j)
                pointError[i] = d * p.weight
                error += Double(d) * Double(p.weight)
                let w = Double(p.weight)
                sums[j] += SIMD4(w * Double(p.r), w * Double(p.g), w * Double(p.b), w)
            }
            for j in 0..<k where sums[j].w > 0 {
                centres[j] = GIFColorPoint(r: Float(sums[j].x / sums[j].w), g: Float(sums[j].y / sums[j].w),
                                           b: Float(sums[j].z / sums[j].w), weight: Float(sums[j].w))
            }
            // Empty centres move to the points served worst.
            for j in 0..<k where sums[j].w == 0 {
                var worst = -1, worstError: Float = 0
                for i in 0..<pointCount where pointError[i] > worstError { worstError = pointError[i]; worst = i }
                if worst < 0 { break }
                centres[j] = points[worst]
                pointError[worst] = 0
            }
            if error >= previousError * 0.999 { break }
            previousError = error
        }
    }

    private let sortedCentres = SortedCentres()
}

/// Up to 256 centres sorted by their projection on the centres' principal axis: a
/// nearest-centre query starts at the centre whose projection is closest and walks outwards,
/// stopping on each side once the projection gap alone exceeds the best distance found.
/// Buffers are allocated once and reused for every round.
private final class SortedCentres {
    private var count = 0
    private let order = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
    private let projection = UnsafeMutablePointer<Float>.allocate(capacity: 256)
    private let sorted = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 256)
    /// The centres in their original order.
    private let byIndex = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 256)
    /// Scratch for the k-means sums (Σw·r, Σw·g, Σw·b, Σw) per centre.
    let sums = UnsafeMutablePointer<SIMD4<Double>>.allocate(capacity: 256)
    private var axis = SIMD4<Float>.zero

    deinit {
        order.deallocate(); projection.deallocate(); sorted.deallocate(); byIndex.deallocate(); sums.deallocate()
    }

    func load(_ centres: [GIFColorPoint]) {
        count = min(centres.count, 256)
        axis = Self.principalAxis(centres)
        var keyed: [(Float, Int)] = []
        keyed.reserveCapacity(count)
        for j in 0..<count {
            let v = SIMD4<Float>(centres[j].r, centres[j].g, centres[j].b, 0)
            byIndex[j] = v
            keyed.append(((v * axis).sum(), j))
        }
        keyed.sort { $0.0 < $1.0 }
        for (k, (t, j)) in keyed.enumerated() {
            order[k] = Int32(j)
            projection[k] = t
            sorted[k] = byIndex[j]
        }
    }

    /// The principal axis of the centres (power iteration on their covariance), unit length.
    private static func principalAxis(_ centres: [GIFColorPoint]) -> SIMD4<Float> {
        var mean = SIMD3<Float>.zero
        for c in centres { mean += SIMD3(c.r, c.g, c.b) }
        mean /= Float(centres.count)
        var cov = (SIMD3<Float>.zero, SIMD3<Float>.zero, SIMD3<Float>.zero)
        for c in centres {
            let d = SIMD3(c.r, c.g, c.b) - mean
            cov.0 += d.x * d; cov.1 += d.y * d; cov.2 += d.z * d
        }
        var v = SIMD3<Float>(0.58, 0.58, 0.57)
        for _ in 0..<8 {
            let next = SIMD3((cov.0 * v).sum(), (cov.1 * v).sum(), (cov.2 * v).sum())
            let length = (next * next).sum().squareRoot()
            guard length > 1e-6 else { break }
            v = next / length
        }
        return SIMD4(v.x, v.y, v.z, 0)
    }

    /// The nearest centre's original index and squared distance. `hint` (an original index, or
    /// -1) is a centre likely to be nearest — the previous round's — whose distance starts the
    /// pruning.
    @inline(__always)
    func nearest(_ p: GIFColorPoint, hint: Int) -> (Int, Float) {
        let q = SIMD4<Float>(p.r, p.g, p.b, 0)
        var best = -1, bestDistance = Float.infinity
        if hint >= 0 {
            let d = byIndex[hint] - q
            bestDistance = (d * d).sum()
        }
        let t = (q * axis).sum()
        // Binary search for the first projection ≥ t.
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if projection[mid] < t { lo = mid &+ 1 } else { hi = mid }
        }
        var up = lo, down = lo &- 1
        var upOpen = up < count, downOpen = down >= 0
        while upOpen || downOpen {
            if upOpen {
                let gap = projection[up] - t
                if gap * gap >= bestDistance { upOpen = false } else {
                    let d = sorted[up] - q
                    let dd = (d * d).sum()
                    if dd < bestDistance { bestDistance = dd; best = up }
                    up &+= 1
                    upOpen = up < count
                }
            }
            if downOpen {
                let gap = t - projection[down]
                if gap * gap >= bestDistance { downOpen = false } else {
                    let d = sorted[down] - q
                    let dd = (d * d).sum()
                    if dd < bestDistance { bestDistance = dd; best = down }
                    down &-= 1
                    downOpen = down >= 0
                }
            }
        }
        if best < 0 { return (max(hint, 0), bestDistance) }
        return (Int(order[best]), bestDistance)
    }
}
