import QuartzCore
import Raster

/// Depth order of sublayers.
///
/// Apple, CATransformLayer: "Unlike normal layers, transform layers do not flatten their
/// sublayers into the plane at Z=0" — a CALayer flattens its sublayers into its plane, a
/// CATransformLayer's sublayers share its parent's 3D space. Apple, zPosition: "Higher values
/// place this layer visually closer to the viewer than layers with lower values." Inside the 3D
/// space of one flattening layer — its sublayers, and the sublayers of any CATransformLayer among
/// them, recursively — layers are therefore drawn back to front by depth, not by their order in
/// `sublayers` ("listed in back to front order", which decides only between layers at equal
/// depth): a layer turned towards the viewer covers a later sibling, and where two layers
/// intersect each shows on its near side of the other. Core Animation cuts intersecting layers
/// and draws the pieces in depth order (WWDC 2011 session 421, "Core Animation Essentials", as
/// retold at aleahim.com/core-animation-layers-forming-a-3d-cube: to draw a red layer that
/// intersects a blue one it cuts the red layer in two, draws the back piece, the blue layer,
/// then the front piece); Chromium's compositor does the same for CSS 3D with a BSP tree.
/// Layers at equal depth keep their array order; a replicator's instances keep instance order,
/// each ordered within itself.
///
/// How: each layer of the space is a *plane* — its drawing's rectangle (`planeExtent`) mapped
/// into the flattening layer's 3D space (after its sublayerTransform and the perspective divide,
/// where the view is along z) — and `PlaneSorter` orders them with a BSP tree. A plane that is
/// not cut is drawn as today, directly onto the canvas (exact antialiasing). A plane that is cut
/// is drawn once into a surface covering its device box, and each piece is copied from it
/// clipped to the piece's projected polygon, by pixel centres, so that the pieces of one layer
/// meet without seam or overlap (`Pixmap.drawTexture(_:inside:imageToDevice:)`).
///
/// The flat case costs next to nothing: when every sublayer keeps a constant depth over its
/// plane (no transform leaning it out of the view plane, no CATransformLayer,
/// `keepsDepthConstant`), depth order is zPosition order, and `drawingOrder`'s stable sort by
/// zPosition is kept; the sublayers are placed once, and a 2D layer tree pays one look at each
/// presented transform (`drawSublayersFlatOrByDepth`).
///
/// Known approximations: a plane's extent follows its content, shadow and sublayers (four
/// levels deep) but not a replicator's further instances nor an emitter's particles, so such a
/// layer, when cut, loses what it draws beyond that rectangle; the outer edges of a cut layer's
/// pieces are by pixel centre (not antialiased). A CATransformLayer drawn without a flattening
/// layer above it (the root of a render, a mask) orders its sublayers in its own space.
extension LayerRenderer {
    typealias Tint = (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)

    /// Storage for ordering one flattening layer's space, kept from frame to frame; one per
    /// nesting level (a plane's subtree may order a space of its own while the outer one draws).
    final class DepthOrderScratch {
        struct Plane {
            let model: CALayer
            /// What `draw(_:parentMatrix:parentPresentation:…)` takes to draw the layer.
            let parentMatrix: CATransform3D
            let parentPresentation: CALayer
            let tint: Tint?
            let depth: Int
            /// Its whole polygon in `sorter.pieces`, or nil when it has none (no area, or
            /// entirely behind the eye).
            var piece: Int?
            /// The surface (`surfaces`) a cut plane is drawn into, and its device box.
            var surface: Int?
            var box = LayerGeometry.IntBox(x0: 0, y0: 0, x1: 0, y1: 0)
        }
        var planes: [Plane] = []
        /// Each plane's placement under its `parentMatrix` (`placement`), with which a plane
        /// drawn whole is drawn (`drawWhole`); beside `planes` rather than in it, as a larger
        /// plane costs more in copies than it saves.
        var placements: [PlacedSublayer] = []
        var sorter = PlaneSorter()
        var corners: [SIMD4<Double>] = []
        var polygon: [SIMD3<Double>] = []
        var devicePolygon: [Point] = []
        var surfaces: [Pixmap] = []
        var surfacesUsed = 0
        /// The index in the flat pass's placements (`placedSublayers`) of each sublayer it placed,
        /// when ordering the space of `drawSublayersFlatOrByDepth`'s layer.
        var flatPlacement: [ObjectIdentifier: Int] = [:]

