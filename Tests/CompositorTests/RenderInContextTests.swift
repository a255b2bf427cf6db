import Compositor
import CoreGraphics
import QuartzCore
import Raster
import Testing

/// `CALayer.render(in:)` as Apple documents it: "This method renders directly from the layer
/// tree, ignoring any animations added to the render tree. Renders in the coordinate space of
/// the layer." Expected pixels follow from those two sentences and the context's CTM: layer
/// point (x, y) is user point (x, y).
@Suite(.serialized) struct RenderInContextTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let opaqueRed = PremultipliedColor(r: 255, g: 0, b: 0, a: 255)
    static let opaqueBlue = PremultipliedColor(r: 0, g: 0, b: 255, a: 255)

    /// A 40×20 red layer placed far from the origin and turned, with a blue 8×6 sublayer at
    /// (4, 2) of its bounds, and a running animation on its colour and its sublayer's position.
    static func layer() -> CALayer {
        CAMediaClock.setManualTime(0)
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
        layer.position = CGPoint(x: 300, y: 200)
        layer.transform = CATransform3DMakeRotation(0.7, 0, 0, 1)
        layer.backgroundColor = red
        let sub = CALayer()
        sub.frame = CGRect(x: 4, y: 2, width: 8, height: 6)
        sub.backgroundColor = blue
        layer.addSublayer(sub)
        CATransaction.flush()
        let fade = CABasicAnimation(keyPath: "backgroundColor")
        fade.toValue = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        fade.duration = 10
        layer.add(fade, forKey: "fade")
        let move = CABasicAnimation(keyPath: "position")
        move.byValue = CGPoint(x: 20, y: 10)
        move.duration = 10
        sub.add(move, forKey: "move")
        CATransaction.flush()
        CAMediaClock.setManualTime(5)   // halfway through both animations
        return layer
    }

    /// In a top-left context (the one iOS hands to drawing code) at scale 2: the layer fills the
    /// bitmap from its own origin, unturned and unmoved, with its model colours and its sublayer
    /// where the model puts it.
    @Test func drawsTheModelTreeInTheLayersOwnSpace() throws {
        let pixmap = try Pixmap(width: 80, height: 40)
        let ctx = CGContext(pixmap: pixmap, origin: .topLeft, scale: 2)
        Self.layer().render(in: ctx)
        #expect(pixmap.pixel(x: 0, y: 0) == Self.opaqueRed)
        #expect(pixmap.pixel(x: 79, y: 39) == Self.opaqueRed)
        // The sublayer: points (4…12, 2…8), pixels (8…24, 4…16).
        #expect(pixmap.pixel(x: 8, y: 4) == Self.opaqueBlue)
        #expect(pixmap.pixel(x: 23, y: 15) == Self.opaqueBlue)
        #expect(pixmap.pixel(x: 24, y: 10) == Self.opaqueRed)
        #expect(pixmap.pixel(x: 15, y: 16) == Self.opaqueRed)
    }

    /// In a bitmap context with Core Graphics' default bottom-left origin, layer point (x, y) is
    /// user point (x, y), y up: the picture comes out upside down, as on iOS, and the CTM moves it.
    @Test func followsTheContextsCurrentTransform() throws {
        let pixmap = try Pixmap(width: 50, height: 30)
        let ctx = CGContext(pixmap: pixmap)
        ctx.translateBy(x: 5, y: 3)
        Self.layer().render(in: ctx)
        // The layer covers user (5…45, 3…23): device rows 30 − 23 = 7 … 30 − 3 = 27.
        #expect(pixmap.pixel(x: 5, y: 26) == Self.opaqueRed)
        #expect(pixmap.pixel(x: 44, y: 7) == Self.opaqueRed)
        #expect(pixmap.pixel(x: 4, y: 15).a == 0)
        #expect(pixmap.pixel(x: 20, y: 6).a == 0)
        // The sublayer: user (9…17, 5…11), device rows 19 … 25.
        #expect(pixmap.pixel(x: 9, y: 24) == Self.opaqueBlue)
        #expect(pixmap.pixel(x: 16, y: 19) == Self.opaqueBlue)
        #expect(pixmap.pixel(x: 16, y: 18) == Self.opaqueRed)
    }
}
