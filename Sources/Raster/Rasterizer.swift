import CKernels
/// Exact-area anti-aliased scan conversion.
///
/// How it works
/// ------------
/// The path is flattened to line segments in device space (`Flattener`), clipped to the target
/// (segments left of it are clamped onto its left edge, which keeps their winding; segments right
/// of, above or below it are dropped — those wholly outside are culled already as they are
/// flattened, `EdgeSink`), and each segment deposits, into a dense buffer of cells
/// covering the path's device bounds (or a strip of its rows at a time, `maxCells`), the
/// *signed area* it sweeps to its right within every pixel
/// it crosses (the "signed area accumulation" family of FreeType's gray rasterizer, libart and
/// font-rs). A prefix sum along a row then gives, for every pixel, the winding-weighted covered
/// area: exact for any pixel crossed by one edge, the usual approximation where edges overlap
/// within a pixel. The fill rule maps that accumulated value to coverage:
///
///     non-zero:  min(|a|, 1)            even-odd:  |a| folded into 0…1 with period 2
///
/// ```
///   cells of one row:   [ δ0 | δ1 | 0 | 0 | 0 | 0 | 0 | δ7 | δ8 | 0 ]
///   prefix sum:           c0   c1  c1  c1  c1  c1  c1   c7   0    0     ← a closed path sums to 0
///   emitted:            blitQuad(x0…3) blitSpan(x4…6, c1) blitQuad(x7…8, lanes 2–3 at 0)
/// ```
///
/// A cell with a delta starts a quad: four pixels, each with its own level (lanes past the row's
/// last delta have level 0), then more quads while the next cell has a delta. A run of cells
/// without deltas becomes one `blitSpan`, so interiors cost one store per pixel in the blitter
/// and empty parts of a bounding box cost nothing. Only the columns a row actually touches are
/// swept, and where the sweep is `sweepRows` (gradients, images, masks) the deposits also mark
/// the blocks of columns that hold deltas (`rowBlocks`), so a large shape's inside is passed over
/// without reading its cells. All buffers are owned by the rasterizer and reused from draw to draw.
final class Rasterizer {
    /// Row r of the box at `cells + r·stride` (read by `RasterizerDepositTests`).
    private(set) var cells: UnsafeMutablePointer<Float>
    private(set) var cellCapacity: Int
    /// Per row of the box: the first and last cell column holding a delta (empty: max, −1).
    private(set) var rowMin: UnsafeMutablePointer<Int>
    private(set) var rowMax: UnsafeMutablePointer<Int>
    /// Per row of the box, while `marksBlocks`: bit j set where a cell of columns
    /// j·2^`blockShift` ..< (j + 1)·2^`blockShift` may hold a delta (`blockBits`), so that the
    /// sweep passes over the other blocks without reading their cells: the inside of a large
    /// shape (S4's frames took 1.07–1.08 × as long without them, alternating frames).
    /// `blockShift` (at least 4, set by `prepare`) puts a row's cells, stride included, in 64
    /// blocks.
    private(set) var rowBlocks: UnsafeMutablePointer<UInt64>
    private(set) var blockShift = 4
    /// Whether deposits keep `rowBlocks`: for `sweepRows`, not for the solid sweep
    /// (`citrine_sweep_solid_*`, which scans the cells: keeping the bits cost S1 and S3 2.7 and
    /// 3.6 % more time, in-process alternating frames). `cover` sets it for each fill.
    var marksBlocks = false
    private var rowCapacity: Int
    /// Flattened segments of the current draw, device space: (x0, y0, x1, y1) per segment.
    let segments = EdgeList()

    init() {
        cellCapacity = 0
        cells = .allocate(capacity: 1)
        rowCapacity = 0
        rowMin = .allocate(capacity: 1)
        rowMax = .allocate(capacity: 1)
        rowBlocks = .allocate(capacity: 1)
    }

    deinit {
        cells.deallocate()
        rowMin.deallocate()
        rowMax.deallocate()
        rowBlocks.deallocate()
    }

    /// Most edges a fill holds at once. A fill with more is flattened twice: once for its
    /// bounds, then again depositing the edges in batches of this many, so its memory stays
    /// bounded however long the path; the cells and the order of the deposits are the
    /// same, and so are the pixels.
    static let maxHeldEdges = 1 << 16