        func removeAll() {
            planes.removeAll(keepingCapacity: true)
            placements.removeAll(keepingCapacity: true)
            flatPlacement.removeAll(keepingCapacity: true)
            sorter.removeAll()
            surfacesUsed = 0
        }
    }

    /// Points with w at or below this are behind the eye (as `LayerGeometry.projectedQuad`).
    static let eyePlaneW = 1e-6

    // MARK: - The flat case

    /// A sublayer with its presentation and layer → device matrix (`placement`).
    struct PlacedSublayer {
        let model: CALayer, presentation: CALayer, matrix: CATransform3D
    }

    /// Draws the sublayers of `model` (presented as `p`, not a replicator; layer → device
    /// `matrix`): each is placed once, in zPosition order, and the placements say whether one
    /// leans out of the view plane (or is a CATransformLayer). If none does — a 2D tree — they are
    /// drawn in that order from those placements (the flat case costs one look at each presented
    /// transform); else all are drawn by depth (`drawInDepthOrder`, which takes these placements
    /// over: a leaning sublayer is placed once per frame, for its plane and its drawing alike).
    /// `tint`: applied to each sublayer as well (a layer that does not group its opacity).
    func drawSublayersFlatOrByDepth(_ model: CALayer, _ p: CALayer, _ subs: [CALayer], matrix: CATransform3D,
                                    time: CFTimeInterval, into canvas: Pixmap, depth: Int, tint: Tint? = nil) {
        guard depth + 1 < Self.maxNestingDepth else { return Self.reportDepthLimit(subs[0]) }
        while placedSublayers.count <= depth { placedSublayers.append([]) }
        placedSublayers[depth].removeAll(keepingCapacity: true)
        var leaning = subs.count > 1 && !Self.keepsDepthConstant(p.sublayerTransform, allowingPerspective: true)
        for child in drawingOrder(model, p, time: time) {
            if let footprint = onScreen?[LayerKey(child)], missesTarget(footprint) { continue }
            guard let (pc, m) = placement(child, parentMatrix: matrix, parentPresentation: p, time: time) else { continue }
            if Self.leans(pc, siblings: subs.count) { leaning = true }
            placedSublayers[depth].append(PlacedSublayer(model: child, presentation: pc, matrix: m))
        }
        if leaning {
            drawInDepthOrder(model, p, childMatrix: matrix, toSpace: CATransform3DIdentity, spaceToDevice: Self.ignoringZ(matrix),
                             time: time, into: canvas, depth: depth, tint: tint, placedAt: depth)
        } else {
            let prefetching = siblingPrefetch.begin(model, siblings: placedSublayers[depth].count)
            for i in placedSublayers[depth].indices {
                if prefetching { siblingPrefetch.prefetch(after: i) }
                let s = placedSublayers[depth][i]
                // Its footprint's picture, when the tree is damage-tracked: a retained bitmap then
                // shares the footprint's key instead of allocating its own (a million
                // siblings held two keys each). Looked up again rather than carried in
                // `PlacedSublayer`: a larger element costs S8 more in copies than the look-up.
                drawPlacedOrTransition(s.model, s.presentation, matrix: s.matrix, time: time, into: canvas, depth: depth + 1, tint: tint,
                                       known: onScreen?[LayerKey(s.model)]?.picture)
                if prefetching { siblingPrefetch.record(i, serial: s.model._serial) }
            }
            if prefetching { siblingPrefetch.end() }
        }
        placedSublayers[depth].removeAll(keepingCapacity: true)
    }

    /// Whether the sublayers of the replicator `p` need ordering by depth within each instance:
    /// some sublayer is a CATransformLayer or leans out of the view plane, or the sublayerTransform
    /// or instanceTransform does. When not, zPosition order is depth order.
    func sublayersNeedDepthOrder(_ subs: [CALayer], _ p: CALayer, time: CFTimeInterval) -> Bool {
        guard subs.count > 1 else { return subs.first is CATransformLayer }
        guard Self.keepsDepthConstant(p.sublayerTransform, allowingPerspective: true) else { return true }
        if let replicator = p as? CAReplicatorLayer,
           !Self.keepsDepthConstant(replicator.instanceTransform, allowingPerspective: false) { return true }
        for s in subs {
            if s is CATransformLayer { return true }
            if Self.leans(presented(s, at: time), siblings: subs.count) { return true }
        }
        return false
    }

