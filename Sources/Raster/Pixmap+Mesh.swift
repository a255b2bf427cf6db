/// Textured triangle meshes: the warp that page curls and other transitions need.
extension Pixmap {
    /// Draws `image` warped by a triangle mesh: triangle k joins `positions[indices[3k…3k+2]]`
    /// (device pixels) and shows the image region at the same `texCoords` (image pixels), each
    /// triangle mapped affinely, bilinear filtering, composited source-over with `opacity`.
    ///
    /// Adjacent triangles show no seam: each triangle's colour × coverage is summed per pixel
    /// first — along a shared edge the anti-aliased coverages add up to one — and the result is
    /// composited once. Triangles with a degenerate texture or position triangle, or an
    /// index out of range, are skipped.
    public func drawMesh(image: Pixmap, positions: [Point], texCoords: [Point], indices: [Int],
                         opacity: Float = 1, clip: Mask? = nil) {
        guard positions.count == texCoords.count, indices.count >= 3,
              let box = Pixmap.deviceBox(positions, width: width, height: height),
              let scratch = try? Pixmap(width: box.width, height: box.height),
              let coverage = try? Mask(width: box.width, height: box.height) else { return }
        // Premultiplied colour × coverage, summed over the triangles, per scratch pixel.
        var sum = [SIMD4<Float>](repeating: .zero, count: box.width * box.height)
        let row = UnsafeMutablePointer<UInt32>.allocate(capacity: box.width)
        defer { row.deallocate() }
        let toBox = Transform(a: 1, b: 0, c: 0, d: 1, tx: -Double(box.x0), ty: -Double(box.y0))
        var k = 0
        while k + 2 < indices.count {
            let (i, j, l) = (indices[k], indices[k + 1], indices[k + 2])
            k += 3
            guard [i, j, l].allSatisfy({ $0 >= 0 && $0 < positions.count }),
                  let map = Pixmap.affineMap(from: (texCoords[i], texCoords[j], texCoords[l]),
                                             to: (positions[i], positions[j], positions[l])) else { continue }
            var triangle = Path()
            triangle.move(to: positions[i]); triangle.line(to: positions[j]); triangle.line(to: positions[l]); triangle.close()
            coverage.data.update(repeating: 0, count: box.width * box.height)
            coverage.fill(triangle, transform: toBox)
            let shader = ShaderProgram(.image(ImagePattern(image: image, transform: map.concatenating(toBox),
                                                           filter: .bilinear, spread: .pad)))
            for y in 0..<box.height {
                let line = coverage.data + y * box.width
                guard (0..<box.width).contains(where: { line[$0] != 0 }) else { continue }
                shader.shade(y: y, x: 0, count: box.width, into: row)
                for x in 0..<box.width where line[x] != 0 {
                    sum[y * box.width + x] += SIMD4<Float>(unpack: row[x]) * (Float(line[x]) / 255)
                }
            }
        }
        for i in sum.indices { scratch.words[i] = sum[i].packed }
        draw(scratch, atX: box.x0, y: box.y0, opacity: opacity, blendMode: .sourceOver, clip: clip)
    }

    /// The integer device box of `points` clipped to a width×height target, or nil when empty.
    static func deviceBox(_ points: [Point], width: Int, height: Int) -> IntRect? {
        let finite = points.filter(\.isFinite)
        guard let minX = finite.map(\.x).min(), let maxX = finite.map(\.x).max(),
              let minY = finite.map(\.y).min(), let maxY = finite.map(\.y).max() else { return nil }
        // Clamped on both sides: a finite point may lie 1e300 pixels off either edge.
        let box = IntRect(x0: Int(clamping: minX.rounded(.down), to: 0...width),
                          y0: Int(clamping: minY.rounded(.down), to: 0...height),
                          x1: Int(clamping: maxX.rounded(.up), to: 0...width),
                          y1: Int(clamping: maxY.rounded(.up), to: 0...height))
        return box.isEmpty ? nil : box
    }

