@testable import Compositor
import QuartzCore
import Raster
import Testing

/// Retained bitmaps of shape, gradient and text layers ("re-rasterized only when a
/// property that changes them changes"). Caching is not public behaviour, so these tests count
/// rasterizations through `@testable import`; the pixels are compared with a fresh renderer that
/// draws the same tree at the same time with an empty cache, byte for byte (the layers sit at
/// whole-pixel positions and keep their orientation, so a correctly invalidated cache draws the
/// very same bitmap).
@Suite(.serialized) struct RetainedContentTests {
    static let black = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0.1, green: 0.2, blue: 0.9, alpha: 0.8)
    static let size = CGSize(width: 160, height: 100)

    /// A zigzag whose stroke, joins and caps reach beyond the shape layer's (empty) bounds.
    static func zigzag() -> CGPath {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 5, y: 40)); p.addLine(to: CGPoint(x: 25, y: 5))
        p.addLine(to: CGPoint(x: 45, y: 40)); p.addLine(to: CGPoint(x: 60, y: 10))
        return p
    }

    struct Scene {
        let root = CALayer(), shape = CAShapeLayer(), gradient = CAGradientLayer(), text = CATextLayer()

        init() {
            root.frame = CGRect(origin: .zero, size: RetainedContentTests.size)
            shape.position = CGPoint(x: 10, y: 10)     // bounds stay empty: only the path draws
            shape.path = RetainedContentTests.zigzag()
            shape.fillColor = RetainedContentTests.blue
            shape.strokeColor = RetainedContentTests.black
            shape.lineWidth = 6
            gradient.frame = CGRect(x: 90, y: 5, width: 60, height: 40)
            gradient.colors = [RetainedContentTests.red, RetainedContentTests.blue, RetainedContentTests.black]
            gradient.cornerRadius = 8
            gradient.borderWidth = 2
            gradient.borderColor = RetainedContentTests.black
            text.frame = CGRect(x: 10, y: 60, width: 140, height: 36)
            text.string = "Citrine glyphs"
            text.font = "DejaVu Sans"
            text.fontSize = 18
            text.foregroundColor = RetainedContentTests.black
            text.backgroundColor = CGColor(red: 1, green: 1, blue: 0.8, alpha: 1)
            for l in [shape, gradient, text] { root.addSublayer(l) }
        }
    }

    static func worstDifference(_ a: Pixmap, _ b: Pixmap) -> Int {
        var worst = 0
        for i in 0..<(a.width * a.height * 4) { worst = max(worst, abs(Int(a.pixels[i]) - Int(b.pixels[i]))) }
        return worst
    }

    /// Renders `r`'s tree at `t` and the same tree with a fresh renderer; returns the largest
    /// channel difference, how many bitmaps `r` rasterized for the frame, and how many layers it
    /// drew directly because their bitmaps changed in the frame before too (`cachedLeaf`).
    static func frame(_ r: CARenderer, at t: CFTimeInterval) throws -> (worst: Int, rasterized: Int, direct: Int) {
        CAMediaClock.setManualTime(t)
        let leaves = r.renderer.leaves
        let (rasterized, direct) = (leaves.rasterizations, leaves.directDraws)
        r.beginFrame(atTime: t); r.render(); r.endFrame()
        let fresh = try CARenderer.image(of: r.layer!, size: CGSize(width: CGFloat(r.pixmap.width) / r.scale,
                                                                 height: CGFloat(r.pixmap.height) / r.scale),
                                         at: t, scale: r.scale)
        return (worstDifference(fresh.pixmap, r.pixmap), leaves.rasterizations - rasterized, leaves.directDraws - direct)
    }

    /// A renderer of `s` at `scale`, with the scene committed.
    static func renderer(_ s: Scene, scale: CGFloat = 1) throws -> CARenderer {
        let r = try CARenderer(width: Int(size.width), height: Int(size.height), scale: scale)
        r.layer = s.root
        CATransaction.flush()
        return r
    }

    /// A one-second animation of `keyPath`.
    static func animation(_ keyPath: String, from: Any? = nil, to: Any? = nil, by: Any? = nil) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: keyPath)
        a.fromValue = from; a.toValue = to; a.byValue = by
        a.duration = 1
        return a
    }

    static func withoutActions(_ body: () -> Void) {
        CATransaction.begin(); CATransaction.setDisableActions(true)
        body()
        CATransaction.commit()
    }

    /// Every property that changes a shape's, gradient's or text's pixels invalidates its bitmap:
    /// after each change the retained frame equals a fresh rendering, and the layer was
    /// rasterized again or (changed two frames running) drawn directly; at 1× and 2×.
    @Test(arguments: [1.0, 2.0] as [CGFloat])
    func everyPixelPropertyInvalidatesTheBitmap(scale: CGFloat) throws {
        CAMediaClock.setManualTime(0)
        let s = Scene()
        let r = try Self.renderer(s, scale: scale)
        let first = try Self.frame(r, at: 0)
        #expect(first.worst == 0 && first.rasterized == 3)
        let changes: [(String, () -> Void)] = [
            ("path", { s.shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 50, height: 30), transform: nil) }),
            ("fillColor", { s.shape.fillColor = Self.red }),
            ("strokeColor", { s.shape.strokeColor = Self.blue }),
            ("fillRule", { s.shape.path = Self.zigzag(); s.shape.fillRule = .evenOdd }),
            ("lineWidth", { s.shape.lineWidth = 9 }),
            ("lineCap", { s.shape.lineCap = .square }),
            ("lineJoin", { s.shape.lineJoin = .round }),
            ("miterLimit", { s.shape.lineJoin = .miter; s.shape.miterLimit = 1.2 }),
            ("lineDashPattern", { s.shape.lineDashPattern = [8, 4] }),
            ("lineDashPhase", { s.shape.lineDashPhase = 3 }),
            ("strokeStart", { s.shape.strokeStart = 0.2 }),
            ("strokeEnd", { s.shape.strokeEnd = 0.7 }),
            ("colors", { s.gradient.colors = [Self.blue, Self.red] }),
            ("locations", { s.gradient.locations = [0.2, 0.4] }),
            ("startPoint", { s.gradient.startPoint = CGPoint(x: 0, y: 0.5) }),
            ("endPoint", { s.gradient.endPoint = CGPoint(x: 1, y: 0.2) }),
            ("type", { s.gradient.type = .radial }),
            ("string", { s.text.string = "Other words here" }),
            ("font", { s.text.font = "DejaVu Serif" }),
            ("fontSize", { s.text.fontSize = 14 }),
            ("foregroundColor", { s.text.foregroundColor = Self.red }),
            ("alignmentMode", { s.text.alignmentMode = .right }),
            ("isWrapped", { s.text.string = "Words that wrap onto a second line"; s.text.isWrapped = true }),
            ("truncationMode", { s.text.isWrapped = false; s.text.truncationMode = .middle }),
            ("bounds", { s.gradient.bounds.size = CGSize(width: 50, height: 30) }),
            ("cornerRadius", { s.gradient.cornerRadius = 2 }),
            ("borderColor", { s.gradient.borderColor = Self.red }),
            ("backgroundColor", { s.text.backgroundColor = Self.blue }),
        ]
        for (name, change) in changes {
            Self.withoutActions(change)
            let after = try Self.frame(r, at: 0)
            #expect(after.worst == 0, "\(name) at \(scale)×: off by \(after.worst)")
            #expect(after.rasterized + after.direct >= 1, "\(name) at \(scale)×: the bitmap was reused")
        }
        let idle = try Self.frame(r, at: 0)
        #expect(idle.rasterized == 0 && idle.direct == 0)   // nothing changed: nothing drawn
    }

    /// Frames in which shape, gradient and text layers only move, fade and turn re-composite
    /// their bitmaps: after the first turned frame (which switches a turning layer to a
    /// layer-space bitmap) nothing is rasterized again.
    @Test func movingFadingTurningDoesNotReRasterize() throws {
        CAMediaClock.setManualTime(0)
        let s = Scene()
        let r = try Self.renderer(s)
        for (i, l) in [s.shape, s.gradient, s.text].enumerated() {
            l.add(Self.animation("position", by: CGPoint(x: 7, y: 3)), forKey: "move")
            l.add(Self.animation("opacity", to: 0.4), forKey: "fade")
            if i != 2 { l.add(Self.animation("transform.rotation.z", by: 0.5), forKey: "turn") }
        }
        CATransaction.flush()
        _ = try Self.frame(r, at: 0)
        _ = try Self.frame(r, at: 0.1)
        let settled = r.renderer.leaves.rasterizations
        for k in 2...6 { _ = try Self.frame(r, at: Double(k) / 10) }
        #expect(r.renderer.leaves.rasterizations == settled)
    }

    /// A drawing-line animation (strokeEnd 0 → 1) draws the shape anew in every frame (into a
    /// fresh bitmap, or straight into the frame, `cachedLeaf`), and each frame is the fresh
    /// rendering of the path drawn so far.
    @Test func animatedStrokeEndIsRedrawnEachFrame() throws {
        CAMediaClock.setManualTime(0)
        let s = Scene()
        let r = try Self.renderer(s)
        s.shape.add(Self.animation("strokeEnd", from: 0, to: 1), forKey: "draw")
        CATransaction.flush()
        _ = try Self.frame(r, at: 0)
        for k in 1...4 {
            let f = try Self.frame(r, at: Double(k) / 5)
            #expect(f.worst == 0 && f.rasterized + f.direct == 1, "frame \(k): \(f)")
        }
    }

    /// A shape or text too big for a retained bitmap is drawn directly, not cached; NaN and ∞
    /// geometry neither crashes nor hangs.
    @Test func hugeOrBrokenShapesAreDrawnDirectly() throws {
        CAMediaClock.setManualTime(0)
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let huge = CAShapeLayer()
        huge.path = CGPath(rect: CGRect(x: -50_000, y: 20, width: 100_000, height: 30), transform: nil)
        huge.fillColor = Self.red
        let broken = CAShapeLayer()
        let nan = CGMutablePath()
        nan.move(to: CGPoint(x: 10, y: 10)); nan.addLine(to: CGPoint(x: CGFloat.nan, y: 40)); nan.addLine(to: CGPoint(x: 50, y: 5))
        broken.path = nan
        broken.strokeColor = Self.black
        broken.lineWidth = .nan
        broken.miterLimit = .infinity
        let text = CATextLayer()
        text.frame = CGRect(x: 0, y: 0, width: 1e12, height: 40)
        text.string = "big"
        text.fontSize = .infinity
        for l in [huge, broken, text] { root.addSublayer(l) }
        let r = try CARenderer(width: Int(Self.size.width), height: Int(Self.size.height))
        r.layer = root
        _ = try Self.frame(r, at: 0)
        #expect(r.renderer.leaves.byLayer[ObjectIdentifier(huge)] == nil)
        #expect(r.renderer.leaves.byLayer[ObjectIdentifier(text)] == nil)
        #expect(r.pixmap.pixel(x: 80, y: 30) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
    }

    /// Retained bitmaps together stay within the renderer's budget (a tree of a
    /// million small layers must not hold a bitmap for each): with the budget at 2 048² pixels
    /// (this 160×100 target's floor) and 3 000 layers of 40×40 device pixels each (42² with the
    /// margin, plus 256 of bookkeeping: 2 020), 2 076 are retained and the rest are drawn
    /// directly — and every frame still equals a fresh renderer's. Moving every layer by a whole
    /// pixel keeps the retained ones and rasterizes only the others again.
    @Test func retainedBitmapsStayWithinTheBudget() throws {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        var layers: [CALayer] = []
        for i in 0 ..< 3000 {
            let l = CALayer()
            l.frame = CGRect(x: CGFloat(i % 60) * 2, y: CGFloat(i / 60), width: 20, height: 20)
            l.backgroundColor = CGColor(red: CGFloat(i % 7) / 7, green: 0.5, blue: CGFloat(i % 5) / 5, alpha: 1)
            root.addSublayer(l)
            layers.append(l)
        }
        let r = try CARenderer(width: Int(Self.size.width), height: Int(Self.size.height), scale: 2)
        r.layer = root
        let leaves = r.renderer.leaves
        #expect(leaves.maxHeldPixels == 2048 * 2048)
        let first = try Self.frame(r, at: 0)
        #expect(first.worst == 0)
        #expect(leaves.byLayer.count == 2048 * 2048 / (42 * 42 + LayerRenderer.Leaves.overheadPixels))
        #expect(leaves.heldPixels <= leaves.maxHeldPixels)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for l in layers { l.position.x += 0.5 }
        CATransaction.commit()
        let moved = try Self.frame(r, at: 1)
        #expect(moved.worst == 0)
        #expect(moved.rasterized == 3000 - leaves.byLayer.count)
    }
}