    /// Whether a presented sublayer `pc` among `siblings` sublayers makes its space need ordering
    /// by depth: it is a CATransformLayer (its sublayers join the space), or, beside others, its
    /// transform leans it out of the view plane.
    static func leans(_ pc: CALayer, siblings: Int) -> Bool {
        pc is CATransformLayer || (siblings > 1 && !keepsDepthConstant(pc.transform, allowingPerspective: false))
    }

    /// Whether `t` keeps a layer's plane at one depth and moves every sibling's depth alike: its
    /// z and w outputs do not depend on x or y, and z passes unscaled and unmoved (so siblings
    /// keep their zPosition order). A sublayerTransform may add perspective (m34): depth then
    /// becomes z / (1 + z·m34), which keeps the order of z in front of the eye.
    ///
    /// Within 1e-9 (what a transform rebuilt from animated components, such as
    /// `transform.rotation.z`, carries as rounding): such a layer leans by less than a
    /// nanometre per point, which changes no pixel's order.
    static func keepsDepthConstant(_ t: CATransform3D, allowingPerspective: Bool) -> Bool {
        let e: CGFloat = 1e-9
        return abs(t.m13) < e && abs(t.m23) < e && abs(t.m43) < e && abs(t.m33 - 1) < e && abs(t.m14) < e
            && abs(t.m24) < e && abs(t.m44 - 1) < e && (allowingPerspective || abs(t.m34) < e)
    }

    // MARK: - Drawing in depth order

    /// Draws the sublayers of `model` (presented as `p`), and the sublayers of CATransformLayers
    /// among them, back to front by depth in `p`'s space. `childMatrix`: the parent matrix its
    /// sublayers are drawn under; `toSpace`: what follows a sublayer's layer → parent map into
    /// the ordering space (a replicator's instance transform, else the identity);
    /// `spaceToDevice`: ordering space (x, y, z, 1) → device. `placedAt`: the nesting depth whose
    /// `placedSublayers` holds the flat pass's placements of `model`'s sublayers under
    /// `childMatrix` (`drawSublayersFlatOrByDepth`), taken over instead of placing them again.
    func drawInDepthOrder(_ model: CALayer, _ p: CALayer, childMatrix: CATransform3D, toSpace: CATransform3D,
                          spaceToDevice: CATransform3D, time: CFTimeInterval, into canvas: Pixmap, depth: Int, tint: Tint?,
                          placedAt: Int? = nil) {
        if depthScratch.count <= depthNesting { depthScratch.append(DepthOrderScratch()) }
        let scratch = depthScratch[depthNesting]
        depthNesting += 1
        defer { depthNesting -= 1 }
        scratch.removeAll()
        if let placedAt {
            for (i, s) in placedSublayers[placedAt].enumerated() { scratch.flatPlacement[ObjectIdentifier(s.model)] = i }
        }
        collectPlanes(of: model, p, childMatrix: childMatrix, toSpace: toSpace, time: time, depth: depth + 1,
                      tint: tint, into: scratch, placedAt: placedAt)
        scratch.sorter.sort()
        // Planes without a polygon but in front of the eye (no area) are drawn first, in array order.
        for i in scratch.planes.indices where scratch.planes[i].piece == nil {
            drawWhole(i, scratch, time: time, into: canvas)
        }
        // The cut planes' surfaces count as offscreen surfaces until the space is drawn.
        withOffscreenScope {
            for index in scratch.sorter.order {
                let piece = scratch.sorter.pieces[index]
                if piece.isWhole {
                    drawWhole(piece.owner, scratch, time: time, into: canvas)
                } else {
                    drawCutPiece(piece, scratch, spaceToDevice: spaceToDevice, time: time, into: canvas)
                }
            }
        }
    }