    /// The affine map taking triangle `a` onto triangle `b` (corner to corner), or nil when
    /// either is degenerate.
    static func affineMap(from a: (Point, Point, Point), to b: (Point, Point, Point)) -> Transform? {
        let ua = Point(x: a.1.x - a.0.x, y: a.1.y - a.0.y), va = Point(x: a.2.x - a.0.x, y: a.2.y - a.0.y)
        let ub = Point(x: b.1.x - b.0.x, y: b.1.y - b.0.y), vb = Point(x: b.2.x - b.0.x, y: b.2.y - b.0.y)
        let det = ua.x * va.y - ua.y * va.x
        guard abs(det) > 1e-12, (ub.x * vb.y - ub.y * vb.x) != 0 else { return nil }
        // M maps ua → ub and va → vb: M = [ub vb] · [ua va]⁻¹ (columns).
        let ia = va.y / det, ib = -ua.y / det, ic = -va.x / det, id = ua.x / det
        let a11 = ub.x * ia + vb.x * ib, a12 = ub.x * ic + vb.x * id
        let a21 = ub.y * ia + vb.y * ib, a22 = ub.y * ic + vb.y * id
        return Transform(a: a11, b: a21, c: a12, d: a22,
                         tx: b.0.x - (a11 * a.0.x + a12 * a.0.y), ty: b.0.y - (a21 * a.0.x + a22 * a.0.y))
    }
}

// MARK: - Textured convex pieces (transitions)

/// How a textured piece's colours are altered after sampling, in premultiplied terms:
/// rgb' = rgb·multiply + alpha·addWhite (towards white by `addWhite`, darker by `multiply`),
/// alpha unchanged. Weights are quantized to 1/256.
public struct TexelTint: Equatable, Sendable {
    public var multiply: Float
    public var addWhite: Float
    public init(multiply: Float = 1, addWhite: Float = 0) { self.multiply = multiply; self.addWhite = addWhite }
    public static let none = TexelTint()

    /// The weights in 1/256ths (multiply 0…256, addWhite 0…256); nil when the tint changes nothing.
    var fixed: (m: UInt32, a: UInt32)? {
        func q(_ x: Float) -> UInt32 { UInt32(Swift.max(0, Swift.min(256, (x.isNaN ? 0 : x) * 256 + 0.5))) }
        let m = q(multiply), a = q(addWhite)
        return m == 256 && a == 0 ? nil : (m, a)
    }
}

extension Pixmap {
    /// Draws the part of `image` that `imageToDevice` (image pixels → device pixels, affine or
    /// projective) places inside the convex `polygon` (device pixels), source-over, scaled by
    /// `opacity` (0…1) and altered by `tint`.
    ///
    /// Coverage is by pixel centre, no anti-aliasing: a pixel is drawn when its centre lies in
    /// the polygon, with a top-left rule (an edge's crossing at a pixel row belongs to the span on
    /// its right; rows meet edges top-inclusive, bottom-exclusive). Two polygons that share an
    /// edge — the same two vertices, bit for bit — therefore split its pixels between them
    /// exactly: a mesh of such pieces has neither seams nor doubly blended pixels. Every drawn
    /// pixel gets the bilinear sample at its centre (texels outside the image transparent, as
    /// `drawTexture` samples), so the outline of an image whose outermost texels are
    /// transparent is anti-aliased by the filtering when the polygon covers that margin.
    ///
    /// A projective map is evaluated exactly (homogeneous divide) at the ends of row segments
    /// chosen from the map's curvature so that the linear steps between stay within 1/4 texel
    /// of the exact positions (Quake-style perspective spans, with the span length from the error
    /// bound instead of fixed, in whole groups of eight pixels). The bound was 1/8 texel; 1/4
    /// makes the segments √2 times longer, and a cube transition face turned 45° at 1280×720
    /// ≈ 15 % cheaper to draw (transition-bench), for a displacement that bilinear
    /// filtering's own one-texel spread hides. A polygon whose pixel rows run
    /// steeply across texel rows is filled in vertical strips (`textureStripWidth`). Polygons
    /// must lie in front of the projection (clip them at w > 0 first). Non-finite points draw
    /// nothing.
    ///
    /// `clearInside`: a rectangle of the image (image pixels) whose texels are all transparent —
    /// a border's bitmap inside its ring. Pixels whose samples can only read those texels would
    /// blend nothing, so they are not sampled: those whose centres map at least
    /// `clearMargin` texels inside it (the bilinear reach and the perspective spans' error,
    /// with room to spare). Every other pixel is drawn at the position it has without it, so
    /// the target's words are the same.
    ///
    /// `uniformInside`: a rectangle of the image whose texels all hold one premultiplied colour
    /// (a layer's solid background inside its rounded corners). The pixels that `clearInside`
    /// would skip there blend that colour without sampling: the bilinear sample of four equal
    /// texels is that texel, so the words are the same (UniformInsideTests). Not used with a
    /// tint. `clearInside` wins when both are given.
    public func drawTexture(_ image: Pixmap, inside polygon: [Point], imageToDevice: Projective, opacity: Float = 1,
                            tint: TexelTint = .none, clearInside: Rect? = nil, uniformInside: UniformTexels? = nil) {
        let factor = Pixmap.opacityFactor(opacity)
        guard factor > 0, polygon.count >= 3, polygon.allSatisfy(\.isFinite), let inverse = imageToDevice.inverted(),
              let sampler = ImageSampler(ImagePattern(image: image, transform: Transform.identity, filter: .bilinear,
                                                      spread: .decal)) else { return }
        let inside = clearInside.map { UniformTexels(rect: $0, color: 0) } ?? (tint.fixed == nil ? uniformInside : nil)
        let hole = inside.flatMap { Pixmap.clearPolygon($0.rect, imageToDevice: imageToDevice) }
        PolygonEdges.withEdges(of: polygon) { edges in
            guard let hole else {
                return drawTexture(sampler, inverse, inside: polygon, edges: edges, skipping: NoColumns(), factor: factor, tint: tint)
            }
            PolygonEdges.withEdges(ofCorners: hole) { holeEdges in
                drawTexture(sampler, inverse, inside: polygon, edges: edges,
                            skipping: HoleColumns(edges: holeEdges, fill: inside?.color ?? 0), factor: factor, tint: tint)
            }
        }
    }

