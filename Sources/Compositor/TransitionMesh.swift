// Transition meshes: what each CATransition type draws at a progress, as geometry only.
//
// A type is a small function from a `TransitionFrame` (progress, subtype, the layer's bounds and
// the rectangles its two pictures cover) to a back-to-front list of `TransitionPiece`s: convex
// pieces of the old picture, the new one or their cross-dissolve, each with the map that carries
// the picture onto the layer's plane (an affine map for slides, strips and mesh triangles, a
// homography for the perspective types), and soft shadows. Everything is in the layer's own
// coordinate space (points, y down as on iOS); `LayerRenderer+Transition` maps it to device
// pixels with the layer's matrix and draws it with the rasterizer's textured-polygon path, so
// the geometry here can be tested by formula without drawing. A frame's pieces and the points of
// their polygons go into a `TransitionMeshBuffer` the transition keeps, refilled every frame, so
// that after the first frame building and drawing the mesh allocates nothing.
import QuartzCore
import Raster

/// Which picture a piece shows.
enum TransitionSource: Equatable {
    /// The layer's subtree as presented when the transition was added.
    case old
    /// The layer's subtree as it is now.
    case new
    /// old·(1 − p) + new·p (the fade's cross-dissolve), `TransitionFrame.progress` p.
    case mix
}

/// One back-to-front element of a transition frame, in the layer's space.
struct TransitionPiece {
    enum Kind {
        /// The picture's texels, altered by `tint`, at `opacity`.
        case picture(TransitionSource, tint: TexelTint, opacity: Float)
        /// A black shadow, its alpha running linearly from `alpha.0` at `start` to `alpha.1` at
        /// `end` (padded beyond), over `polygon` (a shade always has one).
        case shade(start: CGPoint, end: CGPoint, alpha: (Float, Float))
    }
    var kind: Kind
    /// Where the piece lands (layer space, convex): its points in `TransitionMeshBuffer.points`;
    /// nil: the whole picture mapped by `transform`.
    var polygon: Range<Int>?
    /// The picture's layer space → the layer's plane (identity for shades).
    var transform: Projective = .identity
    /// Clip to this circle (layer space) instead of the polygon: the iris aperture.
    var circle: (center: CGPoint, radius: CGFloat)?
    /// Clip to the layer's rounded bounds (slides of a layer that masks to bounds).
    var clipsToBounds = false

    static func picture(_ source: TransitionSource, _ transform: Projective = .identity, polygon: Range<Int>? = nil,
                        tint: TexelTint = .none, opacity: Float = 1) -> TransitionPiece {
        TransitionPiece(kind: .picture(source, tint: tint, opacity: opacity), polygon: polygon, transform: transform)
    }

    var source: TransitionSource? {
        if case let .picture(s, _, _) = kind { return s }
        return nil
    }
}

/// What a transition type's mesh function is given.
struct TransitionFrame {
    /// Progress 0…1 (after startProgress/endProgress and the timing function).
    var progress: CGFloat
    var subtype: CATransitionSubtype?
    /// The layer's bounds now.
    var bounds: CGRect
    /// The layer-space rectangles the old and new pictures cover (the layer's bounds then and now,
    /// plus a transparent margin of one bitmap pixel).
    var oldRect: CGRect
    var newRect: CGRect
    /// Whether the layer masks to its bounds (slides are then clipped to them).
    var masksToBounds = false

    func rect(_ s: TransitionSource) -> CGRect { s == .old ? oldRect : newRect }
}

/// A transition frame's pieces, back to front, and the points of their polygons, with the scratch
/// polygons the mesh functions and the drawing clip in. A transition keeps one
/// (`TransitionRenderState.mesh`) and refills it every frame: the arrays keep their capacity, so
/// after the first frame a frame allocates none of them again.
final class TransitionMeshBuffer {
    /// The frame's pieces, back to front.
    private(set) var pieces: [TransitionPiece] = []
    /// The points of the pieces' polygons (`TransitionPiece.polygon` ranges), layer space.
    private(set) var points: [CGPoint] = []
    /// Pieces that `finish()` puts after all the others (the page curl's back and flap).
    private var deferred: [TransitionPiece] = []
    /// The polygon being built or clipped (layer space), and the clipping's other buffer.
    var work: [CGPoint] = []
    var spare: [CGPoint] = []
    /// A warp's grid: picture points and where they land.
    var texture: [CGPoint] = []
    var landed: [CGPoint] = []
    /// The polygon being drawn, in device pixels.
    var device: [Point] = []

