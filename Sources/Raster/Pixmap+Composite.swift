import CKernels
import CPrefetch

/// Compositing whole pixmaps: transparency layers, group opacity and layer textures.
extension Pixmap {
    /// Composites `source` onto this pixmap with its top-left corner at integer (x, y), scaled by
    /// `opacity` (0…1), with `blendMode`, through `clip` if given. Pixels outside either pixmap
    /// are skipped. This is how a group (a layer with opacity < 1, a transparency layer) lands on
    /// its parent: `dst = blend(src·opacity, dst)`.
    public func draw(_ source: Pixmap, atX x: Int, y: Int, opacity: Float = 1,
                     blendMode: BlendMode = .sourceOver, clip: Mask? = nil) {
        let x0 = Swift.max(0, x), y0 = Swift.max(drawableRows.lowerBound, y)
        let x1 = Swift.min(width, x + source.width), y1 = Swift.min(drawableRows.upperBound, y + source.height)
        guard x1 > x0, y1 > y0 else { return }
        if blendMode == .sourceOver && clip == nil {
            let f = Pixmap.opacityFactor(opacity)
            if f > 0 { sourceOverRows(source, dx: x, dy: y, columns: x0..<x1, rows: y0..<y1, factor: f) }
            return
        }
        if blendMode.keepsDestinationOnly && clip == nil {
            // Destination-out and -in (a matte's cut-out): each pixel scaled by what the source's
            // alpha leaves of it, the words the paint path below gives (`BlendMode.keptDestination`).
            // Four pixels at a time (`PaintBlitter.scale4` gives `scale`'s words): a masked
            // group's pixels kept by its mask's alpha (`LayerRenderer.applyMask`).
            let f = Pixmap.opacityFactor(opacity)
            for row in y0..<y1 {
                let dst = words + row * width, src = source.words + (row - y) * source.width - x
                var px = x0
                while px &+ 4 <= x1 {
                    let alpha = UnsafeRawPointer(src + px).loadUnaligned(as: SIMD4<UInt32>.self) &>> 24
                    let kept = blendMode.keptDestination4(sourceAlpha: alpha, factor: f)
                    if kept != SIMD4(repeating: 255) {
                        let raw = UnsafeMutableRawPointer(dst + px)
                        raw.storeBytes(of: PaintBlitter.scale4(raw.loadUnaligned(as: SIMD4<UInt32>.self), kept), as: SIMD4<UInt32>.self)
                    }
                    px &+= 4
                }
                for px in px..<x1 {
                    if let kept = blendMode.keptDestination(sourceAlpha: src[px] >> 24, factor: f), kept != 255 {
                        dst[px] = PaintBlitter.scale(dst[px], kept)
                    }
                }
            }
            return
        }
        let image = ImagePattern(image: source, transform: Transform(a: 1, b: 0, c: 0, d: 1,
                                                                     tx: Double(x), ty: Double(y)),
                                 filter: .nearest, spread: .decal)
        var blitter = PaintBlitter(target: self, paint: Paint(shader: .image(image), blendMode: blendMode,
                                                              opacity: opacity), clip: clip)
        for row in y0..<y1 { blitter.blitSpan(y: row, x: x0, count: x1 - x0, coverage: 255) }
    }

    /// Composites `source` with its top-left corner at integer (x, y), source-over, through
    /// `mask`, which has `source`'s size and lies on it: every pixel's factor is its mask value —
    /// the words `draw(_:atX:y:opacity:blendMode:clip:)` gives at opacity 1 with a clip holding
    /// `mask` at (x, y) (there the coverage, 255, times the clip, rounded, is the clip value, and
    /// the source word is the texel), without a clip the size of this pixmap. Pixels outside
    /// either pixmap are skipped; a mask of another size draws nothing.
    package func draw(_ source: Pixmap, atX x: Int, y: Int, through mask: Mask) {
        let x0 = Swift.max(0, x), y0 = Swift.max(drawableRows.lowerBound, y)
        let x1 = Swift.min(width, x + source.width), y1 = Swift.min(drawableRows.upperBound, y + source.height)
        guard x1 > x0, y1 > y0, mask.width == source.width, mask.height == source.height else { return }
        for row in y0..<y1 {
            let texel = (row - y) * source.width + (x0 - x)
            PaintBlitter.sourceOver(words + row * width + x0, source: source.words + texel, coverage: mask.data + texel,
                                    count: x1 - x0, opacity: 255)
        }
    }