    /// How far inside `drawTexture`'s `clearInside` (in texels) a pixel centre must map for the
    /// pixel to be skipped: a bilinear sample at image position u reads texels ⌊u − ½⌋ and
    /// ⌊u − ½⌋ + 1, all inside when u is ½ texel inside, and a perspective span's positions
    /// stray up to about ¼ texel from the exact ones.
    static let clearMargin = 2.0

    /// The device polygon of `clear` shrunk by `clearMargin` on every side, mapped by
    /// `imageToDevice`; nil when nothing is left or a corner lies at or behind the eye (the
    /// polygon is then not the image of the rectangle).
    private static func clearPolygon(_ clear: Rect, imageToDevice: Projective) -> (Point, Point, Point, Point)? {
        let inset = Rect(x: clear.x + clearMargin, y: clear.y + clearMargin,
                         width: clear.width - 2 * clearMargin, height: clear.height - 2 * clearMargin)
        guard !inset.isEmpty, inset.minX.isFinite, inset.maxX.isFinite, inset.minY.isFinite, inset.maxY.isFinite
        else { return nil }
        func corner(_ x: Double, _ y: Double) -> Point? {
            imageToDevice.apply(Point(x: x, y: y)).flatMap { $0.isFinite ? $0 : nil }
        }
        guard let a = corner(inset.minX, inset.minY), let b = corner(inset.maxX, inset.minY),
              let c = corner(inset.maxX, inset.maxY), let d = corner(inset.minX, inset.maxY) else { return nil }
        return (a, b, c, d)
    }

