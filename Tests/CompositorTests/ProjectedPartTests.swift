@testable import Compositor
import QuartzCore
import Raster
import Testing

/// Kept flat bitmaps of layers under perspective (`LayerRenderer+Projected`): a turning face
/// draws its background and border bitmaps once, and every frame has the bytes of a renderer
/// that draws them anew (`CARenderer.image`, which keeps nothing: `drawsOnce`).
@Suite(.serialized) struct ProjectedPartTests {
    static let size = CGSize(width: 200, height: 160)

    /// A bordered face with a round pip (a sublayer) and a gradient beside it, turning about y
    /// under m34 = −1/400 (a card flip's set-up, Apple's "Adding Perspective").
    struct Scene {
        let root = CALayer(), stage = CALayer(), face = CALayer(), pip = CALayer(), gradient = CAGradientLayer()

        init() {
            root.frame = CGRect(origin: .zero, size: ProjectedPartTests.size)
            root.backgroundColor = CGColor(red: 0.95, green: 0.95, blue: 0.9, alpha: 1)
            stage.frame = root.bounds
            var perspective = CATransform3DIdentity
            perspective.m34 = -1.0 / 400
            stage.sublayerTransform = perspective
            face.frame = CGRect(x: 30, y: 30, width: 90, height: 100)
            face.backgroundColor = CGColor(red: 0.3, green: 0.45, blue: 0.9, alpha: 1)
            face.cornerRadius = 12
            face.cornerCurve = .continuous
            face.borderWidth = 4
            face.borderColor = CGColor(red: 0.1, green: 0.1, blue: 0.15, alpha: 1)
            pip.frame = CGRect(x: 35, y: 40, width: 20, height: 20)
            pip.cornerRadius = 10
            pip.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            face.addSublayer(pip)
            gradient.frame = CGRect(x: 130, y: 40, width: 50, height: 80)
            gradient.colors = [CGColor(red: 1, green: 0.2, blue: 0.1, alpha: 1), CGColor(red: 0.1, green: 0.8, blue: 0.3, alpha: 0.7)]
            gradient.borderWidth = 2
            gradient.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            for layer in [face, gradient] {
                let turn = CABasicAnimation(keyPath: "transform.rotation.y")
                turn.fromValue = CGFloat(0.3)
                turn.toValue = CGFloat(1.3)
                turn.duration = 1
                layer.add(turn, forKey: "turn")
                stage.addSublayer(layer)
            }
            root.addSublayer(stage)
        }
    }

    /// Renders `r`'s tree at `t`: the largest channel difference from a fresh renderer's frame
    /// and how many flat bitmaps `r` drew to keep.
    static func frame(_ r: CARenderer, at t: CFTimeInterval) throws -> (worst: Int, projections: Int) {
        CAMediaClock.setManualTime(t)
        let before = r.renderer.leaves.projections
        r.beginFrame(atTime: t); r.render(); r.endFrame()
        let fresh = try CARenderer.image(of: r.layer!, size: size, at: t, scale: r.scale)
        var worst = 0
        for i in 0..<(fresh.pixmap.width * fresh.pixmap.height * 4) {
            worst = max(worst, abs(Int(fresh.pixmap.pixels[i]) - Int(r.pixmap.pixels[i])))
        }
        return (worst, r.renderer.leaves.projections - before)
    }

    @Test(arguments: [1, 2]) func aTurningFaceKeepsItsBitmaps(threads: Int) throws {
        CAMediaClock.setManualTime(0)
        let scene = Scene()
        let r = try CARenderer(width: Int(Self.size.width), height: Int(Self.size.height), scale: 2)
        r._renderThreads = threads
        r.layer = scene.root
        CATransaction.flush()
        // Face background, face border, pip, gradient, gradient border.
        let f1 = try Self.frame(r, at: 0.1); #expect(f1 == (0, 5), "\(f1)")
        let f3 = try Self.frame(r, at: 0.3); #expect(f3 == (0, 0), "\(f3)")
        #expect(r._lastFrameBands == threads)   // bands read the kept bitmaps
        let f5 = try Self.frame(r, at: 0.5); #expect(f5 == (0, 0), "\(f5)")
        // A new colour: the face's two bitmaps (its key holds both colours) are drawn again.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        scene.face.borderColor = CGColor(red: 0.8, green: 0.1, blue: 0.1, alpha: 1)
        CATransaction.commit()
        let f6 = try Self.frame(r, at: 0.6); #expect(f6 == (0, 2), "\(f6)")
        let f7 = try Self.frame(r, at: 0.7); #expect(f7 == (0, 0), "\(f7)")
        // Taken away: its bitmaps go with it.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        scene.face.removeFromSuperlayer()
        CATransaction.commit()
        let f8 = try Self.frame(r, at: 0.8); #expect(f8 == (0, 0), "\(f8)")
        #expect(!r.renderer.leaves.projected.keys.contains { $0.layer == ObjectIdentifier(scene.face) })
    }
}
