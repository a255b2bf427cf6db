@testable import Compositor
import QuartzCore
import Raster
import Testing

/// Geometry by formula: the perspective types against the same cube / card built from
/// CATransform3D's own functions (Apple's conventions: row vectors, rotation matrices of
/// CATransform3DMakeRotation, m34 = −1/eye), the page curl's fold line against its parameter,
/// the iris radius against progress — and pixels where the formulas put them.
@Suite(.serialized) struct TransitionGeometryTests {
    static let bounds = CGRect(x: 0, y: 0, width: 120, height: 80)

    static func frame(_ p: CGFloat, _ subtype: CATransitionSubtype?) -> TransitionFrame {
        TransitionFrame(progress: p, subtype: subtype, bounds: bounds, oldRect: bounds, newRect: bounds)
    }

    /// Where the 3D point (x, y, z) (relative to the layer's centre) is seen under `m` followed
    /// by the perspective m34 = −1/eye, in layer coordinates.
    static func seen(_ x: CGFloat, _ y: CGFloat, _ z: CGFloat, _ m: CATransform3D, eye: CGFloat) -> CGPoint {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / eye
        let q = CATransform3DConcat(m, perspective)._project(x: x, y: y, z: z)
        return CGPoint(x: bounds.midX + q.x, y: bounds.midY + q.y)
    }

    static func close(_ a: CGPoint?, _ b: CGPoint, _ tolerance: CGFloat = 1e-6) -> Bool {
        guard let a else { return false }
        return abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
    }

    @Test(arguments: [0.25, 0.5, 0.75]) func cubeFaceCornersAreTheProjectedCube(_ p: CGFloat) {
        // fromRight: the cube turns by θ about the vertical axis so that the right face comes to
        // the front: Apple's CATransform3DMakeRotation(−θ, 0, 1, 0) (x' = x·cosθ − z·sinθ).
        let w = Self.bounds.width, h = w / 2, eye = 2.5 * w, theta = p * .pi / 2
        let turn = CATransform3DMakeRotation(-theta, 0, 1, 0)
        // Cube centre half a side behind the plane, then back until the nearest corner is in it.
        let cornersOfCube = [(-h, -h), (h, -h), (h, h), (-h, h)].map { turn._project(x: $0.0, y: 0, z: $0.1).z }
        let near = cornersOfCube.max()! - h
        let place = CATransform3DConcat(turn, CATransform3DMakeTranslation(0, 0, -h - near))
        let faces = TransitionMesh.cubeFaces(Self.frame(p, .fromRight))
        for (x, y) in [(0.0, 0.0), (w, 0), (w, 80), (0, 80)] as [(CGFloat, CGFloat)] {
            let X = x - Self.bounds.midX, Y = y - Self.bounds.midY
            let old = Self.seen(X, Y, h, place, eye: eye)          // front face: z = +h
            let new = Self.seen(h, Y, -X, place, eye: eye)         // right face: x = +h
            #expect(Self.close(TransitionMesh.apply(faces.old, CGPoint(x: x, y: y)), old), "old (\(x), \(y)) at \(p)")
            #expect(Self.close(TransitionMesh.apply(faces.new, CGPoint(x: x, y: y)), new), "new (\(x), \(y)) at \(p)")
        }
        // The nearest edge (old face's right = new face's left) keeps the layer's height.
        let top = TransitionMesh.apply(faces.old, CGPoint(x: w, y: 0))!, bottom = TransitionMesh.apply(faces.old, CGPoint(x: w, y: 80))!
        #expect(abs((bottom.y - top.y) - 80) < 1e-6)
    }

    @Test func cubeDirections() {
        // The old face leaves towards the side opposite the subtype; the new one comes from it.
        for (subtype, dx, dy) in [(CATransitionSubtype.fromRight, -1.0, 0.0), (.fromLeft, 1, 0), (.fromTop, 0, 1), (.fromBottom, 0, -1)] as [(CATransitionSubtype, CGFloat, CGFloat)] {
            let faces = TransitionMesh.cubeFaces(Self.frame(0.5, subtype))
            let centre = TransitionMesh.apply(faces.old, CGPoint(x: 60, y: 40))!
            #expect((centre.x - 60) * dx + (centre.y - 40) * dy > 10, "\(subtype.rawValue)")
            let newCentre = TransitionMesh.apply(faces.new, CGPoint(x: 60, y: 40))!
            #expect((newCentre.x - 60) * dx + (newCentre.y - 40) * dy < -10, "\(subtype.rawValue)")
        }
    }