    /// Composites `image` as a texture, the way Core Animation composites a layer's backing
    /// store: `transform` maps image pixel space to device pixels; every device pixel gets the
    /// bilinear sample at its centre (texels outside the image are transparent, `.decal`),
    /// scaled by `opacity` (0…1), source-over. There is no coverage: the image's own transparent
    /// or anti-aliased edge pixels shape its outline.
    ///
    /// Equal to filling the whole pixmap with `Paint(shader: .image(ImagePattern(image: image,
    /// transform: transform, filter: .bilinear, spread: .decal)), opacity: opacity)`, but only the
    /// pixels whose sample can be non-zero are visited, and a pure translation takes a path with
    /// one set of bilinear weights for the whole image. `clearBorder`: whether the image's
    /// outermost rows and columns are all transparent (then only texel quads wholly inside it can
    /// contribute); nil to have it checked. `extents`: where the image's non-transparent texels
    /// lie (computed from this image, unchanged since), for a texture drawn many times; a
    /// translated texture then skips its transparent parts, and the vector loops read the texels
    /// it samples from the extents' packed copies (`TexelExtents.Strips`).
    public func drawTexture(_ image: Pixmap, transform: Transform, opacity: Float = 1, clearBorder: Bool? = nil,
                            extents: TexelExtents? = nil) {
        let f = Pixmap.opacityFactor(opacity)
        guard f > 0, image.width > 0, image.height > 0, transform.inverted() != nil else { return }
        let extents = extents.flatMap { $0.rows.count == image.height ? $0 : nil }
        if transform.a == 1, transform.b == 0, transform.c == 0, transform.d == 1 {
            drawTranslatedTexture(image, tx: transform.tx, ty: transform.ty, factor: f, clearBorder: clearBorder,
                                  extents: extents)
        } else {
            drawAffineTexture(image, transform: transform, factor: f, clearBorder: clearBorder, extents: extents)
        }
    }