    /// Most cells a fill holds at once by default: 2²⁴, 64 MiB of floats (a 4K frame's box,
    /// 3 840 × 2 160, fits in one strip).
    static let defaultMaxCells = 1 << 24
    /// Most cells (4 bytes each) a fill holds at once. A fill whose box needs more is
    /// scan-converted in strips of whole rows, top to bottom, each at most this many cells:
    /// every strip deposits the edges that reach it (clipped to its rows) and is swept before the
    /// next, so a fill covering a 32 768 × 8 192 frame holds 64 MiB of cells instead of 1 GiB,
    /// and a band of rows (`fill`'s `rows`) sweeps only the strips it meets. The strips depend
    /// on the box alone, never on the rows drawn, so bands drawn on any number of threads leave
    /// the same bytes. A row's cells take only the edges crossing it, so a strip's pixels are
    /// those of one whole fill except for float rounding where an edge is cut at a strip's top
    /// (`LargePathTests.aFillTallerThanItsCellsIsDrawnInStrips`).
    var maxCells = Rasterizer.defaultMaxCells

    /// Rasterizes `path` mapped by `transform` into `blitter`, clipped to `clip` (device pixels,
    /// integral, inside the target). Nothing happens for empty or non-finite geometry.
    func fill<B: Blitter>(_ path: Path, transform: Transform, rule: FillRule, antiAlias: Bool,
                          clip: IntRect, rows: Range<Int>, into blitter: inout B) {
        // Most paths have more points: their count turns them away at once.
        if path.points.count &- 4 <= 1, path.points.count >= 4, let rect = Rasterizer.pixelRect(path, transform: transform) {
            fillPixelRect(rect, clip: clip, rows: rows, into: &blitter)
            return
        }
        fill(rule: rule, antiAlias: antiAlias, clip: clip, rows: rows, into: &blitter) { sink in
            Flattener.walk(path, transform: transform, tolerance: Flattener.tolerance, into: &sink)
        }
    }

    /// Rasterizes the edges `produce` hands to the sink it is given (closed polygons in device
    /// space, e.g. a path walked by the flattener, or a stroke's outline a batch at a time).
    /// `produce` runs a second time when it hands over more than `heldEdges` edges (once more
    /// for each strip of a box taller than `maxCells` allow). Only the device rows `rows` reach
    /// the blitter (a band of the target, `Pixmap.drawableRows`); the coverage of every row is
    /// that of the whole fill, since the cells and their strips are made for all of `clip`.
    @inline(__always)
    func fill<B: Blitter>(rule: FillRule, antiAlias: Bool, clip: IntRect, rows: Range<Int>, into blitter: inout B,
                          heldEdges: Int = maxHeldEdges, edges produce: (inout EdgeSink) -> Void) {
        defer { segments.trim() }
        var collect = EdgeSink(out: segments, clip: clip, limit: heldEdges)
        produce(&collect)
        let overflowed = segments.overflowed
        guard overflowed || !segments.isEmpty,
              let (box, containsAll) = deviceBounds(clip: clip),
              box.y0 < rows.upperBound, rows.lowerBound < box.y1
        else { return }
        let pass = Pass(rule: rule, antiAlias: antiAlias, clip: clip, rows: rows, stride: Rasterizer.stride(box),
                        heldEdges: heldEdges, overflowed: overflowed)
        if pass.stride &* (box.height &+ 1) <= maxCells {
            cover(box, holdsAll: containsAll, pass, skipping: collect.nonFiniteSubpaths, into: &blitter, edges: produce)
        } else {
            coverInStrips(box, pass, skipping: collect.nonFiniteSubpaths, into: &blitter, edges: produce)
        }
    }

    /// What the strips of one fill share (`fill`).
    private struct Pass {
        let rule: FillRule, antiAlias: Bool, clip: IntRect, rows: Range<Int>, stride: Int, heldEdges: Int
        /// Whether the edges must be produced again to be deposited (more than `heldEdges`).
        let overflowed: Bool
    }

