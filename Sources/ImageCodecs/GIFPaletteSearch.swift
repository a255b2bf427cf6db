/// Exact nearest-colour search in a palette of up to 256 colours (squared RGB distance, ties to
/// the lowest index — the same answer as a full search), fast through a lazily filled cache.
///
/// A cell of the RGB cube gets a candidate list on first use: the entries whose distance to the
/// cell's nearest point is at most B, where B is an upper bound on every point of the cell's
/// distance to its nearest entry (the smallest, over some entries, distance to the cell's
/// farthest point). The nearest entry of any colour in the cell is among them — its distance
/// is at most B and at least its distance to the cell — so a query compares only the few
/// candidates. Two levels: coarse cells of 8×8×8 levels take their candidates from the whole
/// palette; fine cells of 4×4×4 levels take theirs from their coarse cell's list (a subset is
/// enough: B computed over the parent's candidates still bounds the nearest distance). Lookups
/// use the fine cells (one to four candidates in typical photos). A palette kept across frames
/// (the global one) keeps its cells. The candidate pool is capped (`poolLimit`); when full,
/// the cache is forgotten and refilled.
final class GIFPaletteSearch {
    private static let coarseCount = 1 << 15
    private static let fineCount = 1 << 18
    private static let unknown = UInt32.max
    /// Channel value of the padding entries after the palette (up to a multiple of 8): so far
    /// away that they are never candidates, near enough that squared distances fit Int32.
    private static let sentinel: Int32 = 20_000
    /// Largest candidate pool (entries) before the cache starts over.
    let poolLimit: Int

    /// The palette as opaque words (R in the low byte) and as separate channels.
    private(set) var colors: UnsafeMutablePointer<UInt32>
    private(set) var count = 0
    private let red: UnsafeMutablePointer<Int32>
    private let green: UnsafeMutablePointer<Int32>
    private let blue: UnsafeMutablePointer<Int32>
    /// Per cell: candidates' offset in `pool` << 9 | their number (offsets < 2^23, numbers
    /// ≤ 256, so never equal to `unknown`), or `unknown`.
    private let coarse: UnsafeMutablePointer<UInt32>
    private let fine: UnsafeMutablePointer<UInt32>
    private let pool = ByteBuffer(capacity: 1 << 16)
    /// The palette's colours by hash (`memberSlots` slots: colour word, index + 1; 0 = empty).
    private let members: UnsafeMutablePointer<SIMD2<UInt32>>
    private static let memberSlots = 1024

    /// `poolLimit` caps the candidate pool (at most 2^23 entries, 8 MiB; tests use small ones).
    init(poolLimit: Int = 1 << 23) {
        self.poolLimit = min(max(poolLimit, 512), 1 << 23)
        colors = .allocate(capacity: 256)
        colors.initialize(repeating: 0, count: 256)
        red = .allocate(capacity: 256 + 8)
        green = .allocate(capacity: 256 + 8)
        blue = .allocate(capacity: 256 + 8)
        red.initialize(repeating: Self.sentinel, count: 256 + 8)
        green.initialize(repeating: Self.sentinel, count: 256 + 8)
        blue.initialize(repeating: Self.sentinel, count: 256 + 8)
        coarse = .allocate(capacity: Self.coarseCount)
        coarse.initialize(repeating: Self.unknown, count: Self.coarseCount)
        fine = .allocate(capacity: Self.fineCount)
        fine.initialize(repeating: Self.unknown, count: Self.fineCount)
        members = .allocate(capacity: Self.memberSlots)
        members.initialize(repeating: .zero, count: Self.memberSlots)
    }

    deinit {
        colors.deallocate(); red.deallocate(); green.deallocate(); blue.deallocate()
        coarse.deallocate(); fine.deallocate(); members.deallocate()
    }

