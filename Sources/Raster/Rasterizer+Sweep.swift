import CKernels

// The sweep (`Rasterizer`'s design note): each touched row's cells prefix-summed into coverage
// levels, cleared as they are read, the levels handed to a `Blitter` as quads and spans (or, for
// solid colours drawn source-over, blended by `citrine_sweep_solid_*`).
extension Rasterizer {
    /// Dispatches once on the fill rule and anti-aliasing: each case is its own copy of the row
    /// loop, which then maps accumulated areas to levels without testing them per pixel.
    func sweep<B: Blitter>(box: IntRect, stride: Int, rows: Range<Int>, rule: FillRule, antiAlias: Bool,
                           into blitter: inout B) {
        switch (rule, antiAlias) {
        case (.nonZero, true):
            sweepRows(box: box, stride: stride, rows: rows, into: &blitter) { Rasterizer.levels($0, rule: .nonZero, antiAlias: true) }
        case (.nonZero, false):
            sweepRows(box: box, stride: stride, rows: rows, into: &blitter) { Rasterizer.levels($0, rule: .nonZero, antiAlias: false) }
        case (.evenOdd, true):
            sweepRows(box: box, stride: stride, rows: rows, into: &blitter) { Rasterizer.levels($0, rule: .evenOdd, antiAlias: true) }
        case (.evenOdd, false):
            sweepRows(box: box, stride: stride, rows: rows, into: &blitter) { Rasterizer.levels($0, rule: .evenOdd, antiAlias: false) }
        }
    }

    /// Prefix-sums every touched row, clearing its cells: cells with deltas go to the blitter as
    /// quads of four pixels with their own levels, the runs between them as one span of constant
    /// level. Rows outside `rows` (device rows) are cleared without being drawn.
    @inline(__always)
    private func sweepRows<B: Blitter>(box: IntRect, stride: Int, rows: Range<Int>, into target: inout B,
                                       levels: (SIMD4<Float>) -> SIMD4<UInt32>) {
        // A local copy: the pixel stores cannot alias it, so the blitter's fields stay in
        // registers across them instead of being reloaded after every quad and span.
        var blitter = target
        defer { target = blitter }
        let width = box.width
        // `cover` keeps `rowBlocks` for every fill this sweeps (`marksBlocks`).
        let cells = cells, rowMin = rowMin, rowMax = rowMax, rowBlocks = rowBlocks, shift = blockShift
        for row in 0..<box.height {
            let lo = rowMin[row], hi = rowMax[row]
            if hi < lo { continue }
            rowMin[row] = Int.max
            rowMax[row] = -1
            let blocks = rowBlocks[row]
            rowBlocks[row] = 0
            let line = cells + row &* stride
            let y = box.y0 &+ row
            guard rows.contains(y) else {
                // Every delta of the row lies in lo…hi (carries past the box included).
                (line + lo).update(repeating: 0, count: hi &- lo &+ 1)
                continue
            }
            let end = Swift.min(hi &+ 1, width)
            var acc: Float = 0
            /// The level of `acc`: that of the last lane of the last quad.
            var level: UInt32 = 0
            var x = lo
            while x < end {
                if line[x] != 0 {
                    // Cells with deltas: quads until one ends before a cell without a delta. The
                    // stride keeps a quad's cells in the row; lanes from `end` on (cells past the
                    // last delta, or carries past the box) are not drawn.
                    repeat {
                        let sums = Rasterizer.runningSums(line + x, from: acc)
                        UnsafeMutableRawPointer(line + x).storeBytes(of: SIMD4<Float>(), as: SIMD4<Float>.self)
                        acc = sums[3]
                        var quad = levels(sums)
                        level = quad[3]
                        let count = end &- x
                        if count < 4 { quad = Rasterizer.firstLanes(quad, count: count) }
                        blitter.blitQuad(y: y, x: box.x0 &+ x, count: Swift.min(count, 4), coverage: quad)
                        x &+= Swift.min(count, 4)
                    } while x < end && line[x] != 0
                    if x >= end { break }
                }
                // A run without deltas: constant coverage until the next delta.
                let runEnd = Rasterizer.runEnd(line, from: x &+ 1, end: end, blocks: blocks, shift: shift)
                if level > 0 {
                    blitter.blitSpan(y: y, x: box.x0 &+ x, count: runEnd &- x, coverage: UInt8(truncatingIfNeeded: level))
                }
                x = runEnd
            }
            // Clear what lies past the box edge (carries of the last column; hi ≤ width + 1).
            if hi >= width { line[width] = 0; line[width + 1] = 0 }
        }
        blitter.flush()
    }

    /// `sweepRows` of a solid colour drawn source-over without a clip (`PaintBlitter.solidSweep`),
    /// non-zero and anti-aliased, by `citrine_sweep_solid_avx2` (`_avx512` where those loops are
    /// on): the same running sums, levels and pixel arithmetic, eight cells at a time.
    /// Rows outside `rows` (device rows: a band's) are cleared without being drawn, as
    /// `sweepRows` does.
    func sweepSolidRows(box: IntRect, stride: Int, rows: Range<Int>,
                        _ solid: (color: UInt32, opacity: UInt32, words: UnsafeMutablePointer<UInt32>, width: Int)) {
        let first = Swift.min(Swift.max(rows.lowerBound &- box.y0, 0), box.height)
        let last = Swift.max(Swift.min(rows.upperBound &- box.y0, box.height), first)
        for row in 0..<first { clearRow(row, stride: stride) }
        for row in last..<box.height { clearRow(row, stride: stride) }
        guard last > first else { return }
        let sweep = AVX512Kernels.isEnabled ? citrine_sweep_solid_avx512 : citrine_sweep_solid_avx2
        sweep(cells + first &* stride, stride, rowMin + first, rowMax + first, last &- first, box.width,
              solid.words + ((box.y0 &+ first) &* solid.width &+ box.x0), solid.width, solid.color, solid.opacity)
    }