    /// `drawTexture(_:inside:imageToDevice:opacity:tint:clearInside:)` once the polygon's edges
    /// (and those of the pixels it need not sample, `skipping`) are known.
    private func drawTexture<Skipped: SkippedColumns>(_ sampler: ImageSampler, _ inverse: Projective, inside polygon: [Point],
                                                      edges: PolygonEdges, skipping hole: Skipped, factor: UInt32, tint: TexelTint) {
        guard let rows = edges.rows(height: height)?.clamped(to: drawableRows), !rows.isEmpty else { return }
        let tinted = tint.fixed
        // Vertical strips, each filled row by row (see `textureStripWidth`).
        let columns = Pixmap.textureStripWidth(inverse, polygon: polygon)
        let (minX, maxX) = polygon.reduce((Double.infinity, -Double.infinity)) { (Swift.min($0.0, $1.x), Swift.max($0.1, $1.x)) }
        let left = Int(clamping: minX.rounded(.down), to: 0...width)   // clamped both ways (fuzz-layers)
        let right = Int(clamping: maxX.rounded(.up) + 1, to: 0...width)
        // A tinted run is sampled into a row of temporary storage (on the stack when it fits).
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: tinted == nil ? 0 : Swift.max(1, right - left)) { row in
            let scratch = tinted == nil ? nil : row.baseAddress
            for stripStart in stride(from: left, to: right, by: columns) {
                let stripEnd = Swift.min(right, stripStart &+ columns)
                for y in rows {
                    guard let whole = edges.span(y: y, width: width) else { continue }
                    let first = Swift.max(whole.lowerBound, stripStart), end = Swift.min(whole.upperBound, stripEnd)
                    guard first < end else { continue }
                    let skipped = hole.columns(y: y, width: width)
                    compositeSpan(sampler, inverse, y: y, first..<end, skipping: skipped, factor: factor, tint: tinted,
                                  scratch: scratch)
                    if hole.fill != 0 {
                        let lo = Swift.max(first, skipped.lowerBound), hi = Swift.min(end, skipped.upperBound)
                        if lo < hi { Pixmap.sourceOverUniform(words + y * width + lo, count: hi - lo, color: hole.fill, factor: factor) }
                    }
                }
            }
        }
    }

    /// Pixels `span` of row `y` of `drawTexture(_:inside:imageToDevice:)` but those in `skipped`
    /// (device columns): `inverse` maps device pixels to the image. The runs and their
    /// positions are the whole span's.
    @inline(__always)
    private func compositeSpan(_ sampler: ImageSampler, _ inverse: Projective, y: Int, _ span: Range<Int>,
                               skipping skipped: Range<Int>, factor: UInt32,
                               tint tinted: (m: UInt32, a: UInt32)?, scratch: UnsafeMutablePointer<UInt32>?) {
        let m = inverse.m
        let row = words + y * width
        let yc = Double(y) + 0.5
        if m.6 == 0 && m.7 == 0 && m.8 != 0 {
            // Affine: one run.
            let invW = 1 / m.8, xc = Double(span.lowerBound) + 0.5
            let u = (m.0 * xc + m.1 * yc + m.2) * invW, v = (m.3 * xc + m.4 * yc + m.5) * invW
            guard let run = FixedRun(u: u, v: v, du: m.0 * invW, dv: m.3 * invW, count: span.count, image: sampler.image) else { return }
            compositeRun(sampler, run, count: span.count, skipping: Pixmap.shifted(skipped, by: span.lowerBound), factor: factor,
                         tint: tinted, scratch: scratch, into: row + span.lowerBound)
            return
        }
        // Projective: exact positions at the ends of segments short enough that the linear
        // steps between them stay within 1/4 texel of the exact ones. One division per segment
        // end (its reciprocal w⁻¹), each end the next segment's start.
        let xc = Double(span.lowerBound) + 0.5
        var h = (m.0 * xc + m.1 * yc + m.2, m.3 * xc + m.4 * yc + m.5, m.6 * xc + m.7 * yc + m.8)
        guard h.2 > 1e-12 else { return }
        var r = 1 / h.2
        var (u, v) = (h.0 * r, h.1 * r)
        var x = span.lowerBound
        while x < span.upperBound {
            // u(x) = N/W with N, W linear: u″ = −2·(W′/W)·u′, so a chord over n pixels strays at
            // most n²/8·|u″| from the curve: n = √(8·(1/4) / |u″|).
            let k = m.6 * r, du = (m.0 - u * m.6) * r, dv = (m.3 - v * m.6) * r
            let curvature = 2 * Swift.abs(k) * Swift.max(Swift.abs(du), Swift.abs(dv))
            let remaining = span.upperBound - x
            let limit = curvature > 0 ? (2 / curvature).squareRoot() : Double(remaining)
            var n = Swift.max(1, Swift.min(remaining, limit.isFinite ? Int(Swift.min(limit, 4096)) : remaining))
            // Whole groups of eight before the span's last segment: the AVX2 kernel composites
            // eight pixels at a time, and a partial group costs masked loads and stores.
            if n >= 8 && n < remaining { n &= ~7 }
            let e = (h.0 + Double(n) * m.0, h.1 + Double(n) * m.3, h.2 + Double(n) * m.6)
            guard e.2 > 1e-12 else { return }
            let re = 1 / e.2, ue = e.0 * re, ve = e.1 * re, step = 1 / Double(n)
            let skip = Pixmap.shifted(skipped, by: x)
            if !(skip.lowerBound <= 0 && skip.upperBound >= n),
               let run = FixedRun(u: u, v: v, du: (ue - u) * step, dv: (ve - v) * step, count: n, image: sampler.image) {
                compositeRun(sampler, run, count: n, skipping: skip, factor: factor, tint: tinted, scratch: scratch, into: row + x)
            }
            (h, r, u, v) = (e, re, ue, ve)
            x += n
        }
    }

    /// The width of the vertical strips `drawTexture(_:inside:imageToDevice:)` fills one after
    /// the other: 64 pixels when a pixel row of the polygon runs across more than one texel row
    /// per 64 pixels somewhere (at a corner: a picture turned about a vertical axis in
    /// perspective, or rotated), so that the texel rows one strip's pixel row reads are still
    /// cached for the next pixel row; otherwise the whole polygon at once. (A cube face turned
    /// 45° about the vertical axis at 1280×720 drew ≈ 10 % faster in 64-pixel strips than row by
    /// row; 32 and 128 were slower: transition-bench.)
    static func textureStripWidth(_ inverse: Projective, polygon: [Point]) -> Int {
        let m = inverse.m
        var slope = 0.0
        for p in polygon {
            let w = m.6 * p.x + m.7 * p.y + m.8
            guard w > 1e-12 else { continue }
            let v = (m.3 * p.x + m.4 * p.y + m.5) / w
            slope = Swift.max(slope, Swift.abs((m.3 - v * m.6) / w))   // ∂v/∂x: texel rows per pixel
        }
        return slope > 1.0 / 64 ? 64 : Int.max / 2
    }

    /// Applies `tint` (1/256ths) to `count` premultiplied pixels in place.
    private static func tint(_ pixels: UnsafeMutablePointer<UInt32>, count: Int, _ tint: (m: UInt32, a: UInt32)) {
        for i in 0..<count where pixels[i] != 0 {
            let c = pixels[i], a = c >> 24
            var out = a << 24
            var shift: UInt32 = 0
            while shift < 24 {
                let ch = (c >> shift) & 0xFF
                out |= Swift.min(a, (ch * tint.m + a * tint.a + 128) >> 8) << shift
                shift += 8
            }
            pixels[i] = out
        }
    }

    /// `skipped` (device columns) moved to a run starting at column `x`: run pixel indices.
    @inline(__always)
    private static func shifted(_ skipped: Range<Int>, by x: Int) -> Range<Int> {
        skipped.isEmpty ? 0..<0 : skipped.lowerBound &- x..<skipped.upperBound &- x
    }

    /// `count` bilinear samples along `run` (pixel 0 at `dst[0]`) but those in `skipped` (run
    /// pixel indices), tinted, source-over with `factor`. (A tinted skipped pixel stays 0 in
    /// `scratch`, and 0 blends nothing.)
    @inline(__always)
    private func compositeRun(_ sampler: ImageSampler, _ run: FixedRun, count: Int, skipping skipped: Range<Int>, factor: UInt32,
                              tint: (m: UInt32, a: UInt32)?, scratch: UnsafeMutablePointer<UInt32>?,
                              into dst: UnsafeMutablePointer<UInt32>) {
        guard let tint, let scratch else {
            Pixmap.compositeSplit(sampler, run, count: count, skipping: skipped, factor: factor, into: dst)
            return
        }
        scratch.update(repeating: 0, count: count)
        Pixmap.compositeSplit(sampler, run, count: count, skipping: skipped, factor: 255, into: scratch)
        Pixmap.tint(scratch, count: count, tint)
        Pixmap.sourceOverRow(dst, source: scratch, count: count, factor: factor)
    }

    /// Composites `count` samples of `run` but those in `skipped`: the stretch whose texel quads
    /// lie inside the image four at a time (`ImageSampler.composite(inside: true)`), the pixels
    /// before and after it one at a time with the edge checks.
    @inline(__always)
    private static func compositeSplit(_ sampler: ImageSampler, _ run: FixedRun, count: Int, skipping skipped: Range<Int>,
                                       factor: UInt32, into dst: UnsafeMutablePointer<UInt32>) {
        /// Pixels `pixels` of the run but those in `skipped` (each sampled where it is in the run).
        @inline(__always) func composite(_ pixels: Range<Int>, inside: Bool) {
            guard !skipped.isEmpty, skipped.lowerBound < pixels.upperBound, skipped.upperBound > pixels.lowerBound else {
                return sampler.composite(run, pixels: pixels, inside: inside, factor: factor, into: dst)
            }
            sampler.composite(run, pixels: pixels.lowerBound..<Swift.max(pixels.lowerBound, skipped.lowerBound), inside: inside,
                              factor: factor, into: dst)
            sampler.composite(run, pixels: Swift.min(pixels.upperBound, skipped.upperBound)..<pixels.upperBound, inside: inside,
                              factor: factor, into: dst)
        }
        // Positions are linear along the run and the image's interior is convex: when the first
        // and last quads are inside, all are.
        if count > 0, run.inside(at: 0), run.inside(at: Int64(count - 1)) {
            composite(0..<count, inside: true)
            return
        }
        var probe = run
        var i = 0
        while i < count && !probe.inside(at: 0) {
            probe.advance(1)
            i += 1
        }
        let inside = i + Int(Swift.min(Int64(count - i), probe.insideCount))
        composite(0..<i, inside: false)
        composite(i..<inside, inside: true)
        composite(inside..<count, inside: false)
    }

    /// self = a·(1 − t) + b·t, channel by channel (premultiplied stays premultiplied), with t
    /// quantized to 1/256: t = 0 gives `a` and t = 1 gives `b` exactly. The three pixmaps must
    /// have the same size (else nothing is done). The cross-dissolve of the fade transition.
    public func crossDissolve(_ a: Pixmap, _ b: Pixmap, weight t: Float) {
        guard a.width == width, a.height == height, b.width == width, b.height == height else { return }
        let f = UInt16(Swift.max(0, Swift.min(256, (t.isNaN ? 0 : t) * 256 + 0.5)))
        let count = width * height * 4
        if f == 0 { pixels.update(from: a.pixels, count: count); return }
        if f == 256 { pixels.update(from: b.pixels, count: count); return }
        let wa = SIMD16<UInt16>(repeating: 256 - f), wb = SIMD16<UInt16>(repeating: f), half = SIMD16<UInt16>(repeating: 128)
        var i = 0
        let pa = UnsafeRawPointer(a.pixels), pb = UnsafeRawPointer(b.pixels), out = UnsafeMutableRawPointer(pixels)
        while i + 16 <= count {
            let x = SIMD16<UInt16>(truncatingIfNeeded: pa.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))
            let y = SIMD16<UInt16>(truncatingIfNeeded: pb.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))
            // ≤ 255·256 + 128 < 2¹⁶: no overflow.
            let mixed = (x &* wa &+ y &* wb &+ half) &>> 8
            out.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: mixed), toByteOffset: i, as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < count {
            pixels[i] = UInt8((UInt16(a.pixels[i]) * (256 - f) + UInt16(b.pixels[i]) * f + 128) >> 8)
            i += 1
        }
    }
}