    /// Draws plane `i`'s layer whole from its placement, as `draw` would: not at all when the
    /// frame's footprints say its subtree misses the target.
    private func drawWhole(_ i: Int, _ scratch: DepthOrderScratch, time: CFTimeInterval, into canvas: Pixmap) {
        let model = scratch.placements[i].model
        let footprint = onScreen?[LayerKey(model)]
        if let footprint, missesTarget(footprint) { return }
        drawPlacedOrTransition(model, scratch.placements[i].presentation, matrix: scratch.placements[i].matrix, time: time,
                               into: canvas, depth: scratch.planes[i].depth, tint: scratch.planes[i].tint, known: footprint?.picture)
    }

    /// Adds a plane for each sublayer of `model` that draws, descending into CATransformLayers
    /// (whose opacity then applies to each of their sublayers, `transformLayerTint`). `placedAt`:
    /// as `drawInDepthOrder`'s, for `model`'s own sublayers.
    private func collectPlanes(of model: CALayer, _ p: CALayer, childMatrix: CATransform3D, toSpace: CATransform3D,
                               time: CFTimeInterval, depth: Int, tint: Tint?, into scratch: DepthOrderScratch,
                               placedAt: Int? = nil) {
        if needsFreshStack(atDepth: depth) {
            return onFreshStack(atDepth: depth, model) {
                collectPlanes(of: model, p, childMatrix: childMatrix, toSpace: toSpace, time: time, depth: depth, tint: tint,
                              into: scratch, placedAt: placedAt)
            }
        }
        for child in model.sublayers ?? [] {
            guard let (pc, matrix) = placementInSpace(child, childMatrix: childMatrix, p, time: time, placedAt: placedAt, scratch)
            else { continue }
            let inSpace = CATransform3DConcat(LayerGeometry.layerToParent(pc, parent: p), toSpace)
            if pc is CATransformLayer {
                collectPlanes(of: child, pc, childMatrix: matrix, toSpace: inSpace, time: time, depth: depth + 1,
                              tint: Self.transformLayerTint(tint, opacity: pc.opacity), into: scratch)
                continue
            }
            var plane = DepthOrderScratch.Plane(model: child, parentMatrix: childMatrix, parentPresentation: p, tint: tint,
                                                depth: depth)
            if let extent = planeExtent(child, pc, time: time, levels: 4) {
                switch addPolygon(extent, inSpace, owner: scratch.planes.count, scratch) {
                case .behindEye: continue
                case .noArea: break
                case .piece(let index): plane.piece = index
                }
            }
            scratch.planes.append(plane)
            scratch.placements.append(PlacedSublayer(model: child, presentation: pc, matrix: matrix))
        }
    }

    /// A sublayer's placement under `childMatrix`: the flat pass's (`placedAt`) when it made one;
    /// else placed now (a sublayer whose subtree misses the target was not placed there but
    /// still is a plane that may cut others; one that draws nothing is looked at again).
    private func placementInSpace(_ child: CALayer, childMatrix: CATransform3D, _ p: CALayer, time: CFTimeInterval,
                                  placedAt: Int?, _ scratch: DepthOrderScratch) -> (CALayer, CATransform3D)? {
        if let placedAt, let i = scratch.flatPlacement[ObjectIdentifier(child)] {
            let s = placedSublayers[placedAt][i]
            return (s.presentation, s.matrix)
        }
        return placement(child, parentMatrix: childMatrix, parentPresentation: p, time: time)
    }

    private enum AddedPolygon { case piece(Int), noArea, behindEye }

    /// Adds `extent` (layer points) mapped by `inSpace` into the ordering space, the part in
    /// front of the eye, to the sorter.
    private func addPolygon(_ extent: CGRect, _ inSpace: CATransform3D, owner: Int, _ scratch: DepthOrderScratch) -> AddedPolygon {
        scratch.corners.removeAll(keepingCapacity: true)
        for i in 0 ..< 4 {
            let c = Self.corner(i, of: extent)
            scratch.corners.append(Self.homogeneous(inSpace, x: Double(c.x), y: Double(c.y), z: 0))
        }
        scratch.polygon.removeAll(keepingCapacity: true)
        let eps = Self.eyePlaneW
        for i in 0 ..< 4 {
            let a = scratch.corners[i], b = scratch.corners[(i + 1) % 4]
            if a.w > eps { scratch.polygon.append(Self.divided(a)) }
            if (a.w > eps) != (b.w > eps) {
                let t = (eps - a.w) / (b.w - a.w)
                scratch.polygon.append(Self.divided(a + (b - a) * t))
            }
        }
        guard scratch.polygon.count >= 3 else { return .behindEye }
        return scratch.sorter.add(owner: owner, scratch.polygon) ? .piece(scratch.sorter.pieces.count - 1) : .noArea
    }

