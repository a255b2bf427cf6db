import QuartzCore
import Raster

/// `shouldRasterize` / `rasterizationScale`: a layer and its subtree drawn into a bitmap, which is
/// then composited — and kept across frames while nothing in the subtree changes.
///
/// Apple, shouldRasterize: "When the value of this property is true, the layer is rendered as a
/// bitmap in its local coordinate space and then composited to the destination with any other
/// content. Shadow effects and any filters in the filters property are rasterized and included in
/// the bitmap. However, the current opacity of the layer is not rasterized"; rasterizationScale:
/// "The scale at which to rasterize content, relative to the coordinate space of the layer. …
/// The default value of this property is 1.0." So the bitmap has rasterizationScale pixels per
/// layer point whatever the screen's scale: left at 1 on a 2× target it looks blurred (apps set
/// it to the screen's scale), and it is resampled (bilinear) when the layer is scaled or turned.
/// The bitmap is reused while the layer's own look, its sublayers (their model values, order and
/// display state) and — when something in the subtree is animated — the media time stay the
/// same; moving, turning or fading the rasterized layer itself reuses it (its position,
/// transform and opacity are applied when compositing).
///
/// Covered area: the layer's content rectangle (shadow included) and, unless masksToBounds clips
/// them, its sublayers' (in the layer's plane). A subtree with a replicator or an emitter (whose
/// extent is not bounded by its layers) or a bitmap larger than `maxLeafSide` is drawn directly.
extension LayerRenderer {
    /// A rasterized layer's bitmap.
    final class Rasterized {
        let signature: RasterSignature
        let pixmap: Pixmap
        let extents: TexelExtents
        /// Bitmap pixel → layer point.
        let bitmapToLayer: Transform
        /// The layer rectangle the bitmap covers.
        let area: CGRect
        /// The `_serial` of the layer it belongs to.
        let owner: UInt64
        /// The last full frame that drew it (`Leaves.frame`).
        var lastFrame = 0

        init(signature: RasterSignature, pixmap: Pixmap, bitmapToLayer: Transform, area: CGRect, owner: UInt64) {
            self.signature = signature
            self.pixmap = pixmap
            extents = TexelExtents(of: pixmap)
            self.bitmapToLayer = bitmapToLayer
            self.area = area
            self.owner = owner
        }
    }

    /// What a rasterized bitmap was drawn from.
    struct RasterSignature: Equatable {
        /// The layer's own look at the rasterization scale.
        var look: LeafKey.Values
        var sublayerTransform: CATransform3D
        var shadow: [CGFloat]
        var shadowColor: CGColor?, shadowPath: CGPath?
        /// The tint it is drawn under (a replicator's instance colour), as r, g, b, a.
        var tint: [CGFloat]
        /// Per layer below it (sublayers and masks, depth first): serial, model version, needs display.
        var subtree: [Int]
        /// The media time, when something below it is animated; nil otherwise.
        var time: CFTimeInterval?
        var area: CGRect
    }

    /// Draws a layer with `shouldRasterize` from its (retained) bitmap; false when it must be
    /// drawn directly instead (see above, and when the bitmap is past the offscreen budget).
    func drawRasterized(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval, into canvas: Pixmap,
                        depth: Int, tint: Tint?) -> Bool {
        let scale = p.rasterizationScale
        guard scale > 0, scale.isFinite, let area = rasterizedArea(model, p, rasterScale: scale, time: time) else { return false }
        let fw = (area.width * scale).rounded(.up), fh = (area.height * scale).rounded(.up)
        guard area.width > 0, area.height > 0, fw.isFinite, fh.isFinite,
              fw <= LayerRenderer.maxLeafSide, fh <= LayerRenderer.maxLeafSide else { return false }
        let signature = rasterSignature(model, p, area: area, scale: scale, time: time, tint: tint)
        let id = ObjectIdentifier(model)
        let bitmap: Rasterized
        if let old = leaves.rasterized[id], old.owner == model._serial, old.signature == signature {
            bitmap = old
        } else {
            let s = Double(scale)
            let toBitmap = Transform(a: s, b: 0, c: 0, d: s, tx: 1 - Double(area.minX) * s, ty: 1 - Double(area.minY) * s)
            // Drawn as an offscreen surface of this frame (the inner renderer shares the
            // account), then kept as a retained bitmap.
            let made: Pixmap?? = withOffscreen(width: Int(fw) + 2, height: Int(fh) + 2, for: model) { fresh in
                let inner = LayerRenderer(target: fresh, scale: scale, usesModelValues: usesModelValues, offscreen: offscreen)
                inner.stackLevelEnd = stackLevelEnd
                return inner.drawGroup(model, p, matrix: CATransform3D(toBitmap), time: time, into: fresh, depth: depth, tint: tint)
            }
            guard let made, let drawn = made, let fromBitmap = toBitmap.inverted() else { return false }
            bitmap = Rasterized(signature: signature, pixmap: drawn, bitmapToLayer: fromBitmap,
                                area: area.insetBy(dx: -1 / scale, dy: -1 / scale), owner: model._serial)
            leaves.rasterized[id] = bitmap
            leaves.rasterizations += 1
        }
        bitmap.lastFrame = leaves.frame
        if let affine = LayerGeometry.affine(matrix) {
            canvas.drawTexture(bitmap.pixmap, transform: bitmap.bitmapToLayer.concatenating(affine), opacity: p.opacity,
                               clearBorder: true, extents: bitmap.extents)
        } else if let homography = LayerGeometry.projective(matrix) {
            warp(bitmap.pixmap, bitmapToLayer: bitmap.bitmapToLayer, covering: bitmap.area, by: homography, into: canvas,
                 opacity: p.opacity)
        }
        return true
    }

