// Compositor — renders a layer tree's presentation to pixels.
//
// Design note
// -----------
// For every layer, back to front (siblings by depth in their flattening layer's 3D space,
// `LayerRenderer+DepthOrder`; stably by zPosition when all lie flat), at one media time:
//
//     shadow → background (rounded) → contents / drawn content / shape / gradient / text
//            → sublayers (clipped to the rounded bounds when masksToBounds) → border (on top)
//
// all under the layer's accumulated layer → device matrix (`LayerGeometry`). A layer with
// opacity < 1, a mask, a replicator instance colour, or a shadow cast from its rendered alpha is
// drawn into an offscreen group first and composited once (Core Animation's group opacity). Flat (affine) layers draw their vector
// content directly in device space; a layer whose matrix has perspective renders its own content
// into a layer-space bitmap and warps it with a projective image pattern (the seed's fold image),
// that bitmap and its border's kept across frames while their pixels stay (`+Projected`).
// Drawn content (`draw(in:)`) is cached per layer until `setNeedsDisplay()` or a size change.
// Leaf layers whose pixels follow from their properties (plain, shape, gradient, text) are
// rasterized once into retained bitmaps keyed on those properties and then only re-composited
// (`cachedLeaf`) — except while a layer of a few vector paths turns, or while a layer that
// paints each pixel once changes every frame: it is then drawn straight into the frame (at its
// opacity or compositing blend mode, without a group). `LayerRenderer+Damage` says which part of
// the frame a change invalidates; `+Cover` leaves a full frame uncleared when its first drawing
// is an opaque rectangle over all of it. A masksToBounds clip that holds the whole canvas is
// skipped (`clipHoldsCanvas`).
// Rarely used options take their own paths, chosen from one word per layer
// (`CALayer._renderingOptions`): shouldRasterize (`+Rasterize`), allowsGroupOpacity = false
// (`+GroupOpacity`), aliased edges (`+EdgeAntialiasing`); continuous corners
// (`LayerGeometry+CornerCurve`), a gray backing store and flipped drawn content
// (`+BackingStoreFormat`) change how the usual path draws. A replicator's instances are drawn
// in `+Replicator`, those that cannot reach the target culled by a bound of what its sublayers
// draw (`+Extent`). Every offscreen surface (groups, clips, masks, shadows …) is made through
// `+Offscreen`, which bounds what is alive at once (`maxOffscreenBytes`).
import QuartzCore
import Raster

/// Renders layer trees into a `Pixmap`.
final class LayerRenderer {
    let target: Pixmap
    /// Device pixels per layer point.
    let scale: CGFloat
    var backingStores: [ObjectIdentifier: BackingStore] = [:]

    /// A layer's drawn content (`draw(in:)`), kept until it needs display or changes size.
    struct BackingStore {
        var size: CGSize
        /// nil when the drawing left every pixel transparent.
        var pixmap: Pixmap?
        /// The layer it belongs to (an identifier alone could be reused by a later layer).
        weak var owner: CALayer?
        /// Drawn from an animated presentation copy (`CALayer._drawsAnimatedContent`): good for
        /// that frame only.
        var animated = false
        /// Made grey (`contentsFormat`, `makeGray`).
        var gray = false
    }

    /// Device position of the target's top-left pixel (non-zero when drawing a damaged patch).
    let origin: (x: Int, y: Int)

    /// Whether layers are drawn with their model values, ignoring animations and transitions
    /// (`CALayer.render(in:)`), instead of as presented at the frame's time.
    let usesModelValues: Bool

    /// The offscreen surfaces alive while drawing, and their budget (`LayerRenderer+Offscreen`).
    let offscreen: OffscreenAccount

    /// `leaves`: retained layers shared with another renderer (patch renderers), else new ones
    /// bounded for this target. `offscreen`: the account of the frame this renderer draws part
    /// of, else a new one with this target's budget.
    init(target: Pixmap, scale: CGFloat, origin: (x: Int, y: Int) = (0, 0), usesModelValues: Bool = false,
         leaves: Leaves? = nil, offscreen: OffscreenAccount? = nil) {
        self.target = target
        self.scale = scale
        self.origin = origin
        self.usesModelValues = usesModelValues
        self.leaves = leaves ?? Leaves(maxPixels: LayerRenderer.maxLeafPixels(frame: target),
                                       maxHeldPixels: LayerRenderer.maxRetainedPixels(frame: target))
        self.offscreen = offscreen ?? OffscreenAccount(budget: LayerRenderer.maxOffscreenBytes(frame: target))
    }