    /// Replaces the palette (1…256 opaque colours) and forgets every cell.
    func load(_ palette: [UInt32]) {
        precondition(!palette.isEmpty && palette.count <= 256, "a palette has 1…256 colours")
        count = palette.count
        members.update(repeating: .zero, count: Self.memberSlots)
        for (i, c) in palette.enumerated() {
            var slot = Self.memberSlot(c | 0xFF00_0000)
            while members[slot].y != 0 && members[slot].x != c | 0xFF00_0000 { slot = (slot + 1) & (Self.memberSlots - 1) }
            if members[slot].y == 0 { members[slot] = SIMD2(c | 0xFF00_0000, UInt32(i + 1)) }
            colors[i] = c | 0xFF00_0000
            red[i] = Int32(c & 0xFF)
            green[i] = Int32(c >> 8 & 0xFF)
            blue[i] = Int32(c >> 16 & 0xFF)
        }
        for i in palette.count..<(256 + 8) { red[i] = Self.sentinel; green[i] = Self.sentinel; blue[i] = Self.sentinel }
        forgetCells()
    }

    private func forgetCells() {
        coarse.update(repeating: Self.unknown, count: Self.coarseCount)
        fine.update(repeating: Self.unknown, count: Self.fineCount)
        pool.removeAll()
    }

    @inline(__always)
    private static func memberSlot(_ word: UInt32) -> Int { Int((word &* 0x9E37_79B1) >> 22) }

    /// The lowest index holding exactly `word` (an opaque colour word), or -1.
    @inline(__always)
    func index(of word: UInt32) -> Int {
        var slot = Self.memberSlot(word)
        while true {
            let m = members[slot]
            if m.y == 0 { return -1 }
            if m.x == word { return Int(m.y) - 1 }
            slot = (slot + 1) & (Self.memberSlots - 1)
        }
    }

    /// The palette's colours, in index order.
    var palette: [UInt32] { (0..<count).map { colors[$0] } }

    /// The index of the palette colour nearest to (r, g, b), each 0…255.
    @inline(__always)
    func nearest(_ r: Int32, _ g: Int32, _ b: Int32) -> Int {
        let cell = Int(r >> 2) << 12 | Int(g >> 2) << 6 | Int(b >> 2)
        var info = fine[cell]
        if info == Self.unknown { info = fillFine(cell) }
        let n = Int(info & 511)
        let list = pool.bytes + Int(info >> 9)
        var best = Int(list[0])
        if n == 1 { return best }
        var bestDistance = distance(best, r, g, b)
        for k in 1..<n {
            let j = Int(list[k])
            let d = distance(j, r, g, b)
            if d < bestDistance { bestDistance = d; best = j }
        }
        return best
    }

    /// Squared distance from entry `j` to (r, g, b).
    @inline(__always)
    func distance(_ j: Int, _ r: Int32, _ g: Int32, _ b: Int32) -> Int32 {
        let dr = red[j] &- r, dg = green[j] &- g, db = blue[j] &- b
        return dr &* dr &+ dg &* dg &+ db &* db
    }

    /// Computes and stores the candidates of coarse `cell` (8×8×8 levels) from the whole
    /// palette, eight entries at a time.
    private func fillCoarse(_ cell: Int) -> UInt32 {
        let lo = (SIMD8<Int32>(repeating: Int32(cell >> 10 & 31) << 3), SIMD8<Int32>(repeating: Int32(cell >> 5 & 31) << 3),
                  SIMD8<Int32>(repeating: Int32(cell & 31) << 3))
        let seven = SIMD8<Int32>(repeating: 7), zero = SIMD8<Int32>.zero
        @inline(__always) func load(_ p: UnsafeMutablePointer<Int32>, _ j: Int) -> SIMD8<Int32> {
            UnsafeRawPointer(p + j).loadUnaligned(as: SIMD8<Int32>.self)
        }
        @inline(__always) func far(_ c: SIMD8<Int32>, _ lo: SIMD8<Int32>) -> SIMD8<Int32> {
            let d = pointwiseMax(c &- lo, lo &+ seven &- c)
            return d &* d
        }
        @inline(__always) func near(_ c: SIMD8<Int32>, _ lo: SIMD8<Int32>) -> SIMD8<Int32> {
            let d = pointwiseMax(pointwiseMax(lo &- c, c &- lo &- seven), zero)
            return d &* d
        }
        var bounds = SIMD8<Int32>(repeating: Int32.max)
        var j = 0
        while j < count {
            let f = far(load(red, j), lo.0) &+ far(load(green, j), lo.1) &+ far(load(blue, j), lo.2)
            bounds = pointwiseMin(bounds, f)
            j &+= 8
        }
        let bound = SIMD8<Int32>(repeating: bounds.min())
        reservePool(count)
        let start = pool.count
        j = 0
        while j < count {
            let n = near(load(red, j), lo.0) &+ near(load(green, j), lo.1) &+ near(load(blue, j), lo.2)
            let inside = n .<= bound
            if any(inside) {
                for lane in 0..<8 where inside[lane] { pool.appendUnchecked(UInt8(truncatingIfNeeded: j &+ lane)) }
            }
            j &+= 8
        }
        let info = UInt32(start) << 9 | UInt32(pool.count - start)
        coarse[cell] = info
        return info
    }

