import Compositor
import QuartzCore
import Raster
import Testing

/// Every part of a layer is drawn under perspective — background, border,
/// shadow, the rounded masksToBounds clip of its sublayers (Apple draws a layer's parts in the
/// order background, contents, sublayers, border, with the shadow beneath, all under the layer's
/// transform; nothing documents an exception for perspective).
///
/// The scene is closed form: a root 200 × 200 whose sublayerTransform has m34 = −1/500; its 80 × 80
/// sublayer centred at (100, 100) with zPosition 100 lies in a plane parallel to the screen, so it
/// shows scaled by 1 / (1 − 100/500) = 1.25 about (100, 100) — device [50, 150)² — and its matrix
/// has a perspective row (w = 0.8), so it takes the projective path. In device pixels the
/// 8-point border is 10 px wide, the 16-point corner radius 20 px, the 8-point shadow offset 10 px.
@Suite(.serialized) struct PerspectiveLayerPartsTests {
    static let green = PremultipliedColor(r: 0, g: 255, b: 0, a: 255)
    static let blue = PremultipliedColor(r: 0, g: 0, b: 255, a: 255)
    static let red = PremultipliedColor(r: 255, g: 0, b: 0, a: 255)
    static let black = PremultipliedColor(r: 0, g: 0, b: 0, a: 255)
    static let white = PremultipliedColor(r: 255, g: 255, b: 255, a: 255)

    /// `masksToBounds` (default true): the layer clips its sublayer and its own shadow.
    static func scene(masksToBounds: Bool = true) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 500
        root.sublayerTransform = perspective
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 80, height: 80)
        l.position = CGPoint(x: 100, y: 100)
        l.zPosition = 100
        l.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        l.borderWidth = 8
        l.borderColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        l.cornerRadius = 16
        l.masksToBounds = masksToBounds
        l.shadowOpacity = 1
        l.shadowOffset = CGSize(width: 0, height: 8)
        l.shadowRadius = 0
        // A red band across the layer and 20 points beyond each side (clipped by masksToBounds):
        // layer y 30…50, device y 87.5…112.5.
        let band = CALayer()
        band.frame = CGRect(x: -20, y: 30, width: 120, height: 20)
        band.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        l.addSublayer(band)
        root.addSublayer(l)
        return root
    }

    static func render(_ scene: CALayer) throws -> Pixmap {
        CAMediaClock.setManualTime(0)
        return try CARenderer.image(of: scene, size: CGSize(width: 200, height: 200), at: 0,
                                    background: CGColor(red: 1, green: 1, blue: 1, alpha: 1)).pixmap
    }

    static func near(_ img: Pixmap, _ x: Int, _ y: Int, _ c: PremultipliedColor) -> Bool {
        let p = img.pixel(x: x, y: y)
        return abs(Int(p.r) - Int(c.r)) <= 2 && abs(Int(p.g) - Int(c.g)) <= 2 && abs(Int(p.b) - Int(c.b)) <= 2
    }

    /// With masksToBounds the shadow (device y 150…160 below the layer) is clipped away with
    /// the sublayer: on iOS a masksToBounds layer shows no shadow outside its bounds (Apple,
    /// `shadowPath`: clipped "only if the normal layer masking rules cause that"; Lockwood,
    /// *iOS Core Animation: Advanced Techniques*, ch. 4).
    @Test func everyPartIsDrawn() throws {
        let img = try Self.render(Self.scene())
        func near(_ x: Int, _ y: Int, _ c: PremultipliedColor) -> Bool { Self.near(img, x, y, c) }
        #expect(near(100, 70, Self.green), "background \(img.pixel(x: 100, y: 70))")
        #expect(near(54, 70, Self.blue) && near(145, 70, Self.blue) && near(100, 54, Self.blue) && near(100, 145, Self.blue),
                "border")
        #expect(near(61, 70, Self.green), "inside the border")
        #expect(near(100, 100, Self.red), "sublayer")
        #expect(near(54, 100, Self.blue), "border over the sublayer")
        #expect(near(45, 100, Self.white) && near(155, 100, Self.white), "sublayer clipped to the bounds")
        #expect(near(51, 51, Self.white), "rounded corner clipped")
        #expect(near(100, 155, Self.white) && near(100, 158, Self.white), "shadow clipped \(img.pixel(x: 100, y: 155))")
    }

    /// Without masksToBounds the shadow is drawn in the layer's plane: device y 150…160.
    @Test func shadowIsDrawnWithoutMasksToBounds() throws {
        let img = try Self.render(Self.scene(masksToBounds: false))
        #expect(Self.near(img, 100, 155, Self.black) && Self.near(img, 100, 158, Self.black), "shadow \(img.pixel(x: 100, y: 155))")
        #expect(Self.near(img, 100, 162, Self.white), "below the shadow \(img.pixel(x: 100, y: 162)) \(img.pixel(x: 100, y: 157))")
    }
}
