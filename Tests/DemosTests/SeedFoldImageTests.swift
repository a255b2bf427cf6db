import Scene
import UIKit
import Demos
import Foundation
import Testing

@Suite(.serialized) struct SeedFoldImageTests {
    func fold(in window: UIWindow) throws -> SeedFoldImageView {
        try #require(window.subviews.compactMap { $0 as? SeedFoldImageView }.first)
    }

    /// The seed's transform for a drag of `dy`: m34 = −1/500, then a rotation of −dy/200·π about x.
    func expectedTransform(_ dy: CGFloat) -> CATransform3D {
        var t = CATransform3DIdentity
        t.m34 = -1 / 500.0
        return CATransform3DRotate(t, -dy / 200.0 * .pi, 1, 0, 0)
    }

    func close(_ a: CATransform3D, _ b: CATransform3D, _ tol: CGFloat = 1e-9) -> Bool {
        let x = [a.m11, a.m12, a.m13, a.m14, a.m21, a.m22, a.m23, a.m24, a.m31, a.m32, a.m33, a.m34, a.m41, a.m42, a.m43, a.m44]
        let y = [b.m11, b.m12, b.m13, b.m14, b.m21, b.m22, b.m23, b.m24, b.m31, b.m32, b.m33, b.m34, b.m41, b.m42, b.m43, b.m44]
        return zip(x, y).allSatisfy { abs($0 - $1) <= tol }
    }

    @Test func halvesUseContentsRectAndAnchorPoint() throws {
        let driver = SeedDriver(.foldImage)
        let fold = try fold(in: driver.window)
        #expect(fold.topView.layer.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 0.5))
        #expect(fold.topView.layer.anchorPoint == CGPoint(x: 0.5, y: 1))
        #expect(fold.bottomView.layer.contentsRect == CGRect(x: 0, y: 0.5, width: 1, height: 0.5))
        #expect(fold.bottomView.layer.anchorPoint == CGPoint(x: 0.5, y: 0))
        #expect(fold.topView.frame == CGRect(x: 40, y: 40, width: 160, height: 80))
        #expect(fold.bottomView.frame == CGRect(x: 40, y: 120, width: 160, height: 80))
        #expect(fold.gradientLayer.superlayer === fold.bottomView.layer && fold.gradientLayer.opacity == 0)
    }

    @Test func angleAndShadowFollowTheDrag() throws {
        let start = CGPoint(x: 120, y: 70)
        let offsets: [CGFloat] = [20, 50, 100, 150, 60]
        var steps: [SceneScript.Step] = [.down(start, at: 0.1)]
        for (i, dy) in offsets.enumerated() { steps.append(.move(to: CGPoint(x: 120, y: start.y + dy), at: 0.2 + 0.1 * Double(i))) }
        let timeline = SceneScript(steps)
        let driver = SeedDriver(.foldImage)
        let fold = try fold(in: driver.window)
        for (i, dy) in offsets.enumerated() {
            driver.run(timeline, to: 0.2 + 0.1 * Double(i))
            let t = fold.topView.layer.transform
            #expect(close(t, expectedTransform(dy)), "transform at dy = \(dy)")
            // The perspective −1/500, carried through the rotation: m34 = cos θ · (−1/500).
            #expect(abs(t.m34 - cos(-dy / 200 * .pi) * (-1 / 500.0)) < 1e-12)
            let angle = atan2(t.m23, t.m22)
            #expect(abs(angle - (-dy / 200 * .pi)) < 1e-9, "angle \(angle) at dy = \(dy)")
            #expect(abs(fold.gradientLayer.opacity - Float(dy / 200)) < 1e-6, "shadow opacity at dy = \(dy)")
        }
    }