    /// `drawTexture` for a general affine map: per row, the pixels whose texel quads reach into
    /// the image are sampled and blended (`ImageSampler.composite`), except where the quads lie
    /// in the flat blocks of the image (`extents`), whose colour they then are. Every pixel is
    /// sampled at the position a pattern fill of the row gives it (the sampler's fixed-point run
    /// from pixel 0); which pixels are flat, sampled four at a time, or sampled one at a time
    /// with checks is estimated with a margin (`QuadStretches`), so the split changes no pixel.
    private func drawAffineTexture(_ image: Pixmap, transform: Transform, factor: UInt32,
                                   clearBorder: Bool?, extents: TexelExtents?) {
        guard let rows = rowRange(of: image, under: transform), rows.overlaps(drawableRows),
              let sampler = ImageSampler(ImagePattern(image: image, transform: transform, filter: .bilinear, spread: .decal))
        else { return }
        guard var run = sampler.rowRun(y: rows.lowerBound, count: width),
              sampler.rowRun(y: rows.upperBound - 1, count: width) != nil else {
            // Beyond fixed point's reach: the sampler's general walk over the whole rows.
            for y in rows.clamped(to: drawableRows) {
                sampler.composite(y: y, x: 0, count: width, factor: factor, into: words + y * width)
            }
            return
        }
        let one = Int64(1) << 32, w = Int64(image.width), h = Int64(image.height)
        /// Quad positions (top-left texel, fixed point) in texel columns `columns` and rows `rows`,
        /// as half-open bounds.
        func quads(columns: (Int64, Int64), rows: (Int64, Int64)) -> (u: (Int64, Int64), v: (Int64, Int64)) {
            ((columns.0 * one, (columns.1 - 1) * one), (rows.0 * one, (rows.1 - 1) * one))
        }
        let inside = run.insideBox
        // Quads with a texel in the image; with transparent outermost texels, only those wholly
        // inside it can be non-zero.
        let clear = clearBorder ?? image.hasClearBorder
        let reach = quads(columns: (-1, w + 1), rows: (-1, h + 1))
        func quads(_ block: TexelExtents.Block) -> (u: (Int64, Int64), v: (Int64, Int64)) {
            quads(columns: (Int64(block.columns.lowerBound), Int64(block.columns.upperBound)),
                  rows: (Int64(block.rows.lowerBound), Int64(block.rows.upperBound)))
        }
        let ahead = (u: FixedRun.fixed(sampler.rowStep.u * Double(Pixmap.rowsAhead)),
                     v: FixedRun.fixed(sampler.rowStep.v * Double(Pixmap.rowsAhead)))
        let flatBlocks = extents?.blocks ?? []
        if AVX2Kernels.isEnabled && flatBlocks.count <= 2 {
            // The loop below in C (`citrine_turned_rows`): the same words, without its per-row
            // calls, which took more instructions than the rows' kernels. It hands back each row
            // with pixels that only may reach the image, drawn here with the sampler's checks.
            func box(_ b: (u: (Int64, Int64), v: (Int64, Int64))) -> citrine_quad_box {
                citrine_quad_box(uStart: b.u.0, uEnd: b.u.1, vStart: b.v.0, vEnd: b.v.1)
            }
            let m = sampler.inverse.m, drawn = rows.clamped(to: drawableRows), none = citrine_quad_box()
            var draw = citrine_turned_rows(
                texels: image.words, texelWidth: image.width, texelHeight: image.height, pixels: words, pixelWidth: width,
                pixelHeight: height, ux: m.0, uy: m.1, u0: m.2, vx: m.3, vy: m.4, v0: m.5, invW: 1 / m.8, dfu: run.dfu, dfv: run.dfv,
                inside: box(inside), reach: box(reach),
                blocks: (flatBlocks.first.map { box(quads($0)) } ?? none, flatBlocks.count > 1 ? box(quads(flatBlocks[1])) : none),
                blockCount: flatBlocks.count, color: flatBlocks.first?.color ?? 0, clear: clear ? 1 : 0, factor: factor,
                rowsAhead: Pixmap.rowsAhead, aheadU: ahead.u, aheadV: ahead.v, row: drawn.lowerBound, rowEnd: drawn.upperBound,
                edges: (0, 0, 0, 0))
            let kernel = AVX512Kernels.isEnabled ? citrine_turned_rows_avx512 : citrine_turned_rows_avx2
            while kernel(&draw) != 0 {
                let y = draw.row, row = words + y * width
                sampler.move(&run, toRow: y)
                sampler.composite(run, pixels: draw.edges.0..<draw.edges.1, inside: false, factor: factor, into: row)
                sampler.composite(run, pixels: draw.edges.2..<draw.edges.3, inside: false, factor: factor, into: row)
                draw.row = y + 1
            }
            return
        }
        let blocks = flatBlocks.map(quads), stretches = QuadStretches(run, count: width)
        // The run and its stretches are set up from the rows of the whole target, so a band's
        // rows are sampled as in a draw of the whole.
        for y in rows.clamped(to: drawableRows) {
            let row = words + y * width
            sampler.move(&run, toRow: y)
            // Sampled four at a time: pixels whose quads surely lie inside the image. The others
            // that may reach it, one at a time with the sampler's checks.
            let insideStretch = stretches.stretch(of: run, u: inside.u, v: inside.v), sampled = insideStretch.sure
            let reached = clear ? insideStretch.possible : stretches.stretch(of: run, u: reach.u, v: reach.v).possible
            guard !sampled.isEmpty else {
                sampler.composite(run, pixels: reached, inside: false, factor: factor, into: row)
                continue
            }
            // (Mostly none: only where an edge of the image falls within the margin of a pixel.)
            if reached.lowerBound < sampled.lowerBound {
                sampler.composite(run, pixels: reached.lowerBound..<sampled.lowerBound, inside: false, factor: factor, into: row)
            }
            if sampled.upperBound < reached.upperBound {
                sampler.composite(run, pixels: sampled.upperBound..<reached.upperBound, inside: false, factor: factor, into: row)
            }
            // Through the flat blocks: their stretches joined when they meet.
            var middle = sampled.upperBound..<sampled.upperBound
            for block in blocks {
                let stretch = stretches.stretch(of: run, u: block.u, v: block.v).sure.clamped(to: sampled)
                if middle.isEmpty || stretch.isEmpty {
                    if stretch.count > middle.count { middle = stretch }
                } else if stretch.lowerBound <= middle.upperBound && middle.lowerBound <= stretch.upperBound {
                    middle = Swift.min(middle.lowerBound, stretch.lowerBound)..<Swift.max(middle.upperBound, stretch.upperBound)
                } else if stretch.count > middle.count {
                    middle = stretch
                }
            }
            let parts = Pixmap.split(sampled, around: middle)
            // The pixels of the row `rowsAhead` below and the texels of its sampled parts (about
            // this row's: `prefetchTexels`), fetched while this one is blended.
            if y + Pixmap.rowsAhead < height {
                Pixmap.prefetch(row + Pixmap.rowsAhead * width + sampled.lowerBound, count: sampled.count)
                let below = run.shifted(by: ahead)
                image.prefetchTexels(below, pixels: parts.left.lowerBound..<parts.left.upperBound + 4)
                image.prefetchTexels(below, pixels: parts.right.lowerBound - 4..<parts.right.upperBound)
            }
            parts.blend(color: extents?.blocks.first?.color ?? 0, factor: factor, row: row) { pixels in
                sampler.composite(run, pixels: pixels, inside: true, factor: factor, into: row)
            }
        }
    }

