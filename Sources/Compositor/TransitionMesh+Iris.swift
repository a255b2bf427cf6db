import QuartzCore
import Raster

/// The camera iris types (private): an aperture that closes over the old picture and opens onto
/// the new one. iPhone Development Wiki ("UIViewAnimationState"): cameraIris — "you should
/// assume the view you're operating on has a black background"; cameraIrisHollowClose — "first
/// half of cameraIris"; cameraIrisHollowOpen — "second half of cameraIris". The aperture is a
/// circle centred on the layer (a real iris is a polygon of blades; no measurement of iOS's
/// was found), full size when its radius reaches the layer's corners, R = ½·diagonal:
///
///     cameraIris:             p < ½: old inside radius (1 − 2p)·R, nothing outside (the view's
///                             background shows); p ≥ ½: new inside radius (2p − 1)·R
///     cameraIrisHollowClose:  old inside radius (1 − p)·R, the new picture outside it
///     cameraIrisHollowOpen:   new inside radius p·R, the old picture outside it
///
/// so that p = 0 is the old picture and p = 1 the new one. Subtypes are ignored.
extension TransitionMesh {
    /// The aperture's radius for `type` at progress `p` on `bounds`, and the picture inside it.
    static func irisAperture(_ type: CATransitionType, progress p: CGFloat, bounds: CGRect) -> (radius: CGFloat, inside: TransitionSource) {
        let full = hypot(bounds.width, bounds.height) / 2
        switch type.rawValue {
        case "cameraIrisHollowClose": return ((1 - p) * full, .old)
        case "cameraIrisHollowOpen": return (p * full, .new)
        default: return p < 0.5 ? ((1 - 2 * p) * full, .old) : ((2 * p - 1) * full, .new)
        }
    }

    static func iris(_ type: CATransitionType, _ f: TransitionFrame, into mesh: TransitionMeshBuffer) {
        let (radius, inside) = irisAperture(type, progress: f.progress, bounds: f.bounds)
        var aperture = TransitionPiece.picture(inside)
        aperture.circle = (CGPoint(x: f.bounds.midX, y: f.bounds.midY), radius)
        if type.rawValue != "cameraIris" { mesh.append(.picture(inside == .old ? .new : .old)) }
        if radius > 0 { mesh.append(aperture) }
    }
}
