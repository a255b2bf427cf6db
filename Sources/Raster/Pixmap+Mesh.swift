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
        let box = IntRect(x0: Swift.max(0, Int(Swift.max(-1e9, minX).rounded(.down))),
                          y0: Swift.max(0, Int(Swift.max(-1e9, minY).rounded(.down))),
                          x1: Swift.min(width, Int(Swift.min(1e9, maxX).rounded(.up))),
                          y1: Swift.min(height, Int(Swift.min(1e9, maxY).rounded(.up))))
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
