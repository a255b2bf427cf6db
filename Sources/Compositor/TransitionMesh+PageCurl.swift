import QuartzCore
import Raster

/// pageCurl / pageUnCurl (private types): the old picture curls off along a cylinder, showing its
/// back side (lighter, mirrored) and casting a soft shadow on the new picture it uncovers;
/// pageUnCurl is the reverse (the new picture uncurls down over the old). UIKit's curl
/// transitions are these types (iPhone Development Wiki, "UIViewAnimationState": CurlUp =
/// pageCurl, CurlDown = pageUnCurl), and Apple's own page curl is a cylinder filter with an angle
/// and a time (kCAFilterPageCurl, inputAngle / inputTime; S. Troughton-Smith, "Apple's iBooks
/// Dynamic Page Curl").
///
/// Model (orthographic, as the curl is drawn flat on iOS): the curl travels along a unit vector
/// D across the page, starting from the subtype's edge — fromBottom (D up), fromTop, fromLeft,
/// fromRight — or, for a nil subtype (UIKit's curl up), from the bottom-right corner with D
/// turned 20° from straight up (an estimate of UIKit's slant). s = distance along D from where
/// the curl starts, L = the page's extent along D, R = L/10 the cylinder's radius (estimates: no
/// measurement of the pageCurl transition's radius or slant was found; Apple's only documented
/// curl radius is Core Image's CIPageCurlTransition, inputRadius default 100 over its default
/// 300×300 extent — its filter attributes, as dagronf/CIFilterFactory lists them — another
/// filter, with no evidence that the CATransition uses it, so it is not adopted).
/// At progress p the fold line lies at s = f = p·(L + R). Points with s ≥ f lie flat; a point
/// at arc length d = f − s behind the fold lies on the cylinder at angle φ = d/R (d ≤ π·R),
/// seen at s' = f − R·sin φ — its front for φ ≤ 90° (shaded by cos φ), its back beyond — and
/// past the cylinder (d > π·R) flat on top of the page, mirrored, at s' = 2f − π·R − s. The
/// new picture shows where s' < f − R; a shadow darkens it next to the cylinder, and the flap's
/// edge shades the flat page beyond it. The page is clipped to its own rectangle; p = 1 takes
/// every point beyond it (f − R = L).
extension TransitionMesh {
    /// The curl's direction D, unit, for a subtype.
    static func curlDirection(_ subtype: CATransitionSubtype?) -> TransitionVector {
        switch subtype {
        case .fromBottom: return TransitionVector(dx: 0, dy: -1)
        case .fromTop: return TransitionVector(dx: 0, dy: 1)
        case .fromLeft: return TransitionVector(dx: 1, dy: 0)
        case .fromRight: return TransitionVector(dx: -1, dy: 0)
        default:
            let a = 20 * CGFloat.pi / 180
            return TransitionVector(dx: -sin(a), dy: -cos(a))
        }
    }

    /// The curl's frame on `page`: direction D, the offset s0 (s = P·D − s0), extent L, radius R,
    /// and the fold line f at progress `p`.
    static func curl(on page: CGRect, _ subtype: CATransitionSubtype?, progress p: CGFloat)
        -> (d: TransitionVector, s0: CGFloat, length: CGFloat, radius: CGFloat, fold: CGFloat) {
        let d = curlDirection(subtype)
        var lo = CGFloat.infinity, hi = -CGFloat.infinity
        for i in 0..<4 {
            let c = corner(page, i), s = c.x * d.dx + c.y * d.dy
            lo = min(lo, s)
            hi = max(hi, s)
        }
        let s0 = lo, length = hi - s0
        let radius = length / 10
        return (d, s0, length, radius, p * (length + radius))
    }