    @Test(arguments: [0.2, 0.4, 0.7, 0.9]) func flipIsTheTurningCardOfUIKitsFlipFromLeft(_ p: CGFloat) {
        // flipFromLeft: "the left side of the view moves toward the front": a turn by φ = p·180°
        // with CATransform3DMakeRotation(φ, 0, 1, 0) (z' = −x·sinφ: left side forward), moved
        // back by (w/2)·|sinφ| so the near edge stays in the plane; the back shows the new
        // picture mirrored (upright at 180°).
        let w = Self.bounds.width, eye = 2.5 * w, phi = p * .pi
        let place = CATransform3DConcat(CATransform3DMakeRotation(phi, 0, 1, 0),
                                        CATransform3DMakeTranslation(0, 0, -(w / 2) * abs(sin(phi))))
        let face = TransitionMesh.flipFace(Self.frame(p, .fromLeft))
        #expect(face.source == (p < 0.5 ? .old : .new))
        for (x, y) in [(0.0, 0.0), (w, 0), (w, 80), (0, 80)] as [(CGFloat, CGFloat)] {
            let X = x - Self.bounds.midX, Y = y - Self.bounds.midY
            let expected = Self.seen(p < 0.5 ? X : -X, Y, 0, place, eye: eye)
            #expect(Self.close(TransitionMesh.apply(face.transform, CGPoint(x: x, y: y)), expected), "(\(x), \(y)) at \(p)")
        }
        if p < 0.5 {
            // The left edge is nearer, so it is seen taller, and keeps the layer's height.
            let l0 = TransitionMesh.apply(face.transform, CGPoint(x: 0, y: 0))!, l1 = TransitionMesh.apply(face.transform, CGPoint(x: 0, y: 80))!
            let r0 = TransitionMesh.apply(face.transform, CGPoint(x: w, y: 0))!, r1 = TransitionMesh.apply(face.transform, CGPoint(x: w, y: 80))!
            #expect(abs((l1.y - l0.y) - 80) < 1e-6 && r1.y - r0.y < 80)
        }
    }

    @Test(arguments: [0.2, 0.4]) func flipTurnsTheSubtypesSideToTheFront(_ p: CGFloat) {
        // Apple (UIViewAnimationOptions): flipFromLeft "the left side of the view moves toward
        // the front", flipFromRight "the right side … toward the front", flipFromTop "the top
        // side …", flipFromBottom "the bottom side …". The side nearer the viewer is seen longer.
        let w = Self.bounds.width, h = Self.bounds.height
        func length(_ t: Projective, _ a: CGPoint, _ b: CGPoint) -> CGFloat {
            let u = TransitionMesh.apply(t, a)!, v = TransitionMesh.apply(t, b)!
            return hypot(u.x - v.x, u.y - v.y)
        }
        for (subtype, front, back) in [
            (CATransitionSubtype.fromLeft, (CGPoint(x: 0, y: 0), CGPoint(x: 0, y: h)), (CGPoint(x: w, y: 0), CGPoint(x: w, y: h))),
            (.fromRight, (CGPoint(x: w, y: 0), CGPoint(x: w, y: h)), (CGPoint(x: 0, y: 0), CGPoint(x: 0, y: h))),
            (.fromTop, (CGPoint(x: 0, y: 0), CGPoint(x: w, y: 0)), (CGPoint(x: 0, y: h), CGPoint(x: w, y: h))),
            (.fromBottom, (CGPoint(x: 0, y: h), CGPoint(x: w, y: h)), (CGPoint(x: 0, y: 0), CGPoint(x: w, y: 0))),
        ] {
            let face = TransitionMesh.flipFace(Self.frame(p, subtype))
            #expect(face.source == .old)
            let near = length(face.transform, front.0, front.1), far = length(face.transform, back.0, back.1)
            #expect(near > far + 1, "\(subtype.rawValue) at \(p): front side \(near), back side \(far)")
            // The nearer side stays in the layer's plane: its length is unchanged.
            #expect(abs(near - hypot(front.1.x - front.0.x, front.1.y - front.0.y)) < 1e-6, "\(subtype.rawValue)")
        }
    }

    @Test func pageCurlFoldLineFollowsTheCurlParameter() throws {
        // fromRight on the scene's layer: D = (−1, 0), s = 161 − x over the old picture's
        // rectangle x ∈ [39, 161] (one pixel of margin), L = 122, R = L/10, fold f = p·(L + R).
        let p = 0.4, L = 122.0, R = 12.2, f = p * (L + R)
        let k = TransitionMesh.curl(on: CGRect(x: 39, y: 19, width: 122, height: 82), .fromRight, progress: p)
        #expect(abs(k.fold - f) < 1e-9 && abs(k.radius - R) < 1e-9 && abs(k.length - L) < 1e-9)
        let scene = try TransitionScene(.pageCurl, .fromRight)
        let frame = try scene.render(at: p)
        let x = { (s: Double) in Int((161 - s).rounded(.down)) }
        let y = 90
        // Flat old page beyond the flap's shadow; the flap (back side: lighter) up to the fold;
        // the uncovered new page beyond the cylinder's shadow, darkened next to the cylinder.
        #expect(frame.pixel(x: x(2 * f - .pi * R + R + 2), y: y).near(255, 0, 0), "flat old page")
        let back = frame.pixel(x: x(f - 3), y: y)
        #expect(back.r > 200 && back.g > 120 && back.g < 200 && back.g == back.b, "back side \(back)")
        #expect(frame.pixel(x: x(f - R - R - 2), y: y).near(0, 153, 0), "uncovered new page")
        let shaded = frame.pixel(x: x(f - R - 2), y: y)
        #expect(shaded.g < 130 && shaded.r == 0, "shadow \(shaded)")
        // The flap mirrors the page: its map reverses the orientation along D.
        let mesh = TransitionMeshBuffer()
        TransitionMesh.pageCurl(Self.frame(0.6, .fromRight), picture: .old, under: .new, progress: 0.6, into: mesh)
        let flap = try #require(mesh.pieces.last)
        let m = flap.transform.m
        #expect(m.0 * m.4 - m.1 * m.3 < 0)
    }

