import QuartzCore
import Raster

/// The grid-warp types: rippleEffect and suckEffect (private types), each a grid of triangles
/// whose corners move by a formula; every triangle is drawn with the affine map its corners
/// define, so the warp is continuous and seamless.
///
/// rippleEffect: "water ripples spreading over the picture while it cross-fades" — iOS's
/// ripple ignores the subtype (community lists: "滴水效果(不支持过渡方向)", 199305a/
/// ProjectTemplates CATransition+extension.swift). The cross-dissolve old·(1 − p) + new·p is
/// sampled at each grid point displaced radially from the layer's centre by
///
///     A(p)·sin(2π·(r/λ − 3p))·e^(−r/ρ)·edge(P),   A(p) = 0.03·m·sin(πp),  λ = m/6,  ρ = m,
///
/// m the shorter side, r the distance from the centre and edge(P) ramping from 0 at the layer's
/// border to 1 a tenth of m inside it (the border stays put): three wave crests travel outwards
/// while the amplitude swells and dies away (A(0) = A(1) = 0). The constants are estimates: no
/// measurement of the rippleEffect transition was found. Apple's Core Image ripple
/// (CIRippleTransition: inputWidth default 100, inputScale 50, centre (150, 150) of a 300×300
/// extent; its filter attributes, as dagronf/CIFilterFactory lists them) is a different effect
/// — one ring that uncovers the target image — so its numbers are not adopted.
///
/// suckEffect: "the old picture is sucked into a point" — on iOS "sucked to around (160, 360)
/// on the screen" for a full-screen 320×480 view (iPhone Development Wiki, UIViewAnimationState),
/// i.e. the point T = (0.5·w, 0.75·h) of the layer; the subtype is ignored ("收缩效果...(不支持过渡
/// 方向)", ProjectTemplates). The old picture is drawn into it like a genie into its lamp: each
/// grid point P moves vertically to the drain's row and horizontally onto the drain's column,
///
///     y' = P.y + (T.y − P.y)·e(clamp(2p − dy, 0, 1)),   x' = P.x + (T.x − P.x)·e(clamp(2.5p − dy, 0, 1)),
///
/// dy = |P.y − T.y| / (largest |corner.y − T.y|), e(q) = q²(3 − 2q): rows nearest the drain
/// narrow and go in first, the far rows follow (rows keep their order: distances to the drain
/// row shrink monotonically), over the new picture, which stays in place.
extension TransitionMesh {
    /// Grid columns and rows for a rect: about 24 cells along the longer side.
    static func grid(_ r: CGRect, cells: Int = 24) -> (columns: Int, rows: Int) {
        let long = max(r.width, r.height, 1)
        // Clamped: an infinite rect gives ∞/∞ = NaN (found by fuzz-layers).
        func count(_ side: CGFloat) -> Int { Int(clamping: Double((CGFloat(cells) * side / long).rounded()), to: 2...max(2, cells)) }
        return (count(r.width), count(r.height))
    }

    /// Appends the triangles of a grid over `rect`: picture point (texture) → landed point, each
    /// cell split along its diagonal; triangles whose affine map is degenerate are left out.
    static func warp(_ source: TransitionSource, rect: CGRect, texture: (CGPoint) -> CGPoint, landed: (CGPoint) -> CGPoint,
                     into mesh: TransitionMeshBuffer) {
        let (nx, ny) = grid(rect)
        mesh.texture.removeAll(keepingCapacity: true)
        mesh.landed.removeAll(keepingCapacity: true)
        for j in 0...ny {
            for i in 0...nx {
                let p = CGPoint(x: rect.minX + rect.width * CGFloat(i) / CGFloat(nx), y: rect.minY + rect.height * CGFloat(j) / CGFloat(ny))
                mesh.texture.append(texture(p))
                mesh.landed.append(landed(p))
            }
        }
        let tex = mesh.texture, pos = mesh.landed
        func triangle(_ u: Int, _ v: Int, _ w: Int) {
            guard let map = affine(from: (tex[u], tex[v], tex[w]), to: (pos[u], pos[v], pos[w])) else { return }
            mesh.append(.picture(source, map, polygon: mesh.storeTriangle(pos[u], pos[v], pos[w])))
        }
        for j in 0..<ny {
            for i in 0..<nx {
                let a = j * (nx + 1) + i, b = a + 1, c = a + nx + 1, d = c + 1
                triangle(a, b, d)
                triangle(a, d, c)
            }
        }
    }

    /// The ripple's displacement of picture point `p` at progress `t` on `bounds`.
    static func rippleOffset(_ p: CGPoint, progress t: CGFloat, bounds b: CGRect) -> TransitionVector {
        let m = max(min(b.width, b.height), 1)
        let dx = p.x - b.midX, dy = p.y - b.midY, r = (dx * dx + dy * dy).squareRoot()
        guard r > 1e-9 else { return TransitionVector(dx: 0, dy: 0) }
        let amplitude = 0.03 * m * sin(.pi * t)
        let edge = min(1, max(0, min(p.x - b.minX, b.maxX - p.x, p.y - b.minY, b.maxY - p.y) / (0.1 * m)))
        let k = amplitude * sin(2 * .pi * (r / (m / 6) - 3 * t)) * exp(-r / m) * edge
        return TransitionVector(dx: k * dx / r, dy: k * dy / r)
    }

    static func ripple(_ f: TransitionFrame, into mesh: TransitionMeshBuffer) {
        let b = f.bounds, t = f.progress
        warp(.mix, rect: f.oldRect.union(f.newRect), texture: { p in
            let o = rippleOffset(p, progress: t, bounds: b)
            return CGPoint(x: p.x + o.dx, y: p.y + o.dy)
        }, landed: { $0 }, into: mesh)
    }

    /// Where the suck effect has moved picture point `p` at progress `t`.
    static func sucked(_ p: CGPoint, progress t: CGFloat, bounds b: CGRect) -> CGPoint {
        let target = CGPoint(x: b.minX + 0.5 * b.width, y: b.minY + 0.75 * b.height)
        let far = max(abs(b.minY - target.y), abs(b.maxY - target.y), 1e-9)
        let dy = abs(p.y - target.y) / far
        func e(_ q: CGFloat) -> CGFloat { let q = min(1, max(0, q)); return q * q * (3 - 2 * q) }
        return CGPoint(x: p.x + (target.x - p.x) * e(2.5 * t - dy), y: p.y + (target.y - p.y) * e(2 * t - dy))
    }

    static func suck(_ f: TransitionFrame, into mesh: TransitionMeshBuffer) {
        let b = f.bounds, t = f.progress
        mesh.append(.picture(.new))
        warp(.old, rect: f.oldRect, texture: { $0 }, landed: { sucked($0, progress: t, bounds: b) }, into: mesh)
    }
}
