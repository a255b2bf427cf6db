import QuartzCore
import Raster

/// `allowsEdgeAntialiasing` / `edgeAntialiasingMask`: which edges of a layer's quad are
/// antialiased.
///
/// Apple (CALayer.h): allowsEdgeAntialiasing — "When true, the layer is allowed to antialias its
/// edges, as requested by the value of the edgeAntialiasingMask property"; its default "is read
/// from the boolean UIViewEdgeAntialiasing property in the main bundle's Info.plist. If no value
/// is found in the Info.plist the default value is false" — so on iOS the edges of a rotated
/// layer are aliased (jagged) unless the app opts in. edgeAntialiasingMask: kCALayerLeftEdge is
/// the minX edge, kCALayerRightEdge maxX, kCALayerBottomEdge minY and kCALayerTopEdge maxY (the
/// header's comments; in iOS's y-down layer space the "bottom" edge is the visual top, as with
/// contentsGravity).
///
/// **Citrine's default is true** (as an iOS app whose Info.plist sets UIViewEdgeAntialiasing):
/// Citrine renders to image files and videos that are viewed as final pictures, often at 1×,
/// where jagged edges of every rotated layer show far more than on a 2×/3× iOS screen, and its
/// rasterizer antialiases every edge exactly at no extra cost. Code that sets the property keeps
/// working: false (or a mask without some edges) draws those edges aliased — a pixel belongs to
/// the layer when its centre lies inside the edge, as a GPU rasterizes a quad without
/// multisampling.
///
/// How: the layer's own drawing (content, then its border) goes to a transparent surface; each
/// pixel near an aliased edge is then rescaled from its antialiased coverage of the layer's quad
/// to the aliased one (full inside the edge's pixel-centre test, nothing outside), so content that
/// fills the layer up to an edge ends in a hard step there. Content away from the edges (and
/// content beyond the bounds, e.g. a shape layer's stroke) is unchanged. Sublayers have their own
/// edges.
extension LayerRenderer {
    /// Draws `body` (a part of `p`'s own drawing, given a surface and the layer → surface matrix)
    /// with `p`'s edges antialiased as `edgeAntialiasingMask` says: aliased edges go through an
    /// offscreen surface, without which (past the offscreen budget) the part is not drawn.
    func withEdges(of p: CALayer, matrix: CATransform3D, into canvas: Pixmap, _ body: (Pixmap, CATransform3D) -> Void) {
        guard p._renderingOptions.contains(.aliasedEdges) else { return body(canvas, matrix) }
        let bounds = p.bounds
        guard let area = LayerContent.rect(p),
              let box = LayerGeometry.deviceBox(area, matrix, margin: 2)?.clamped(width: canvas.width, height: canvas.height),
              !box.isEmpty else {
            return body(canvas, matrix)
        }
        withOffscreen(width: box.x1 - box.x0, height: box.y1 - box.y0, for: p) { surface in
            let local = CATransform3DConcat(matrix, CATransform3DMakeTranslation(CGFloat(-box.x0), CGFloat(-box.y0), 0))
            body(surface, local)
            if let edges = QuadEdges(bounds, local, antialiased: p._antialiasedEdges) { edges.harden(surface) }
            canvas.draw(surface, atX: box.x0, y: box.y0)
        }
    }

    /// The four edges of a layer's bounds in device space, each a line with its signed distance
    /// (pixels, positive inside) and whether it is antialiased.
    struct QuadEdges {
        /// Per edge: distance = a·x + b·y + c at a pixel centre (x, y) for a unit normal (a, b),
        /// and antialiased or not.
        var lines: [(a: Double, b: Double, c: Double, smooth: Bool)] = []

        /// nil when the projected bounds are degenerate or (partly) behind the eye.
        init?(_ r: CGRect, _ m: CATransform3D, antialiased: CAEdgeAntialiasingMask) {
            let corners = [(r.minX, r.minY), (r.maxX, r.minY), (r.maxX, r.maxY), (r.minX, r.maxY)].map { m._project(x: $0.0, y: $0.1) }
            guard corners.allSatisfy({ $0.w > 0 && $0.x.isFinite && $0.y.isFinite }) else { return nil }
            let p = corners.map { (x: Double($0.x), y: Double($0.y)) }
            // Edge i runs from corner i to corner i + 1: minY, maxX, maxY, minX.
            let kinds: [CAEdgeAntialiasingMask] = [.layerBottomEdge, .layerRightEdge, .layerTopEdge, .layerLeftEdge]
            for i in 0..<4 {
                let s = p[i], e = p[(i + 1) % 4], other = p[(i + 2) % 4]
                let dx = e.x - s.x, dy = e.y - s.y
                let length = (dx * dx + dy * dy).squareRoot()
                guard length > 1e-9 else { return nil }
                var a = -dy / length, b = dx / length
                var c = -(a * s.x + b * s.y)
                if a * other.x + b * other.y + c < 0 { a = -a; b = -b; c = -c }
                lines.append((a, b, c, antialiased.contains(kinds[i])))
            }
        }

        /// The area of a unit pixel square on the inside of a line with unit normal (a, b) whose
        /// centre lies `d` pixels inside it: the distribution of a·X + b·Y for X, Y uniform on
        /// [−½, ½] (a trapezoid), integrated up to d.
        static func coverage(_ d: Double, _ a: Double, _ b: Double) -> Double {
            let u = max(abs(a), abs(b)), v = min(abs(a), abs(b))
            guard v > 1e-9 else { return min(1, max(0, d / u + 0.5)) }
            func ramp(_ x: Double) -> Double { x > 0 ? x * x / 2 : 0 }
            let h1 = (u - v) / 2, h2 = (u + v) / 2
            return min(1, max(0, (ramp(d + h2) - ramp(d + h1) - ramp(d - h1) + ramp(d - h2)) / (u * v)))
        }

        /// Rescales every pixel the quad's edges cross from its antialiased coverage to the
        /// coverage with the aliased edges hard: full when its centre is inside them, nothing
        /// when it is outside (premultiplied channels scaled together, so they stay ≤ alpha).
        /// Pixels the quad does not reach at all keep their content.
        func harden(_ surface: Pixmap) {
            let words = surface.words
            for y in 0..<surface.height {
                let py = Double(y) + 0.5
                for x in 0..<surface.width {
                    let px = Double(x) + 0.5
                    let i = y * surface.width + x
                    let word = words[i]
                    guard word != 0 else { continue }   // nothing drawn here: nothing to rescale
                    var smooth = 1.0, hard = 1.0
                    for l in lines {
                        let d = l.a * px + l.b * py + l.c
                        let coverage = Self.coverage(d, l.a, l.b)
                        smooth = min(smooth, coverage)
                        hard = min(hard, l.smooth ? coverage : (d >= 0 ? 1 : 0))
                    }
                    guard smooth > 0, hard != smooth else { continue }
                    let alpha = Double(word >> 24)
                    // Opaque content within the rasterizer's coverage rounding of full stays opaque.
                    let f = alpha * hard / smooth > 250 ? 255 / alpha : hard / smooth
                    var out: UInt32 = 0
                    for shift in stride(from: 0 as UInt32, to: 32, by: 8) {
                        out |= UInt32(min(255, (Double(word >> shift & 0xFF) * f).rounded())) << shift
                    }
                    words[i] = out
                }
            }
        }
    }
}