    static func pageCurl(_ f: TransitionFrame, picture: TransitionSource, under: TransitionSource, progress p: CGFloat,
                         into mesh: TransitionMeshBuffer) {
        let page = f.rect(picture)
        let k = curl(on: page, f.subtype, progress: p)
        let (d, s0, r, fold) = (k.d, k.s0, k.radius, k.fold)
        /// `mesh.work` := the part of the page with lo ≤ s ≤ hi; whether it is not empty.
        func band(_ lo: CGFloat, _ hi: CGFloat) -> Bool {
            mesh.loadWork(page)
            mesh.clipWork(d.dx, d.dy, -s0 - lo)
            mesh.clipWork(-d.dx, -d.dy, s0 + hi)
            return !mesh.work.isEmpty
        }
        /// `mesh.work` := `mesh.work` moved by `map` and clipped to the page; whether it is not empty.
        func land(_ map: Projective) -> Bool {
            mesh.mapWork(map)
            mesh.clipWork(to: page)
            return !mesh.work.isEmpty
        }
        /// The map that moves picture points at s to s' = a·s + b along D.
        func alongD(_ a: CGFloat, _ b: CGFloat) -> Projective {
            // P' = P + ((a − 1)·s + b)·D, s = P·D − s0.
            let g = a - 1, k0 = b - g * s0
            return Projective(Double(1 + g * d.dx * d.dx), Double(g * d.dx * d.dy), Double(k0 * d.dx),
                              Double(g * d.dy * d.dx), Double(1 + g * d.dy * d.dy), Double(k0 * d.dy), 0, 0, 1)
        }
        // Shadows fade out over the last fifth, so that p = 1 is the new picture alone.
        let shade = Float(min(1, 5 * (1 - p)))
        mesh.append(.picture(under))
        func point(_ s: CGFloat, on q: CGPoint) -> CGPoint {
            let delta = s - (q.x * d.dx + q.y * d.dy - s0)
            return CGPoint(x: q.x + delta * d.dx, y: q.y + delta * d.dy)
        }
        let anchor = CGPoint(x: page.midX, y: page.midY)
        // The cylinder's shadow on the uncovered page, darkest against it.
        let edge = fold - r
        if band(edge - r, edge), shade > 0 {
            mesh.append(TransitionPiece(kind: .shade(start: point(edge - r, on: anchor), end: point(edge, on: anchor),
                                                     alpha: (0, 0.45 * shade)), polygon: mesh.storeWork()))
        }
        // The flat part.
        if band(fold, .infinity) { mesh.append(.picture(picture, polygon: mesh.storeWork())) }
        // The cylinder in strips of Δφ = 180°/16, front then back (drawn last), and the flap beyond it.
        let strips = 16
        for i in 0..<strips {
            let phi0 = CGFloat(i) * .pi / CGFloat(strips), phi1 = CGFloat(i + 1) * .pi / CGFloat(strips)
            // Picture band: s from fold − R·φ1 to fold − R·φ0, landing at s' = fold − R·sin φ.
            let sa = fold - r * phi1, sb = fold - r * phi0
            let ta = fold - r * sin(phi1), tb = fold - r * sin(phi0)
            guard band(sa, sb), abs(tb - ta) > 1e-9 * max(1, r) else { continue }
            let a = (tb - ta) / (sb - sa), map = alongD(a, ta - a * sa)
            guard land(map) else { continue }
            let mid = (phi0 + phi1) / 2
            if mid < .pi / 2 {
                mesh.append(.picture(picture, map, polygon: mesh.storeWork(), tint: TexelTint(multiply: Float(0.55 + 0.45 * cos(mid)))))
            } else {
                mesh.appendLast(.picture(picture, map, polygon: mesh.storeWork(), tint: backTint(shading: Float(-cos(mid)))))
            }
        }
        // The flap: d > π·R, s < fold − π·R, at s' = 2·fold − π·R − s.
        let flapEnd = fold - .pi * r
        if band(-.infinity, flapEnd) {
            let map = alongD(-1, 2 * fold - .pi * r)
            if land(map) {
                let landed = mesh.storeWork()
                // Its shadow on the flat page beyond its far edge (s' = 2·fold − π·R − 0).
                let far = 2 * fold - .pi * r
                if band(far, far + r), shade > 0 {
                    mesh.append(TransitionPiece(kind: .shade(start: point(far, on: anchor), end: point(far + r, on: anchor),
                                                             alpha: (0.3 * shade, 0)), polygon: mesh.storeWork()))
                }
                mesh.appendLast(.picture(picture, map, polygon: landed, tint: backTint(shading: 1)))
            }
        }
        // The back strips and the flap after the front strips: they lie above them.
        mesh.finish()
    }

    /// The back of the page: its picture seen through lighter paper — a third of its colour over
    /// white (an estimate of iOS's look), a little darker where the cylinder turns away.
    static func backTint(shading: Float) -> TexelTint {
        let light = 0.85 + 0.15 * max(0, min(1, shading))
        return TexelTint(multiply: 0.3 * light, addWhite: 0.62 * light)
    }
}
