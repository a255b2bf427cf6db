// Transitions (CATransition): a layer with a running transition is drawn from two pictures of
// its subtree (`TransitionPicture`) —
//
//     old   the subtree as the last commit left it when the transition was added
//           (`CATransition._sourceLayer`, a copy of the layer and the sublayers it then had),
//           drawn once, at the first frame
//     new   the subtree now, drawn again only when it may have changed (a committed change, an
//           animation below the layer, a pending display)
//
// A layer hidden (or fully transparent) on either side has an empty picture there, so a
// transition added with `isHidden = true` animates the layer out, and one added with
// `isHidden = false` animates it in (the layer is drawn while its transition runs).
//
// — combined at the transition's progress p by the type's mesh function (`TransitionMesh`):
// convex pieces of either picture (or of their cross-dissolve), each carried onto the layer's
// plane by an affine map or a homography, then to the device by the layer's matrix, and drawn
// with the rasterizer's textured-polygon path (`Pixmap.drawTexture(_:inside:imageToDevice:)`);
// a whole picture in place under an affine matrix goes through `Pixmap.drawTexture`, which
// copies aligned pixels exactly. Nothing the size of the canvas is allocated per frame, and the
// pieces and their polygons go into the transition's reused `TransitionMeshBuffer`.
//
//     type                    what the old (o) and new (n) pictures do                  file
//     fade (and unknown)      o·(1 − p) + n·p                                            TransitionMesh
//     moveIn / push / reveal  slide by the subtype's side (±width / ±height)            +Slide
//     cube (alignedCube)      two faces of a cube turning 90° in perspective            +Cube
//     oglFlip (flip, aligned…) the layer turns 180° in perspective, o front, n back    +Flip
//     pageCurl / pageUnCurl   o curls off along a cylinder (n uncurls over o)           +PageCurl
//     rippleEffect            o·(1 − p) + n·p seen through spreading ripples            +Warp
//     suckEffect              o drains into a point at ¾ of the layer's height over n   +Warp
//     cameraIris*             a circular aperture closes over o and opens onto n        +Iris
//
// The mesh files cite what each choice rests on. At progress 0 the frame shows the old picture
// and at progress 1 the new one, in place (slides keep their geometry: the other picture then
// lies just outside the layer, visible unless the layer masks to bounds, as on iOS).
import QuartzCore
import Raster