    /// Deposits the fill's edges into the cells of `part` (the box, or a strip of it: then the
    /// edges crossing its top or bottom are clipped, `holdsAll` false) and sweeps them. An
    /// overflowed fill produces its edges again, without the subpaths `skipping` lists (those
    /// found not finite).
    @inline(__always)
    private func cover<B: Blitter>(_ part: IntRect, holdsAll: Bool, _ pass: Pass, skipping: [Int], into blitter: inout B,
                                   edges produce: (inout EdgeSink) -> Void) {
        prepare(part)
        // The solid sweep scans the cells itself; `sweepRows` reads the blocks.
        let solid = pass.rule == .nonZero && pass.antiAlias && AVX2Kernels.isEnabled
            ? (blitter as? PaintBlitter)?.solidSweep : nil
        marksBlocks = solid == nil
        if pass.overflowed {
            var deposit = EdgeSink(out: segments, clip: pass.clip, limit: pass.heldEdges,
                                   skipping: skipping) { [unowned self] in
                depositSegments(box: part, containsAll: holdsAll, stride: pass.stride)
            }
            produce(&deposit)
        }
        depositSegments(box: part, containsAll: holdsAll, stride: pass.stride)
        if let solid {
            sweepSolidRows(box: part, stride: pass.stride, rows: pass.rows, solid)
        } else {
            sweep(box: part, stride: pass.stride, rows: pass.rows, rule: pass.rule, antiAlias: pass.antiAlias, into: &blitter)
        }
    }

    /// `cover` for a box taller than `maxCells` allow: strip after strip of whole rows, top to
    /// bottom, those that meet the rows drawn. The strips follow the box alone, never the rows
    /// (a band's), so every band draws the same bytes.
    @inline(never)
    private func coverInStrips<B: Blitter>(_ box: IntRect, _ pass: Pass, skipping: [Int], into blitter: inout B,
                                           edges produce: (inout EdgeSink) -> Void) {
        let strip = Rasterizer.stripHeight(stride: pass.stride, maxCells: maxCells)
        var top = box.y0
        while top < box.y1 {
            let part = IntRect(x0: box.x0, y0: top, x1: box.x1, y1: Swift.min(top &+ strip, box.y1))
            top = part.y1
            guard part.y0 < pass.rows.upperBound, pass.rows.lowerBound < part.y1 else { continue }
            cover(part, holdsAll: false, pass, skipping: skipping, into: &blitter, edges: produce)
        }
    }

    // MARK: - Whole-pixel rectangles