/// The device columns of each row that `drawTexture(_:inside:imageToDevice:clearInside:)` need
/// not sample. A type of its own for none, so that the row loop specialized for it is the code
/// it was before `clearInside` (callgrind of transition-bench's cube and pageCurl, a transition
/// frame and a plain one: 150.9 M instructions before, 152.2 M with a run-time check, 151.8 M
/// specialized). `fill`: the premultiplied colour the skipped pixels blend instead of their
/// samples (0: none, a clear inside).
protocol SkippedColumns {
    func columns(y: Int, width: Int) -> Range<Int>
    var fill: UInt32 { get }
}

/// No columns skipped.
struct NoColumns: SkippedColumns {
    @inline(__always) func columns(y: Int, width: Int) -> Range<Int> { 0..<0 }
    var fill: UInt32 { 0 }
}

/// The columns of the pixels whose centres lie inside the clear or uniform polygon (`edges`).
struct HoleColumns: SkippedColumns {
    let edges: PolygonEdges
    let fill: UInt32
    @inline(__always) func columns(y: Int, width: Int) -> Range<Int> { edges.span(y: y, width: width) ?? 0..<0 }
}

/// The edges of a convex polygon, for pixel-centre scan conversion: each edge with its end
/// points in a canonical order (top first; on a tie, left first), so that two polygons sharing
/// an edge compute the same crossings.
struct PolygonEdges {
    struct Edge { let x0: Double, y0: Double, y1: Double, slope: Double }
    /// Valid only inside `withEdges(of:_:)`'s body.
    let edges: UnsafeBufferPointer<Edge>
    let top: Double, bottom: Double