    /// Empties the frame's pieces and points (keeping their storage).
    func reset() {
        pieces.removeAll(keepingCapacity: true)
        points.removeAll(keepingCapacity: true)
        deferred.removeAll(keepingCapacity: true)
    }

    func append(_ piece: TransitionPiece) { pieces.append(piece) }

    /// Adds `piece` after every piece appended before `finish()`.
    func appendLast(_ piece: TransitionPiece) { deferred.append(piece) }

    /// Moves the `appendLast` pieces to the end of `pieces`.
    func finish() {
        pieces.append(contentsOf: deferred)
        deferred.removeAll(keepingCapacity: true)
    }

    /// Stores `work` as a polygon; its range in `points`.
    func storeWork() -> Range<Int> {
        let start = points.count
        points.append(contentsOf: work)
        return start..<points.count
    }

    /// Stores triangle (a, b, c); its range in `points`.
    func storeTriangle(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint) -> Range<Int> {
        let start = points.count
        points.append(a)
        points.append(b)
        points.append(c)
        return start..<points.count
    }

    /// `work` := the four corners of `r`, clockwise from the top-left (y down).
    func loadWork(_ r: CGRect) {
        work.removeAll(keepingCapacity: true)
        for i in 0..<4 { work.append(TransitionMesh.corner(r, i)) }
    }

    /// `work` := the polygon stored at `range`.
    func loadWork(_ range: Range<Int>) {
        work.removeAll(keepingCapacity: true)
        work.append(contentsOf: points[range])
    }

    /// `work` := `work` mapped by `t`, leaving out points behind the projection.
    func mapWork(_ t: Projective) {
        var kept = 0
        for i in work.indices {
            guard let q = TransitionMesh.apply(t, work[i]) else { continue }
            work[kept] = q
            kept += 1
        }
        work.removeLast(work.count - kept)
    }

    /// `work` := its part where a·x + b·y + c ≥ 0.
    func clipWork(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat) {
        TransitionMesh.clip(&work, a, b, c, spare: &spare)
    }

    /// `work` := `work` ∩ `r`.
    func clipWork(to r: CGRect) {
        clipWork(1, 0, -r.minX)
        clipWork(-1, 0, r.maxX)
        clipWork(0, 1, -r.minY)
        clipWork(0, -1, r.maxY)
    }
}

enum TransitionMesh {
    /// Fills `mesh` (after `reset()`) with the pieces of `type` (a type the compositor draws:
    /// `CATransition._drawnType`).
    static func pieces(_ type: CATransitionType, _ f: TransitionFrame, into mesh: TransitionMeshBuffer) {
        switch type.rawValue {
        case "moveIn", "push", "reveal": slide(type, f, into: mesh)
        case "cube", "alignedCube": cube(f, into: mesh)
        case "oglFlip", "flip", "alignedFlip": flip(f, into: mesh)
        case "pageCurl": pageCurl(f, picture: .old, under: .new, progress: f.progress, into: mesh)
        case "pageUnCurl": pageCurl(f, picture: .new, under: .old, progress: 1 - f.progress, into: mesh)
        case "rippleEffect": ripple(f, into: mesh)
        case "suckEffect": suck(f, into: mesh)
        case "cameraIris", "cameraIrisHollowOpen", "cameraIrisHollowClose": iris(type, f, into: mesh)
        default: mesh.append(.picture(.mix))   // fade
        }
    }

    // MARK: - Geometry helpers

    /// Corner `i` (0…3) of `r`, clockwise from the top-left (y down).
    static func corner(_ r: CGRect, _ i: Int) -> CGPoint {
        switch i {
        case 0: CGPoint(x: r.minX, y: r.minY)
        case 1: CGPoint(x: r.maxX, y: r.minY)
        case 2: CGPoint(x: r.maxX, y: r.maxY)
        default: CGPoint(x: r.minX, y: r.maxY)
        }
    }

    /// Clips convex `polygon` in place to where a·x + b·y + c ≥ 0 (Sutherland–Hodgman, one
    /// plane), writing through `spare` (whose storage it then swaps in); empty when fewer than
    /// three points remain.
    static func clip(_ polygon: inout [CGPoint], _ a: CGFloat, _ b: CGFloat, _ c: CGFloat, spare out: inout [CGPoint]) {
        out.removeAll(keepingCapacity: true)
        for i in polygon.indices {
            let p = polygon[i], q = polygon[(i + 1) % polygon.count]
            let fp = a * p.x + b * p.y + c, fq = a * q.x + b * q.y + c
            if fp >= 0 { out.append(p) }
            if (fp >= 0) != (fq >= 0) {
                let t = fp / (fp - fq)
                out.append(CGPoint(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t))
            }
        }
        if out.count < 3 { out.removeAll(keepingCapacity: true) }
        swap(&polygon, &out)
    }