    /// Corner `i` (0…3, round the outline from the minimum corner) of `r`.
    static func corner(_ i: Int, of r: CGRect) -> CGPoint {
        CGPoint(x: i == 1 || i == 2 ? r.maxX : r.minX, y: i >= 2 ? r.maxY : r.minY)
    }

    /// A piece of a cut plane: the plane is drawn (once per frame) into a surface over its device
    /// box, and the piece's projected polygon is copied from it.
    private func drawCutPiece(_ piece: PlaneSorter.Piece, _ scratch: DepthOrderScratch, spaceToDevice: CATransform3D,
                              time: CFTimeInterval, into canvas: Pixmap) {
        if scratch.planes[piece.owner].surface == nil { drawPlaneSurface(piece.owner, scratch, spaceToDevice: spaceToDevice, time: time, canvas: canvas) }
        let plane = scratch.planes[piece.owner]
        guard let surfaceIndex = plane.surface, !plane.box.isEmpty, projectToDevice(piece, scratch, spaceToDevice) else { return }
        canvas.drawTexture(scratch.surfaces[surfaceIndex], inside: scratch.devicePolygon,
                           imageToDevice: Projective(1, 0, Double(plane.box.x0), 0, 1, Double(plane.box.y0), 0, 0, 1))
    }

    /// Draws plane `owner`'s layer into a (reused) surface covering the device box of its whole
    /// polygon, with two pixels of margin, clipped to the canvas.
    private func drawPlaneSurface(_ owner: Int, _ scratch: DepthOrderScratch, spaceToDevice: CATransform3D,
                                  time: CFTimeInterval, canvas: Pixmap) {
        let plane = scratch.planes[owner]
        guard let whole = plane.piece, projectToDevice(scratch.sorter.pieces[whole], scratch, spaceToDevice),
              let bounds = Rect.bounding(scratch.devicePolygon) else { return }
        let box = LayerGeometry.IntBox(x0: LayerGeometry.pixel((bounds.x - 2).rounded(.down)),
                                       y0: LayerGeometry.pixel((bounds.y - 2).rounded(.down)),
                                       x1: LayerGeometry.pixel((bounds.x + bounds.width + 2).rounded(.up)),
                                       y1: LayerGeometry.pixel((bounds.y + bounds.height + 2).rounded(.up)))
            .clamped(width: canvas.width, height: canvas.height)
        guard !box.isEmpty,
              let surface = takeSurface(scratch, width: box.x1 - box.x0, height: box.y1 - box.y0, for: plane.model) else { return }
        scratch.planes[owner].surface = scratch.surfacesUsed - 1
        scratch.planes[owner].box = box
        let shifted = CATransform3DConcat(plane.parentMatrix, CATransform3DMakeTranslation(CGFloat(-box.x0), CGFloat(-box.y0), 0))
        draw(plane.model, parentMatrix: shifted, parentPresentation: plane.parentPresentation, time: time, into: surface,
             depth: plane.depth, tint: plane.tint)
    }

    /// The next pooled surface, at least `width`×`height`, its top-left `width`×`height` cleared;
    /// counted as an offscreen surface of `layer` until the space is drawn (nil past the budget).
    private func takeSurface(_ scratch: DepthOrderScratch, width: Int, height: Int, for layer: CALayer) -> Pixmap? {
        let k = scratch.surfacesUsed
        let old = k < scratch.surfaces.count ? scratch.surfaces[k] : nil
        let size = (width: max(width, old?.width ?? 0), height: max(height, old?.height ?? 0))
        guard admitOffscreen(width: size.width, height: size.height, for: layer) else { return nil }
        if (old.map { $0.width < width || $0.height < height }) ?? true {
            guard let fresh = try? Pixmap(width: size.width, height: size.height) else {
                Self.reportOffscreenFailure(layer, width: size.width, height: size.height)
                return nil
            }
            if old == nil { scratch.surfaces.append(fresh) } else { scratch.surfaces[k] = fresh }
        }
        scratch.surfacesUsed += 1
        let surface = scratch.surfaces[k]
        for row in 0 ..< height { (surface.pixels + row * surface.bytesPerRow).update(repeating: 0, count: width * 4) }
        return surface
    }