    /// `run` split around its flat `middle` (empty: all sampled) so that each sampled part holds
    /// whole quads of pixels, when the middle has the pixels to give: a sample of flat texels is
    /// their colour, so moving pixels from the middle to a sampled part changes none of them, and
    /// the sampler then blends four at a time throughout.
    static func split(_ run: Range<Int>, around middle: Range<Int>) -> RowParts {
        guard !middle.isEmpty else { return RowParts(left: run, middle: run.upperBound..<run.upperBound, right: run.upperBound..<run.upperBound) }
        var lo = middle.lowerBound, hi = middle.upperBound
        let leftPad = (4 - (lo - run.lowerBound) % 4) % 4, rightPad = (4 - (run.upperBound - hi) % 4) % 4
        if hi - lo >= leftPad + rightPad {
            lo += leftPad
            hi -= rightPad
        }
        return RowParts(left: run.lowerBound..<lo, middle: lo..<hi, right: hi..<run.upperBound)
    }

    /// A row's pixels split around a flat middle (`split`): the sides are sampled, the middle is
    /// one colour.
    struct RowParts {
        var left: Range<Int>, middle: Range<Int>, right: Range<Int>

        /// Blends the row (`row` points at its pixel 0): each non-empty side through `sampled`,
        /// the middle as `color` scaled by `factor`/255 (`sourceOverUniform`).
        @inline(__always)
        func blend(color: UInt32, factor: UInt32, row: UnsafeMutablePointer<UInt32>, sampled: (Range<Int>) -> Void) {
            if !left.isEmpty { sampled(left) }
            if !middle.isEmpty { Pixmap.sourceOverUniform(row + middle.lowerBound, count: middle.count, color: color, factor: factor) }
            if !right.isEmpty { sampled(right) }
        }
    }

    /// Asks the CPU to fetch the texel rows under the quads of `pixels` of `run` (pixel 0
    /// first): at one point every `prefetchStep` pixels, the point's two rows and the one below
    /// (a quad reads its row and the next, and the next point's may start a row lower). A hint:
    /// positions outside the image are skipped, and the row below the last is only asked for,
    /// never read. Every two pixels with three rows rather than every four with two:
    /// `layer-storm-bench`'s frames (one thread) took 0.91–0.95 of the time in five sets of six
    /// to ten alternating runs (medians of the ratios); every pixel with two rows 0.97, every
    /// four with three or four rows 0.92–1.02, every eight with two 1.06, none 1.24.
    /// Not inlined: the loop keeps its registers to itself.
    @inline(never)
    func prefetchTexels(_ run: FixedRun, pixels: Range<Int>) {
        guard !pixels.isEmpty else { return }
        var fu = run.fu &+ Int64(pixels.lowerBound) &* run.dfu, fv = run.fv &+ Int64(pixels.lowerBound) &* run.dfv
        let step = Pixmap.prefetchStep(run.dfv)
        let du = Int64(step) &* run.dfu, dv = Int64(step) &* run.dfv
        let maxU = UInt64(width) << 32, maxV = UInt64(height - 1) << 32
        var k = pixels.lowerBound
        while k < pixels.upperBound {
            if UInt64(bitPattern: fu) < maxU && UInt64(bitPattern: fv) < maxV {
                let texel = words + (Int(truncatingIfNeeded: fv >> 32) &* width &+ Int(truncatingIfNeeded: fu >> 32))
                citrine_prefetch(texel)
                citrine_prefetch(texel + width)
                citrine_prefetch(texel + 2 &* width)
            }
            fu &+= du
            fv &+= dv
            k &+= step
        }
    }

