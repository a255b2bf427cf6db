import QuartzCore
import Raster

/// oglFlip (private type): the layer turns half a turn about its vertical axis (fromLeft /
/// fromRight) or horizontal axis (fromTop / fromBottom) in perspective, the old picture on its
/// front and the new one on its back. UIKit's flip transitions are this type (iPhone Development
/// Wiki, "UIViewAnimationState": UIViewAnimationTransitionFlipFromLeft = oglFlip, fromLeft), and
/// Apple documents their direction: flipFromLeft "flips a view around its vertical axis from left
/// to right (the left side of the view moves toward the front and right side toward the back)";
/// flipFromTop: "the top side of the view moves toward the front and bottom side toward the
/// back". nil subtype: fromLeft. At progress p the layer has turned φ = p·180°; the front shows
/// until 90°, the back after. As in UIKit ("the tallest edge of the flipped view stays the height
/// of the container view", Stack Overflow 15852375; "the camera dollies back a bit, so the corners
/// are fully visible", E. Wu, "Flipping with proper perspective distortion in Core Animation")
/// the layer moves back so that its nearest edge stays in the layer's plane. Perspective as for
/// the cube (`eyeDistance`, an estimate: no measurement of UIKit's flip perspective was found). Closed form for fromLeft, X relative to the centre, w the width:
///
///     front (old):  X' = X·cosφ,   Z = −X·sinφ − (w/2)·|sinφ|
///     back (new):   X' = −X·cosφ,  Z = X·sinφ − (w/2)·|sinφ|      (mirrored: upright at φ = 180°)
///
/// fromRight turns the other way (Z changes sign before the dolly). UIKit also dims the turning
/// view slightly; Citrine does not (no measurement of the amount was found).
extension TransitionMesh {
    static func flipFace(_ f: TransitionFrame) -> (source: TransitionSource, transform: Projective) {
        let (horizontal, sign) = axis(f.subtype)
        let c = CGPoint(x: f.bounds.midX, y: f.bounds.midY)
        let side = horizontal ? f.bounds.width : f.bounds.height
        let h = side / 2, eye = eyeDistance(side: side)
        let phi = f.progress * .pi, cs = cos(phi), sn = sin(phi)
        let back = f.progress > 0.5
        // The side named by the subtype (−along) comes to the front: Z = −a·sinφ for the front.
        let turn: CGFloat = -1
        let t = perspective(center: c, eye: eye) { x, y in
            let a = horizontal ? -sign * (x - c.x) : -sign * (y - c.y)
            let b = horizontal ? y - c.y : x - c.x
            // Facing coordinates: the back face is the picture mirrored along the turn.
            let along = back ? -a * cs : a * cs
            let z = (back ? -1 : 1) * turn * a * sn - h * abs(sn)
            let u = -sign * along
            return horizontal ? (u, b, z) : (b, u, z)
        }
        return (back ? .new : .old, t)
    }

    static func flip(_ f: TransitionFrame, into mesh: TransitionMeshBuffer) {
        let face = flipFace(f)
        mesh.append(.picture(face.source, face.transform))
    }
}
