@testable import Compositor
import QuartzCore
import Raster
import Testing

/// Leaf layers drawn straight into the frame instead of from a retained bitmap (`cachedLeaf`'s
/// `.direct`): a layer of a few vector paths while it turns (resampling its bitmap would cost
/// more than drawing it), and a layer that paints each pixel once whose pixels change two
/// frames running, at any opacity. Counted through `@testable import`; the pixels are compared
/// with a fresh renderer drawing the same tree at the same time (which composites a bitmap made
/// for that frame): the same shapes, so within the rounding of one composite.
@Suite(.serialized) struct DirectDrawTests {
    static let size = CGSize(width: 200, height: 120)
    static let red = CGColor(red: 0.9, green: 0.1, blue: 0.1, alpha: 1)
    static let blue = CGColor(red: 0.1, green: 0.2, blue: 0.9, alpha: 1)

    /// A renderer of `root` (over transparent black, as `CARenderer.image` draws), the tree
    /// committed, drawing on one thread (the counts are kept by serial frames; bands draw the
    /// same layers the same way, `BandTests`).
    static func renderer(_ root: CALayer) throws -> CARenderer {
        let r = try CARenderer(width: Int(size.width), height: Int(size.height))
        r._renderThreads = 1
        r.layer = root
        CATransaction.flush()
        return r
    }

    /// One frame at `t`: the largest channel difference from a fresh renderer's, and the
    /// rasterizations and direct draws it took.
    static func frame(_ r: CARenderer, at t: CFTimeInterval) throws -> (worst: Int, rasterized: Int, direct: Int) {
        try RetainedContentTests.frame(r, at: t)
    }

    static func turning(_ layer: CALayer) {
        let turn = CABasicAnimation(keyPath: "transform.rotation.z")
        turn.byValue = 1.0
        turn.duration = 1
        layer.add(turn, forKey: "turn")
    }

    /// A turning plain layer, a turning shape layer with one fill and a turning faded shape
    /// layer with one stroke are drawn directly from their second turned frame on (nothing is
    /// rasterized again); a small turning shape, cheaper resampled (`turnsCheaplyDrawn`: 64
    /// device pixels an element), keeps a layer-space bitmap.
    @Test func turningVectorLayersAreDrawnDirectly() throws {
        CAMediaClock.setManualTime(0)
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let plain = CALayer()
        plain.frame = CGRect(x: 10, y: 20, width: 50, height: 40)
        plain.backgroundColor = Self.red
        plain.cornerRadius = 6
        let filled = CAShapeLayer()
        filled.position = CGPoint(x: 100, y: 60)
        filled.path = CGPath(ellipseIn: CGRect(x: -25, y: -20, width: 50, height: 40), transform: nil)
        filled.fillColor = Self.blue
        let stroked = CAShapeLayer()
        stroked.position = CGPoint(x: 160, y: 60)
        stroked.path = CGPath(rect: CGRect(x: -20, y: -30, width: 40, height: 60), transform: nil)
        stroked.fillColor = nil
        stroked.strokeColor = Self.red
        stroked.lineWidth = 5
        stroked.opacity = 0.5
        let small = CAShapeLayer()
        small.position = CGPoint(x: 100, y: 105)
        small.path = CGPath(ellipseIn: CGRect(x: -4, y: -4, width: 8, height: 8), transform: nil)
        small.fillColor = Self.red
        for l in [plain, filled, stroked, small] {
            root.addSublayer(l)
            Self.turning(l)
        }
        let r = try Self.renderer(root)
        let first = try Self.frame(r, at: 0)
        #expect(first.rasterized == 4 && first.worst == 0)
        // The small shape's layer-space bitmap is made at the first turned frame.
        let turned = try Self.frame(r, at: 0.1)
        #expect(turned.rasterized == 1 && turned.direct == 3)
        for k in 2...5 {
            let f = try Self.frame(r, at: Double(k) / 10)
            #expect(f.rasterized == 0 && f.direct == 3, "frame \(k): \(f)")
            // The direct layers match; the small one is resampled (bilinear against exact edges).
            #expect(f.worst <= 128, "frame \(k): \(f)")
        }
        #expect(r.renderer.leaves.byLayer[ObjectIdentifier(small)] != nil)
    }

    /// The same turning layers without the small one: each frame matches a fresh rendering
    /// within 2 of 255 (one composite's rounding; the shapes are the same).
    @Test func turningDirectFramesMatchAFreshRendering() throws {
        CAMediaClock.setManualTime(0)
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let plain = CALayer()
        plain.frame = CGRect(x: 20, y: 20, width: 70, height: 60)
        plain.backgroundColor = Self.red
        plain.opacity = 0.6
        let stroked = CAShapeLayer()
        stroked.position = CGPoint(x: 140, y: 60)
        stroked.path = CGPath(ellipseIn: CGRect(x: -30, y: -25, width: 60, height: 50), transform: nil)
        stroked.fillColor = nil
        stroked.strokeColor = Self.blue
        stroked.lineWidth = 4
        for l in [plain, stroked] {
            root.addSublayer(l)
            Self.turning(l)
        }
        let r = try Self.renderer(root)
        _ = try Self.frame(r, at: 0)
        for k in 1...5 {
            let f = try Self.frame(r, at: Double(k) / 10)
            #expect(f.direct == 2 && f.worst <= 2, "frame \(k): \(f)")
        }
    }

