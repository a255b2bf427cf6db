import QuartzCore
import Raster

/// A picture of a layer's subtree for a transition: the layer and its sublayers drawn once into
/// a layer-space bitmap — its bounds at the layer's device scale, plus one transparent pixel of
/// margin on every side (so that the picture's outline is anti-aliased by bilinear filtering
/// wherever it lands). While the layer's map to the device is an axis-aligned scale and
/// translation, the bitmap's pixels are aligned with the device's, so a picture in place is
/// copied pixel for pixel. What the subtree draws outside the layer's bounds (sublayers
/// sticking out, the layer's shadow) is not part of the picture.
final class TransitionPicture {
    /// Bitmap size and placement.
    struct Layout: Equatable {
        /// Bitmap pixels per layer point.
        var scale: CGFloat
        /// The layer-space rectangle the bitmap covers (margin included).
        var rect: CGRect
        var width: Int, height: Int

        /// The layout for a layer with `bounds` drawn under `matrix` (layer → device), at most
        /// `maxSide` pixels a side and about `maxPixels` pixels in all (a layer scaled far past
        /// the target is pictured at a lower scale, as retained bitmaps are bounded by
        /// `LayerRenderer.maxLeafPixels`: the cost of a transition frame stays proportional to
        /// the target, not to the layer's size); `fallbackScale` when the matrix has perspective.
        init?(bounds: CGRect, matrix: CATransform3D, fallbackScale: CGFloat, maxSide: CGFloat = 4096, maxPixels: Int) {
            guard bounds.minX.isFinite, bounds.minY.isFinite, bounds.width.isFinite, bounds.height.isFinite,
                  bounds.width >= 0, bounds.height >= 0 else { return nil }
            var s = fallbackScale, fx: CGFloat = 0, fy: CGFloat = 0
            if let a = LayerGeometry.affine(matrix), let pp = LayerRenderer.pixelsPerPoint(a) {
                s = CGFloat(pp)
                if a.b == 0, a.c == 0, a.a == a.d, a.a > 0 {
                    let x0 = a.a * Double(bounds.minX) + a.tx, y0 = a.d * Double(bounds.minY) + a.ty
                    if abs(x0) < 1e9, abs(y0) < 1e9 {
                        fx = CGFloat(x0 - x0.rounded(.down)); fy = CGFloat(y0 - y0.rounded(.down))
                    }
                }
            }
            guard s > 0, s.isFinite else { return nil }
            let longest = max(bounds.width, bounds.height)
            if longest * s + 3 > maxSide {
                s = (maxSide - 3) / longest
                fx = 0; fy = 0
            }
            let area = bounds.width * bounds.height * s * s
            if area > CGFloat(maxPixels) {
                s *= (CGFloat(maxPixels) / area).squareRoot()
                fx = 0; fy = 0
            }
            width = Int((bounds.width * s + fx).rounded(.up)) + 2
            height = Int((bounds.height * s + fy).rounded(.up)) + 2
            scale = s
            rect = CGRect(x: bounds.minX - (fx + 1) / s, y: bounds.minY - (fy + 1) / s,
                          width: CGFloat(width) / s, height: CGFloat(height) / s)
        }

        /// Layer space → bitmap pixels.
        var layerToBitmap: CATransform3D {
            CATransform3DConcat(CATransform3DMakeTranslation(-rect.minX, -rect.minY, 0), CATransform3DMakeScale(scale, scale, 1))
        }

        /// Bitmap pixels → layer space.
        var bitmapToLayer: Projective {
            Projective(Transform(a: 1 / Double(scale), b: 0, c: 0, d: 1 / Double(scale), tx: Double(rect.minX), ty: Double(rect.minY)))
        }
    }

    let layout: Layout
    let pixmap: Pixmap

    init(layout: Layout, pixmap: Pixmap) {
        self.layout = layout
        self.pixmap = pixmap
    }

    /// A transparent picture for `layout`: `reusing`'s bitmap when it has the same size (cleared),
    /// else a new one.
    static func blank(_ layout: Layout, reusing old: TransitionPicture?) -> TransitionPicture? {
        if let old, old.pixmap.width == layout.width, old.pixmap.height == layout.height {
            old.pixmap.fill(with: PremultipliedColor(r: 0, g: 0, b: 0, a: 0))
            return TransitionPicture(layout: layout, pixmap: old.pixmap)
        }
        guard let pixmap = try? Pixmap(width: layout.width, height: layout.height) else { return nil }
        return TransitionPicture(layout: layout, pixmap: pixmap)
    }
}

/// What a renderer keeps for one running transition (`CATransition._renderState`): the "from"
/// picture, drawn once from the recorded subtree; the "to" picture, drawn again only when the
/// layer's subtree may have changed; the cross-dissolve's bitmap; the mesh's pieces and points.
/// All are reused frame to frame.
final class TransitionRenderState {
    var from: TransitionPicture?
    var to: TransitionPicture?
    var mix: TransitionPicture?
    let mesh = TransitionMeshBuffer()
    /// What the "to" picture was drawn from.
    var toStamp: Stamp?

    struct Stamp: Equatable {
        var changes: Int
        var layout: TransitionPicture.Layout
        var key: LayerRenderer.LeafKey
        var opacity: Float
        var tint: [CGFloat]?
    }

    /// Whether nothing in `model`'s subtree can change its picture without a committed change:
    /// no animation but the transition on the layer itself, none below it (sublayers and masks),
    /// nothing waiting for display.
    static func isSettled(_ model: CALayer) -> Bool {
        func settled(_ l: CALayer) -> Bool {
            !l._hasAnimations && !l.needsDisplay() && (l.sublayers ?? []).allSatisfy(settled) && (l.mask.map(settled) ?? true)
        }
        return model.animationKeys() == [kCATransition] && !model.needsDisplay()
            && (model.sublayers ?? []).allSatisfy(settled) && (model.mask.map(settled) ?? true)
    }
}
