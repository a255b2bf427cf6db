import CKernels

/// Where an image's non-transparent texels lie and where it is one flat colour, computed once
/// for a texture that is drawn many times (a layer's retained bitmap), so that
/// `Pixmap.drawTexture` can skip the transparent corners and margins around its shape and blend
/// its flat interior (a solid background) as one colour instead of sampling it.
///
/// A bilinear sample whose four texels hold the same colour is that colour exactly: each pair of
/// weights sums to 256, and `ImageSampler.weigh` rounds c·65536 + 2¹⁵ down to c. So skipping the
/// sampler there changes no pixel.
///
/// A class: a retained bitmap's extents are handed to every draw of it, where a struct of four
/// arrays was copied with four retains (and four releases), one for each array's buffer
/// (callgrind, `layer-storm-bench`, one thread: 161.8 → 161.2 M instructions a storm frame).
public final class TexelExtents: Sendable {
    /// Per image row, the columns from its first to its last texel that is not transparent
    /// (empty for a transparent row).
    let rows: [Range<Int>]
    /// Per image row, its longest run of identical non-transparent texels, when at least
    /// `minimumRun` long (else empty columns).
    let runs: [Run]
    /// Rectangles of identical non-transparent texels (one colour), for affine draws, grown row
    /// by row from the longest run: the first while its area grows (the largest one for convex
    /// shapes), the second while it keeps `minimumRun` columns (the tallest). For a rounded
    /// rectangle's interior they make a cross that misses only the corners. Empty when no row
    /// has a run.
    let blocks: [Block]

    /// `RowPair`s of rows (j, j + 1) at index j + 1, for j = −1 … height − 1.
    let rowPairs: [RowPair]

    /// Copies of the texels a translated draw samples (`Strips`), when the image has flat runs
    /// and the copies take at most half its words; nil otherwise.
    let strips: Strips?