    /// `t` applied to a point (nil behind the projection).
    static func apply(_ t: Projective, _ p: CGPoint) -> CGPoint? {
        t.apply(Point(x: Double(p.x), y: Double(p.y))).map { CGPoint(x: $0.x, y: $0.y) }
    }

    /// The affine map (as a homography) taking triangle `a` onto triangle `b`; nil when degenerate.
    static func affine(from a: (CGPoint, CGPoint, CGPoint), to b: (CGPoint, CGPoint, CGPoint)) -> Projective? {
        let ux = a.1.x - a.0.x, uy = a.1.y - a.0.y, vx = a.2.x - a.0.x, vy = a.2.y - a.0.y
        let det = ux * vy - uy * vx
        guard abs(det) > 1e-12 else { return nil }
        let px = b.1.x - b.0.x, py = b.1.y - b.0.y, qx = b.2.x - b.0.x, qy = b.2.y - b.0.y
        // M·u = p, M·v = q: M = [p q]·[u v]⁻¹.
        let i00 = vy / det, i01 = -vx / det, i10 = -uy / det, i11 = ux / det
        let m00 = px * i00 + qx * i10, m01 = px * i01 + qx * i11
        let m10 = py * i00 + qy * i10, m11 = py * i01 + qy * i11
        return Projective(Double(m00), Double(m01), Double(b.0.x - m00 * a.0.x - m01 * a.0.y),
                          Double(m10), Double(m11), Double(b.0.y - m10 * a.0.x - m11 * a.0.y), 0, 0, 1)
    }

    /// The homography that shows the plane of a picture placed in 3D and seen in perspective:
    /// `place(x, y)` is the 3D point (relative to the layer's centre `center`, z towards the
    /// viewer) of picture point (x, y) and must be affine in (x, y); the eye looks from distance
    /// `eye` along −z at the centre — Core Animation's perspective m34 = −1/eye, under which a
    /// point at depth z is seen at centre + (X, Y) / (1 − z/eye).
    static func perspective(center c: CGPoint, eye: CGFloat, _ place: (CGFloat, CGFloat) -> (CGFloat, CGFloat, CGFloat)) -> Projective {
        let o = place(0, 0), ex = place(1, 0), ey = place(0, 1)
        // Affine parts of X, Y, Z: value = k0 + kx·x + ky·y.
        let X = (o.0, ex.0 - o.0, ey.0 - o.0), Y = (o.1, ex.1 - o.1, ey.1 - o.1), Z = (o.2, ex.2 - o.2, ey.2 - o.2)
        // w = 1 − Z/eye; x_h = cx·w + X; y_h = cy·w + Y.
        let w = (1 - Z.0 / eye, -Z.1 / eye, -Z.2 / eye)
        let xh = (c.x * w.0 + X.0, c.x * w.1 + X.1, c.x * w.2 + X.2)
        let yh = (c.y * w.0 + Y.0, c.y * w.1 + Y.1, c.y * w.2 + Y.2)
        return Projective(Double(xh.1), Double(xh.2), Double(xh.0), Double(yh.1), Double(yh.2), Double(yh.0),
                          Double(w.1), Double(w.2), Double(w.0))
    }

    /// Along which axis a subtype moves, and which way: +1 for fromRight / fromBottom (the new
    /// picture comes from the +x / +y side), −1 for fromLeft / fromTop; nil subtype is fromLeft.
    static func axis(_ subtype: CATransitionSubtype?) -> (horizontal: Bool, sign: CGFloat) {
        switch subtype {
        case .fromRight: (true, 1)
        case .fromTop: (false, -1)
        case .fromBottom: (false, 1)
        default: (true, -1)
        }
    }
}

extension Projective {
    static let identity = Projective(Transform.identity)

    /// Translation by (dx, dy).
    static func translation(_ dx: CGFloat, _ dy: CGFloat) -> Projective {
        Projective(1, 0, Double(dx), 0, 1, Double(dy), 0, 0, 1)
    }
}

/// A layer-space displacement or direction (points).
struct TransitionVector: Equatable {
    var dx: CGFloat, dy: CGFloat
}
