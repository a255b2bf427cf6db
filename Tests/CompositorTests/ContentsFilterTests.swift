import Compositor
import QuartzCore
import Raster
import Testing

/// `minificationFilter` / magnificationFilter. Apple:
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

/// minificationFilterBias with `trilinear` (Apple: "The bias factor added when determining which
/// levels of detail to use when minifying using trilinear filtering", default 0). A one-texel
/// black/white checker's first mipmap level is uniform grey — each 2 × 2 box averages two white
/// and two black texels to (2·255 + 2) / 4 = 128 — while level 0 is the checker itself. Drawn
/// at 58/64 of its size (1.1 texels per pixel, level ⌊log₂ 1.1⌋ = 0) the unbiased sampling keeps
/// the checker's contrast; a bias of 1 picks level 1: every pixel 128 (closed form).
@Suite(.serialized) struct MinificationBiasTests {
    static func render(bias: Float) throws -> [UInt8] {
        let pm = try Pixmap(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 {
            let v: UInt8 = (x + y) % 2 == 0 ? 255 : 0
            pm.setPixel(x: x, y: y, PremultipliedColor(r: v, g: v, b: v, a: 255))
        } }
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 58, height: 58)
        l.contents = CGImage(pixmap: pm)
        l.minificationFilter = .trilinear
        l.minificationFilterBias = bias
        CAMediaClock.setManualTime(0)
        let img = try CARenderer.image(of: l, size: CGSize(width: 58, height: 58), at: 0, background: nil).pixmap
        return (4..<54).flatMap { y in (4..<54).map { img.pixel(x: $0, y: y).r } }
    }

    @Test func biasShiftsTheMipmapLevel() throws {
        let unbiased = try Self.render(bias: 0)
        #expect(unbiased.max()! - unbiased.min()! > 50)
        let biased = try Self.render(bias: 1)
        #expect(biased.allSatisfy { abs(Int($0) - 128) <= 1 }, "\(biased.min()!)…\(biased.max()!)")
    }
}