    /// Clears row `row`'s cells without drawing them (a row outside the rows being drawn).
    @inline(__always)
    private func clearRow(_ row: Int, stride: Int) {
        let lo = rowMin[row], hi = rowMax[row]
        guard hi >= lo else { return }
        rowMin[row] = Int.max
        rowMax[row] = -1
        rowBlocks[row] = 0
        // Every delta of the row lies in lo…hi (carries past the box included).
        (cells + row &* stride + lo).update(repeating: 0, count: hi &- lo &+ 1)
    }

    /// The accumulated areas after each of the four cells at `cells`, starting from `acc`: added
    /// one after the other (not as a vector prefix sum), so every lane holds exactly the running
    /// sum a cell-by-cell sweep computes.
    @inline(__always)
    private static func runningSums(_ cells: UnsafeMutablePointer<Float>, from acc: Float) -> SIMD4<Float> {
        let a0 = acc + cells[0]
        let a1 = a0 + cells[1]
        let a2 = a1 + cells[2]
        return SIMD4(a0, a1, a2, a2 + cells[3])
    }

    /// `v` with the lanes from `count` (1…4) on set to 0, without branches: lane k keeps its
    /// value where k − count is negative.
    @inline(__always)
    static func firstLanes(_ v: SIMD4<UInt32>, count: Int) -> SIMD4<UInt32> {
        let keep = (SIMD4<Int32>(0, 1, 2, 3) &- Int32(truncatingIfNeeded: count)) &>> 31
        return v & unsafeBitCast(keep, to: SIMD4<UInt32>.self)
    }

    /// The first column in from..<end whose cell is not zero (or `end`). Skips sixteen cells at
    /// a time by their bits, then looks at four, as two 64-bit words whose lowest set bit tells
    /// which cell is the first non-zero one. The stride keeps those four cells in the row; cells
    /// past `end` are zero or carries past the box, hence the clamp. A −0 cell stops the skip,
    /// which only costs a one-pixel run.
    @inline(__always)
    private static func runEnd(_ line: UnsafeMutablePointer<Float>, from start: Int, end: Int) -> Int {
        var x = start
        while x &+ 16 <= end {
            let p = UnsafeRawPointer(line + x)
            let bits = p.loadUnaligned(as: SIMD4<UInt32>.self) | p.loadUnaligned(fromByteOffset: 16, as: SIMD4<UInt32>.self)
                | p.loadUnaligned(fromByteOffset: 32, as: SIMD4<UInt32>.self) | p.loadUnaligned(fromByteOffset: 48, as: SIMD4<UInt32>.self)
            if bits != SIMD4() { break }
            x &+= 16
        }
        while x < end {
            let p = UnsafeRawPointer(line + x)
            let first = p.loadUnaligned(as: UInt64.self), second = p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            if first != 0 { return Swift.min(x &+ first.trailingZeroBitCount &>> 5, end) }
            if second != 0 { return Swift.min(x &+ 2 &+ second.trailingZeroBitCount &>> 5, end) }
            x &+= 4
        }
        return end
    }

    /// `runEnd` through the row's `rowBlocks` bits (`blocks`; all set where none were kept): the
    /// cells of blocks without a bit hold no delta and are not read. Columns below `end` lie in
    /// blocks 0…63 (`prepare`'s `blockShift`).
    @inline(__always)
    private static func runEnd(_ line: UnsafeMutablePointer<Float>, from start: Int, end: Int, blocks: UInt64,
                               shift: Int) -> Int {
        var x = start
        while x < end {
            let rest = blocks & (~0 &<< UInt64(x &>> shift))
            if rest == 0 { return end }
            let block = rest.trailingZeroBitCount
            x = Swift.max(x, block &<< shift)
            let blockEnd = Swift.min((block &+ 1) &<< shift, end)
            let found = runEnd(line, from: x, end: blockEnd)
            if found < blockEnd { return found }
            x = blockEnd
        }
        return end
    }

    /// Coverage levels (0…255, one per lane) of accumulated signed areas under a fill rule:
    ///
    ///     non-zero:  min(|a|, 1)            even-odd:  |a| folded into 0…1 with period 2
    ///
    /// times 255, rounded to nearest; without anti-aliasing 255 where that is at least ½, else 0.
    @inline(__always)
    static func levels(_ acc: SIMD4<Float>, rule: FillRule, antiAlias: Bool) -> SIMD4<UInt32> {
        let magnitude = unsafeBitCast(acc, to: SIMD4<UInt32>.self) & 0x7FFF_FFFF
        var a = unsafeBitCast(magnitude, to: SIMD4<Float>.self)
        switch rule {
        case .nonZero:
            a = a.replacing(with: 1, where: a .> 1)
        case .evenOdd:
            a = a - 2 * (a * 0.5).rounded(.down)
            a = a.replacing(with: 2 - a, where: a .> 1)
        }
        if !antiAlias { return SIMD4(repeating: 0).replacing(with: 255, where: a .>= 0.5) }
        // a·255 + 2²³ lies in [2²³, 2²³ + 255], where floats are the integers: the addition rounds
        // a·255 to the nearest level (ties to even, the only difference from ⌊a·255 + ½⌋) and
        // the level is the low byte of the bit pattern. No checked float-to-integer conversion.
        return unsafeBitCast(a * 255 + 0x1p23, to: SIMD4<UInt32>.self) & 0xFF
    }
}