extension LayerRenderer {
    func drawTransition(_ transition: CATransition, progress: Float, from source: CALayer, to model: CALayer,
                        _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval, into canvas: Pixmap, depth: Int,
                        tint: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)?) {
        let state: TransitionRenderState
        if let s = transition._renderState as? TransitionRenderState { state = s } else {
            state = TransitionRenderState()
            transition._renderState = state
        }
        let t = CGFloat(progress.isNaN ? 0 : min(max(progress, 0), 1))
        let type = transition._drawnType
        let slides = type == .moveIn || type == .push || type == .reveal
        guard let newLayout = TransitionPicture.Layout(bounds: p.bounds, matrix: matrix, fallbackScale: scale, maxPixels: leaves.maxPixels) else { return }
        let oldLayout = state.from?.layout
            ?? TransitionPicture.Layout(bounds: source.bounds, matrix: matrix, fallbackScale: scale, maxPixels: leaves.maxPixels) ?? newLayout
        let frame = TransitionFrame(progress: t, subtype: transition.subtype, bounds: p.bounds,
                                    oldRect: oldLayout.rect, newRect: newLayout.rect, masksToBounds: p.masksToBounds)
        // The end points are the pictures themselves (slides keep their geometry).
        let mesh = state.mesh
        mesh.reset()
        if !slides && t <= 0 { mesh.append(.picture(.old)) } else if !slides && t >= 1 { mesh.append(.picture(.new)) } else {
            TransitionMesh.pieces(type, frame, into: mesh)
        }
        var needsOld = false, needsNew = false, needsMix = false
        for case let source? in mesh.pieces.lazy.map(\.source) {
            needsOld = needsOld || source != .new
            needsNew = needsNew || source != .old
            needsMix = needsMix || source == .mix
        }
        let tintKey = tint.map { [$0.r, $0.g, $0.b, $0.a] }
        // A layer hidden (or transparent) before or after the change has an empty picture then:
        // the transition animates it in or out.
        let old = needsOld && LayerRenderer.isShown(source)
            ? oldPicture(state, source: source, layout: oldLayout, time: time, depth: depth, tint: tint) : nil
        let new = needsNew && LayerRenderer.isShown(p)
            ? newPicture(state, model: model, p, layout: newLayout, time: time, depth: depth, tint: tint, tintKey: tintKey) : nil
        var mix: TransitionPicture?
        if needsMix, let old, let new, old.layout == new.layout,
           let mixed = picture(old.layout, reusing: state.mix, of: model, { $0.crossDissolve(old.pixmap, new.pixmap, weight: Float(t)) }) {
            state.mix = mixed
            mix = mixed
        }
        for piece in mesh.pieces {
            switch piece.kind {
            case let .picture(s, pieceTint, opacity):
                switch s {
                case .old: if let old { draw(old, piece, tint: pieceTint, opacity: opacity, mesh: mesh, layer: p, matrix: matrix, into: canvas) }
                case .new: if let new { draw(new, piece, tint: pieceTint, opacity: opacity, mesh: mesh, layer: p, matrix: matrix, into: canvas) }
                case .mix:
                    if let mix {
                        draw(mix, piece, tint: pieceTint, opacity: opacity, mesh: mesh, layer: p, matrix: matrix, into: canvas)
                    } else {
                        // Pictures of different sizes: each at its weight (exact where the new one is opaque).
                        if let old { draw(old, piece, tint: pieceTint, opacity: opacity * Float(1 - t), mesh: mesh, layer: p, matrix: matrix, into: canvas) }
                        if let new { draw(new, piece, tint: pieceTint, opacity: opacity * Float(t), mesh: mesh, layer: p, matrix: matrix, into: canvas) }
                    }
                }
            case let .shade(start, end, alpha):
                drawShade(piece.polygon.map { mesh.points[$0] }, start: start, end: end, alpha: alpha, matrix: matrix, into: canvas)
            }
        }
    }

    /// The "from" picture: drawn once from the recorded subtree (again only if the scale changes).
    private func oldPicture(_ state: TransitionRenderState, source: CALayer, layout: TransitionPicture.Layout,
                            time: CFTimeInterval, depth: Int, tint: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)?) -> TransitionPicture? {
        if let from = state.from, from.layout == layout { return from }
        guard let drawn = picture(layout, reusing: nil, of: source, {
            drawPlaced(source, source, matrix: layout.layerToBitmap, time: time, into: $0, depth: depth, tint: tint)
        }) else { return nil }
        state.from = drawn
        return drawn
    }

    /// The "to" picture: the subtree now, redrawn when it may have changed since the last frame.
    private func newPicture(_ state: TransitionRenderState, model: CALayer, _ p: CALayer, layout: TransitionPicture.Layout,
                            time: CFTimeInterval, depth: Int, tint: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)?,
                            tintKey: [CGFloat]?) -> TransitionPicture? {
        let stamp = TransitionRenderState.Stamp(changes: CATransaction._changeCount, layout: layout,
                                                key: LeafKey(LeafKey.Values(p, rasterScale: layout.scale)), opacity: p.opacity, tint: tintKey)
        if let to = state.to, state.toStamp == stamp, TransitionRenderState.isSettled(model) { return to }
        guard let drawn = picture(layout, reusing: state.to, of: model, {
            drawPlaced(model, p, matrix: layout.layerToBitmap, time: time, into: $0, depth: depth, tint: tint)
        }) else { return nil }
        state.to = drawn
        state.toStamp = stamp
        return drawn
    }

    /// A transparent picture for `layout` (`old`'s bitmap when it has the size) with `draw` done
    /// into its bitmap, which counts as an offscreen surface of `layer` meanwhile (it is kept
    /// for later frames afterwards); nil past the offscreen budget.
    private func picture(_ layout: TransitionPicture.Layout, reusing old: TransitionPicture?, of layer: CALayer,
                         _ draw: (Pixmap) -> Void) -> TransitionPicture? {
        withOffscreenScope {
            guard admitOffscreen(width: layout.width, height: layout.height, for: layer),
                  let picture = TransitionPicture.blank(layout, reusing: old) else { return nil }
            draw(picture.pixmap)
            return picture
        }
    }

    /// Draws one picture piece: `picture`'s bitmap → its layer-space rectangle → the piece's
    /// transform → the layer's matrix, inside the piece's polygon (or circle, or the layer's
    /// rounded bounds); `mesh` holds the piece's points and the scratch polygons.
    private func draw(_ picture: TransitionPicture, _ piece: TransitionPiece, tint: TexelTint, opacity: Float,
                      mesh: TransitionMeshBuffer, layer p: CALayer, matrix: CATransform3D, into canvas: Pixmap) {
        guard opacity > 0, let layerToDevice = LayerGeometry.projective(matrix) else { return }
        let imageToDevice = Self.snapped(picture.layout.bitmapToLayer.concatenating(piece.transform).concatenating(layerToDevice))
        let affineLayer = LayerGeometry.affine(matrix)
        let pattern = ImagePattern(image: picture.pixmap, transform: imageToDevice, filter: .bilinear, spread: .decal)
        // The landed polygon (layer space) into `mesh.work`.
        if let circle = piece.circle {
            if let affineLayer, tint == .none {
                let r = circle.radius
                let disc = CGPath(ellipseIn: CGRect(x: circle.center.x - r, y: circle.center.y - r, width: 2 * r, height: 2 * r),
                                  transform: nil)
                canvas.fill(disc.rasterPath, paint: Paint(shader: .image(pattern), opacity: opacity),
                            transform: affineLayer)
                return
            }
            mesh.work.removeAll(keepingCapacity: true)
            for i in 0..<96 {
                let a = CGFloat(i) * 2 * .pi / 96
                mesh.work.append(CGPoint(x: circle.center.x + circle.radius * cos(a), y: circle.center.y + circle.radius * sin(a)))
            }
        } else if piece.clipsToBounds, p.cornerRadius > 0, let affineLayer, tint == .none {
            canvas.fill(LayerGeometry.outline(of: p),
                        paint: Paint(shader: .image(pattern), opacity: opacity), transform: affineLayer)
            return
        } else if let polygon = piece.polygon {
            mesh.loadWork(polygon)
        } else if tint == .none, imageToDevice.m.6 == 0, imageToDevice.m.7 == 0, imageToDevice.m.8 == 1 {
            // The whole picture under an affine map: the texture path (exact copies when aligned).
            let m = imageToDevice.m
            canvas.drawTexture(picture.pixmap, transform: Transform(a: m.0, b: m.3, c: m.1, d: m.4, tx: m.2, ty: m.5),
                               opacity: opacity, clearBorder: true)
            return
        } else {
            mesh.loadWork(picture.layout.rect)
            mesh.mapWork(piece.transform)
        }
        Self.project(mesh, matrix)
        guard mesh.device.count >= 3 else { return }
        canvas.drawTexture(picture.pixmap, inside: mesh.device, imageToDevice: imageToDevice, opacity: opacity, tint: tint)
    }

    /// A black linear shadow over `polygon` (layer space); drawn under affine matrices only.
    private func drawShade(_ polygon: ArraySlice<CGPoint>?, start: CGPoint, end: CGPoint, alpha: (Float, Float), matrix: CATransform3D,
                           into canvas: Pixmap) {
        guard let polygon, polygon.count >= 3, let affine = LayerGeometry.affine(matrix) else { return }
        var path = Path()
        let first = polygon[polygon.startIndex]
        path.move(to: Point(x: Double(first.x), y: Double(first.y)))
        for q in polygon.dropFirst() { path.line(to: Point(x: Double(q.x), y: Double(q.y))) }
        path.close()
        let stops = [GradientStop(offset: 0, color: Color(r: 0, g: 0, b: 0, a: alpha.0)),
                     GradientStop(offset: 1, color: Color(r: 0, g: 0, b: 0, a: alpha.1))]
        let gradient = LinearGradient(start: Point(x: Double(start.x), y: Double(start.y)), end: Point(x: Double(end.x), y: Double(end.y)),
                                      stops: stops, transform: affine)
        canvas.fill(path, paint: Paint(shader: .linearGradient(gradient)), transform: affine)
    }

    /// `mesh.device` := `mesh.work` (layer space) in device pixels under `m`, clipped to the part
    /// in front of the eye (w > 10⁻⁶).
    static func project(_ mesh: TransitionMeshBuffer, _ m: CATransform3D) {
        mesh.clipWork(m.m14, m.m24, m.m44 - 1e-6)
        mesh.device.removeAll(keepingCapacity: true)
        for q in mesh.work {
            let w = Double(q.x * m.m14 + q.y * m.m24 + m.m44)
            mesh.device.append(Point(x: Double(q.x * m.m11 + q.y * m.m21 + m.m41) / w, y: Double(q.x * m.m12 + q.y * m.m22 + m.m42) / w))
        }
    }

    /// `h` with coefficients within 10⁻⁹ of an integer made that integer (so that a picture in
    /// place at an integer offset takes the exact-copy path despite rounding in the products).
    static func snapped(_ h: Projective) -> Projective {
        func s(_ x: Double) -> Double {
            let r = x.rounded()
            return abs(x - r) < 1e-9 ? r : x
        }
        let m = h.m
        return Projective(s(m.0), s(m.1), s(m.2), s(m.3), s(m.4), s(m.5), s(m.6), s(m.7), s(m.8))
    }
}