    @Test(arguments: [0.25, 0.5, 0.75]) func irisApertureRadius(_ p: Double) throws {
        let full = (120.0 * 120 + 80 * 80).squareRoot() / 2
        let open = TransitionMesh.irisAperture(CATransitionType(rawValue: "cameraIrisHollowOpen"), progress: p, bounds: Self.bounds)
        let close = TransitionMesh.irisAperture(CATransitionType(rawValue: "cameraIrisHollowClose"), progress: p, bounds: Self.bounds)
        let both = TransitionMesh.irisAperture(CATransitionType(rawValue: "cameraIris"), progress: p, bounds: Self.bounds)
        #expect(abs(open.radius - p * full) < 1e-9 && open.inside == .new)
        #expect(abs(close.radius - (1 - p) * full) < 1e-9 && close.inside == .old)
        #expect(abs(both.radius - abs(1 - 2 * p) * full) < 1e-9 && both.inside == (p < 0.5 ? .old : .new))
        // In pixels: new inside the radius, old outside (left of the centre on its row, clear of
        // the squares).
        let scene = try TransitionScene(CATransitionType(rawValue: "cameraIrisHollowOpen"))
        let frame = try scene.render(at: p)
        let r = p * full
        #expect(frame.pixel(x: 100 - Int(r - 2), y: 60).near(0, 153, 0), "inside at \(p)")
        #expect(frame.pixel(x: 100 - Int(r + 3), y: 60).near(255, 0, 0), "outside at \(p)")
    }

    @Test func cubeHalfwayInPixels() throws {
        // At 45° the two faces are mirror images: the shared edge is the layer's vertical centre
        // line, old (red) left of it and new (green) right of it; the silhouette's left edge is
        // where the formula puts the old face's left edge.
        let scene = try TransitionScene(.cube, .fromRight)
        let frame = try scene.render(at: 0.5)
        #expect(frame.pixel(x: 96, y: 90).near(255, 0, 0))
        #expect(frame.pixel(x: 104, y: 90).near(0, 153, 0))
        let faces = TransitionMesh.cubeFaces(TransitionFrame(progress: 0.5, subtype: .fromRight, bounds: CGRect(x: 0, y: 0, width: 120, height: 80),
                                                             oldRect: Self.bounds, newRect: Self.bounds))
        let left = TransitionMesh.apply(faces.old, CGPoint(x: 0, y: 70))!   // layer row of device y 90
        let edge = 40 + left.x
        #expect(frame.pixel(x: Int(edge.rounded(.up)) + 1, y: 90).near(255, 0, 0))
        #expect(frame.pixel(x: Int(edge.rounded(.down)) - 2, y: 90).a == 0)
    }

    @Test func suckDrainsIntoThreeQuartersDown() {
        // The drain: (½·w, ¾·h) — (160, 360) for a 320×480 screen (iPhone Development Wiki).
        let b = Self.bounds
        let drain = CGPoint(x: 60, y: 60)
        for corner in (0..<4).map({ TransitionMesh.corner(b, $0) }) {
            #expect(TransitionMesh.sucked(corner, progress: 1, bounds: b) == drain)
            #expect(TransitionMesh.sucked(corner, progress: 0, bounds: b) == corner)
        }
        // Halfway: the drain's row has gone in; the farthest row (the top) has not yet moved
        // down, only begun to narrow.
        #expect(TransitionMesh.sucked(CGPoint(x: 0, y: 60), progress: 0.5, bounds: b) == drain)
        let top = TransitionMesh.sucked(CGPoint(x: 10, y: 0), progress: 0.5, bounds: b)
        #expect(top.y == 0 && top.x > 10 && top.x < 60)
        // Rows keep their order on the way in.
        for t in stride(from: 0.0, through: 1.0, by: 0.05) {
            let ys = stride(from: 0.0, through: 60.0, by: 5).map { TransitionMesh.sucked(CGPoint(x: 0, y: $0), progress: t, bounds: b).y }
            #expect(zip(ys, ys.dropFirst()).allSatisfy { $0 <= $1 }, "at \(t)")
        }
    }

    @Test func rippleAmplitudeVanishesAtTheEnds() {
        let b = Self.bounds
        for p in [0.0, 1.0] {
            let o = TransitionMesh.rippleOffset(CGPoint(x: 80, y: 50), progress: p, bounds: b)
            #expect(abs(o.dx) < 1e-9 && abs(o.dy) < 1e-9)
        }
        let mid = TransitionMesh.rippleOffset(CGPoint(x: 80, y: 50), progress: 0.5, bounds: b)
        #expect(abs(mid.dx) + abs(mid.dy) > 0.1)
    }
}
