import QuartzCore
import Raster

/// `allowsGroupOpacity = false`: a layer whose opacity is not composited as one group; and a
/// group of one retained sublayer, composited without a surface (`drawSoleLeaf`).
///
/// Apple, allowsGroupOpacity: "When the value is true and the layer's opacity property value is
/// less than 1.0, the layer is allowed to composite itself as a group separate from its parent.
/// This gives correct results when the layer contains multiple opaque components, but may reduce
/// performance." The default is true (Apple: read from `UIViewGroupOpacity` in the Info.plist,
/// true for apps linked against iOS 7 or later; Citrine has no Info.plist and takes the iOS 7+
/// value). With false, the opacity passes down instead: the layer's own drawing (shadow,
/// background, contents, border) and each sublayer are composited separately at it, so where
/// two opaque sublayers overlap the one beneath shows through — as a CATransformLayer's opacity
/// is applied to each sublayer individually. A sublayer is still composited as its own group
/// (unless it too has allowsGroupOpacity false, when the opacity passes further down). A layer
/// with a mask or a shadow cast from its alpha is composited as a group all the same (both need
/// the group's pixels). Citrine draws the layer's own parts beneath its sublayers as one unit and
/// its border as another.
extension LayerRenderer {
    /// Draws a layer with `allowsGroupOpacity` false: its own parts and its sublayers each at
    /// its opacity (times `tint`, what its own ancestors passed down).
    func drawUngrouped(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval, into canvas: Pixmap,
                       depth: Int, tint: Tint?) {
        let inherited = Self.transformLayerTint(tint, opacity: p.opacity)
        drawOwnPart(p, matrix: matrix, into: canvas, tint: inherited) {
            drawOwnBackground(model, p, matrix: $1, time: time, into: $0)
        }
        drawSublayers(model, p, matrix: matrix, time: time, into: canvas, depth: depth, tint: inherited)
        drawOwnPart(p, matrix: matrix, into: canvas, tint: inherited) { drawOwnForeground(model, p, matrix: $1, into: $0) }
    }

    /// Draws `body` straight onto `canvas`, or, under a tint, through a transparent canvas-sized
    /// offscreen surface multiplied by it (not at all past the offscreen budget). `body` gets the
    /// surface and the layer → surface matrix.
    private func drawOwnPart(_ p: CALayer, matrix: CATransform3D, into canvas: Pixmap, tint: Tint?,
                             _ body: (Pixmap, CATransform3D) -> Void) {
        guard let tint else { return body(canvas, matrix) }
        withOffscreen(width: canvas.width, height: canvas.height, for: p) { surface in
            body(surface, matrix)
            multiply(surface, by: tint)
            canvas.draw(surface, atX: 0, y: 0)
        }
    }

    /// Group opacity over a sole leaf, without a surface: when `p` (opacity below 1, no mask, no
    /// shadow, no tint: the caller checks) is a plain layer that draws nothing of its own
    /// (`drawsNothingOfItsOwn`), casts no shadow and clips nothing, and its one sublayer is drawn
    /// from a retained bitmap (`cachedLeaf`), the group holds exactly that bitmap's pixels, so
    /// the bitmap is composited once at the product of the two opacities instead of into a
    /// surface composited at `p.opacity`: the same pixels within the rounding of one opacity
    /// step (a Lottie group's opacity over its one shape). A sublayer `cachedLeaf` has drawn
    /// directly (one that paints each pixel once) is drawn at that product likewise. Returns
    /// false, having drawn nothing, when the case does not apply.
    func drawSoleLeaf(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval, into canvas: Pixmap) -> Bool {
        guard type(of: model) == CALayer.self, Self.drawsNothingOfItsOwn(model, p), !p.masksToBounds, p.shadowOpacity == 0,
              let subs = model.sublayers, subs.count == 1 else { return false }
        let child = subs[0], footprint = onScreen?[LayerKey(child)]
        if let footprint, missesTarget(footprint) { return true }
        guard let (pc, m) = placement(child, parentMatrix: matrix, parentPresentation: p, time: time) else { return true }
        guard pc._effects == nil, !(evaluatesPresentations && child._transition(atMediaTime: time) != nil),
              let affine = LayerGeometry.affine(m) else { return false }
        let opacity = p.opacity * pc.opacity
        switch cachedLeaf(child, pc, affine: affine, known: footprint?.picture, opacity: opacity) {
        case let .bitmap(pixmap, extents, toDevice)?:
            canvas.drawTexture(pixmap, transform: toDevice, opacity: opacity, clearBorder: true, extents: extents)
        case .direct?:
            drawDirectly(child, pc, affine: affine, style: PaintStyle(opacity: opacity), into: canvas)
        case nil:
            return false
        }
        return true
    }

    /// Two tints applied one after the other (component-wise product); nil when both are.
    static func combined(_ a: Tint?, _ b: Tint?) -> Tint? {
        guard let a else { return b }
        guard let b else { return a }
        return (r: a.r * b.r, g: a.g * b.g, b: a.b * b.b, a: a.a * b.a)
    }
}