    /// The device rectangle of `path` mapped by `transform` when the path is one axis-aligned
    /// rectangle whose corners fall on whole pixels: a move and three lines (a fourth line back
    /// to the start and a close may follow), the corners mapped as the flattener maps them.
    /// Its coverage is then 255 in every pixel inside and 0 outside under either fill rule, with
    /// or without anti-aliasing (each row's cells hold +1 or −1 at the left edge and its negation
    /// at the right one, exactly); nil for every other path.
    static func pixelRect(_ path: Path, transform: Transform) -> IntRect? {
        guard path.points.count == 4 || path.points.count == 5 else { return nil }
        let verbs = path.verbs, points = path.points
        guard verbs.count >= 4, verbs.count <= 6, verbs[0] == .move, verbs[1] == .line,
              verbs[2] == .line, verbs[3] == .line else { return nil }
        let p0 = transform.apply(points[0]), p1 = transform.apply(points[1])
        let p2 = transform.apply(points[2]), p3 = transform.apply(points[3])
        switch verbs.count {
        case 4: break
        case 5:
            guard verbs[4] == .close || (verbs[4] == .line && points.count == 5 && transform.apply(points[4]) == p0)
            else { return nil }
        default:
            guard verbs[4] == .line, verbs[5] == .close, points.count == 5, transform.apply(points[4]) == p0 else { return nil }
        }
        guard (p0.y == p1.y && p1.x == p2.x && p2.y == p3.y && p3.x == p0.x)
                || (p0.x == p1.x && p1.y == p2.y && p2.x == p3.x && p3.y == p0.y) else { return nil }
        /// v as an integer when it is a whole number of at most 2³⁰ in size (NaN fails).
        func whole(_ v: Double) -> Int? { abs(v) <= 0x1p30 && v.rounded(.down) == v ? Int(v) : nil }
        guard let x0 = whole(Swift.min(p0.x, p2.x)), let x1 = whole(Swift.max(p0.x, p2.x)),
              let y0 = whole(Swift.min(p0.y, p2.y)), let y1 = whole(Swift.max(p0.y, p2.y)) else { return nil }
        return IntRect(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// Draws a `pixelRect` with the blitter calls `sweepRows` makes for it, row by row within
    /// `clip` and `rows`: the first one to four pixels as a quad of level 255, the rest as one
    /// span of 255 — the same calls, so the same pixels (shaders' runs start where they did),
    /// without flattening, depositing or sweeping. A paint whose pixels do not depend on the
    /// split (`PaintBlitter.drawsAnySplitAlike`: solid colours, gradients, group surfaces
    /// composited at their place) gets each row as one span.
    private func fillPixelRect<B: Blitter>(_ rect: IntRect, clip: IntRect, rows: Range<Int>, into blitter: inout B) {
        let x0 = Swift.max(rect.x0, clip.x0), x1 = Swift.min(rect.x1, clip.x1)
        let y0 = Swift.max(rect.y0, clip.y0, rows.lowerBound), y1 = Swift.min(rect.y1, clip.y1, rows.upperBound)
        guard x0 < x1, y0 < y1 else { return }
        let width = x1 - x0
        if (blitter as? PaintBlitter)?.drawsAnySplitAlike == true {
            for y in y0..<y1 { blitter.blitSpan(y: y, x: x0, count: width, coverage: 255) }
            return
        }
        let first = Swift.min(width, 4)
        let quad = Rasterizer.firstLanes(SIMD4(repeating: 255), count: first)
        for y in y0..<y1 {
            blitter.blitQuad(y: y, x: x0, count: first, coverage: quad)
            if width > 4 { blitter.blitSpan(y: y, x: x0 + 4, count: width - 4, coverage: 255) }
        }
    }

    /// Deposits the edges in `segments` into the cells of `box`.
    func depositSegments(box: IntRect, containsAll: Bool, stride: Int) {
        if containsAll && AVX2Kernels.isEnabled {
            // Nothing to clip (the common case: the box is the path's bounds); the same cells.
            if marksBlocks {
                citrine_deposit_marking_avx2(segments.coordinates.baseAddress, segments.count, Double(box.x0), Double(box.y0),
                                             cells, stride, box.height, rowMin, rowMax, rowBlocks, blockShift)
            } else {
                citrine_deposit_avx2(segments.coordinates.baseAddress, segments.count, Double(box.x0), Double(box.y0),
                                     cells, stride, box.height, rowMin, rowMax)
            }
        } else if containsAll {
            let origin = SIMD4(Double(box.x0), Double(box.y0), Double(box.x0), Double(box.y0))
            for s in segments.edges {
                let local = s - origin
                deposit(local[0], local[1], local[2], local[3], stride: stride, height: box.height)
            }
        } else {
            for s in segments.edges {
                addClippedSegment(s[0], s[1], s[2], s[3], box: box, stride: stride)
            }
        }
    }

    // MARK: - Bounds and buffers

    /// The box of cells a fill needs (the bounds of every edge made, held in `segments` or
    /// culled, in whole pixels, within `clip`), and whether it holds every segment (nothing to
    /// clip).
    private func deviceBounds(clip: IntRect) -> (IntRect, containsAll: Bool)? {
        let bounds = segments.bounds(with: segments.culledBounds)
        guard bounds[0] <= -bounds[2], !clip.isEmpty else { return nil }
        let minX = bounds[0], minY = bounds[1], maxX = -bounds[2], maxY = -bounds[3]
        // Geometry left of the clip still matters (its winding reaches in); right of it does not.
        let x0 = Swift.max(Double(clip.x0), Swift.min(Double(clip.x1), minX.rounded(.down)))
        let x1 = Swift.max(Double(clip.x0), Swift.min(Double(clip.x1), maxX.rounded(.up)))
        let y0 = Swift.max(Double(clip.y0), Swift.min(Double(clip.y1), minY.rounded(.down)))
        let y1 = Swift.max(Double(clip.y0), Swift.min(Double(clip.y1), maxY.rounded(.up)))
        let box = IntRect(x0: Int(x0), y0: Int(y0), x1: Int(x1), y1: Int(y1))
        // A path entirely left of the clip still covers it where its winding says so.
        if maxX <= Double(clip.x0) {
            return box.y1 > box.y0 ? (IntRect(x0: clip.x0, y0: box.y0, x1: clip.x1, y1: box.y1), false) : nil
        }
        if minX < Double(clip.x0) {
            return box.y1 > box.y0 ? (IntRect(x0: clip.x0, y0: box.y0, x1: box.x1, y1: box.y1), false) : nil
        }
        if box.isEmpty { return nil }
        return (box, maxX <= x1 && minY >= y0 && maxY <= y1)
    }

    /// Cells per row of the box: its columns, the two a row's last segment can carry into past
    /// the right edge, and more so that eight cells starting in any column stay in the row (the
    /// quads of `sweepRows`, the eight-cell steps of `citrine_sweep_solid_avx2`).
    static func stride(_ box: IntRect) -> Int { box.width + 8 }

    /// Rows of cells one strip of a box with rows `stride` cells long holds within `maxCells`
    /// (`prepare` adds one row for carries): at least one.
    static func stripHeight(stride: Int, maxCells: Int) -> Int { Swift.max(1, maxCells / stride &- 1) }

    /// The bytes of the cells and row bounds a fill of a `width`×`height` box grows to (at
    /// most a strip's, `defaultMaxCells`).
    static func bytes(width: Int, height: Int) -> Int {
        let stride = Rasterizer.stride(IntRect(x0: 0, y0: 0, x1: width, y1: height))
        let rows = Swift.min(height, stripHeight(stride: stride, maxCells: defaultMaxCells))
        return stride &* (rows &+ 1) &* 4 &+ rows &* 16
    }

    func prepare(_ box: IntRect) {
        let needed = Rasterizer.stride(box) * (box.height + 1)
        if needed > cellCapacity {
            cells.deallocate()
            // Doubling, but not past `maxCells` (a strip's need: wider boxes need one row more).
            cellCapacity = Swift.max(needed, Swift.min(cellCapacity * 2, maxCells))
            cells = .allocate(capacity: cellCapacity)
            cells.initialize(repeating: 0, count: cellCapacity)
        }
        if rowCapacity < box.height {
            rowMin.deallocate()
            rowMax.deallocate()
            rowBlocks.deallocate()
            rowCapacity = box.height
            rowMin = .allocate(capacity: rowCapacity)
            rowMax = .allocate(capacity: rowCapacity)
            rowBlocks = .allocate(capacity: rowCapacity)
            rowMin.initialize(repeating: Int.max, count: rowCapacity)
            rowMax.initialize(repeating: -1, count: rowCapacity)
            rowBlocks.initialize(repeating: 0, count: rowCapacity)
        }
        blockShift = 4
        while (Rasterizer.stride(box) &- 1) &>> blockShift > 63 { blockShift &+= 1 }
    }

    /// The bits of the blocks of 2^`shift` columns that columns `first … last` lie in (`rowBlocks`).
    @inline(__always)
    static func blockBits(_ first: Int, _ last: Int, shift: Int) -> UInt64 {
        (2 &<< UInt64(last &>> shift)) &- (1 &<< UInt64(first &>> shift))
    }

    // MARK: - Clipping

    /// Clips a device-space segment to the box rows and columns and deposits it.
    @inline(never)
    private func addClippedSegment(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                   box: IntRect, stride: Int) {
        if ay == by { return }
        let top = Double(box.y0), bottom = Double(box.y1)
        let left = Double(box.x0), right = Double(box.x1)
        // Inside the box (the common case: the box is the path's bounds unless the target clips).
        if Swift.min(ax, bx) >= left && Swift.max(ax, bx) <= right && Swift.min(ay, by) >= top && Swift.max(ay, by) <= bottom {
            deposit(ax - left, ay - top, bx - left, by - top, stride: stride, height: box.height)
            return
        }
        var x0 = ax, y0 = ay, x1 = bx, y1 = by
        if (y0 <= top && y1 <= top) || (y0 >= bottom && y1 >= bottom) { return }
        // Clip vertically.
        let dxdy = (x1 - x0) / (y1 - y0)
        if y0 < top { x0 += (top - y0) * dxdy; y0 = top } else if y0 > bottom { x0 += (bottom - y0) * dxdy; y0 = bottom }
        if y1 < top { x1 += (top - y1) * dxdy; y1 = top } else if y1 > bottom { x1 += (bottom - y1) * dxdy; y1 = bottom }
        if y0 == y1 { return }
        // Split where the segment crosses the left or right edge, then clamp: parts left of the
        // box become vertical lines on its left edge (same winding), parts right of it land in
        // columns the sweep never reads.
        var tA = 2.0, tB = 2.0
        if (x0 < left) != (x1 < left) { tA = (left - x0) / (x1 - x0) }
        if (x0 > right) != (x1 > right) { tB = (right - x0) / (x1 - x0) }
        if tA > tB { swap(&tA, &tB) }
        var px = x0, py = y0
        for piece in 0..<3 {
            let t = piece == 0 ? tA : piece == 1 ? tB : 1
            guard t > 0 && t <= 1 else { continue }
            let qx = t == 1 ? x1 : x0 + (x1 - x0) * t
            let qy = t == 1 ? y1 : y0 + (y1 - y0) * t
            deposit(Swift.min(Swift.max(px, left), right) - left, py - top,
                    Swift.min(Swift.max(qx, left), right) - left, qy - top, stride: stride,
                    height: box.height)
            px = qx; py = qy
        }
    }

    // MARK: - Area accumulation

    /// Adds the signed area a segment (box-local coordinates, already clipped) sweeps to its
    /// right, pixel by pixel. Downward segments count +1, upward −1. The same cells from
    /// `citrine_deposit_segment_avx2` where the AVX2 loops are on.
    @inline(__always)
    private func deposit(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, stride: Int, height: Int) {
        if AVX2Kernels.isEnabled {
            if marksBlocks {
                citrine_deposit_segment_marking_avx2(ax, ay, bx, by, cells, stride, height, rowMin, rowMax, rowBlocks, blockShift)
            } else {
                citrine_deposit_segment_avx2(ax, ay, bx, by, cells, stride, height, rowMin, rowMax)
            }
            return
        }
        if ay == by { return }
        let dir: Float = ay < by ? 1 : -1
        let (tx, ty, ex, ey) = ay < by ? (Float(ax), Float(ay), Float(bx), Float(by))
                                       : (Float(bx), Float(by), Float(ax), Float(ay))
        let dxdy = (ex - tx) / (ey - ty)
        let firstRow = Rasterizer.floorIndex(ty)
        let lastRow = Swift.min(height &- 1, Rasterizer.ceilIndex(ey) &- 1)
        if firstRow > lastRow { return }
        if tx == ex {
            depositVertical(x: tx, top: ty, bottom: ey, dir: dir, rows: firstRow...lastRow, stride: stride)
            return
        }
        // The segment's part in each row runs from (xTop, yTop) to (xBottom, yBottom); rows after
        // the first start where the previous one ended, at the row's top edge.
        var xTop = tx, yTop = ty
        var rowEdge = Float(firstRow &+ 1)
        var line = cells + firstRow &* stride
        for row in firstRow...lastRow {
            let yBottom = Rasterizer.smaller(rowEdge, ey)
            let xBottom = row == lastRow ? ex : tx + (yBottom - ty) * dxdy
            let xa = Rasterizer.smaller(xTop, xBottom), xb = Rasterizer.larger(xTop, xBottom)
            depositRow(line, row: row, xa: xa, xb: xb, d: (yBottom - yTop) * dir)
            xTop = xBottom
            yTop = yBottom
            rowEdge += 1
            line += stride
        }
    }

    /// `deposit` for a vertical segment at x: the single-column case of `depositRow` in every
    /// row, with the column and the split of each row's height computed once.
    private func depositVertical(x: Float, top: Float, bottom: Float, dir: Float, rows: ClosedRange<Int>,
                                 stride: Int) {
        let column = Rasterizer.floorIndex(x)
        let mid = x - Float(column)
        var line = cells + rows.lowerBound * stride
        for row in rows {
            let d = (Rasterizer.smaller(Float(row &+ 1), bottom) - Rasterizer.larger(Float(row), top)) * dir
            line[column] += d * (1 - mid)
            line[column &+ 1] += d * mid
            rowMin[row] = Swift.min(rowMin[row], column)
            rowMax[row] = Swift.max(rowMax[row], column &+ 1)
            if marksBlocks { rowBlocks[row] |= Rasterizer.blockBits(column, column &+ 1, shift: blockShift) }
            line += stride
        }
    }

    /// Deposits the part of a segment inside one row (`line`, its cells): from column xa to
    /// column xb (xa ≤ xb), covering `d` of the row's height (signed by direction).
    @inline(__always)
    private func depositRow(_ line: UnsafeMutablePointer<Float>, row: Int, xa: Float, xb: Float, d: Float) {
        let ia = Rasterizer.floorIndex(xa)
        let xaFloor = Float(ia)
        let ib: Int
        if xb <= xaFloor + 1 {
            // Within one column: the covered fraction right of the mean x goes to this cell,
            // the rest carries to the next.
            let mid = (xa + xb) * 0.5 - xaFloor
            line[ia] += d * (1 - mid)
            line[ia &+ 1] += d * mid
            ib = ia &+ 1
        } else {
            ib = xb <= xaFloor + 2 ? ia &+ 2 : Rasterizer.ceilIndex(xb)
            let xbCeil = Float(ib)
            let inv = 1 / (xb - xa)
            let fa = xa - xaFloor
            let firstArea = 0.5 * inv * (1 - fa) * (1 - fa)
            let fb = xb - xbCeil + 1
            let lastArea = 0.5 * inv * fb * fb
            line[ia] += d * firstArea
            if ib == ia &+ 2 {
                line[ia &+ 1] += d * (1 - firstArea - lastArea)
            } else {
                let second = inv * (1.5 - fa)
                line[ia &+ 1] += d * (second - firstArea)
                var x = ia &+ 2
                while x < ib &- 1 { line[x] += d * inv; x &+= 1 }
                let before = second + Float(ib &- ia &- 3) * inv
                line[ib &- 1] += d * (1 - before - lastArea)
            }
            line[ib] += d * lastArea
        }
        rowMin[row] = Swift.min(rowMin[row], ia)
        rowMax[row] = Swift.max(rowMax[row], ib)
        if marksBlocks { rowBlocks[row] |= Rasterizer.blockBits(ia, ib, shift: blockShift) }
    }

    /// min and max as SSE's `minss`/`maxss` compute them, one instruction each (`Swift.min` and
    /// `Swift.max` also order NaNs, which the finite geometry here never holds, in four on SSE2).
    @inline(__always)
    private static func smaller<T: FloatingPoint>(_ a: T, _ b: T) -> T { a < b ? a : b }

    @inline(__always)
    private static func larger<T: FloatingPoint>(_ a: T, _ b: T) -> T { a > b ? a : b }

    /// ⌊v⌋ for a box-local coordinate (0 ≤ v < 2²²; a value a rounding error below zero lands
    /// in column 0), without libm or a checked float-to-integer conversion: v + 2²³ rounds v to
    /// the nearest integer, which sits in the float's low mantissa bits and is one too high when
    /// the rounding went up.
    @inline(__always)
    private static func floorIndex(_ v: Float) -> Int {
        let w = larger(v, 0)
        let rounded = Int((w + 0x1p23).bitPattern & 0x7F_FFFF)
        return Float(rounded) > w ? rounded - 1 : rounded
    }

    /// ⌈v⌉ for a box-local coordinate, as `floorIndex`.
    @inline(__always)
    private static func ceilIndex(_ v: Float) -> Int {
        let f = floorIndex(v)
        return Float(f) < v ? f + 1 : f
    }
}

/// An integer pixel rectangle [x0, x1) × [y0, y1).
struct IntRect: Equatable {
    var x0: Int, y0: Int, x1: Int, y1: Int
    var width: Int { x1 - x0 }
    var height: Int { y1 - y0 }
    var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
}