    /// The pixels from one point of `prefetchTexels` to the next for a run whose texel row moves
    /// by `dfv` (32.32 fixed point) a pixel: 1 + ⌊1 / rows a pixel⌋, from 2 to 8. The pixels up to
    /// the next point then move at most one row down, so their quads lie in the point's three
    /// rows. Every two pixels at half a row a pixel or more, as for any slope before: the storm's
    /// turned layers (`layer-storm-bench`, one thread) took 163.4 → 161.6 M instructions a frame
    /// (callgrind) and 0.988 of the time (medians of eight alternating runs).
    static func prefetchStep(_ dfv: Int64) -> Int {
        let one = UInt64(1) << 32, rows = dfv.magnitude
        if rows >= one / 2 { return 2 }
        if rows <= one / 7 { return 8 }
        return 1 + Int(one / rows)
    }

    /// `drawTexture` for a translation by (tx, ty) device pixels: every pixel's four texels sit at
    /// the same offset with the same weights, so rows are combined directly, four pixels at a time,
    /// within the image's non-transparent `extents` when given.
    private func drawTranslatedTexture(_ image: Pixmap, tx: Double, ty: Double, factor: UInt32, clearBorder: Bool?,
                                       extents: TexelExtents?) {
        guard let x = TranslationTaps(offset: -tx, extent: image.width, canvas: width),
              let y = TranslationTaps(offset: -ty, extent: image.height, canvas: height) else { return }
        let w = image.width, h = image.height
        if x.weight == 0 && y.weight == 0 {
            // Whole-pixel offset: texel (i, j) lands on pixel (i − x.shift, j − y.shift).
            let columns = x.pixels.clamped(to: -x.shift..<w - x.shift)
            let rows = y.pixels.clamped(to: -y.shift..<h - y.shift).clamped(to: drawableRows)
            guard let extents else {
                sourceOverRows(image, dx: -x.shift, dy: -y.shift, columns: columns, rows: rows, factor: factor)
                return
            }
            if let solid = extents.solidRectangle {
                return drawSolidRectangle(solid, dx: -x.shift, dy: -y.shift, columns: columns, rows: rows, factor: factor)
            }
            for py in rows {
                // Within the row's non-transparent texels; its flat run is one colour.
                let j = py + y.shift, texels = extents.rows[j], run = extents.runs[j]
                let pixels = columns.clamped(to: texels.lowerBound - x.shift..<texels.upperBound - x.shift)
                let parts = Pixmap.split(pixels, around: pixels.clamped(to: run.columns.lowerBound - x.shift..<run.columns.upperBound - x.shift))
                let dst = words + py * width, src = image.words + j * w + x.shift
                // The pixels and edge texels of the row `rowsAhead` below (as for fractional offsets);
                // not the pixels an opaque flat run will overwrite (a layer's opaque background).
                if py + Pixmap.rowsAhead < rows.upperBound {
                    let below = Pixmap.rowsAhead * width, next = src + Pixmap.rowsAhead * w
                    if factor == 255 && run.color >> 24 == 255 {
                        Pixmap.prefetch(dst + below + parts.left.lowerBound, count: parts.left.count)
                        Pixmap.prefetch(dst + below + parts.right.lowerBound, count: parts.right.count)
                    } else {
                        Pixmap.prefetch(dst + below + pixels.lowerBound, count: pixels.count)
                    }
                    Pixmap.prefetch(next + parts.left.lowerBound, count: parts.left.count)
                    Pixmap.prefetch(next + parts.right.lowerBound, count: parts.right.count)
                }
                parts.blend(color: run.color, factor: factor, row: dst) { side in
                    Pixmap.sourceOverRow(dst + side.lowerBound, source: src + side.lowerBound, count: side.count, factor: factor)
                }
            }
            return
        }
        // With transparent outermost pixels, only quads wholly inside the image can be non-zero.
        let clear = clearBorder ?? image.hasClearBorder
        let rows = (clear ? y.pixels.clamped(to: -y.shift..<h - 1 - y.shift) : y.pixels).clamped(to: drawableRows)
        // Pixels whose two texel columns are both inside the image, between the edge columns.
        let innerStart = Swift.min(Swift.max(x.pixels.lowerBound, -x.shift), x.pixels.upperBound)
        let inner = innerStart..<Swift.max(innerStart, Swift.min(x.pixels.upperBound, w - 1 - x.shift))
        /// Pixels `columns` of row `py`, one at a time, texels outside the image transparent.
        func edge(_ columns: Range<Int>, row py: Int) {
            func texel(_ i: Int, _ j: Int) -> UInt32 { i >= 0 && i < w && j >= 0 && j < h ? image.words[j * w + i] : 0 }
            for px in columns {
                let i = px + x.shift, j = py + y.shift
                let s = ImageSampler.weigh(texel(i, j), texel(i + 1, j), texel(i, j + 1), texel(i + 1, j + 1),
                                           wx: UInt32(x.weight), wy: UInt32(y.weight))
                Pixmap.sourceOver(words + py * width + px, s, factor: factor)
            }
        }
        if !clear {
            for py in rows {
                edge(x.pixels.lowerBound..<inner.lowerBound, row: py)
                edge(inner.upperBound..<x.pixels.upperBound, row: py)
            }
        }
        if AVX2Kernels.isEnabled {
            // The loop below in C (`citrine_translated_rows`): the same words, without its
            // per-row calls and range checks, which took more instructions than the rows' kernels.
            var draw = citrine_translated_rows(texels: image.words, texelWidth: w, texelHeight: h, pairs: nil, stripRows: nil,
                                               strips: nil, pixels: words,
                                               pixelWidth: width, pixelHeight: height, shiftX: x.shift, shiftY: y.shift,
                                               innerStart: inner.lowerBound, innerEnd: inner.upperBound,
                                               rowStart: rows.lowerBound, rowEnd: rows.upperBound, rowsAhead: Pixmap.rowsAhead,
                                               weightX: UInt16(x.weight), weightY: UInt16(y.weight), factor: factor)
            let kernel = AVX512Kernels.isEnabled ? citrine_translated_rows_avx512 : citrine_translated_rows_avx2
            guard let extents else { return kernel(&draw) }
            return extents.rowPairs.withUnsafeBufferPointer { pairs in
                draw.pairs = pairs.baseAddress
                guard let strips = extents.strips else { return kernel(&draw) }
                strips.rows.withUnsafeBufferPointer { rows in
                    strips.words.withUnsafeBufferPointer { words in
                        (draw.stripRows, draw.strips) = (rows.baseAddress, words.baseAddress)
                        kernel(&draw)
                    }
                }
            }
        }
        for py in rows {
            // Texel rows j and j + 1 with their weights; a row outside the image weighs 0.
            let j = py + y.shift
            let columns = extents.map { inner.clamped(to: $0.pixels(texelRow: j, shift: x.shift)) } ?? inner
            guard !columns.isEmpty else { continue }
            /// Pixels `run` of the row, sampled.
            func sampled(_ run: Range<Int>) {
                let top = image.words + Swift.max(j, 0) * w + run.lowerBound + x.shift
                let bottom = image.words + Swift.min(j + 1, h - 1) * w + run.lowerBound + x.shift
                ImageSampler.translatedRow(top: top, bottom: bottom, count: run.count,
                                           horizontal: (256 - x.weight, x.weight),
                                           vertical: (j < 0 ? 0 : 256 - y.weight, j + 1 >= h ? 0 : y.weight),
                                           factor: factor, into: words + py * width + run.lowerBound)
            }
            // Where all four texels hold one colour, the sample is that colour.
            let flat = extents?.uniformPixels(texelRow: j, shift: x.shift)
            let parts = Pixmap.split(columns, around: flat.map { columns.clamped(to: $0.pixels) } ?? columns.upperBound..<columns.upperBound)
            // The pixels of the row `rowsAhead` below and the texels of its sampled parts, fetched
            // while this one is blended.
            if j + 1 + Pixmap.rowsAhead < h && py + Pixmap.rowsAhead < height {
                Pixmap.prefetch(words + (py + Pixmap.rowsAhead) * width + columns.lowerBound, count: columns.count)
                let texels = image.words + (j + 1 + Pixmap.rowsAhead) * w + x.shift
                Pixmap.prefetch(texels + parts.left.lowerBound, count: parts.left.count + 2)
                Pixmap.prefetch(texels + parts.right.lowerBound - 1, count: parts.right.count + 2)
            }
            parts.blend(color: flat?.color ?? 0, factor: factor, row: words + py * width, sampled: sampled)
        }
    }