    /// Footprints of the frame being drawn (`footprints(of:at:reusing:)`), when the tree is
    /// damage-tracked: a layer whose subtree cannot reach the target is skipped, and a retained
    /// layer placed as its footprint says takes its `LeafKey` from there instead of building it
    /// again.
    /// (`@exclusivity(unchecked)`, like `leaves`: read for every layer of every frame, never
    /// while being written.)
    @exclusivity(unchecked) var onScreen: Footprints?

    /// The reaches (device pixels) of the layers casting a shadow in the tree the last
    /// `footprints` walked: a damaged patch touching one redraws all of it (`drawnWhole`).
    var wholeReaches: [LayerGeometry.IntBox] = []

    /// A renderer for a patch of the frame that uses (and updates) `other`'s retained layers;
    /// with `footprints` of the frame, subtrees that miss the patch are not visited.
    convenience init(target: Pixmap, scale: CGFloat, origin: (x: Int, y: Int), sharingCachesWith other: LayerRenderer,
                     footprints: Footprints? = nil) {
        self.init(target: target, scale: scale, origin: origin, leaves: other.leaves, offscreen: other.offscreen)
        backingStores = other.backingStores
        spareScratch = other.spareScratch
        onScreen = footprints
    }

    /// Whether a subtree whose footprint is `footprint` misses the target (its drawable rows:
    /// a band's, `LayerRenderer+Bands`).
    func missesTarget(_ footprint: Footprint) -> Bool {
        let rows = target.drawableRows
        return !footprint.reach.intersects(LayerGeometry.IntBox(x0: origin.x, y0: origin.y + rows.lowerBound,
                                                                x1: origin.x + target.width, y1: origin.y + rows.upperBound))
    }

    /// Draws a whole frame of `root` and then forgets the retained bitmaps of layers it did not
    /// draw (patch renderers, which see only part of the tree, use `render`). `footprints`: the
    /// frame's, when the tree is damage-tracked.
    /// The target is first filled with `background` (unless the frame's first drawing covers it,
    /// `firstDrawCoversTarget`). With `threads` > 1 the frame is drawn in
    /// that many bands at once when the tree allows (`LayerRenderer+Bands`), with the same bytes,
    /// each band filling its own rows. Returns the number of bands drawn (1: serially).
    @discardableResult
    func renderFullFrame(_ root: CALayer, at time: CFTimeInterval, footprints: Footprints?,
                         background: PremultipliedColor, threads: Int = 1) -> Int {
        leaves.beginFrame()
        var drawn = 1
        if threads > 1, let bands = bands(threads: threads), bands.prepare(root, at: time) {
            bands.draw(root, at: time, footprints: footprints, background: background)
            drawn = bands.renderers.count
        } else {
            if !firstDrawCoversTarget(root, at: time, footprints: footprints) { target.fill(with: background) }
            onScreen = footprints
            render(root, at: time)
            onScreen = nil
        }
        leaves.dropUnused()
        for key in backingStores.compactMap({ $0.value.owner == nil ? $0.key : nil }) { backingStores[key] = nil }
        for key in tileStores.compactMap({ $0.value.layer == nil ? $0.key : nil }) { tileStores[key] = nil }
        return drawn
    }

    /// Draws `root` (a model layer) as presented at media time `time`.
    func render(_ root: CALayer, at time: CFTimeInterval) {
        let offscreenBefore = offscreen.live
        stackLevelEnd = Self.levelsOnCallersStack()
        draw(root, parentMatrix: rootMatrix, parentPresentation: nil, time: time, into: target, depth: 0)
        assert(offscreen.live == offscreenBefore, "an offscreen surface was counted outside a withOffscreenScope")
    }

    /// The root's parent space → target pixels: points scaled by `scale`, the target's corner at
    /// `origin` of the frame.
    var rootMatrix: CATransform3D {
        CATransform3DConcat(CATransform3DMakeScale(scale, scale, 1), CATransform3DMakeTranslation(CGFloat(-origin.x), CGFloat(-origin.y), 0))
    }