    /// The layer-space rectangle a rasterized layer's bitmap must cover: its content rectangle
    /// grown by its shadow's reach, and its sublayers' areas unless masksToBounds clips them;
    /// nil when it is unbounded (a replicator or emitter below) or not finite.
    private func rasterizedArea(_ model: CALayer, _ p: CALayer, rasterScale: CGFloat, time: CFTimeInterval,
                                levelsLeft: Int = LayerRenderer.analysisLevels) -> CGRect? {
        guard levelsLeft > 0, !(model is CAReplicatorLayer), !(model is CAEmitterLayer),
              var area = LayerContent.rect(p) else { return nil }
        if p.shadowOpacity > 0 {
            // The bitmap is drawn at the rasterization scale, and so is the shadow's blur.
            let reach = Self.shadowReach(p, pixelsPerPoint: rasterScale) / rasterScale
            let shadow = (p.shadowPath?.boundingBoxOfPath ?? p.bounds)
                .offsetBy(dx: p.shadowOffset.width, dy: p.shadowOffset.height).insetBy(dx: -reach, dy: -reach)
            area = area.union(shadow)
        }
        guard !p.masksToBounds else { return area }
        for child in model.sublayers ?? [] {
            guard let (cp, toLayer) = placement(child, parentMatrix: CATransform3DIdentity, parentPresentation: p, time: time)
            else { continue }
            guard let box = rasterizedArea(child, cp, rasterScale: rasterScale, time: time, levelsLeft: levelsLeft - 1) else { return nil }
            let corners = [(box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY)]
                .map { toLayer._project(x: $0.0, y: $0.1) }
            for c in corners {
                guard c.w > 0, c.x.isFinite, c.y.isFinite else { return nil }
                area = area.union(CGRect(x: c.x, y: c.y, width: 0, height: 0))
            }
        }
        return area
    }

    /// `l`'s sublayers, then its mask.
    private static func sublayersAndMask(_ l: CALayer) -> [CALayer] {
        (l.sublayers ?? []) + (l.mask.map { [$0] } ?? [])
    }

    private func rasterSignature(_ model: CALayer, _ p: CALayer, area: CGRect, scale: CGFloat, time: CFTimeInterval,
                                 tint: Tint?) -> RasterSignature {
        var subtree: [Int] = []
        var animated = false
        // `model`'s sublayers and masks below it, depth first (a loop: a mask's subtree may be
        // deeper than any stack).
        var pending = Self.sublayersAndMask(model).reversed() as [CALayer]
        while let child = pending.popLast() {
            subtree += [Int(truncatingIfNeeded: child._serial), child._modelVersion, child.needsDisplay() ? 1 : 0]
            if child._hasAnimations { animated = true }
            pending += Self.sublayersAndMask(child).reversed()
        }
        return RasterSignature(look: LeafKey.Values(p, rasterScale: scale), sublayerTransform: p.sublayerTransform,
                               shadow: [CGFloat(p.shadowOpacity), p.shadowRadius, p.shadowOffset.width, p.shadowOffset.height],
                               shadowColor: p.shadowColor, shadowPath: p.shadowPath,
                               tint: tint.map { [$0.r, $0.g, $0.b, $0.a] } ?? [],
                               subtree: subtree, time: animated ? time : nil, area: area)
    }
}
