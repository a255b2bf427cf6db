import QuartzCore
import Raster

/// `allowsGroupOpacity = false`: a layer whose opacity is not composited as one group.
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
        drawOwnPart(p, matrix: matrix, into: canvas, tint: inherited) { drawOwnForeground(p, matrix: $1, into: $0) }
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

    /// Two tints applied one after the other (component-wise product); nil when both are.
    static func combined(_ a: Tint?, _ b: Tint?) -> Tint? {
        guard let a else { return b }
        guard let b else { return a }
        return (r: a.r * b.r, g: a.g * b.g, b: a.b * b.b, a: a.a * b.a)
    }
}