    /// Calls `body` with the edges of `polygon` (at least one point), kept in temporary storage
    /// (on the stack for small polygons, so that a mesh of triangles draws without allocating).
    static func withEdges<R, Polygon: RandomAccessCollection<Point>>(of polygon: Polygon, _ body: (PolygonEdges) -> R) -> R
        where Polygon.Index == Int {
        withUnsafeTemporaryAllocation(of: Edge.self, capacity: polygon.count) { buffer in
            var count = 0, top = Double.infinity, bottom = -Double.infinity
            for i in polygon.indices {
                let a = polygon[i], b = polygon[i + 1 == polygon.endIndex ? polygon.startIndex : i + 1]
                top = Swift.min(top, a.y)
                bottom = Swift.max(bottom, a.y)
                guard a.y != b.y else { continue }
                let (p, q) = a.y < b.y ? (a, b) : (b, a)
                buffer.initializeElement(at: count, to: Edge(x0: p.x, y0: p.y, y1: q.y, slope: (q.x - p.x) / (q.y - p.y)))
                count += 1
            }
            return body(PolygonEdges(edges: UnsafeBufferPointer(rebasing: buffer[..<count]), top: top, bottom: bottom))
        }
    }

    /// `withEdges(of:_:)` of the quadrilateral `corners` (in order round it), held on the stack.
    static func withEdges<R>(ofCorners corners: (Point, Point, Point, Point), _ body: (PolygonEdges) -> R) -> R {
        withUnsafeTemporaryAllocation(of: Point.self, capacity: 4) { buffer in
            buffer.initializeElement(at: 0, to: corners.0)
            buffer.initializeElement(at: 1, to: corners.1)
            buffer.initializeElement(at: 2, to: corners.2)
            buffer.initializeElement(at: 3, to: corners.3)
            return withEdges(of: UnsafeBufferPointer(buffer), body)
        }
    }

