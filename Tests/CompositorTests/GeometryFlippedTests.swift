import Compositor
import QuartzCore
import Raster
import Testing

/// `isGeometryFlipped`. CALayer.h: "Whether the geometry of the layer and its
/// sublayers is flipped vertically"; Apple: the value "does not affect the rendering of the
/// layer's content". contentsAreFlipped(): "If the layer needs to flip its content, it returns
/// true from this method and applies a y-flip transform to the graphics context before passing
/// it to the layer's draw(in:) method". Expected positions in closed form: in a flipped 100-pt
/// tall parent, a sublayer's y is measured from the other side (y ↦ 100 − y).
@Suite(.serialized) struct GeometryFlippedTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)

    /// Draws its top half (minY) red.
    final class TopHalf: CALayer {
        override func draw(in ctx: CGContext) {
            ctx.setFillColor(GeometryFlippedTests.red)
            ctx.fill(CGRect(x: bounds.minX, y: bounds.minY, width: bounds.width, height: bounds.height / 2))
        }
    }

    static func scene(flipped: Bool) -> (parent: CALayer, child: CALayer, drawn: TopHalf) {
        let parent = CALayer()
        parent.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        parent.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        parent.isGeometryFlipped = flipped
        let child = CALayer()
        child.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        child.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        parent.addSublayer(child)
        let drawn = TopHalf()
        drawn.frame = CGRect(x: 60, y: 10, width: 20, height: 40)
        drawn.setNeedsDisplay()
        parent.addSublayer(drawn)
        return (parent, child, drawn)
    }

    static func render(_ l: CALayer) throws -> Pixmap {
        CAMediaClock.setManualTime(0)
        return try CARenderer.image(of: l, size: CGSize(width: 100, height: 100), at: 0, background: nil).pixmap
    }

    @Test func sublayerGeometryIsMeasuredFromTheOtherSide() throws {
        let flat = try Self.render(Self.scene(flipped: false).parent)
        #expect(flat.pixel(x: 20, y: 20).g == 255 && flat.pixel(x: 20, y: 80).g == 0)
        let img = try Self.render(Self.scene(flipped: true).parent)
        // The green square at y 10…30 lands at 70…90; the parent's own background is unchanged.
        #expect(img.pixel(x: 20, y: 80).g == 255 && img.pixel(x: 20, y: 20).g == 0 && img.pixel(x: 20, y: 20).b == 255)
    }

    /// The drawn layer sits mirrored (y 50…90) but its drawing is upright: its top half (the red
    /// minY half) is at the top of where it lands (50…70), as contentsAreFlipped() promises.
    @Test func drawnContentStaysUpright() throws {
        let s = Self.scene(flipped: true)
        #expect(s.drawn.contentsAreFlipped() && !s.parent.contentsAreFlipped())
        let img = try Self.render(s.parent)
        #expect(img.pixel(x: 70, y: 60).r == 255 && img.pixel(x: 70, y: 80).r == 0 && img.pixel(x: 70, y: 20).r == 0)
    }

    /// Two flipped ancestors cancel.
    @Test func contentsAreFlippedCountsFlippedAncestors() {
        let a = CALayer(), b = CALayer(), c = CALayer()
        a.addSublayer(b); b.addSublayer(c)
        a.isGeometryFlipped = true
        #expect(b.contentsAreFlipped() && c.contentsAreFlipped())
        b.isGeometryFlipped = true
        #expect(b.contentsAreFlipped() && !c.contentsAreFlipped())
    }
}
