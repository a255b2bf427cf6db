import Compositor
import QuartzCore
import Raster
import Testing

/// Issue 16, rule 11 (first part): minificationFilter / magnificationFilter. Apple:
/// magnificationFilter is "the filter used when increasing the size of the content", default
/// `linear`; `nearest` is "nearest neighbor interpolation" (Apple's figure: a 10 × 10 image
/// magnified 10× shows hard texel squares with `nearest`, smooth ramps with `linear`). Expected
/// values in closed form: a 2 × 2 black/white checker stretched onto 40 × 40 points.
@Suite(.serialized) struct ContentsFilterTests {
    static func checker() throws -> CGImage {
        let pm = try Pixmap(width: 2, height: 2)
        let white = PremultipliedColor(r: 255, g: 255, b: 255, a: 255), black = PremultipliedColor(r: 0, g: 0, b: 0, a: 255)
        pm.setPixel(x: 0, y: 0, white); pm.setPixel(x: 1, y: 1, white)
        pm.setPixel(x: 1, y: 0, black); pm.setPixel(x: 0, y: 1, black)
        return CGImage(pixmap: pm)
    }

    static func render(_ filter: CALayerContentsFilter?) throws -> Pixmap {
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        l.contents = try checker()
        if let filter { l.magnificationFilter = filter }
        CAMediaClock.setManualTime(0)
        return try CARenderer.image(of: l, size: CGSize(width: 40, height: 40), at: 0, background: nil).pixmap
    }

    /// `nearest`: every pixel takes its texel's value, so the quadrants are solid up to the
    /// middle: (19, 10) white, (20, 10) black.
    @Test func nearestMagnificationKeepsTexelsSharp() throws {
        let img = try Self.render(.nearest)
        let levels: [UInt8] = [(19, 10), (20, 10), (19, 19), (20, 19), (20, 20)].map { img.pixel(x: $0.0, y: $0.1).r }
        #expect(levels == [255, 0, 255, 0, 255])
    }

    /// The default `linear`: bilinear between texel centres (x = 10 and 30 points), so at pixel
    /// 19 (centre 19.5) the value is 255 · (1 − 9.5/20) = 133.9 and at pixel 20, 121.1.
    @Test func linearMagnificationIsTheDefault() throws {
        let img = try Self.render(nil)
        let left = Double(img.pixel(x: 19, y: 10).r), right = Double(img.pixel(x: 20, y: 10).r)
        let expectedLeft: Double = 255 * (1 - 9.5 / 20), expectedRight: Double = 255 * 9.5 / 20
        #expect(abs(left - expectedLeft) <= 2 && abs(right - expectedRight) <= 2, "\(left), \(right)")
    }
}
