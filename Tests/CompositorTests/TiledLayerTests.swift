import Compositor
import QuartzCore
import Raster
import Testing

/// CATiledLayer: draw(in:) once per visible tile with the tile's rectangle as the clip, at the
/// level of detail Apple's documentation describes (each level half the previous resolution;
/// levelsOfDetailBias adds 2×, 4× levels), tiles kept across frames, no seams between them.
/// Expected rectangles and scales are worked out from those rules and the 256-pixel tiles.
@Suite(.serialized) struct TiledLayerTests {
    /// Fills whatever it is asked to draw with opaque red and records each call's clip and scale.
    final class Painter: CALayerDelegate {
        var clips: [CGRect] = []
        var scales: [CGFloat] = []
        func draw(_ layer: CALayer, in ctx: CGContext) {
            let clip = ctx.boundingBoxOfClipPath
            clips.append(clip)
            scales.append(ctx.ctm.a)
            ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
            ctx.fill(clip)
        }
    }

    /// A 1000×1000-point tiled layer at the top-left of a `canvas`-sized root.
    static func scene(_ painter: Painter, configure: (CATiledLayer) -> Void = { _ in }) -> (CALayer, CATiledLayer) {
        CAMediaClock.setManualTime(0)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 300, height: 200)
        let tiled = CATiledLayer()
        tiled.anchorPoint = .zero
        tiled.bounds = CGRect(x: 0, y: 0, width: 1000, height: 1000)
        tiled.position = .zero
        tiled.delegate = painter
        configure(tiled)
        root.addSublayer(tiled)
        CATransaction.flush()
        return (root, tiled)
    }

    @Test func defaultsAreApples() {
        let t = CATiledLayer()
        #expect(t.levelsOfDetail == 1 && t.levelsOfDetailBias == 0 && t.tileSize == CGSize(width: 256, height: 256))
        #expect(CATiledLayer.fadeDuration() == 0.25)
    }

    @Test func drawsOnlyTheVisibleTilesEachWithItsClip() throws {
        let painter = Painter()
        let (root, _) = Self.scene(painter)
        let image = try CARenderer.image(of: root, size: CGSize(width: 300, height: 200), at: 0)
        // 300×200 visible points of 256-point tiles: (0, 0) and (1, 0).
        #expect(painter.clips == [CGRect(x: 0, y: 0, width: 256, height: 256), CGRect(x: 256, y: 0, width: 256, height: 256)])
        #expect(painter.scales == [1, 1])
        for (x, y) in [(0, 0), (255, 10), (256, 10), (299, 199)] {
            #expect(image.pixmap.pixel(x: x, y: y) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
        }
    }

    @Test func levelOfDetailFollowsTheZoom() throws {
        let painter = Painter()
        let (root, _) = Self.scene(painter) { $0.levelsOfDetail = 3; $0.transform = CATransform3DMakeScale(0.25, 0.25, 1) }
        _ = try CARenderer.image(of: root, size: CGSize(width: 300, height: 200), at: 0)
        // Levels 1, ½, ¼: at ¼ pixel per point one 256-pixel tile covers 1024 points, all of it.
        #expect(painter.scales == [0.25])
        #expect(painter.clips == [CGRect(x: 0, y: 0, width: 1000, height: 1000)])

        let magnified = Painter()
        let (root2, _) = Self.scene(magnified) {
            $0.levelsOfDetail = 3; $0.levelsOfDetailBias = 2; $0.transform = CATransform3DMakeScale(3, 3, 1)
        }
        _ = try CARenderer.image(of: root2, size: CGSize(width: 300, height: 200), at: 0)
        // Levels 4, 2, 1: the smallest at or above 3 pixels per point is 4; tiles of 64 points;
        // 100×67 points visible: 2 × 2 tiles.
        #expect(magnified.scales.allSatisfy { $0 == 4 } && magnified.clips.count == 4)
        #expect(magnified.clips.contains(CGRect(x: 64, y: 64, width: 64, height: 64)))
    }

    @Test func tilesAreKeptAndOnlyNewOnesDrawn() throws {
        let painter = Painter()
        let (root, tiled) = Self.scene(painter)
        let renderer = try CARenderer(width: 300, height: 200)
        renderer.layer = root
        renderer.beginFrame(atTime: 0); renderer.render(); renderer.endFrame()
        painter.clips = []
        CATransaction.begin(); CATransaction.setDisableActions(true)
        tiled.position = CGPoint(x: -256, y: 0)   // now points 256…556 are visible: tiles 1 and 2
        CATransaction.commit()
        renderer.beginFrame(atTime: 0); renderer.render(); renderer.endFrame()
        #expect(painter.clips == [CGRect(x: 512, y: 0, width: 256, height: 256)])
        tiled.setNeedsDisplay()
        painter.clips = []
        renderer.beginFrame(atTime: 0); renderer.render(); renderer.endFrame()
        #expect(painter.clips.count == 2)
    }

    @Test func tilesMeetWithoutSeamsAtFractionalPositions() throws {
        let painter = Painter()
        // Tile edges at 179.2 device pixels.
        let (root, _) = Self.scene(painter) { $0.transform = CATransform3DMakeScale(0.7, 0.7, 1) }
        let image = try CARenderer.image(of: root, size: CGSize(width: 300, height: 200), at: 0)
        #expect(painter.clips.count == 4)   // 429 × 286 points visible: 2 × 2 tiles
        for x in 0..<300 { #expect(image.pixmap.pixel(x: x, y: 100) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255)) }
    }
}