    /// A whole-pixel translated image that is one rectangle of one colour (`solid`, in texels;
    /// texel (i, j) lands on pixel (i + dx, j + dy)), within pixels `columns` × `rows`: its rows
    /// blended as `drawTranslatedTexture`'s flat runs blend them (opaque rows as wide as the
    /// pixmap, one fill). Out of line, as rarely taken.
    @inline(never)
    private func drawSolidRectangle(_ solid: TexelExtents.Block, dx: Int, dy: Int, columns: Range<Int>, rows: Range<Int>,
                                    factor: UInt32) {
        let covered = columns.clamped(to: solid.columns.lowerBound + dx..<solid.columns.upperBound + dx)
        let lines = rows.clamped(to: solid.rows.lowerBound + dy..<solid.rows.upperBound + dy)
        guard !covered.isEmpty, !lines.isEmpty else { return }
        if covered.count == width && factor == 255 && solid.color >> 24 == 255 {
            Pixmap.fill(words + lines.lowerBound * width, count: lines.count * width, with: solid.color)
            return
        }
        for py in lines {
            Pixmap.sourceOverUniform(words + py * width + covered.lowerBound, count: covered.count, color: solid.color, factor: factor)
        }
    }

    /// Whether the outermost rows and columns are all transparent (as in a layer's retained
    /// bitmap, drawn with a margin).
    var hasClearBorder: Bool {
        let last = (height - 1) * width
        for x in 0..<width where words[x] != 0 || words[last + x] != 0 { return false }
        for y in 0..<height where words[y * width] != 0 || words[y * width + width - 1] != 0 { return false }
        return true
    }

