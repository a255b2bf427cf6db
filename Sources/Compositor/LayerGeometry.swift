import QuartzCore
import Raster

/// The geometry Core Animation composites with.
enum LayerGeometry {
    /// Layer space → parent layer space, from presentation values (row-vector convention):
    /// translate(−anchor) · transform · translate(position, zPosition), then the parent's
    /// sublayerTransform about the parent's anchor point — QuartzCore's own mapping.
    static func layerToParent(_ p: CALayer, parent: CALayer?) -> CATransform3D {
        p._transform(toParent: parent)
    }

    /// Whether every entry of `m` is finite (no NaN, no ±∞).
    static func isFinite(_ m: CATransform3D) -> Bool {
        m.m11.isFinite && m.m12.isFinite && m.m13.isFinite && m.m14.isFinite
            && m.m21.isFinite && m.m22.isFinite && m.m23.isFinite && m.m24.isFinite
            && m.m31.isFinite && m.m32.isFinite && m.m33.isFinite && m.m34.isFinite
            && m.m41.isFinite && m.m42.isFinite && m.m43.isFinite && m.m44.isFinite
    }

    /// Whether the rectangle's origin and size are finite.
    static func isFinite(_ r: CGRect) -> Bool {
        r.origin.x.isFinite && r.origin.y.isFinite && r.size.width.isFinite && r.size.height.isFinite
    }

