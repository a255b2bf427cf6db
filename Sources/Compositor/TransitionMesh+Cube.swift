import QuartzCore
import Raster

/// cube (private type): the old and new pictures are two adjacent faces of a cube that turns a
/// quarter turn about its vertical axis (fromLeft / fromRight) or horizontal axis (fromTop /
/// fromBottom), the new face coming from the subtype's side, as the seed's image carousel shows
/// (swipe left → fromRight brings the next image in from the right). At progress p the cube has
/// turned θ = p·90°. The cube's side is the layer's width (height for vertical turns) and its
/// centre lies half a side behind the layer's plane; the cube is moved back so that its edge
/// nearest to the viewer stays in the layer's plane (that edge keeps the layer's height, and the
/// turning cube stays inside the layer's bounds — how UIKit's flips behave, "the tallest edge of
/// the flipped view stays the height of the container view", Stack Overflow question 15852375).
///
/// Perspective — an estimate: no measured or reverse-engineered m34 of Core Animation's cube
/// (or oglFlip) was found in Apple's documentation, the iPhone Development Wiki, the issue threads
/// of re-implementations (IBAnimatable, HMGLTransitions) or community write-ups. Hand-made re-creations of these transitions use m34 from −1/500 (cube demos, e.g.
/// "CubeFlipViewController", czing8/VariousAnimations) through −1/800 (Stack Overflow 15852375,
/// reproducing UIKit's flip) to −0.003 ("Smooth horizontal flip using CATransform3DMakeRotation").
/// Citrine takes an eye distance of 2.5 × the cube's side (m34 = −1/(2.5·side)): −1/800 for a
/// 320-point wide iPhone view, inside that range. Closed form, with X, Y relative to the layer's
/// centre c, h = side/2, fromRight, for a picture point (x, y):
///
///     old face:  X' = X·cosθ − h·sinθ,  Z = X·sinθ + h·cosθ − h − δ
///     new face:  X' = h·cosθ + X·sinθ,  Z = h·sinθ − X·cosθ − h − δ,   δ = h·(sinθ + cosθ − 1)
///     seen at    c + (X', Y) / (1 − Z/eye)
///
/// (fromLeft mirrors X; fromTop / fromBottom exchange the roles of x and y.) θ = 0 gives the old
/// picture in place, θ = 90° the new one.
extension TransitionMesh {
    /// The eye distance (points) for a perspective turn of a layer `side` points across: 2.5·side
    /// (an estimate; see the cube's comment for what was searched).
    static func eyeDistance(side: CGFloat) -> CGFloat { 2.5 * max(side, 1) }

    /// The two faces' homographies (picture → layer plane) at progress `p`.
    static func cubeFaces(_ f: TransitionFrame) -> (old: Projective, new: Projective, oldDepth: CGFloat, newDepth: CGFloat) {
        let (horizontal, sign) = axis(f.subtype)
        let c = CGPoint(x: f.bounds.midX, y: f.bounds.midY)
        let side = horizontal ? f.bounds.width : f.bounds.height
        let h = side / 2, eye = eyeDistance(side: side)
        let theta = f.progress * .pi / 2, cs = cos(theta), sn = sin(theta)
        let dolly = h * (sn + cs - 1)
        /// (along, across) coordinates relative to the centre, along the turn's axis of motion
        /// (sign-normalized so that the new face comes from +along).
        func split(_ x: CGFloat, _ y: CGFloat) -> (CGFloat, CGFloat) {
            horizontal ? (sign * (x - c.x), y - c.y) : (sign * (y - c.y), x - c.x)
        }
        func join(_ along: CGFloat, _ across: CGFloat, _ z: CGFloat) -> (CGFloat, CGFloat, CGFloat) {
            horizontal ? (sign * along, across, z) : (across, sign * along, z)
        }
        let old = perspective(center: c, eye: eye) { x, y in
            let (a, b) = split(x, y)
            return join(a * cs - h * sn, b, a * sn + h * cs - h - dolly)
        }
        let new = perspective(center: c, eye: eye) { x, y in
            let (a, b) = split(x, y)
            return join(h * cs + a * sn, b, h * sn - a * cs - h - dolly)
        }
        // Depth of each face's centre (a = 0), to draw the farther one first.
        return (old, new, h * cs - h - dolly, h * sn - h - dolly)
    }

    static func cube(_ f: TransitionFrame, into mesh: TransitionMeshBuffer) {
        let faces = cubeFaces(f)
        let old = TransitionPiece.picture(.old, faces.old), new = TransitionPiece.picture(.new, faces.new)
        let farther = faces.oldDepth < faces.newDepth
        mesh.append(farther ? old : new)
        mesh.append(farther ? new : old)
    }
}