    @Test func springsBackToZeroAfterRelease() throws {
        let timeline = SceneScript([.drag(from: CGPoint(x: 120, y: 70), to: CGPoint(x: 120, y: 170), at: 0.1, duration: 0.5, steps: 10)])
        let driver = SeedDriver(.foldImage)
        let fold = try fold(in: driver.window)
        driver.run(timeline, to: 0.6)
        // Released at dy = 100: the model is the identity at once; the presentation springs.
        #expect(close(fold.topView.layer.transform, CATransform3DIdentity))
        var angles: [CGFloat] = []
        driver.run(timeline, to: 1.4) { _ in
            let p = fold.topView.layer.presentation()?.transform ?? CATransform3DIdentity
            angles.append(atan2(p.m23, p.m22))
        }
        #expect(abs(angles[2]) > 0.1, "still folded 2 frames after release: \(angles[2])")
        #expect(angles.contains { $0 > 0.05 }, "the spring (damping 0.2) swings past flat")
        let final = fold.topView.layer.presentation()?.transform ?? CATransform3DIdentity
        #expect(abs(atan2(final.m23, final.m22)) < 1e-3 && close(final, CATransform3DIdentity, 1e-3))
        // As in the seed, the shadow keeps the opacity of the last drag position.
        #expect(abs(fold.gradientLayer.opacity - 0.5) < 1e-6)
    }
}

/// Dragged 170 pt down, the top half turns by −170/200·π = −153°
/// about the hinge (y = 120 in the view) with m34 = −1/500, past the vertical and over the
/// bottom half, towards the viewer. Closed form for a point of the top half v points above the
/// hinge (v < 0): after the turn y′ = v·cos θ below the hinge at depth z′ = v·sin θ > 0, drawn at
/// y′ / (1 − z′/500). The view's pixel (120, 160), 40 pt below the hinge, is therefore covered by
/// the folded top half at v = 40 / (cos θ + 40·sin θ / 500) ≈ −43.1, its image row 80 + v ≈ 37:
/// the sky (bands of blue, b ≥ 0.87), seen from behind — not the bottom half's hills (green,
/// b = 0.3) under its darkening gradient, which array order alone would draw on top.
@Suite(.serialized) struct SeedFoldImageDepthTests {
    @Test func foldedTopHalfCoversTheBottomHalf() throws {
        let timeline = SceneScript([.down(CGPoint(x: 120, y: 70), at: 0.1), .move(to: CGPoint(x: 120, y: 240), at: 0.2)])
        let driver = SeedDriver(.foldImage)
        driver.run(timeline, to: 0.3)
        let fold = try #require(driver.window.subviews.compactMap { $0 as? SeedFoldImageView }.first)
        let angle = atan2(fold.topView.layer.transform.m23, fold.topView.layer.transform.m22)
        #expect(abs(angle - (-170 / 200 * CGFloat.pi)) < 1e-9)
        let theta = -170 / 200 * Double.pi
        let v = 40 / (cos(theta) + 40 * sin(theta) / 500)
        #expect(abs(v - -43.1) < 0.1 && v > -80)
        // The drag sets the transform without animation, so the model (what render(in:) draws) is what shows.
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        let rendered = UIGraphicsImageRenderer(size: driver.window.bounds.size, format: format).image { context in
            driver.window.layer.render(in: context.cgContext)
        }
        let image = try #require(rendered.cgImage).pixmap
        let p = image.pixel(x: 120, y: 160)
        #expect(p.b > 200 && p.b > p.g && p.g > p.r, "sky blue from the folded top half, got \(p)")
        // Below the folded half's lower edge (y ≈ 196.9) the bottom half shows, darkened.
        let low = image.pixel(x: 120, y: 199)
        #expect(low.b < 100, "the bottom half under its gradient, got \(low)")
    }

    /// The `fold-image-past-90` demo holds the same fold: from 0.6 s to the release at 1.6 s the
    /// top half is turned by −170/200·π (the seed's formula for a 170-pt drag), and after the
    /// spring (0.6 s) it is back at the identity.
    @Test func pastNinetyDemoHoldsTheFoldThenSpringsBack() throws {
        let demo = SeedDemo.foldImagePast90
        let driver = SeedDriver(demo)
        let fold = try #require(driver.window.subviews.compactMap { $0 as? SeedFoldImageView }.first)
        driver.run(demo.timeline, to: 1.2)
        let held = fold.topView.layer.transform
        #expect(abs(atan2(held.m23, held.m22) - (-170 / 200 * CGFloat.pi)) < 1e-9)
        driver.run(demo.timeline, to: demo.span)
        #expect(CATransform3DIsIdentity(fold.topView.layer.transform))
    }
}