    /// Pixel rows whose centres lie in [top, bottom), clamped to 0..<height; nil when none.
    func rows(height: Int) -> Range<Int>? {
        let lo = Swift.max(0, Swift.min(Double(height), (Swift.max(-1e9, top) - 0.5).rounded(.up)))
        let hi = Swift.max(0, Swift.min(Double(height), (Swift.min(1e9, bottom) - 0.5).rounded(.up)))
        return lo < hi ? Int(lo)..<Int(hi) : nil
    }

    /// The pixels of row `y` whose centres lie inside (clamped to 0..<width); nil when none.
    @inline(__always)
    func span(y: Int, width: Int) -> Range<Int>? {
        let yc = Double(y) + 0.5
        var lo = Double.infinity, hi = -Double.infinity
        for e in edges where yc >= e.y0 && yc < e.y1 {
            let x = e.x0 + (yc - e.y0) * e.slope
            lo = Swift.min(lo, x)
            hi = Swift.max(hi, x)
        }
        guard lo < hi else { return nil }
        let first = Swift.max(0, Swift.min(Double(width), (Swift.max(-1e9, lo) - 0.5).rounded(.up)))
        let end = Swift.max(0, Swift.min(Double(width), (Swift.min(1e9, hi) - 0.5).rounded(.up)))
        return first < end ? Int(first)..<Int(end) : nil
    }
}