    /// Maps `piece`'s vertices to device pixels into `scratch.devicePolygon`; false when one is
    /// behind the eye or not finite.
    private func projectToDevice(_ piece: PlaneSorter.Piece, _ scratch: DepthOrderScratch, _ spaceToDevice: CATransform3D) -> Bool {
        scratch.devicePolygon.removeAll(keepingCapacity: true)
        for v in scratch.sorter.vertices(of: piece) {
            let h = Self.homogeneous(spaceToDevice, x: v.x, y: v.y, z: v.z)
            guard h.w > Self.eyePlaneW else { return false }
            let point = Point(x: h.x / h.w, y: h.y / h.w)
            guard point.isFinite else { return false }
            scratch.devicePolygon.append(point)
        }
        return true
    }

    // MARK: - Geometry

    /// The layer-space rectangle (points) `p`'s drawing covers: its content (`LayerContent.rect`),
    /// its shadow's reach, and — unless masksToBounds clips them — its sublayers' extents
    /// flattened into its plane, `levels` levels deep. nil when not finite.
    func planeExtent(_ model: CALayer, _ p: CALayer, time: CFTimeInterval, levels: Int) -> CGRect? {
        guard var r = LayerContent.rect(p) else { return nil }
        if p.shadowOpacity > 0, p.shadowColor != nil {
            let reach = Self.shadowReach(p, pixelsPerPoint: scale) / scale
            r = r.union((p.shadowPath?.boundingBoxOfPath ?? r).offsetBy(dx: p.shadowOffset.width, dy: p.shadowOffset.height)
                .insetBy(dx: -reach, dy: -reach))
        }
        guard !p.masksToBounds, levels > 0 else { return r }
        for s in model.sublayers ?? [] {
            let ps = presented(s, at: time)
            guard Self.isShown(ps), let sub = planeExtent(s, ps, time: time, levels: levels - 1) else { continue }
            let m = LayerGeometry.layerToParent(ps, parent: p)
            for i in 0 ..< 4 {
                let c = Self.corner(i, of: sub)
                let q = m._project(x: c.x, y: c.y)
                guard q.w > 0, q.x.isFinite, q.y.isFinite else { continue }
                let x0 = min(r.minX, q.x), y0 = min(r.minY, q.y)
                r = CGRect(x: x0, y: y0, width: max(r.maxX, q.x) - x0, height: max(r.maxY, q.y) - y0)
            }
        }
        return r
    }

    /// (x, y, z, 1) · m, not divided.
    static func homogeneous(_ m: CATransform3D, x: Double, y: Double, z: Double) -> SIMD4<Double> {
        SIMD4(x * Double(m.m11) + y * Double(m.m21) + z * Double(m.m31) + Double(m.m41),
              x * Double(m.m12) + y * Double(m.m22) + z * Double(m.m32) + Double(m.m42),
              x * Double(m.m13) + y * Double(m.m23) + z * Double(m.m33) + Double(m.m43),
              x * Double(m.m14) + y * Double(m.m24) + z * Double(m.m34) + Double(m.m44))
    }

    static func divided(_ h: SIMD4<Double>) -> SIMD3<Double> { SIMD3(h.x / h.w, h.y / h.w, h.z / h.w) }

    /// `m` applied to a flattened plane: its z input ignored (a point of the plane has z = 0).
    static func ignoringZ(_ m: CATransform3D) -> CATransform3D {
        var f = m
        f.m31 = 0; f.m32 = 0; f.m33 = 0; f.m34 = 0
        return f
    }

    /// The tint a CATransformLayer's sublayers are drawn with: Apple, CATransformLayer: "The
    /// opacity property is applied to each sublayer individually, the transform layer does not
    /// form a compositing group" — its opacity multiplies the alpha of the tint it is drawn under.
    static func transformLayerTint(_ tint: Tint?, opacity: Float) -> Tint? {
        let a = CGFloat(opacity)
        return a < 1 ? (r: tint?.r ?? 1, g: tint?.g ?? 1, b: tint?.b ?? 1, a: (tint?.a ?? 1) * a) : tint
    }
}
