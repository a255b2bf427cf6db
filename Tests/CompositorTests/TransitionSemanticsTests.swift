@testable import Compositor
import QuartzCore
import Raster
import Testing

/// What a transition starts from and goes to, as on Apple: the render tree as the last commit
/// left it (whatever the transaction changed before adding the transition), and the layer's
/// state after the transaction — including hidden, which animates the layer out.
@Suite(.serialized) struct TransitionSemanticsTests {
    /// Layer-frame points of the scene's squares: the blue one (in the "before" tree only) and
    /// the yellow one (in the "after" tree only).
    static let blueSquare = (x: 40 + 30, y: 20 + 25), yellowSquare = (x: 40 + 90, y: 20 + 55)

    @Test func aSublayerRemovedBeforeTheTransitionIsAddedShowsInTheEarlyFrames() throws {
        // The transaction removes the blue square, adds the yellow one and turns the layer green,
        // and only then adds the transition.
        let scene = try TransitionScene(.fade, changesFirst: true)
        #expect(maxDifference(try scene.render(at: 0), scene.beforeImage) <= 1)
        let early = try scene.render(at: 0.1)
        // ≈ 0.9·blue + 0.1·green where the removed square was; ≈ 0.9·red + 0.1·yellow where the
        // added one is.
        #expect(early.pixel(x: Self.blueSquare.x, y: Self.blueSquare.y).near(0, 15, 230, tolerance: 3))
        #expect(early.pixel(x: Self.yellowSquare.x, y: Self.yellowSquare.y).near(255, 26, 0, tolerance: 3))
        #expect(maxDifference(try scene.render(at: 1), try scene.renderAfter()) <= 1)
    }

    @Test func theSnapshotHoldsTheSublayersOfTheLastCommit() throws {
        let scene = try TransitionScene(.push, .fromLeft, changesFirst: true)
        let source = try #require(scene.running?._sourceLayer)
        #expect(source.sublayers?.count == 1)
        #expect(source.sublayers?.first?.backgroundColor == CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        #expect(source.backgroundColor == CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    }

    @Test func aRemovalCommittedEarlierIsNotInTheSnapshot() throws {
        // Removed and committed (and drawn) in one transaction; the transition comes in the next:
        // it starts from the tree without the square.
        CAMediaClock.setManualTime(0)
        let root = CALayer(), layer = CALayer(), square = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.frame = root.bounds
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        square.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        square.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        layer.addSublayer(square)
        root.addSublayer(layer)
        _ = try CARenderer.image(of: root, size: CGSize(width: 100, height: 100), at: 0)
        square.removeFromSuperlayer()
        CATransaction.flush()
        let withoutSquare = try CARenderer.image(of: root, size: CGSize(width: 100, height: 100), at: 0).pixmap
        CATransaction.begin()
        let fade = CATransition()
        fade.duration = 1
        layer.add(fade, forKey: nil)
        layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        CATransaction.commit()
        let running = try #require(layer.animation(forKey: kCATransition) as? CATransition)
        #expect(running._sourceLayer?.sublayers == nil)
        CAMediaClock.setManualTime(0)
        #expect(maxDifference(try CARenderer.image(of: root, size: CGSize(width: 100, height: 100), at: 0).pixmap, withoutSquare) <= 1)
    }

    /// A 100×60 red layer at (50, 20) in a 200×100 frame, drawn once; then, in one transaction, a
    /// 1 s transition of `type` (fromRight) is added and the layer hidden (or, with `showing`,
    /// the layer starts hidden and is shown).
    static func hiding(_ type: CATransitionType, showing: Bool = false) throws -> (frame: (CFTimeInterval) throws -> Pixmap, layer: CALayer) {
        CAMediaClock.setManualTime(0)
        let root = CALayer(), layer = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        layer.frame = CGRect(x: 50, y: 20, width: 100, height: 60)
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.isHidden = showing
        root.addSublayer(layer)
        let size = CGSize(width: 200, height: 100)
        _ = try CARenderer.image(of: root, size: size, at: 0)
        CATransaction.begin()
        let t = CATransition()
        t.type = type
        t.subtype = .fromRight
        t.duration = 1
        layer.add(t, forKey: nil)
        layer.isHidden = !showing
        CATransaction.commit()
        return ({ time in
            CAMediaClock.setManualTime(time)
            return try CARenderer.image(of: root, size: size, at: time).pixmap
        }, layer)
    }

    @Test func aTransitionToHiddenFadesTheLayerOut() throws {
        let (frame, _) = try Self.hiding(.fade)
        #expect(try frame(0.0).pixel(x: 100, y: 50).near(255, 0, 0))
        // Premultiplied red at (1 − p).
        #expect(try frame(0.25).pixel(x: 100, y: 50).near(191, 0, 0, 191))
        #expect(try frame(0.75).pixel(x: 100, y: 50).near(64, 0, 0, 64))
        // After the transition: hidden, nothing drawn.
        #expect(try frame(1.5).pixel(x: 100, y: 50).a == 0)
    }

    @Test func aTransitionToHiddenPushesTheLayerOut() throws {
        // push fromRight: the old picture's left edge at x0 − p·w, nothing comes in after it.
        let (frame, _) = try Self.hiding(.push)
        let f = try frame(0.5)
        #expect(f.pixel(x: 10, y: 50).near(255, 0, 0))       // old, slid left by 50
        #expect(f.pixel(x: 95, y: 50).near(255, 0, 0))
        #expect(f.pixel(x: 105, y: 50).a == 0)                // where the new picture would be
        #expect(f.pixel(x: 140, y: 50).a == 0)
    }

    @Test func aTransitionToShownFadesTheLayerIn() throws {
        let (frame, _) = try Self.hiding(.fade, showing: true)
        #expect(try frame(0.0).pixel(x: 100, y: 50).a == 0)
        #expect(try frame(0.25).pixel(x: 100, y: 50).near(64, 0, 0, 64))
        #expect(try frame(1.5).pixel(x: 100, y: 50).near(255, 0, 0))
    }

    @Test func aTransitionToHiddenWithAPerspectiveTypeEndsEmpty() throws {
        let (frame, _) = try Self.hiding(CATransitionType(rawValue: "cube"))
        #expect(try frame(0.0).pixel(x: 100, y: 50).near(255, 0, 0))
        // Halfway the old face still covers the layer's left half (the new face is empty).
        #expect(try frame(0.5).pixel(x: 70, y: 50).near(255, 0, 0))
        #expect(try frame(0.5).pixel(x: 130, y: 50).a == 0)
        #expect(try frame(1.0).pixel(x: 100, y: 50).a == 0)
    }
}