    /// Draws `layer` (a model layer, with its model values) and its sublayers in the layer's own
    /// coordinate space mapped to device pixels by `matrix` (`CALayer.render(in:)`): its own
    /// position, anchor point and transform are not applied, its opacity is.
    func renderInOwnSpace(_ layer: CALayer, matrix: CATransform3D) {
        guard LayerRenderer.isShown(layer) else { return }
        stackLevelEnd = Self.levelsOnCallersStack()
        drawPlaced(layer, layer, matrix: matrix, time: 0, into: target, depth: 0, tint: nil)
    }

    // MARK: - Layers

    func draw(_ model: CALayer, parentMatrix: CATransform3D, parentPresentation: CALayer?,
                      time: CFTimeInterval, into canvas: Pixmap, depth: Int,
                      tint: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)? = nil) {
        // One look-up of the frame's footprint: it says whether the subtree misses the target,
        // and gives a retained layer its key.
        let footprint = onScreen?[LayerKey(model)]
        if let footprint, missesTarget(footprint) { return }
        guard let (p, matrix) = placement(model, parentMatrix: parentMatrix, parentPresentation: parentPresentation,
                                          time: time) else { return }
        drawPlacedOrTransition(model, p, matrix: matrix, time: time, into: canvas, depth: depth, tint: tint,
                               known: footprint?.picture)
    }

    /// `draw` once the layer is placed: its running transition, or the layer and its subtree.
    /// `known`: its picture in the frame's footprints, when the tree is damage-tracked.
    func drawPlacedOrTransition(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval,
                                into canvas: Pixmap, depth: Int, tint: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)?,
                                known: Footprint.Picture? = nil) {
        if needsFreshStack(atDepth: depth) {
            return onFreshStack(atDepth: depth, model) {
                drawPlacedOrTransition(model, p, matrix: matrix, time: time, into: canvas, depth: depth, tint: tint, known: known)
            }
        }
        if evaluatesPresentations, let running = model._transition(atMediaTime: time), let source = running.transition._sourceLayer {
            drawTransition(running.transition, progress: running.progress, from: source, to: model, p,
                           matrix: matrix, time: time, into: canvas, depth: depth, tint: tint)
            return
        }
        drawPlaced(model, p, matrix: matrix, time: time, into: canvas, depth: depth, tint: tint, known: known)
    }

    /// Draws a placed layer (presentation `p`, layer → device `matrix`) and its subtree. `known`:
    /// its picture in the frame's footprints, when the tree is damage-tracked.
    func drawPlaced(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval, into canvas: Pixmap,
                    depth: Int, tint: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)?, known: Footprint.Picture? = nil) {
        if let effects = p._effects, !(p is CATransformLayer) {
            if tint == nil, let style = Self.directStyle(model, p, effects), let affine = LayerGeometry.affine(matrix) {
                return drawDirectly(model, p, affine: affine, style: style, into: canvas)
            }
            return drawFiltered(model, p, effects, matrix: matrix, time: time, into: canvas, depth: depth, tint: tint)
        }
        if tint == nil, let affine = LayerGeometry.affine(matrix), let leaf = cachedLeaf(model, p, affine: affine, known: known) {
            switch consume leaf {
            case let .bitmap(pixmap, extents, toDevice):
                // Retained: the layer's rasterization is reused; only its placement and opacity change.
                canvas.drawTexture(pixmap, transform: toDevice, opacity: p.opacity, clearBorder: true, extents: extents)
            case .direct:
                drawDirectly(model, p, affine: affine, style: PaintStyle(opacity: p.opacity), into: canvas)
            }
            return
        }
        if p is CATransformLayer {
            drawTransformLayer(model, p, matrix: matrix, time: time, into: canvas, depth: depth, tint: tint)
            return
        }
        let options = p._renderingOptions
        if options.contains(.rasterized),
           drawRasterized(model, p, matrix: matrix, time: time, into: canvas, depth: depth, tint: tint) { return }
        let alphaShadow = LayerRenderer.castsShadowFromAlpha(model, p)
        if options.contains(.ungroupedOpacity), !alphaShadow, p.mask == nil {
            drawUngrouped(model, p, matrix: matrix, time: time, into: canvas, depth: depth, tint: tint)
            return
        }
        let needsGroup = p.opacity < 1 || p.mask != nil || tint != nil || alphaShadow
        guard needsGroup else {
            drawLayerBody(model, p, matrix: matrix, time: time, into: canvas, depth: depth)
            return
        }
        if tint == nil, p.mask == nil, !alphaShadow, drawSoleLeaf(model, p, matrix: matrix, time: time, into: canvas) { return }
        compositeGroup(model, p, matrix: matrix, time: time, canvas: canvas) {
            drawGroup(model, p, matrix: $1, time: time, into: $0, depth: depth, tint: tint)
        }
    }

    /// How a layer whose only effect is a compositing filter's blend mode is drawn straight into
    /// its canvas instead of through a group (`drawDirectly`): a leaf drawn from its properties
    /// that paints each pixel once (`LayerContent.vectorWork`; a Lottie mask's "destOut" cut),
    /// with a blend mode whose result is linear in the source and leaves the destination as it
    /// is under a transparent source — source-over, destination-over, destination-out, source-
    /// atop, xor and the separable and non-separable blend modes — so that the paint's coverage
    /// blends as the group's pixels would: d + (B(c·S, d) − d)·o = d + (B(S, d) − d)·c·o, and
    /// the group's transparent rest changes nothing. nil otherwise.
    static func directStyle(_ model: CALayer, _ p: CALayer, _ effects: _LayerEffects) -> PaintStyle? {
        guard effects.filters.isEmpty, effects.backgroundFilters.isEmpty, model.sublayers == nil,
              pixelsFollowKey(model, p), let work = LayerContent.vectorWork(p), work.paints <= 1 else { return nil }
        let mode = effects.blendMode?.rasterBlendMode ?? .sourceOver
        switch mode {
        case .clear, .copy, .sourceIn, .sourceOut, .destinationIn, .destinationAtop, .plusLighter, .plusDarker: return nil
        default: return PaintStyle(opacity: p.opacity, blendMode: mode)
        }
    }

    /// Group opacity: the layer and its subtree drawn by `makeGroup` (handed a transparent
    /// surface and the layer → surface matrix) into an offscreen surface covering only the
    /// device area they can touch (`groupBox`, grown by `spread` pixels), composited once at the
    /// layer's opacity with `blendMode`. Without the surface (past the offscreen budget), or
    /// when `makeGroup` returns nil, the group is not drawn.
    func compositeGroup(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval, canvas: Pixmap,
                        spread: CGFloat = 0, blendMode: BlendMode = .sourceOver,
                        _ makeGroup: (Pixmap, CATransform3D) -> Pixmap?) {
        let box = groupBox(model, p, matrix: matrix, time: time, canvas: canvas, spread: spread, blendMode: blendMode)
        guard box.width > 0, box.height > 0 else { return }
        withOffscreen(width: box.width, height: box.height, for: model) { surface in
            let local = CATransform3DConcat(matrix, CATransform3DMakeTranslation(CGFloat(-box.x), CGFloat(-box.y), 0))
            guard let group = makeGroup(surface, local) else { return }
            canvas.draw(group, atX: box.x, y: box.y, opacity: p.opacity, blendMode: blendMode)
        }
    }

    /// The layer and its subtree drawn into the transparent `surface` under `matrix` as one
    /// group — body, shadow cast from its alpha, mask, tint — but not its opacity, which the
    /// caller applies when compositing the group. With `filters` (`+Filters`) the body is drawn
    /// without its shadow, filtered, and then put over its shadow (`withFilteredShadow`).
    /// Returns the group (`surface`, or a new bitmap holding the shadow beneath it, counted in
    /// the caller's offscreen scope); nil when a surface it needs is past the offscreen budget.
    func drawGroup(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval, into surface: Pixmap,
                   depth: Int, tint: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)?, filters: [_FilterEffect]? = nil) -> Pixmap? {
        drawLayerBody(model, p, matrix: matrix, time: time, into: surface, depth: depth, shadow: filters == nil)
        let group: Pixmap?
        if let filters {
            apply(filters, to: surface)
            group = withFilteredShadow(model, p, surface, matrix: matrix)
        } else {
            group = LayerRenderer.castsShadowFromAlpha(model, p) ? withShadowBeneath(model, p, surface, matrix: matrix) : surface
        }
        guard let group else { return nil }
        if let maskLayer = p.mask {
            guard applyMask(maskLayer, of: model, layerMatrix: matrix, time: time, to: group, depth: depth) else { return nil }
        }
        if let tint { multiply(group, by: tint) }
        return group
    }

    /// A CATransformLayer draws only its sublayers (Apple, CATransformLayer: "Only the sublayers of
    /// a transform layer are rendered"; backgroundColor, contents, border, mask, masksToBounds,
    /// shadow and filters are ignored) and forms no compositing group: "The opacity property is
    /// applied to each sublayer individually" — each sublayer is drawn as a group at that opacity
    /// (times any replicator tint it is drawn under).
    private func drawTransformLayer(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval,
                                    into canvas: Pixmap, depth: Int, tint: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)?) {
        drawInDepthOrder(model, p, childMatrix: matrix, toSpace: CATransform3DIdentity, spaceToDevice: matrix, time: time,
                         into: canvas, depth: depth, tint: Self.transformLayerTint(tint, opacity: p.opacity))
    }

    /// The presentation of `model` at `time` and its layer → device matrix, or nil when it draws
    /// nothing (hidden, transparent, a culled back face, or non-finite geometry). A layer flattens
    /// its sublayers into its own plane (Apple); a CATransformLayer does not, so its sublayers
    /// share its 3D space.
    ///
    /// Non-finite geometry — NaN or ±∞ in the presented bounds or anywhere in the layer → device
    /// matrix (position, anchor point, transforms) — draws nothing, neither the layer nor its
    /// subtree, and leaves the rest of the tree as it is. Apple refuses NaN bounds and position at
    /// the setter by raising `CALayerInvalidGeometry` ("CALayer position contains NaN"), an
    /// exception that ends the app; Citrine keeps the value and skips the layer.
    /// `cullingBackFaces: false` keeps a layer that faces away under `parentMatrix` (a bound that
    /// must hold under other parent maps too, `+Extent`).
    func placement(_ model: CALayer, parentMatrix: CATransform3D, parentPresentation: CALayer?,
                   time: CFTimeInterval, cullingBackFaces: Bool = true) -> (CALayer, CATransform3D)? {
        let p = presented(model, at: time)
        // A hidden or transparent layer still draws a running transition (to its empty picture).
        guard LayerRenderer.isShown(p) || (evaluatesPresentations && model._transition(atMediaTime: time) != nil) else { return nil }
        let toParent = LayerGeometry.layerToParent(p, parent: parentPresentation)
        let placed = parentPresentation is CATransformLayer ? toParent : LayerGeometry.flattened(toParent)
        let matrix = CATransform3DConcat(placed, parentMatrix)
        guard LayerGeometry.isFinite(matrix), LayerGeometry.isFinite(p.bounds) else { return nil }
        if cullingBackFaces && !p.isDoubleSided && LayerGeometry.isBackFacing(p.bounds, matrix) { return nil }
        return (p, matrix)
    }

    /// `model` as presented at `time`: the model itself when this renderer draws model values;
    /// for a band's renderer the presentation its frame's serial pass evaluated (`Bands.prepare`:
    /// bands only read presentations, several at once); else evaluated now.
    @inline(__always)
    func presented(_ model: CALayer, at time: CFTimeInterval) -> CALayer {
        if usesModelValues { return model }
        if bandLog != nil { return model._evaluatedPresentation(atMediaTime: time) ?? model }
        return model._presentation(atMediaTime: time) ?? model
    }

    /// Whether this renderer evaluates presentations and transitions itself: not when it draws
    /// model values, nor when it draws a band (whose frame has no transition, `Bands.prepare`).
    var evaluatesPresentations: Bool { !usesModelValues && bandLog == nil }

    /// Whether `p` draws anything at all: not hidden, not fully transparent.
    static func isShown(_ p: CALayer) -> Bool { !p.isHidden && p.opacity > 0 }

    /// Sublayers in drawing order when none needs ordering by depth (`sublayersNeedDepthOrder`):
    /// by zPosition (stable).
    func drawingOrder(_ model: CALayer, _ p: CALayer, time: CFTimeInterval) -> [CALayer] {
        CALayer._compositingOrder(model.sublayers ?? [])
    }

    /// The layer's own drawing and its sublayers; `shadow: false` leaves out a shadow drawn
    /// from shadowPath or the rounded bounds (a filtered layer casts it beneath the filtered group).
    func drawLayerBody(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval,
                       into surface: Pixmap, depth: Int, shadow: Bool = true) {
        drawOwnBackground(model, p, matrix: matrix, time: time, into: surface, shadow: shadow)
        drawSublayers(model, p, matrix: matrix, time: time, into: surface, depth: depth)
        drawOwnForeground(model, p, matrix: matrix, into: surface)
    }

    /// What a layer draws of its own beneath its sublayers: shadow, content, particles (content
    /// with its edges as `edgeAntialiasingMask` says).
    func drawOwnBackground(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval, into surface: Pixmap,
                           shadow: Bool = true) {
        if shadow { drawShadow(model, p, matrix: matrix, into: surface) }
        withEdges(of: p, matrix: matrix, into: surface) { drawContent(model, p, matrix: $1, into: $0) }
        if let emitter = p as? CAEmitterLayer { drawParticles(emitter, matrix: matrix, time: time, into: surface) }
    }

    /// What a layer draws of its own over its sublayers: the border.
    func drawOwnForeground(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, into surface: Pixmap) {
        withEdges(of: p, matrix: matrix, into: surface) { drawBorder(p, matrix: $1, into: $0, model: model) }
    }

    /// The device rectangle a group must cover (within the canvas), grown by `spread` pixels: the
    /// projected content rectangle (grown by the shadow's reach) when no sublayer can draw
    /// outside it; else, for a group composited source-over (where the transparent rest of a
    /// whole-canvas surface would change nothing), the projected extent of the layer and its
    /// subtree at `time` (`drawnExtent`, empty when the subtree draws nothing); else, under
    /// perspective, or when that extent is unbounded, the whole canvas. A surface, and its
    /// clearing and compositing, then cost what the group can cover, not the frame.
    func groupBox(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval, canvas: Pixmap,
                  spread: CGFloat = 0, blendMode: BlendMode = .sourceOver) -> (x: Int, y: Int, width: Int, height: Int) {
        let full = (x: 0, y: 0, width: canvas.width, height: canvas.height)
        guard LayerGeometry.affine(matrix) != nil else { return full }
        let area: CGRect
        var margin: CGFloat = 1 + spread
        // Particles, like sublayers, may land anywhere unless masksToBounds clips them.
        if model.sublayers == nil && !(p is CAEmitterLayer) || p.masksToBounds {
            guard let content = LayerContent.rect(p) else { return full }
            area = content
            if p.shadowOpacity > 0 {
                margin += Self.shadowReach(p, pixelsPerPoint: scale) + (abs(p.shadowOffset.width) + abs(p.shadowOffset.height)) * scale
            }
        } else {
            guard blendMode == .sourceOver,
                  let extent = drawnExtent(model, p, time: time, levelsLeft: Self.analysisLevels) else { return full }
            guard let extent else { return (0, 0, 0, 0) }
            area = extent.rect
            margin += extent.margin
        }
        guard var box = LayerGeometry.deviceBox(area, matrix, margin: margin)?
            .clamped(width: canvas.width, height: canvas.height) else { return full }
        // Not when pixels outside the mask's box feed pixels inside it before masking (a filter's
        // blur, a shadow cast from the group's alpha).
        if spread == 0, !Self.castsShadowFromAlpha(model, p), let maskBox = maskBox(of: p, matrix: matrix, time: time) {
            box = box.intersection(maskBox)
        }
        return (box.x0, box.y0, max(0, box.x1 - box.x0), max(0, box.y1 - box.y0))
    }

    /// The device box outside which `p`'s mask layer leaves its group transparent, as
    /// `applyMask` draws it (Apple, `CALayer.mask`: "only the alpha channel of the mask layer's
    /// content is used"; where the mask draws nothing the group is hidden): the projected extent
    /// of the mask's subtree, one pixel more; empty when the mask draws nothing; nil without a
    /// mask or when its extent is unbounded.
    private func maskBox(of p: CALayer, matrix: CATransform3D, time: CFTimeInterval) -> LayerGeometry.IntBox? {
        guard let maskLayer = p.mask else { return nil }
        let empty = LayerGeometry.IntBox(x0: 0, y0: 0, x1: 0, y1: 0)
        guard let (mp, maskMatrix) = placement(maskLayer, parentMatrix: matrix, parentPresentation: nil, time: time,
                                               cullingBackFaces: false) else { return empty }
        guard LayerGeometry.affine(maskMatrix) != nil,
              let extent = drawnExtent(maskLayer, mp, time: time, levelsLeft: Self.analysisLevels) else { return nil }
        guard let extent else { return empty }
        return LayerGeometry.deviceBox(extent.rect, maskMatrix, margin: 1 + extent.margin)
    }

    /// Draws the sublayers (clipped by masksToBounds; a replicator's instances), each under
    /// `tint` as well when given (a layer that does not group its opacity, `drawUngrouped`).
    func drawSublayers(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval,
                       into canvas: Pixmap, depth: Int, tint: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)? = nil) {
        guard let subs = model.sublayers, !subs.isEmpty else { return }
        func drawAll(into surface: Pixmap, matrix: CATransform3D) {
            if let replicator = p as? CAReplicatorLayer {
                drawInstances(model, replicator, matrix: matrix, time: time, into: surface, depth: depth, tint: tint)
            } else {
                drawSublayersFlatOrByDepth(model, p, subs, matrix: matrix, time: time, into: surface, depth: depth, tint: tint)
            }
        }
        guard p.masksToBounds, !Self.clipHoldsCanvas(p, matrix: matrix, canvas: canvas) else {
            return drawAll(into: canvas, matrix: matrix)
        }
        // Clipped: drawn into a surface, composited through the clip; without both (past the
        // offscreen budget) the sublayers are not drawn. Under an affine matrix the surface and
        // the clip cover only the device box of the rounded bounds (the same pixels: drawn under
        // the matrix moved by whole pixels, composited back at that offset); under perspective,
        // the canvas.
        withOffscreenScope {
            guard let affine = LayerGeometry.affine(matrix) else {
                guard let clip = makeClip(p, of: model, matrix: matrix, size: canvas),
                      let surface = offscreenPixmap(width: canvas.width, height: canvas.height, for: model) else { return }
                drawingWithTargetScratch(surface) { drawAll(into: surface, matrix: matrix) }
                canvas.draw(surface, atX: 0, y: 0, opacity: 1, blendMode: .sourceOver, clip: clip)
                return
            }
            guard let box = LayerGeometry.deviceBox(p.bounds, matrix, margin: 1)?.clamped(width: canvas.width, height: canvas.height),
                  !box.isEmpty else { return }
            let width = box.x1 - box.x0, height = box.y1 - box.y0
            guard let clip = offscreenMask(width: width, height: height, for: model),
                  let surface = offscreenPixmap(width: width, height: height, for: model) else { return }
            let shift = Transform(a: 1, b: 0, c: 0, d: 1, tx: -Double(box.x0), ty: -Double(box.y0))
            drawingWithTargetScratch(surface) {
                clip.fill(LayerGeometry.outline(of: p), transform: affine.concatenating(shift), scratchOf: surface)
                drawAll(into: surface, matrix: CATransform3DConcat(matrix, CATransform3D(shift)))
            }
            canvas.draw(surface, atX: box.x0, y: box.y0, through: clip)
        }
    }

    /// Whether `p`'s masksToBounds clip (its rounded bounds under the layer → canvas `matrix`)
    /// holds every pixel of `canvas` whole, so that clipping changes nothing and the sublayers
    /// are drawn straight onto the canvas (an imported Lottie precomposition clips to a
    /// rectangle the size of the frame): the canvas corners, mapped into layer space, lie in
    /// the bounds, inset by 0.3·cornerRadius for circular corners (a rounded rectangle holds its
    /// bounds inset by (1 − 1/√2)·radius). Not for continuous corners, nor under perspective.
    /// Drawn without the surface, a sublayer is composited over the pixels beneath its parent
    /// as Core Animation's clipping draws it (a rectangular clip is not a compositing group).
    static func clipHoldsCanvas(_ p: CALayer, matrix: CATransform3D, canvas: Pixmap) -> Bool {
        guard p.cornerRadius == 0 || !p._renderingOptions.contains(.continuousCorners),
              let toLayer = LayerGeometry.affine(matrix)?.inverted() else { return false }
        // Within a billionth of a point: bounds the size of the frame map back onto it up to rounding.
        let inset = 0.3 * max(0, Double(p.cornerRadius)) - 1e-9
        let bounds = p.bounds
        let x0 = Double(bounds.minX) + inset, x1 = Double(bounds.maxX) - inset
        let y0 = Double(bounds.minY) + inset, y1 = Double(bounds.maxY) - inset
        func holds(_ x: Double, _ y: Double) -> Bool {
            let q = toLayer.apply(Point(x: x, y: y))
            return q.x >= x0 && q.x <= x1 && q.y >= y0 && q.y <= y1
        }
        let w = Double(canvas.width), h = Double(canvas.height)
        return holds(0, 0) && holds(w, 0) && holds(0, h) && holds(w, h)
    }

    /// Replicator instances visited (tested or drawn, `+Replicator`) since this renderer was
    /// made: what bounds a replicator's cost, read by tests.
    var replicatorInstancesVisited = 0
    /// Retained leaf layers (`LayerRenderer+Leaves`).
    @exclusivity(unchecked) var leaves: Leaves
    /// The first reads of the retained bitmaps a long list of siblings drew in the last frame.
    /// (`@exclusivity(unchecked)`: touched three times a sibling, by this renderer's thread only.)
    @exclusivity(unchecked) var siblingPrefetch = SiblingPrefetch()
    /// Set while this renderer draws one band of a frame (`LayerRenderer+Bands`): `leaves` is
    /// then shared with the other bands and only read; what drawing would change in it is
    /// written here and applied once every band is drawn.
    var bandLog: BandLog?
    /// The band renderers of this renderer's banded frames (`LayerRenderer+Bands`), kept.
    var frameBands: Bands?
    /// The particles of the emitter layer being drawn, storage reused frame to frame (`+Emitter`).
    var particleFrame = CAEmitterLayer.ParticleFrame()
    /// The particles of a banded frame's emitter layers: the slot of `particleSlots` each
    /// presentation's are in, filled once by `Bands.prepare`, only read by the bands
    /// (`+Emitter`), emptied after the frame; the slots keep their storage from frame to frame.
    var preparedParticles: [ObjectIdentifier: Int] = [:]
    var particleSlots: [(cells: [CAEmitterCell], particles: [CAEmitterLayer.Particle])] = []
    /// Tiles of the CATiledLayers drawn (`+Tiles`).
    var tileStores: [ObjectIdentifier: TileStore] = [:]
    /// Storage for ordering sublayers by depth, one per nesting level, and the level in use (`+DepthOrder`).
    var depthScratch: [DepthOrderScratch] = []
    var depthNesting = 0
    /// A projected layer's outline (`warp`, `LayerGeometry.projectedQuad`), its storage kept
    /// from frame to frame.
    var quadScratch: [Point] = []
    /// The placed sublayers of the layer being drawn at each nesting depth (`+DepthOrder`).
    var placedSublayers: [[PlacedSublayer]] = []
    /// Pixmaps of no pixels holding the drawing buffers lent to surfaces nested below the first,
    /// one per level, and the nesting level of the surface drawn now (`drawingWithTargetScratch`).
    var spareScratch: [Pixmap] = []
    var scratchLent = 0
    /// The first nesting level the running thread's stack does not hold (`+Stack`, measured where
    /// drawing starts): drawing moves to a fresh stack before it, tree analyses stop at it.
    var stackLevelEnd = 0
}

extension CATransform3D {
    /// The 3D embedding of a 2D affine map.
    init(_ t: Transform) {
        self = CATransform3DMakeAffineTransform(CGAffineTransform(a: CGFloat(t.a), b: CGFloat(t.b), c: CGFloat(t.c),
                                                                  d: CGFloat(t.d), tx: CGFloat(t.tx), ty: CGFloat(t.ty)))
    }
}

extension Rect {
    init(_ r: CGRect) { self.init(x: Double(r.minX), y: Double(r.minY), width: Double(r.width), height: Double(r.height)) }
}
