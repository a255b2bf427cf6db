import QuartzCore
import Raster

/// The public motion types (Apple, "Common Transition Types"): moveIn — "the layer's content
/// slides into place over any existing content"; push — "pushes any existing content as it
/// slides into place"; reveal — "the layer's content is revealed gradually in the direction
/// specified by the transition subtype" (the old content slides away, uncovering the new). The
/// subtype names where the motion starts ("fromRight: the transition begins at the right side of
/// the layer"), so the new picture starts one layer width or height away on that side, v:
///
///     subtype      v (layer space, y down)     nil subtype: fromLeft (see CATransition.subtype)
///     fromRight    (+width, 0)
///     fromLeft     (−width, 0)
///     fromTop      (0, −height)               (iOS layers are y-down: top = minY)
///     fromBottom   (0, +height)
///
/// and at progress p: moveIn — new at (1 − p)·v over the still old; push — old at −p·v, new at
/// (1 − p)·v; reveal — old at −p·v over the still new. A layer that masks to bounds clips them
/// to its rounded bounds; otherwise they slide beyond its bounds, as on iOS.
extension TransitionMesh {
    /// The layer-space vector from where the new picture starts to where it ends up.
    static func direction(_ subtype: CATransitionSubtype?, bounds: CGRect) -> TransitionVector {
        let (horizontal, sign) = axis(subtype)
        return horizontal ? TransitionVector(dx: sign * bounds.width, dy: 0) : TransitionVector(dx: 0, dy: sign * bounds.height)
    }

    static func slide(_ type: CATransitionType, _ f: TransitionFrame, into mesh: TransitionMeshBuffer) {
        let v = direction(f.subtype, bounds: f.bounds), p = f.progress
        func shifted(_ s: TransitionSource, by k: CGFloat) {
            let t = Projective.translation(v.dx * k, v.dy * k)
            guard f.masksToBounds else { return mesh.append(.picture(s, t)) }
            mesh.loadWork(f.rect(s).offsetBy(dx: v.dx * k, dy: v.dy * k))
            mesh.clipWork(to: f.bounds)
            guard !mesh.work.isEmpty else { return }
            var piece = TransitionPiece.picture(s, t, polygon: mesh.storeWork())
            piece.clipsToBounds = true
            mesh.append(piece)
        }
        switch type {
        case .moveIn: shifted(.old, by: 0); shifted(.new, by: 1 - p)
        case .push: shifted(.old, by: -p); shifted(.new, by: 1 - p)
        default: shifted(.new, by: 0); shifted(.old, by: -p)   // reveal
        }
    }
}