    /// Computes and stores the candidates of fine `cell` (4×4×4 levels) from its coarse cell's.
    private func fillFine(_ cell: Int) -> UInt32 {
        let lo = (Int32(cell >> 12 & 63) << 2, Int32(cell >> 6 & 63) << 2, Int32(cell & 63) << 2)
        let parent = Int(lo.0 >> 3) << 10 | Int(lo.1 >> 3) << 5 | Int(lo.2 >> 3)
        var parentInfo = coarse[parent]
        if parentInfo == Self.unknown { parentInfo = fillCoarse(parent) }
        let n = Int(parentInfo & 511)
        reservePool(n)
        // The pool may have been forgotten to make room: refill the parent then.
        if coarse[parent] == Self.unknown { parentInfo = fillCoarse(parent); reservePool(n) }
        let list = Int(parentInfo >> 9)
        var bound = Int32.max
        for k in 0..<n {
            let j = Int(pool.bytes[list + k])
            let far = Self.farthest(red[j], lo.0, 3) &+ Self.farthest(green[j], lo.1, 3) &+ Self.farthest(blue[j], lo.2, 3)
            if far < bound { bound = far }
        }
        let start = pool.count
        for k in 0..<n {
            let j = Int(pool.bytes[list + k])
            let near = Self.nearestOffset(red[j], lo.0, 3) &+ Self.nearestOffset(green[j], lo.1, 3)
                &+ Self.nearestOffset(blue[j], lo.2, 3)
            if near <= bound { pool.appendUnchecked(UInt8(truncatingIfNeeded: j)) }
        }
        let info = UInt32(start) << 9 | UInt32(pool.count - start)
        fine[cell] = info
        return info
    }

    /// Makes room for `n` more candidates: grows the pool, or past `poolLimit` forgets every cell.
    private func reservePool(_ n: Int) {
        if pool.count + n > poolLimit { forgetCells() }
        pool.reserve(n)
    }

    /// Squared distance from `c` to the farthest of `lo`…`lo + span`.
    @inline(__always)
    private static func farthest(_ c: Int32, _ lo: Int32, _ span: Int32) -> Int32 {
        let d = max(c &- lo, lo &+ span &- c)
        return d &* d
    }

    /// Squared distance from `c` to the interval `lo`…`lo + span` (0 inside it).
    @inline(__always)
    private static func nearestOffset(_ c: Int32, _ lo: Int32, _ span: Int32) -> Int32 {
        let d = c < lo ? lo &- c : (c > lo &+ span ? c &- lo &- span : 0)
        return d &* d
    }

    /// A full search, the reference the cache is tested against.
    func nearestByFullSearch(_ r: Int32, _ g: Int32, _ b: Int32) -> Int {
        var best = 0, bestDistance = Int32.max
        for j in 0..<count {
            let d = distance(j, r, g, b)
            if d < bestDistance { bestDistance = d; best = j }
        }
        return best
    }
}
