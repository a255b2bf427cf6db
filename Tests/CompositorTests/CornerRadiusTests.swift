import Compositor
import QuartzCore
import Raster
import Testing

/// `cornerRadius` as Apple documents it. CALayer.cornerRadius: "By default, the
/// corner radius does not apply to the image in the layer's contents property; it applies only to
/// the background color and border of the layer. However, setting the masksToBounds property to
/// true causes the content to be clipped to the rounded corners." CAGradientLayer.h: the gradient
/// layer draws "filling the shape of the layer (i.e. including rounded corners)". masksToBounds:
/// "an implicit clipping mask that matches the bounds of the layer and includes any corner radius
/// effects". Expected coverage is closed form: inside the r × r corner square of a rounded
/// rectangle, r² − (r² − π r²/4) = π r²/4 (the quarter circle is a cubic, within 1.5 px²).
@Suite(.serialized) struct CornerRadiusTests {
    static let r: CGFloat = 20

    /// Covered area (sum of alpha) of the top-left r × r corner square, and the corner pixel's alpha.
    static func corner(_ l: CALayer) throws -> (area: Double, cornerAlpha: UInt8) {
        CAMediaClock.setManualTime(0)
        let img = try CARenderer.image(of: l, size: CGSize(width: 60, height: 60), at: 0, background: nil).pixmap
        var area = 0.0
        for y in 0..<Int(r) { for x in 0..<Int(r) { area += Double(img.pixel(x: x, y: y).a) / 255 } }
        return (area, img.pixel(x: 0, y: 0).a)
    }

    /// Changes a rendered layer without an implicit animation (the next frame shows the new value).
    static func withoutActions(_ change: () -> Void) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        change()
        CATransaction.commit()
    }

    static let quarterCircle = Double.pi * Double(r * r) / 4

    static func solidImage() throws -> CGImage {
        let pm = try Pixmap(width: 6, height: 6)
        pm.fill(with: PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        return CGImage(pixmap: pm)
    }

    @Test func gradientIsRoundedWithoutMasksToBounds() throws {
        let g = CAGradientLayer()
        g.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
        g.colors = [CGColor(red: 0, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        g.cornerRadius = Self.r
        let c = try Self.corner(g)
        #expect(abs(c.area - Self.quarterCircle) < 1.5 && c.cornerAlpha == 0, "\(c)")
    }

    /// `l`'s corner square is fully covered without masksToBounds and rounded with it.
    static func expectRoundedOnlyWithMasksToBounds(_ l: CALayer, _ what: String) throws {
        let square = try corner(l)
        #expect(abs(square.area - Double(r * r)) < 0.5, "\(what) without masksToBounds: \(square)")
        withoutActions { l.masksToBounds = true }
        let rounded = try corner(l)
        #expect(abs(rounded.area - quarterCircle) < 1.5 && rounded.cornerAlpha == 0, "\(what) with masksToBounds: \(rounded)")
    }

    @Test func contentsAreRoundedOnlyWithMasksToBounds() throws {
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
        l.contents = try Self.solidImage()
        l.cornerRadius = Self.r
        try Self.expectRoundedOnlyWithMasksToBounds(l, "contents")
    }

    /// A shape layer's path (here a square beyond its bounds) is clipped to the rounded bounds
    /// only with masksToBounds.
    @Test func shapeIsClippedOnlyWithMasksToBounds() throws {
        let s = CAShapeLayer()
        s.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
        s.path = CGPath(rect: CGRect(x: -10, y: -10, width: 80, height: 80), transform: nil)
        s.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        s.cornerRadius = Self.r
        try Self.expectRoundedOnlyWithMasksToBounds(s, "shape")
    }

    /// Sublayers: clipped to the rounded bounds only with masksToBounds.
    @Test func sublayersAreClippedOnlyWithMasksToBounds() throws {
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
        l.cornerRadius = Self.r
        let sub = CALayer()
        sub.frame = l.bounds
        sub.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        l.addSublayer(sub)
        try Self.expectRoundedOnlyWithMasksToBounds(l, "sublayers")
    }
}