    /// An integer pixel rectangle [x0, x1) × [y0, y1).
    struct IntBox: Equatable {
        var x0: Int, y0: Int, x1: Int, y1: Int
        var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
        /// Whether the two boxes share a pixel.
        func intersects(_ o: IntBox) -> Bool {
            !isEmpty && !o.isEmpty && x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1
        }
        /// Number of pixels covered (0 when empty).
        var pixelCount: Int { isEmpty ? 0 : (x1 - x0) * (y1 - y0) }
        func union(_ o: IntBox) -> IntBox {
            if isEmpty { return o }
            if o.isEmpty { return self }
            return IntBox(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
        }
        /// The pixels in both boxes (empty when they share none).
        func intersection(_ o: IntBox) -> IntBox {
            IntBox(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
        }
        func clamped(width: Int, height: Int) -> IntBox {
            IntBox(x0: max(0, x0), y0: max(0, y0), x1: min(width, x1), y1: min(height, y1))
        }
    }

    /// A device coordinate as a pixel index, clamped to ±10⁹ so that huge geometry cannot
    /// overflow `Int` (NaN counts as 0).
    static func pixel(_ v: Double) -> Int { v.isNaN ? 0 : Int(min(max(v, -1e9), 1e9)) }

    /// The pixels `r` (layer space) covers under `matrix`, grown by `margin` pixels; nil when a
    /// corner is not finite. Coordinates are clamped to ±10⁹ so huge geometry cannot overflow.
    static func deviceBox(_ r: CGRect, _ matrix: CATransform3D, margin: CGFloat) -> IntBox? {
        // Four named corners rather than an array: this runs for every layer in every frame.
        let a = matrix._project(x: r.minX, y: r.minY), b = matrix._project(x: r.maxX, y: r.minY)
        let c = matrix._project(x: r.minX, y: r.maxY), d = matrix._project(x: r.maxX, y: r.maxY)
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite, c.x.isFinite, c.y.isFinite,
              d.x.isFinite, d.y.isFinite else { return nil }
        return IntBox(x0: pixel((min(min(a.x, b.x), min(c.x, d.x)) - margin).rounded(.down)),
                      y0: pixel((min(min(a.y, b.y), min(c.y, d.y)) - margin).rounded(.down)),
                      x1: pixel((max(max(a.x, b.x), max(c.x, d.x)) + margin).rounded(.up)),
                      y1: pixel((max(max(a.y, b.y), max(c.y, d.y)) + margin).rounded(.up)))
    }

    /// The matrix with its z output dropped: what a layer's content becomes once flattened into
    /// its superlayer's plane (x, y and w are kept, so perspective still shows). The whole z
    /// column goes, m33 included: a point off the layer's plane (a CATransformLayer's subtree)
    /// lands in the superlayer's plane too, so its depth cannot reach the superlayer's own
    /// perspective further up.
    static func flattened(_ m: CATransform3D) -> CATransform3D {
        var f = m
        f.m13 = 0; f.m23 = 0; f.m33 = 0; f.m43 = 0
        return f
    }

    /// The 2D map of the layer plane (z = 0) when it has no perspective, else nil.
    static func affine(_ m: CATransform3D) -> Transform? {
        guard m.m14 == 0, m.m24 == 0, m.m44 == 1 else { return nil }
        return Transform(a: Double(m.m11), b: Double(m.m12), c: Double(m.m21), d: Double(m.m22),
                         tx: Double(m.m41), ty: Double(m.m42))
    }

    /// The homography of the layer plane (z = 0) → device: rows/columns 1, 2, 4 of the matrix.
    static func projective(_ m: CATransform3D) -> Projective? {
        let h = Projective(Double(m.m11), Double(m.m21), Double(m.m41),
                           Double(m.m12), Double(m.m22), Double(m.m42),
                           Double(m.m14), Double(m.m24), Double(m.m44))
        return h.inverted() == nil ? nil : h
    }

    /// The projected outline of `r` (device points, in order round it), clipped to the part in
    /// front of the eye (w > ε), into `clipped` (emptied first; its storage is kept, so a
    /// renderer's scratch array makes no allocation a frame); false when less than a triangle
    /// of it is.
    static func projectedQuad(_ r: CGRect, _ h: Projective, into clipped: inout [Point]) -> Bool {
        clipped.removeAll(keepingCapacity: true)
        func corner(_ i: Int) -> (Double, Double) {
            switch i & 3 {
            case 0: (Double(r.minX), Double(r.minY))
            case 1: (Double(r.maxX), Double(r.minY))
            case 2: (Double(r.maxX), Double(r.maxY))
            default: (Double(r.minX), Double(r.maxY))
            }
        }
        let eps = 1e-6
        func w(_ p: (Double, Double)) -> Double { h.m.6 * p.0 + h.m.7 * p.1 + h.m.8 }
        func append(_ p: (Double, Double)) { if let q = h.apply(Point(x: p.0, y: p.1)) { clipped.append(q) } }
        for i in 0..<4 {
            let a = corner(i), b = corner(i + 1)
            let wa = w(a), wb = w(b)
            if wa > eps { append(a) }
            if (wa > eps) != (wb > eps) {
                let t = (eps - wa) / (wb - wa)
                append((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t))
            }
        }
        return clipped.count >= 3
    }

    /// True when the layer's front face points away from the viewer (its projected bounds wind
    /// the other way round).
    static func isBackFacing(_ r: CGRect, _ m: CATransform3D) -> Bool {
        let a = m._project(x: r.minX, y: r.minY), b = m._project(x: r.maxX, y: r.minY), c = m._project(x: r.maxX, y: r.maxY)
        let cross = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        let flip = a.w < 0 || b.w < 0 || c.w < 0
        return (cross < 0) != flip
    }
}

/// Where contents land in the bounds for each `contentsGravity` (Apple's twelve values).
/// CALayer.h: the vertical names follow the layer's y axis — "bottom" always means minimum Y and
/// "top" maximum Y. Layer space here is iOS's, y growing downwards, so `.top` (and `.topLeft`,
/// `.topRight`) puts the contents at the visual *bottom* and `.bottom` at the visual top, as on
/// iOS (Apple's `contentsGravity` note: check `contentsAreFlipped()` when using a gravity with a
/// vertical component; observed on iOS by github.com/ynaoto/iOSCALayer, where `.bottom` sticks to
/// the top of the screen). UIView's `contentMode` maps `.top` to `.bottom` and back for this.
enum ContentsGravity {
    static func rect(for gravity: CALayerContentsGravity, contentSize s: CGSize, in b: CGRect) -> CGRect {
        switch gravity {
        case .resize: return b
        case .resizeAspect, .resizeAspectFill:
            guard s.width > 0, s.height > 0 else { return b }
            let fx = b.width / s.width, fy = b.height / s.height
            let f = gravity == .resizeAspect ? min(fx, fy) : max(fx, fy)
            let size = CGSize(width: s.width * f, height: s.height * f)
            return CGRect(x: b.midX - size.width / 2, y: b.midY - size.height / 2, width: size.width, height: size.height)
        default:
            let name = gravity.rawValue.lowercased()
            let x: CGFloat = name.contains("left") ? b.minX : name.contains("right") ? b.maxX - s.width : b.midX - s.width / 2
            let y: CGFloat = name.contains("bottom") ? b.minY : name.contains("top") ? b.maxY - s.height : b.midY - s.height / 2
            return CGRect(x: x, y: y, width: s.width, height: s.height)
        }
    }
}

/// Nine-slice scaling (`contentsCenter`): the unit rectangle `center` of the contents stretches,
/// the margins around it keep their size (source pixels / contentsScale), as Apple documents.
/// When the destination is smaller than the fixed margins, they shrink proportionally.
enum NineSlice {
    static func cells(source s: CGRect, center c: CGRect, dest d: CGRect, scale: CGFloat) -> [(CGRect, CGRect)] {
        let sx = [s.minX, s.minX + c.minX * s.width, s.minX + c.maxX * s.width, s.maxX]
        let sy = [s.minY, s.minY + c.minY * s.height, s.minY + c.maxY * s.height, s.maxY]
        func destStops(_ src: [CGFloat], _ lo: CGFloat, _ hi: CGFloat) -> [CGFloat] {
            let first = (src[1] - src[0]) / scale, last = (src[3] - src[2]) / scale
            let fit = min(1, (hi - lo) / max(first + last, 1e-9))
            return [lo, lo + first * fit, hi - last * fit, hi]
        }
        let dx = destStops(sx, d.minX, d.maxX), dy = destStops(sy, d.minY, d.maxY)
        var out: [(CGRect, CGRect)] = []
        for j in 0..<3 {
            for i in 0..<3 {
                out.append((CGRect(x: sx[i], y: sy[j], width: sx[i + 1] - sx[i], height: sy[j + 1] - sy[j]),
                            CGRect(x: dx[i], y: dy[j], width: dx[i + 1] - dx[i], height: dy[j + 1] - dy[j])))
            }
        }
        return out
    }
}
