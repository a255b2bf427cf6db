// Compositor — renders a layer tree's presentation to pixels.
//
// Design note
// -----------
// For every layer, back to front (siblings stably sorted by zPosition), at one media time:
//
//     shadow → background (rounded) → contents / drawn content / shape / gradient / text
//            → sublayers (clipped to the rounded bounds when masksToBounds) → border (on top)
//
// all under the layer's accumulated layer → device matrix (`LayerGeometry`). A layer with
// opacity < 1, a mask, or a replicator instance colour is drawn into an offscreen group first
// and composited once (Core Animation's group opacity). Flat (affine) layers draw their vector
// content directly in device space; a layer whose matrix has perspective renders its own content
// into a layer-space bitmap and warps it with a projective image pattern (the seed's fold image).
// Drawn content (`draw(in:)`) is cached per layer until `setNeedsDisplay()` or a size change.
// Leaf layers whose pixels follow from their properties (plain, shape, gradient, text) are
// rasterized once into retained bitmaps keyed on those properties and then only re-composited
// (`cachedLeaf`); `LayerRenderer+Damage` says which part of the frame a change invalidates.
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
        var pixmap: Pixmap
        /// The layer it belongs to (an identifier alone could be reused by a later layer).
        weak var owner: CALayer?
    }

    /// Device position of the target's top-left pixel (non-zero when drawing a damaged patch).
    let origin: (x: Int, y: Int)

    /// Whether layers are drawn with their model values, ignoring animations and transitions
    /// (`CALayer.render(in:)`), instead of as presented at the frame's time.
    let usesModelValues: Bool

    init(target: Pixmap, scale: CGFloat, origin: (x: Int, y: Int) = (0, 0), usesModelValues: Bool = false) {
        self.target = target
        self.scale = scale
        self.origin = origin
        self.usesModelValues = usesModelValues
    }

    /// Footprints of the frame being drawn (`footprints(of:at:reusing:)`), when the tree is
    /// damage-tracked: a layer whose subtree cannot reach the target is skipped, and a retained
    /// layer placed as its footprint says takes its `LeafKey` from there instead of building it
    /// again.
    private var onScreen: [ObjectIdentifier: Footprint]?

    /// A renderer for a patch of the frame that uses (and updates) `other`'s retained layers;
    /// with `footprints` of the frame, subtrees that miss the patch are not visited.
    convenience init(target: Pixmap, scale: CGFloat, origin: (x: Int, y: Int), sharingCachesWith other: LayerRenderer,
                     footprints: [ObjectIdentifier: Footprint]? = nil) {
        self.init(target: target, scale: scale, origin: origin)
        leaves = other.leaves
        backingStores = other.backingStores
        onScreen = footprints
    }

    /// Whether `model`'s subtree is known (from the frame's footprints) to miss the target.
    private func missesTarget(_ model: CALayer) -> Bool {
        guard let reach = onScreen?[ObjectIdentifier(model)]?.reach else { return false }
        return !reach.intersects(LayerGeometry.IntBox(x0: origin.x, y0: origin.y,
                                                      x1: origin.x + target.width, y1: origin.y + target.height))
    }

    /// Draws a whole frame of `root` and then forgets the retained bitmaps of layers it did not
    /// draw (patch renderers, which see only part of the tree, use `render`). `footprints`: the
    /// frame's, when the tree is damage-tracked.
    func renderFullFrame(_ root: CALayer, at time: CFTimeInterval, footprints: [ObjectIdentifier: Footprint]?) {
        leaves.beginFullFrame()
        onScreen = footprints
        render(root, at: time)
        onScreen = nil
        leaves.dropUnused()
        for key in backingStores.compactMap({ $0.value.owner == nil ? $0.key : nil }) { backingStores[key] = nil }
    }

    /// Draws `root` (a model layer) as presented at media time `time`.
    func render(_ root: CALayer, at time: CFTimeInterval) {
        let base = CATransform3DConcat(CATransform3DMakeScale(scale, scale, 1),
                                       CATransform3DMakeTranslation(CGFloat(-origin.x), CGFloat(-origin.y), 0))
        draw(root, parentMatrix: base, parentPresentation: nil, time: time, into: target, depth: 0)
    }

    /// Draws `layer` (a model layer, with its model values) and its sublayers in the layer's own
    /// coordinate space mapped to device pixels by `matrix` (`CALayer.render(in:)`): its own
    /// position, anchor point and transform are not applied, its opacity is.
    func renderInOwnSpace(_ layer: CALayer, matrix: CATransform3D) {
        guard LayerRenderer.isShown(layer) else { return }
        drawPlaced(layer, layer, matrix: matrix, time: 0, into: target, depth: 0, tint: nil)
    }

    // MARK: - Layers

    private func draw(_ model: CALayer, parentMatrix: CATransform3D, parentPresentation: CALayer?,
                      time: CFTimeInterval, into canvas: Pixmap, depth: Int,
                      tint: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)? = nil) {
        guard depth < 64, !missesTarget(model), let (p, matrix) = placement(model, parentMatrix: parentMatrix,
                                                      parentPresentation: parentPresentation, time: time) else { return }
        if !usesModelValues, let running = model._transition(atMediaTime: time), let source = running.transition._sourceLayer {
            drawTransition(running.transition, progress: running.progress, from: source, to: model, p,
                           matrix: matrix, time: time, into: canvas, depth: depth, tint: tint)
            return
        }
        drawPlaced(model, p, matrix: matrix, time: time, into: canvas, depth: depth, tint: tint)
    }

    /// Draws a placed layer (presentation `p`, layer → device `matrix`) and its subtree.
    func drawPlaced(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval, into canvas: Pixmap,
                    depth: Int, tint: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)?) {
        if tint == nil, let affine = LayerGeometry.affine(matrix), let cached = cachedLeaf(model, p, affine: affine) {
            // Retained: the layer's rasterization is reused; only its placement and opacity change.
            canvas.drawTexture(cached.pixmap, transform: cached.toDevice, opacity: p.opacity, clearBorder: true,
                               extents: cached.extents)
            return
        }
        let needsGroup = p.opacity < 1 || p.mask != nil || tint != nil
        guard needsGroup else {
            drawLayerBody(model, p, matrix: matrix, time: time, into: canvas, depth: depth)
            return
        }
        // Group opacity: the layer and its subtree in an offscreen surface covering only the
        // device area they can touch, composited once.
        let box = groupBox(model, p, matrix: matrix, canvas: canvas)
        guard box.width > 0, box.height > 0, let surface = try? Pixmap(width: box.width, height: box.height) else { return }
        let local = CATransform3DConcat(matrix, CATransform3DMakeTranslation(CGFloat(-box.x), CGFloat(-box.y), 0))
        drawLayerBody(model, p, matrix: local, time: time, into: surface, depth: depth)
        if let maskLayer = p.mask { applyMask(maskLayer, layerMatrix: local, time: time, to: surface, depth: depth) }
        if let tint { multiply(surface, by: tint) }
        canvas.draw(surface, atX: box.x, y: box.y, opacity: p.opacity)
    }

    /// The presentation of `model` at `time` and its layer → device matrix, or nil when it draws
    /// nothing (hidden, transparent, or a culled back face). A layer flattens its sublayers into
    /// its own plane (Apple); a CATransformLayer does not, so its sublayers share its 3D space.
    func placement(_ model: CALayer, parentMatrix: CATransform3D, parentPresentation: CALayer?,
                   time: CFTimeInterval) -> (CALayer, CATransform3D)? {
        let p = usesModelValues ? model : model._presentation(atMediaTime: time) ?? model
        guard LayerRenderer.isShown(p) else { return nil }
        let toParent = LayerGeometry.layerToParent(p, parent: parentPresentation)
        let placed = parentPresentation is CATransformLayer ? toParent : LayerGeometry.flattened(toParent)
        let matrix = CATransform3DConcat(placed, parentMatrix)
        if !p.isDoubleSided && LayerGeometry.isBackFacing(p.bounds, matrix) { return nil }
        return (p, matrix)
    }

    /// Whether `p` draws anything at all: not hidden, not fully transparent.
    private static func isShown(_ p: CALayer) -> Bool { !p.isHidden && p.opacity > 0 }

    /// Sublayers in drawing order: by zPosition (stable), or by depth inside a CATransformLayer.
    func drawingOrder(_ model: CALayer, _ p: CALayer, time: CFTimeInterval) -> [CALayer] {
        let subs = model.sublayers ?? []
        if p is CATransformLayer { return LayerGeometry.depthSorted(subs, in: p, time: time) }
        // Sublayers of one zPosition (the common case) keep their order: no sort.
        guard let z = subs.first?.zPosition, !subs.allSatisfy({ $0.zPosition == z }) else { return subs }
        return subs.enumerated().sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }.map(\.element)
    }

    private func drawLayerBody(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval,
                               into surface: Pixmap, depth: Int) {
        drawShadow(p, matrix: matrix, into: surface)
        drawContent(model, p, matrix: matrix, into: surface)
        drawSublayers(model, p, matrix: matrix, time: time, into: surface, depth: depth)
        drawBorder(p, matrix: matrix, into: surface)
    }

    /// The device rectangle a group must cover: the projected content rectangle (grown by the
    /// shadow's reach) when no sublayer can draw outside it, else the whole canvas.
    private func groupBox(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, canvas: Pixmap)
        -> (x: Int, y: Int, width: Int, height: Int) {
        let full = (x: 0, y: 0, width: canvas.width, height: canvas.height)
        guard model.sublayers == nil || p.masksToBounds, LayerGeometry.affine(matrix) != nil else { return full }
        var margin: CGFloat = 1
        if p.shadowOpacity > 0 {
            margin += 3 * p.shadowRadius * scale / 2 + (abs(p.shadowOffset.width) + abs(p.shadowOffset.height)) * scale + 2
        }
        guard let area = LayerContent.rect(p), let box = LayerGeometry.deviceBox(area, matrix, margin: margin)?
            .clamped(width: canvas.width, height: canvas.height) else { return full }
        return (box.x0, box.y0, max(0, box.x1 - box.x0), max(0, box.y1 - box.y0))
    }

    private func drawSublayers(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval,
                               into canvas: Pixmap, depth: Int) {
        guard let subs = model.sublayers, !subs.isEmpty else { return }
        let clip = p.masksToBounds ? makeClip(p, matrix: matrix, size: canvas) : nil
        let surface: Pixmap
        if clip != nil { surface = scratch(like: canvas) } else { surface = canvas }
        let ordered = drawingOrder(model, p, time: time)
        if let replicator = p as? CAReplicatorLayer, replicator.instanceCount > 1 {
            // Like a sublayerTransform, the instance transform acts about the anchor point.
            let step = p._aboutAnchorPoint(replicator.instanceTransform)
            var instance = CATransform3DIdentity
            for i in 0..<max(0, replicator.instanceCount) {
                let shifted = time - CFTimeInterval(i) * replicator.instanceDelay
                let tint = i == 0 && replicator.instanceColor == CGColor(red: 1, green: 1, blue: 1, alpha: 1)
                    ? nil : replicator._instanceColorComponents(i)
                let m = CATransform3DConcat(instance, matrix)
                for child in ordered {
                    draw(child, parentMatrix: m, parentPresentation: p, time: shifted, into: surface,
                         depth: depth + 1, tint: tint)
                }
                instance = CATransform3DConcat(instance, step)
            }
        } else {
            for child in ordered {
                draw(child, parentMatrix: matrix, parentPresentation: p, time: time, into: surface, depth: depth + 1)
            }
        }
        if let clip {
            canvas.draw(surface, atX: 0, y: 0, opacity: 1, blendMode: .sourceOver, clip: clip)
        }
    }

    // MARK: - Content

    private func drawContent(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, into canvas: Pixmap) {
        let bounds = p.bounds
        guard bounds.width > 0 || bounds.height > 0 || p is CAShapeLayer else { return }
        if let affine = LayerGeometry.affine(matrix) {
            drawFlatContent(model, p, transform: affine, into: canvas)
        } else if let warp = LayerGeometry.projective(matrix) {
            // Perspective: draw the layer's own content into a layer-space bitmap, then warp it.
            let w = Int((bounds.width * scale).rounded(.up)), h = Int((bounds.height * scale).rounded(.up))
            guard w > 0, h > 0, let flat = try? Pixmap(width: w, height: h) else { return }
            let toBitmap = Transform(a: Double(scale), b: 0, c: 0, d: Double(scale),
                                     tx: -Double(bounds.minX * scale), ty: -Double(bounds.minY * scale))
            drawFlatContent(model, p, transform: toBitmap, into: flat)
            // bitmap pixel → layer point → device.
            let bitmapToLayer = Projective(1 / Double(scale), 0, Double(bounds.minX), 0, 1 / Double(scale), Double(bounds.minY), 0, 0, 1)
            let pattern = ImagePattern(image: flat, transform: bitmapToLayer.concatenating(warp), filter: .bilinear, spread: .decal)
            if let quad = LayerGeometry.projectedQuad(bounds, warp) {
                canvas.fill(quad, paint: Paint(shader: .image(pattern)))
            }
        }
    }

    private func drawFlatContent(_ model: CALayer, _ p: CALayer, transform: Transform, into canvas: Pixmap) {
        let outline = LayerGeometry.roundedRect(p.bounds, radius: p.cornerRadius, corners: p.maskedCorners)
        if let bg = p.backgroundColor, bg.alpha > 0 {
            canvas.fill(outline, paint: Paint(color: bg.rasterColor), transform: transform)
        }
        let clip = p.masksToBounds && p.cornerRadius > 0 ? outline : nil
        if let image = p.contents as? CGImage {
            drawImage(image, p, transform: transform, clip: clip, into: canvas)
        } else if let drawn = backingStore(for: model, p) {
            let pattern = ImagePattern(image: drawn, transform: Transform(a: 1 / Double(scale), b: 0, c: 0, d: 1 / Double(scale),
                                                                            tx: Double(p.bounds.minX), ty: Double(p.bounds.minY)).concatenating(transform),
                                       filter: .bilinear, spread: .decal)
            canvas.fill(clip ?? Path(rect: Rect(p.bounds)), paint: Paint(shader: .image(pattern)), transform: transform)
        }
        if let shape = p as? CAShapeLayer { drawShape(shape, transform: transform, into: canvas) }
        if let gradient = p as? CAGradientLayer { drawGradient(gradient, outline: clip ?? Path(rect: Rect(p.bounds)), transform: transform, into: canvas) }
        if let text = p as? CATextLayer { TextRenderer.draw(text, transform: transform, into: canvas) }
    }

    /// The image pixels `p` shows (`contentsRect` of `image`, in image pixels) and the layer-space
    /// rectangle (points) they are stretched onto (`contentsGravity`, `contentsScale`); nil when
    /// no pixel is shown.
    static func contentsPlacement(_ image: CGImage, _ p: CALayer) -> (source: CGRect, dest: CGRect)? {
        let cr = p.contentsRect
        let source = CGRect(x: cr.minX * CGFloat(image.width), y: cr.minY * CGFloat(image.height),
                            width: cr.width * CGFloat(image.width), height: cr.height * CGFloat(image.height))
        guard source.width > 0, source.height > 0 else { return nil }
        let contentSize = CGSize(width: source.width / p.contentsScale, height: source.height / p.contentsScale)
        return (source, ContentsGravity.rect(for: p.contentsGravity, contentSize: contentSize, in: p.bounds))
    }

    private func drawImage(_ image: CGImage, _ p: CALayer, transform: Transform, clip: Path?, into canvas: Pixmap) {
        guard let (source, dest) = Self.contentsPlacement(image, p) else { return }
        if p.contentsCenter != CGRect(x: 0, y: 0, width: 1, height: 1) {
            for (src, dst) in NineSlice.cells(source: source, center: p.contentsCenter, dest: dest, scale: p.contentsScale) {
                drawImageCell(image, source: src, dest: dst, transform: transform, area: Path(rect: Rect(dst)), into: canvas)
            }
            return
        }
        var area = Path(rect: Rect(dest.intersection(p.masksToBounds ? p.bounds : dest)))
        if let clip, p.masksToBounds { area = clip }
        drawImageCell(image, source: source, dest: dest, transform: transform, area: area, into: canvas)
    }

    /// Draws the `source` pixels of `image` stretched onto `dest` (layer points), inside `area`.
    private func drawImageCell(_ image: CGImage, source: CGRect, dest: CGRect, transform: Transform, area: Path,
                               into canvas: Pixmap) {
        guard source.width > 0, source.height > 0, dest.width > 0, dest.height > 0 else { return }
        let sx = Double(dest.width / source.width), sy = Double(dest.height / source.height)
        let imageToLayer = Transform(a: sx, b: 0, c: 0, d: sy, tx: Double(dest.minX) - Double(source.minX) * sx,
                                     ty: Double(dest.minY) - Double(source.minY) * sy)
        let pattern = ImagePattern(image: image.pixmap, transform: imageToLayer.concatenating(transform),
                                   filter: .smooth, spread: .pad)
        canvas.fill(area, paint: Paint(shader: .image(pattern)), transform: transform)
    }

    private func drawShape(_ s: CAShapeLayer, transform: Transform, into canvas: Pixmap) {
        guard let path = s.path, !path.isEmpty else { return }
        if let fill = s.fillColor, fill.alpha > 0 {
            canvas.fill(path.rasterPath, rule: s.fillRule == .evenOdd ? .evenOdd : .nonZero,
                        paint: Paint(color: fill.rasterColor), transform: transform)
        }
        guard let stroke = s.strokeColor, stroke.alpha > 0, s.lineWidth > 0 else { return }
        let start = max(0, min(1, s.strokeStart)), end = max(0, min(1, s.strokeEnd))
        guard end > start else { return }
        let trimmed = start == 0 && end == 1 ? path : path.trimmed(from: start, to: end)
        let style = StrokeStyle(width: Double(s.lineWidth),
                                cap: s.lineCap == .round ? .round : s.lineCap == .square ? .square : .butt,
                                join: s.lineJoin == .round ? .round : s.lineJoin == .bevel ? .bevel : .miter,
                                miterLimit: Double(s.miterLimit),
                                dash: s.lineDashPattern?.map(\.doubleValue) ?? [], dashPhase: Double(s.lineDashPhase))
        canvas.stroke(trimmed.rasterPath, style: style, paint: Paint(color: stroke.rasterColor), transform: transform)
    }

    private func drawGradient(_ g: CAGradientLayer, outline: Path, transform: Transform, into canvas: Pixmap) {
        let colors = (g.colors ?? []).compactMap { $0 as? CGColor }
        guard !colors.isEmpty else { return }
        let locations = g.locations?.map { Float($0.doubleValue) }
        let stops = colors.enumerated().map { i, c in
            GradientStop(offset: locations.flatMap { i < $0.count ? $0[i] : nil }
                            ?? (colors.count == 1 ? 0 : Float(i) / Float(colors.count - 1)),
                         color: c.rasterColor)
        }
        let b = g.bounds
        func unit(_ u: CGPoint) -> Point { Point(x: Double(b.minX + u.x * b.width), y: Double(b.minY + u.y * b.height)) }
        let start = unit(g.startPoint), end = unit(g.endPoint)
        let shader: Shader
        switch g.type {
        case .radial:
            // Apple: an ellipse centred on startPoint reaching endPoint on each axis.
            let rx = abs(end.x - start.x), ry = abs(end.y - start.y)
            let r = max(rx, 1e-9)
            let squash = Transform(a: 1, b: 0, c: 0, d: ry > 0 ? ry / r : 1, tx: 0, ty: start.y - start.y * (ry > 0 ? ry / r : 1))
            shader = .radialGradient(RadialGradient(startCenter: start, startRadius: 0, endCenter: start, endRadius: r,
                                                    stops: stops, transform: squash.concatenating(transform)))
        case .conic:
            let angle = atan2(end.y - start.y, end.x - start.x)
            shader = .conicGradient(ConicGradient(center: start, startAngle: angle, stops: stops, transform: transform))
        default:
            shader = .linearGradient(LinearGradient(start: start, end: end, stops: stops, transform: transform))
        }
        canvas.fill(outline, paint: Paint(shader: shader), transform: transform)
    }

    private func drawBorder(_ p: CALayer, matrix: CATransform3D, into canvas: Pixmap) {
        guard p.borderWidth > 0, let color = p.borderColor, color.alpha > 0,
              let transform = LayerGeometry.affine(matrix) else { return }
        let w = min(p.borderWidth, min(p.bounds.width, p.bounds.height) / 2)
        let inset = p.bounds.insetBy(dx: w / 2, dy: w / 2)
        let ring = LayerGeometry.roundedRect(inset, radius: max(0, p.cornerRadius - w / 2), corners: p.maskedCorners)
        canvas.stroke(ring, style: StrokeStyle(width: Double(w), join: .round), paint: Paint(color: color.rasterColor),
                      transform: transform)
    }

    /// Core Animation's shadow: the layer's shape (shadowPath, else its rounded bounds when it has a
    /// background, else nothing), offset by shadowOffset, blurred with σ = shadowRadius / 2 (the
    /// canvas / CSS convention that blur radius = 2σ; Apple does not document the mapping), in
    /// shadowColor at shadowOpacity. Drawn through a surface covering only what it can reach.
    private func drawShadow(_ p: CALayer, matrix: CATransform3D, into canvas: Pixmap) {
        guard p.shadowOpacity > 0, let color = p.shadowColor, let transform = LayerGeometry.affine(matrix) else { return }
        let shape: Path
        if let sp = p.shadowPath { shape = sp.rasterPath } else if p.backgroundColor != nil || p.contents != nil {
            shape = LayerGeometry.roundedRect(p.bounds, radius: p.cornerRadius, corners: p.maskedCorners)
        } else { return }
        var c = color.rasterColor
        c.a *= p.shadowOpacity
        let (dx, dy) = (p.shadowOffset.width * scale, p.shadowOffset.height * scale)
        let sigma = Double(p.shadowRadius * scale) / 2
        // Only the device box the blurred shape can reach (the shape's box grown by the blur's
        // spread), not the whole canvas: outside it the shadow is transparent either way.
        let shapeBounds = p.shadowPath?.boundingBoxOfPath ?? p.bounds
        let reach = CGFloat(Pixmap.blurMargin(sigma: sigma) + 2)
        guard let box = LayerGeometry.deviceBox(shapeBounds, CATransform3DConcat(matrix, CATransform3DMakeTranslation(dx, dy, 0)),
                                                margin: reach)?.clamped(width: canvas.width, height: canvas.height),
              box.x1 > box.x0, box.y1 > box.y0,
              let shadow = try? Pixmap(width: box.x1 - box.x0, height: box.y1 - box.y0) else { return }
        let toShadow = Transform(a: 1, b: 0, c: 0, d: 1, tx: Double(dx) - Double(box.x0), ty: Double(dy) - Double(box.y0))
        shadow.fill(shape, paint: Paint(color: c), transform: transform.concatenating(toShadow))
        shadow.gaussianBlur(sigma: sigma)
        canvas.draw(shadow, atX: box.x0, y: box.y0)
    }

    // MARK: - Groups, clips, masks

    /// A transparent surface the size of `canvas`.
    private func scratch(like canvas: Pixmap) -> Pixmap {
        (try? Pixmap(width: canvas.width, height: canvas.height)) ?? canvas
    }

    func makeClip(_ p: CALayer, matrix: CATransform3D, size: Pixmap) -> Mask? {
        guard let transform = LayerGeometry.affine(matrix),
              let mask = try? Mask(width: size.width, height: size.height) else { return nil }
        mask.fill(LayerGeometry.roundedRect(p.bounds, radius: p.cornerRadius, corners: p.maskedCorners), transform: transform)
        return mask
    }

    /// Keeps the group only where the mask layer's subtree has alpha.
    private func applyMask(_ maskLayer: CALayer, layerMatrix: CATransform3D, time: CFTimeInterval, to surface: Pixmap, depth: Int) {
        let m = scratch(like: surface)
        draw(maskLayer, parentMatrix: layerMatrix, parentPresentation: nil, time: time, into: m, depth: depth + 17)
        for i in 0..<(surface.width * surface.height) {
            let a = UInt32(m.pixels[4 * i + 3])
            if a == 255 { continue }
            for k in 0..<4 {
                surface.pixels[4 * i + k] = UInt8((UInt32(surface.pixels[4 * i + k]) * a + 127) / 255)
            }
        }
    }

    private func multiply(_ surface: Pixmap, by tint: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)) {
        let f = [tint.r, tint.g, tint.b, tint.a].map { UInt32(($0 * 255).rounded()) }
        for i in 0..<(surface.width * surface.height) {
            for k in 0..<4 where f[k] != 255 {
                surface.pixels[4 * i + k] = UInt8((UInt32(surface.pixels[4 * i + k]) * f[k] + 127) / 255)
            }
        }
    }

    // MARK: - Retained leaf layers

    /// What a leaf layer's pixels depend on (besides its placement and opacity). A class: every
    /// footprint and retained bitmap holds one and every frame compares them, so the footprint
    /// pass hands last frame's key on while the values stay the same (`footprints`), making the
    /// comparisons identity tests and the copies one retain.
    final class LeafKey: Equatable {
        struct Values: Equatable {
            let bounds: CGRect, cornerRadius: CGFloat, maskedCorners: UInt
            let background: CGColor?, borderWidth: CGFloat, borderColor: CGColor?
            let contents: ObjectIdentifier?, contentsRect: CGRect, contentsCenter: CGRect
            let gravity: String, contentsScale: CGFloat, masksToBounds: Bool
            let rasterScale: CGFloat
            let drawn: DrawnContent
        }
        let values: Values

        init(_ p: CALayer, rasterScale: CGFloat) {
            values = Values(bounds: p.bounds, cornerRadius: p.cornerRadius, maskedCorners: p.maskedCorners.rawValue,
                            background: p.backgroundColor, borderWidth: p.borderWidth, borderColor: p.borderColor,
                            contents: (p.contents as? CGImage).map(ObjectIdentifier.init), contentsRect: p.contentsRect,
                            contentsCenter: p.contentsCenter, gravity: p.contentsGravity.rawValue,
                            contentsScale: p.contentsScale, masksToBounds: p.masksToBounds, rasterScale: rasterScale,
                            drawn: DrawnContent(p))
        }

        static func == (a: LeafKey, b: LeafKey) -> Bool { a === b || a.values == b.values }
    }

    /// Device pixels per layer point of an affine layer → device map (the longer of its two axes);
    /// nil when it is 0 or not finite.
    static func pixelsPerPoint(_ affine: Transform) -> Double? {
        let s = max((affine.a * affine.a + affine.b * affine.b).squareRoot(), (affine.c * affine.c + affine.d * affine.d).squareRoot())
        return s > 0 && s.isFinite ? s : nil
    }

    /// `pixelsPerPoint`, quantized up to quarters.
    static func rasterScale(_ affine: Transform) -> CGFloat? {
        pixelsPerPoint(affine).map { CGFloat(($0 * 4).rounded(.up) / 4) }
    }

    /// The linear part (a, b, c, d) of a layer → device map: rotation, scale and skew.
    struct Orientation: Equatable {
        var a: Double, b: Double, c: Double, d: Double
        init(_ t: Transform) { a = t.a; b = t.b; c = t.c; d = t.d }
    }

    /// A leaf layer's retained rasterization (a class: looked up for every layer every frame, it
    /// is then retained, not copied field by field).
    final class Leaf {
        let key: LeafKey
        /// Premultiplied pixels with (at least) one transparent pixel of margin on every side.
        let pixmap: Pixmap
        /// Where `pixmap`'s non-transparent and flat pixels lie: drawn translated, it skips its
        /// transparent corners, and translated or not, its solid interior is blended as one colour.
        let extents: TexelExtents
        /// How the bitmap was drawn: in device orientation (rotation and scale applied) with
        /// bitmap pixel (0, 0) at device (origin + the layer's translation then), or in layer space.
        let placement: Placement
        /// The `_serial` of the layer it belongs to (an identifier alone could be reused by a
        /// later layer).
        let owner: UInt64
        /// The layer's orientation in the last frame that drew it.
        var seen: Orientation
        /// The last full frame that drew it (`Leaves.frame`).
        var lastFrame = 0

        init(key: LeafKey, pixmap: Pixmap, placement: Placement, owner: CALayer, seen: Orientation) {
            self.key = key
            self.pixmap = pixmap
            extents = TexelExtents(of: pixmap)
            self.placement = placement
            self.owner = owner._serial
            self.seen = seen
        }

        /// Whether the bitmap can be shown at `orientation`: a device-oriented one only at the
        /// orientation it was drawn for, a layer-space one while the orientation keeps changing.
        func fits(_ orientation: Orientation) -> Bool {
            switch placement {
            case let .device(drawn, _): drawn == orientation
            case .layer: seen != orientation
            }
        }

        enum Placement {
            /// Bitmap pixel → device is a translation by `origin` + the layer → device translation.
            case device(Orientation, origin: (x: Double, y: Double))
            /// Layer space → bitmap pixels.
            case layer(toCache: Transform)
        }
    }

    /// Retained leaf layers by layer identity, shared with patch renderers (a bitmap and its
    /// placement do not depend on the target's origin).
    final class Leaves {
        var byLayer: [ObjectIdentifier: Leaf] = [:]
        /// Number of the full frame being drawn.
        private(set) var frame = 0

        /// Bitmaps rasterized so far (for tests: a frame that only moves, turns or fades
        /// retained layers adds none).
        var rasterizations = 0

        func beginFullFrame() { frame &+= 1 }

        /// Forgets the bitmaps of layers without a footprint in the frame just drawn (a patch
        /// frame of a damage-tracked tree, whose footprints list every layer on screen).
        func keepOnly(_ onScreen: [ObjectIdentifier: Footprint]) {
            let gone = byLayer.compactMap { onScreen[$0.key] == nil ? $0.key : nil }
            for key in gone { byLayer[key] = nil }
        }

        /// Forgets the bitmaps the full frame just drawn did not use (layers removed, hidden or
        /// gone), so the cache holds only what is on screen.
        func dropUnused() {
            let unused = byLayer.compactMap { $0.value.lastFrame == frame ? nil : $0.key }
            for key in unused { byLayer[key] = nil }
        }
    }

    var leaves = Leaves()

    /// A plain, shape, gradient or text layer (`LayerContent.drawsItself`) without sublayers,
    /// mask or shadow is rasterized once and then only re-composited — with bilinear filtering,
    /// as Core Animation composites layer textures — until a property that changes its pixels
    /// changes. Its bitmap is drawn in device orientation while the layer's rotation and scale
    /// stay put (moving it is then a translation of the bitmap, sub-pixel offsets included), and
    /// in layer space, at its device scale quantized up to quarters, once they animate (each frame
    /// then resamples it under the full affine map). The bitmap covers `LayerContent.rect` (a
    /// stroke or glyphs may reach beyond the bounds). A property whose change alters the pixels
    /// (`LeafKey`: e.g. an animated strokeEnd or colour) makes a fresh bitmap in that frame;
    /// changes of position, opacity and rotation do not (a change of scale does when it crosses
    /// a quarter of the raster scale).
    /// Returns the bitmap and its pixel → device map, or nil when the layer is not eligible.
    private func cachedLeaf(_ model: CALayer, _ p: CALayer, affine: Transform)
        -> (pixmap: Pixmap, extents: TexelExtents, toDevice: Transform)? {
        guard LayerContent.drawsItself(model), model.sublayers == nil, p.mask == nil, p.shadowOpacity == 0,
              p.contents == nil || p.contents is CGImage else { return nil }
        guard let rasterScale = LayerRenderer.rasterScale(affine) else { return nil }
        let id = ObjectIdentifier(model), orientation = Orientation(affine)
        let key = onScreen?[id].flatMap { $0.picture.matrix == affine ? $0.picture.key : nil } ?? LeafKey(p, rasterScale: rasterScale)
        let leaf: Leaf
        if let old = leaves.byLayer[id], old.owner == model._serial, old.key == key, old.fits(orientation) {
            leaf = old
        } else {
            // New, changed, or turned since the last frame: a layer-space bitmap while it keeps turning.
            let steady = leaves.byLayer[id].map { $0.seen == orientation } ?? true
            guard let area = LayerContent.rect(p), area.width > 0, area.height > 0,
                  let fresh = steady ? deviceLeaf(model, p, area: area, key: key, affine: affine)
                                     : layerLeaf(model, p, area: area, key: key, rasterScale: rasterScale,
                                                 orientation: orientation) else { return nil }
            leaves.rasterizations += 1
            leaf = fresh
            leaves.byLayer[id] = fresh
        }
        leaf.seen = orientation
        leaf.lastFrame = leaves.frame
        switch leaf.placement {
        case let .device(_, origin):
            return (leaf.pixmap, leaf.extents, Transform(a: 1, b: 0, c: 0, d: 1, tx: origin.x + affine.tx, ty: origin.y + affine.ty))
        case let .layer(toCache):
            guard let fromCache = toCache.inverted() else { return nil }
            return (leaf.pixmap, leaf.extents, fromCache.concatenating(affine))
        }
    }

    /// Largest retained bitmap side (pixels); bigger layers are drawn directly.
    private static let maxLeafSide: CGFloat = 4096

    /// The layer drawn under `affine` into a bitmap covering the device box of `area` (its
    /// content rectangle, layer space) plus one pixel.
    private func deviceLeaf(_ model: CALayer, _ p: CALayer, area: CGRect, key: LeafKey, affine: Transform) -> Leaf? {
        guard let box = LayerGeometry.deviceBox(area, CATransform3D(affine), margin: 1),
              CGFloat(box.x1 - box.x0) <= LayerRenderer.maxLeafSide, CGFloat(box.y1 - box.y0) <= LayerRenderer.maxLeafSide,
              let fresh = try? Pixmap(width: box.x1 - box.x0, height: box.y1 - box.y0) else { return nil }
        let toCache = affine.concatenating(Transform(a: 1, b: 0, c: 0, d: 1, tx: -Double(box.x0), ty: -Double(box.y0)))
        drawFlatContent(model, p, transform: toCache, into: fresh)
        drawBorder(p, matrix: CATransform3D(toCache), into: fresh)
        return Leaf(key: key, pixmap: fresh,
                    placement: .device(Orientation(affine), origin: (Double(box.x0) - affine.tx, Double(box.y0) - affine.ty)),
                    owner: model, seen: Orientation(affine))
    }

    /// The layer's `area` (its content rectangle, layer space) drawn at `rasterScale` pixels per
    /// point, one transparent pixel of margin around.
    private func layerLeaf(_ model: CALayer, _ p: CALayer, area b: CGRect, key: LeafKey, rasterScale: CGFloat,
                           orientation: Orientation) -> Leaf? {
        let toCache = Transform(a: Double(rasterScale), b: 0, c: 0, d: Double(rasterScale),
                                tx: 1 - Double(b.minX * rasterScale), ty: 1 - Double(b.minY * rasterScale))
        let fw = (b.width * rasterScale).rounded(.up), fh = (b.height * rasterScale).rounded(.up)
        guard fw.isFinite, fh.isFinite, fw <= LayerRenderer.maxLeafSide, fh <= LayerRenderer.maxLeafSide,
              let fresh = try? Pixmap(width: Int(fw) + 2, height: Int(fh) + 2) else { return nil }
        drawFlatContent(model, p, transform: toCache, into: fresh)
        drawBorder(p, matrix: CATransform3D(toCache), into: fresh)
        return Leaf(key: key, pixmap: fresh, placement: .layer(toCache: toCache), owner: model, seen: orientation)
    }

    // MARK: - Backing stores

    /// The layer's drawn content (delegate `draw(_:in:)` or an overridden `draw(in:)`), cached
    /// until the layer needs display or changes size. nil when nothing is drawn.
    private func backingStore(for model: CALayer, _ p: CALayer) -> Pixmap? {
        let key = ObjectIdentifier(model)
        let size = p.bounds.size
        if let cached = backingStores[key], cached.owner === model, cached.size == size, !model.needsDisplay() {
            return cached.pixmap
        }
        guard model.delegate != nil || type(of: model) != CALayer.self && !(model is CAShapeLayer) && !(model is CAGradientLayer)
                && !(model is CAReplicatorLayer) && !(model is CATransformLayer) && !(model is CATextLayer) else { return nil }
        let w = Int((size.width * scale).rounded(.up)), h = Int((size.height * scale).rounded(.up))
        guard w > 0, h > 0, let pixmap = try? Pixmap(width: w, height: h) else { return nil }
        let ctx = CGContext(pixmap: pixmap, origin: .topLeft, scale: scale)
        ctx.translateBy(x: -p.bounds.minX, y: -p.bounds.minY)
        model.display()
        model.draw(in: ctx)
        backingStores[key] = BackingStore(size: size, pixmap: pixmap, owner: model)
        return pixmap
    }
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