    /// A faded layer with two paints (fill and stroke overlap: drawn directly at its opacity the
    /// stroke would show the fill through it) keeps a bitmap while it turns.
    @Test func turningLayerWithTwoPaintsBelowFullOpacityKeepsItsBitmap() throws {
        CAMediaClock.setManualTime(0)
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let both = CAShapeLayer()
        both.position = CGPoint(x: 100, y: 60)
        both.path = CGPath(rect: CGRect(x: -30, y: -30, width: 60, height: 60), transform: nil)
        both.fillColor = Self.blue
        both.strokeColor = Self.red
        both.lineWidth = 8
        both.opacity = 0.5
        root.addSublayer(both)
        Self.turning(both)
        let r = try Self.renderer(root)
        _ = try Self.frame(r, at: 0)
        _ = try Self.frame(r, at: 0.1)
        for k in 2...4 {
            let f = try Self.frame(r, at: Double(k) / 10)
            #expect(f.direct == 0 && f.rasterized == 0, "frame \(k): \(f)")
        }
    }

    /// A faded shape with one fill whose colour animates is drawn directly from its second
    /// changed frame on, at its opacity, matching the fresh rendering within 2 of 255.
    @Test func fadedSinglePaintChangingEveryFrameIsDrawnDirectly() throws {
        CAMediaClock.setManualTime(0)
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let shape = CAShapeLayer()
        shape.path = CGPath(roundedRect: CGRect(x: 20, y: 10, width: 160, height: 100), cornerWidth: 12, cornerHeight: 12,
                            transform: nil)
        shape.fillColor = Self.red
        shape.opacity = 0.4
        root.addSublayer(shape)
        let recolour = CABasicAnimation(keyPath: "fillColor")
        recolour.fromValue = Self.red
        recolour.toValue = Self.blue
        recolour.duration = 1
        shape.add(recolour, forKey: "recolour")
        let r = try Self.renderer(root)
        _ = try Self.frame(r, at: 0)
        _ = try Self.frame(r, at: 0.1)
        for k in 2...5 {
            let f = try Self.frame(r, at: Double(k) / 10)
            #expect(f.direct == 1 && f.rasterized == 0 && f.worst <= 2, "frame \(k): \(f)")
        }
    }

    /// Kept renderers drawing on one thread and in two bands show the same bytes in every frame
    /// while turning layers and a faded recoloured one are drawn directly (every band decides
    /// as the serial frame does and logs what it would change, `BandLog`); the root's animated
    /// background damages the whole frame, so that frames are drawn whole, in bands.
    @Test func bandsDrawDirectLayersAsOneThreadDoes() throws {
        CAMediaClock.setManualTime(0)
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let fade = CABasicAnimation(keyPath: "backgroundColor")
        fade.fromValue = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        fade.toValue = CGColor(red: 0.8, green: 0.9, blue: 1, alpha: 1)
        fade.duration = 1
        root.add(fade, forKey: "fade")
        let plain = CALayer()
        plain.frame = CGRect(x: 20, y: 20, width: 70, height: 60)
        plain.backgroundColor = Self.red
        Self.turning(plain)
        let shape = CAShapeLayer()
        shape.path = CGPath(ellipseIn: CGRect(x: 110, y: 20, width: 70, height: 80), transform: nil)
        shape.fillColor = Self.red
        shape.opacity = 0.5
        let recolour = CABasicAnimation(keyPath: "fillColor")
        recolour.fromValue = Self.red
        recolour.toValue = Self.blue
        recolour.duration = 1
        shape.add(recolour, forKey: "recolour")
        for l in [plain, shape] { root.addSublayer(l) }
        let serial = try Self.renderer(root), banded = try Self.renderer(root)
        banded._renderThreads = 2
        for k in 0...5 {
            let t = Double(k) / 10
            CAMediaClock.setManualTime(t)
            var shown: [[UInt8]] = []
            for r in [serial, banded] {
                r.beginFrame(atTime: t); r.render(); r.endFrame()
                shown.append(Array(UnsafeBufferPointer(start: r.pixmap.pixels, count: r.pixmap.width * r.pixmap.height * 4)))
            }
            #expect(banded._lastFrameBands == 2, "frame \(k)")
            #expect(shown[0] == shown[1], "frame \(k)")
        }
        #expect(serial.renderer.leaves.directDraws >= 8)
    }
}
