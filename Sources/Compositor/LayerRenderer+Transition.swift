// Transitions (CATransition): a layer with a running transition is drawn twice — as it was
// last presented when the transition was added (`CATransition._sourceLayer`, "from") and as
// it is now ("to") — and the two pictures are combined at the transition's progress p:
//
//     type      from (old)                  to (new)                    on top
//     fade      opacity 1 − p               opacity p, added            —      (a cross-dissolve)
//     moveIn    still                       slides in: offset (1 − p)·v new
//     push      slides out: offset −p·v     slides in: offset (1 − p)·v new
//     reveal    slides out: offset −p·v     still                       old
//
// with v the layer's width or height along the subtype (Apple: "the transition begins at the
// right side of the layer" for fromRight, so v = (+width, 0); fromLeft (−width, 0); fromTop
// (0, −height) and fromBottom (0, +height) in the layer's y-down coordinates). Apple documents
// no direction for a nil subtype; it acts as fromLeft here. The private types of the seeds
// ("cube", "pageCurl", …) are drawn as a fade. The pictures are clipped to the layer's rounded
// bounds when it masks to bounds, and otherwise slide beyond them, as on iOS. The "from"
// picture holds the layer itself, not its former sublayers (they are not recorded).
import QuartzCore
import Raster

extension LayerRenderer {
    func drawTransition(_ transition: CATransition, progress: Float, from source: CALayer, to model: CALayer,
                        _ p: CALayer, matrix: CATransform3D, time: CFTimeInterval, into canvas: Pixmap, depth: Int,
                        tint: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)?) {
        guard let old = try? Pixmap(width: canvas.width, height: canvas.height),
              let new = try? Pixmap(width: canvas.width, height: canvas.height) else { return }
        let t = CGFloat(min(max(progress, 0), 1))
        let v = Self.direction(transition.subtype, bounds: p.bounds)
        let kind = transition.type
        let oldShift = kind == .push || kind == .reveal ? -t : 0
        let newShift = kind == .push || kind == .moveIn ? 1 - t : 0
        func shifted(_ f: CGFloat) -> CATransform3D {
            CATransform3DConcat(CATransform3DMakeTranslation(v.dx * f, v.dy * f, 0), matrix)
        }
        drawPlaced(source, source, matrix: shifted(oldShift), time: time, into: old, depth: depth, tint: tint)
        drawPlaced(model, p, matrix: shifted(newShift), time: time, into: new, depth: depth, tint: tint)
        let clip = p.masksToBounds ? makeClip(p, matrix: matrix, size: canvas) : nil
        switch kind {
        case .moveIn, .push:
            canvas.draw(old, atX: 0, y: 0, opacity: 1, blendMode: .sourceOver, clip: clip)
            canvas.draw(new, atX: 0, y: 0, opacity: 1, blendMode: .sourceOver, clip: clip)
        case .reveal:
            canvas.draw(new, atX: 0, y: 0, opacity: 1, blendMode: .sourceOver, clip: clip)
            canvas.draw(old, atX: 0, y: 0, opacity: 1, blendMode: .sourceOver, clip: clip)
        default:
            // Cross-dissolve: old·(1 − p) + new·p, then over the canvas. (A draw's opacity
            // weighs the blend result against the destination, so each picture is scaled by its
            // weight on its own, over transparency, before they are added.)
            guard let mix = try? Pixmap(width: canvas.width, height: canvas.height) else { return }
            mix.draw(old, atX: 0, y: 0, opacity: Float(1 - t))
            old.fill(with: PremultipliedColor(r: 0, g: 0, b: 0, a: 0))
            old.draw(new, atX: 0, y: 0, opacity: Float(t))
            mix.draw(old, atX: 0, y: 0, blendMode: .plusLighter)
            canvas.draw(mix, atX: 0, y: 0, opacity: 1, blendMode: .sourceOver, clip: clip)
        }
    }

    /// The layer-space vector from where the new picture starts to where it ends up.
    static func direction(_ subtype: CATransitionSubtype?, bounds: CGRect) -> (dx: CGFloat, dy: CGFloat) {
        switch subtype {
        case .fromRight: (bounds.width, 0)
        case .fromTop: (0, -bounds.height)
        case .fromBottom: (0, bounds.height)
        default: (-bounds.width, 0)
        }
    }
}