    /// Where a draw with these extents starts reading, beyond this object: the row pairs, and
    /// the strips' object, row table and words (0 where there are none). Addresses only, for a
    /// caller that prefetches them well before the draw (a prefetch never faults, so one that is
    /// stale by then costs a useless fetch, nothing more); never to be read through.
    package var firstReads: (rowPairs: UInt, strips: UInt, stripRows: UInt, stripWords: UInt) {
        func address<T>(_ array: [T]) -> UInt { array.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        guard let strips else { return (address(rowPairs), 0, 0, 0) }
        return (address(rowPairs), UInt(bitPattern: Unmanaged.passUnretained(strips).toOpaque()), address(strips.rows),
                address(strips.words))
    }

    /// The image's one block when it holds every non-transparent texel: the image is a
    /// rectangle of one colour on transparent (a layer's background), drawn at a whole-pixel
    /// offset as one blended rectangle. nil otherwise (marked on the block).
    var solidRectangle: Block? { blocks.first.flatMap { $0.holdsEveryTexel ? $0 : nil } }

    /// Whether the image, drawn at the whole-pixel offset (`x`, `y`) at full opacity, writes one
    /// opaque colour into every pixel of a `width`×`height` target: it is one opaque rectangle
    /// (`solidRectangle`) holding the target.
    package func coversOpaquely(atX x: Int, y: Int, width: Int, height: Int) -> Bool {
        guard let solid = solidRectangle, solid.color >> 24 == 255 else { return false }
        return x + solid.columns.lowerBound <= 0 && x + solid.columns.upperBound >= width
            && y + solid.rows.lowerBound <= 0 && y + solid.rows.upperBound >= height
    }

    /// Shorter runs are not worth the split of a row they cost.
    static let minimumRun = 8

    struct Run {
        var color: UInt32
        var columns: Range<Int>
    }

    struct Block {
        var color: UInt32
        var columns: Range<Int>
        var rows: Range<Int>
        /// Whether the block holds every non-transparent texel of the image (`solidRectangle`).
        var holdsEveryTexel = false
    }

    public init(of image: Pixmap) {
        let w = image.width
        let rows: [Range<Int>] = (0..<image.height).map { y in
            let row = UnsafeBufferPointer(start: image.words + y * w, count: w)
            guard let first = row.firstIndex(where: { $0 != 0 }), let last = row.lastIndex(where: { $0 != 0 }) else { return 0..<0 }
            return first..<last + 1
        }
        let runs = (0..<image.height).map { TexelExtents.longestRun(UnsafeBufferPointer(start: image.words + $0 * w, count: w)) }
        var blocks = TexelExtents.blocks(in: runs)
        if let block = blocks.first {
            blocks[0].holdsEveryTexel = rows.indices.allSatisfy { rows[$0] == (block.rows.contains($0) ? block.columns : 0..<0) }
        }
        self.rows = rows
        self.runs = runs
        self.blocks = blocks
        rowPairs = (-1..<image.height).map { TexelExtents.rowPair($0, rows: rows, runs: runs) }
        strips = Strips(of: image, pairs: rowPairs)
    }

    /// The longest run of one non-transparent colour in `row`.
    private static func longestRun(_ row: UnsafeBufferPointer<UInt32>) -> Run {
        var best = Run(color: 0, columns: 0..<0)
        var start = 0
        while start < row.count {
            var end = start + 1
            while end < row.count && row[end] == row[start] { end += 1 }
            if row[start] != 0 && end - start >= Swift.max(minimumRun, best.columns.count + 1) {
                best = Run(color: row[start], columns: start..<end)
            }
            start = end
        }
        return best
    }

    /// The largest and the tallest rectangle grown from the longest run (one when they are the
    /// same): a row joins (the neighbour above or below that keeps the larger area) while it
    /// has the same colour and the area does not shrink, or while at least `minimumRun` columns
    /// stay in common.
    private static func blocks(in runs: [Run]) -> [Block] {
        guard let seed = runs.indices.max(by: { runs[$0].columns.count < runs[$1].columns.count }),
              !runs[seed].columns.isEmpty else { return [] }
        let start = Block(color: runs[seed].color, columns: runs[seed].columns, rows: seed..<seed + 1)
        /// `block` grown by row `r`, when that row continues it.
        func grown(_ block: Block, by r: Int) -> Block? {
            guard r >= 0, r < runs.count, runs[r].color == block.color else { return nil }
            let columns = block.columns.clamped(to: runs[r].columns)
            guard columns.count >= minimumRun else { return nil }
            let rows = Swift.min(r, block.rows.lowerBound)..<Swift.max(r + 1, block.rows.upperBound)
            return Block(color: block.color, columns: columns, rows: rows)
        }
        func area(_ b: Block) -> Int { b.columns.count * b.rows.count }
        /// `start` grown a row at a time while `keeps` accepts the bigger candidate.
        func grow(while keeps: (Block, Block) -> Bool) -> Block {
            var block = start
            while true {
                let up = grown(block, by: block.rows.lowerBound - 1), down = grown(block, by: block.rows.upperBound)
                let next = switch (up, down) {
                case let (u?, d?): area(d) > area(u) ? d : u
                case let (u?, nil): u
                case let (nil, d?): d
                case (nil, nil): nil as Block?
                }
                guard let next, keeps(block, next) else { return block }
                block = next
            }
        }
        let largest = grow { area($1) >= area($0) }, tallest = grow { _, _ in true }
        return tallest.rows == largest.rows ? [largest] : [largest, tallest]
    }

    /// What a translated draw needs of texel rows j and j + 1, worked out once: the columns c
    /// whose quad (columns c and c + 1) can hold a non-transparent texel, and those whose quad
    /// is flat, in one colour. C's layout, as `citrine_translated_rows` reads it.
    typealias RowPair = citrine_row_pair

    /// `RowPair` of rows j and j + 1 (rows outside the image are empty), for j = −1 … height − 1.
    private static func rowPair(_ j: Int, rows: [Range<Int>], runs: [Run]) -> RowPair {
        func extent(_ r: Int) -> Range<Int>? { r >= 0 && r < rows.count && !rows[r].isEmpty ? rows[r] : nil }
        let reach: Range<Int>
        switch (extent(j), extent(j + 1)) {
        case let (a?, b?): reach = Swift.min(a.lowerBound, b.lowerBound) - 1 ..< Swift.max(a.upperBound, b.upperBound)
        case let (a?, nil), let (nil, a?): reach = a.lowerBound - 1 ..< a.upperBound
        case (nil, nil): reach = 0..<0
        }
        var pair = RowPair(reachStart: Int32(reach.lowerBound), reachEnd: Int32(reach.upperBound), flatStart: 0, flatEnd: 0, color: 0)
        guard j >= 0, j + 1 < runs.count, runs[j].color == runs[j + 1].color else { return pair }
        let columns = runs[j].columns.clamped(to: runs[j + 1].columns)
        if columns.count >= 2 {
            (pair.flatStart, pair.flatEnd, pair.color) = (Int32(columns.lowerBound), Int32(columns.upperBound - 1), runs[j].color)
        }
        return pair
    }

    /// The pixels p of a translated image whose bilinear sample from texel rows j and j + 1 and
    /// texel columns p + shift and p + shift + 1 can be non-zero.
    func pixels(texelRow j: Int, shift: Int) -> Range<Int> {
        guard j >= -1, j < rowPairs.count - 1 else { return 0..<0 }
        let pair = rowPairs[j + 1]
        return pair.reachStart < pair.reachEnd ? Int(pair.reachStart) - shift..<Int(pair.reachEnd) - shift : 0..<0
    }

    /// The pixels p of a translated image whose four texels (columns p + shift and p + shift + 1
    /// of rows j and j + 1) all hold one colour, and that colour; nil when there are none.
    func uniformPixels(texelRow j: Int, shift: Int) -> (color: UInt32, pixels: Range<Int>)? {
        guard j >= 0, j < rowPairs.count - 1 else { return nil }
        let pair = rowPairs[j + 1]
        return pair.flatStart < pair.flatEnd ? (pair.color, Int(pair.flatStart) - shift..<Int(pair.flatEnd) - shift) : nil
    }
}