    /// Opacity 0…1 (NaN: 0) as a factor 0…255.
    static func opacityFactor(_ opacity: Float) -> UInt32 {
        UInt32(Swift.max(0, Swift.min(1, opacity.isNaN ? 0 : opacity)) * 255 + 0.5)
    }

    /// The device rows an image can touch under `transform` (clamped to the pixmap), or nil when
    /// it touches no pixel of it.
    private func rowRange(of image: Pixmap, under t: Transform) -> Range<Int>? {
        // The image rectangle grown by one texel, as the bilinear footprint reaches.
        let u = Double(image.width) + 2, v = Double(image.height) + 2
        let x0 = t.tx - t.a - t.c, y0 = t.ty - t.b - t.d   // corner (−1, −1)
        let dx = (t.a * u, t.c * v), dy = (t.b * u, t.d * v)   // the two edges from it
        let minX = x0 + Swift.min(dx.0, 0) + Swift.min(dx.1, 0), maxX = x0 + Swift.max(dx.0, 0) + Swift.max(dx.1, 0)
        let minY = y0 + Swift.min(dy.0, 0) + Swift.min(dy.1, 0), maxY = y0 + Swift.max(dy.0, 0) + Swift.max(dy.1, 0)
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite,
              maxX > -1, minX < Double(width) + 1 else { return nil }
        // Clamped: finite is not small (an image 1e300 pixels off the target; found by fuzz-layers).
        let top = Int(clamping: minY.rounded(.down) - 1, to: 0...height)
        let bottom = Int(clamping: maxY.rounded(.up) + 1, to: 0...height)
        return top < bottom ? top..<bottom : nil
    }

    /// The common case of `draw`: premultiplied source-over at an integer offset, row by row,
    /// with the same integer arithmetic (and so the same result) as `PaintBlitter`.
    /// Columns and rows are device pixels inside both pixmaps; f is the opacity factor (1…255).
    private func sourceOverRows(_ source: Pixmap, dx: Int, dy: Int, columns: Range<Int>, rows: Range<Int>, factor f: UInt32) {
        guard !columns.isEmpty else { return }
        for row in rows {
            Pixmap.sourceOverRow(words + row * width + columns.lowerBound,
                                 source: source.words + (row - dy) * source.width + (columns.lowerBound - dx),
                                 count: columns.count, factor: f)
        }
    }

