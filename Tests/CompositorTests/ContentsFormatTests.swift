import Compositor
import QuartzCore
import Raster
import Testing

/// `contentsFormat`. Apple: `gray8Uint` is "A grayscale format with 8 bits per
/// pixel": what `draw(in:)` draws into such a backing store loses its colour. Citrine keeps the
/// luma 0.2126·R + 0.7152·G + 0.0722·B (Rec. 709, as CSS's grayscale() filter) and the alpha; the
/// default `RGBA8Uint` keeps colours.
@Suite(.serialized) struct ContentsFormatTests {
    final class Orange: CALayer {
        override func draw(in ctx: CGContext) {
            ctx.setFillColor(CGColor(red: 1, green: 0.5, blue: 0, alpha: 1))
            ctx.fill(CGRect(x: 0, y: 0, width: bounds.width / 2, height: bounds.height))
        }
    }

    static func render(_ format: CALayerContentsFormat?) throws -> Pixmap {
        let l = Orange()
        l.frame = CGRect(x: 0, y: 0, width: 20, height: 10)
        if let format { l.contentsFormat = format }
        l.setNeedsDisplay()
        CAMediaClock.setManualTime(0)
        return try CARenderer.image(of: l, size: CGSize(width: 20, height: 10), at: 0, background: nil).pixmap
    }

    @Test func gray8MakesDrawnContentGrey() throws {
        let colour = try Self.render(nil).pixel(x: 2, y: 5)
        #expect(colour.r == 255 && colour.b == 0)
        let img = try Self.render(.gray8Uint)
        let p = img.pixel(x: 2, y: 5)
        let luma = 0.2126 * 255 + 0.7152 * Double(colour.g)
        #expect(p.r == p.g && p.g == p.b && abs(Double(p.r) - luma) <= 1 && p.a == 255, "\(p)")
        #expect(img.pixel(x: 15, y: 5).a == 0, "undrawn pixels stay transparent")
    }
}