    /// `dst = src·f/255 + dst·(255 − αs)/255` over a run (f in 1…255), four pixels at a time with
    /// `PaintBlitter`'s rounding; transparent source quads are skipped. With AVX2, by the span
    /// kernel of group composites (`citrine_source_over_span_*`: one factor for the run, the same
    /// arithmetic and rounding, so the same words). It took the paint's coverage-row kernel at
    /// full coverage before, which works the factor out again for every eight pixels from a row of
    /// 255s: `layer-storm-bench`'s translated draws at whole pixels run here, and its frames took
    /// about 1 % less time with the span kernel (Benchmarks/NOTES.md).
    @inline(__always)
    static func sourceOverRow(_ dst: UnsafeMutablePointer<UInt32>, source: UnsafePointer<UInt32>, count: Int, factor f: UInt32) {
        if AVX2Kernels.isEnabled {
            if AVX512Kernels.isEnabled {
                citrine_source_over_span_avx512(dst, source, count, f)
            } else {
                citrine_source_over_span_avx2(dst, source, count, f)
            }
            return
        }
        var i = 0
        while i + 4 <= count {
            sourceOver4(dst + i, UnsafeRawPointer(source + i).loadUnaligned(as: SIMD4<UInt32>.self), factor: f)
            i += 4
        }
        while i < count {
            sourceOver(dst + i, source[i], factor: f)
            i += 1
        }
    }

    /// `sourceOverRow` for four pixels whose source words are `s`.
    @inline(__always)
    static func sourceOver4(_ dst: UnsafeMutablePointer<UInt32>, _ s: SIMD4<UInt32>, factor f: UInt32) {
        guard s != SIMD4<UInt32>() else { return }
        let src = f == 255 ? s : PaintBlitter.scale4(s, SIMD4(repeating: f))
        let raw = UnsafeMutableRawPointer(dst)
        let d = raw.loadUnaligned(as: SIMD4<UInt32>.self)
        raw.storeBytes(of: src &+ PaintBlitter.scale4(d, 255 &- (src &>> 24)), as: SIMD4<UInt32>.self)
    }

    /// How many rows ahead `drawTexture` prefetches. Chosen on S8 as a layer tree (session 5,
    /// interleaved runs on a noisy shared host): prefetching one row ahead was clearly faster
    /// than none; two rows and four rows ahead were not told apart from one another, nor two from
    /// one; three sits between them.
    static let rowsAhead = 3

    /// Asks the CPU to fetch the cache lines of `count` words from `start` (a hint; never faults).
    @inline(__always)
    static func prefetch(_ start: UnsafePointer<UInt32>, count: Int) {
        var k = 0
        while k < count {
            citrine_prefetch(start + k)
            k += 16
        }
        if count > 0 { citrine_prefetch(start + (count - 1)) }
    }

    /// `sourceOverRow` for a source of one colour: the same pixels, through `PaintBlitter`'s
    /// solid run (the scaled colour computed once).
    static func sourceOverUniform(_ dst: UnsafeMutablePointer<UInt32>, count: Int, color: UInt32, factor f: UInt32) {
        PaintBlitter.sourceOverSolid(dst, count: count, source: f == 255 ? color : PaintBlitter.scale(color, f))
    }

    /// `sourceOverRow` for one pixel.
    @inline(__always)
    static func sourceOver(_ dst: UnsafeMutablePointer<UInt32>, _ s: UInt32, factor f: UInt32) {
        guard s != 0 else { return }
        let src = f == 255 ? s : PaintBlitter.scale(s, f)
        dst.pointee = src &+ PaintBlitter.scale(dst.pointee, 255 - (src >> 24))
    }
}

/// The taps of a bilinear translation along one axis: pixel p samples texels p + shift and
/// p + shift + 1 with weights 256 − weight and weight (0…256), rounded as `ImageSampler` rounds.
struct TranslationTaps {
    let shift: Int
    let weight: Int
    /// Pixels (clamped to the canvas) with a texel in the image: p + shift ∈ −1 ..< extent.
    let pixels: Range<Int>

    /// `offset`: where pixel 0's centre samples, in texels from texel 0's centre (−translation).
    init?(offset: Double, extent: Int, canvas: Int) {
        guard abs(offset) < 1e9 else { return nil }
        // 32.32 fixed point, as the sampler steps: weight = the fraction rounded to 8 bits.
        let fixed = FixedRun.rounded(offset * FixedRun.one)
        shift = Int(fixed >> 32)
        weight = Int(((fixed & 0xFFFF_FFFF) + (1 << 23)) >> 24)
        let lo = Swift.max(0, -1 - shift), hi = Swift.min(canvas, extent - shift)
        guard lo < hi else { return nil }
        pixels = lo..<hi
    }
}
