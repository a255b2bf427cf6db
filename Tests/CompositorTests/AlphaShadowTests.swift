import Compositor
import QuartzCore
import Raster
import Testing

/// Shadows come from the layer's rendered alpha. Apple, shadowPath: "If the
/// value in this property is non-nil, the shadow is created using the specified path instead of
/// the layer's composited alpha channel" — so without it the shadow is the composited alpha
/// (shape layers, text layers, layers drawn only by their sublayers all cast one), in shadowColor
/// at shadowOpacity, offset by shadowOffset. With shadowRadius 0 there is no blur, so expected
/// pixels are closed form: over white, a black shadow at opacity 0.5 is 127.5 grey.
@Suite(.serialized) struct AlphaShadowTests {
    static func render(_ l: CALayer) throws -> Pixmap {
        CAMediaClock.setManualTime(0)
        return try CARenderer.image(of: l, size: CGSize(width: 100, height: 100), at: 0,
                                    background: CGColor(red: 1, green: 1, blue: 1, alpha: 1)).pixmap
    }

    static func isGrey(_ p: PremultipliedColor) -> Bool { abs(Int(p.r) - 128) <= 1 && p.r == p.g && p.g == p.b }
    static func isWhite(_ p: PremultipliedColor) -> Bool { p.r == 255 && p.g == 255 && p.b == 255 }

    static func shadowed(_ l: CALayer) -> CALayer {
        l.shadowOpacity = 0.5
        l.shadowRadius = 0
        l.shadowOffset = CGSize(width: 0, height: 20)
        return l
    }

    /// A circle of radius 20 centred at (50, 40) in a 100 × 100 shape layer: its shadow is the
    /// circle centred at (50, 60) — (50, 75) is inside it and outside the shape; (25, 75) is in
    /// the bounds-shaped shadow a layer rectangle would cast, but outside the circle's.
    @Test func shapeLayerCastsItsPathsShadow() throws {
        let s = CAShapeLayer()
        s.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        s.path = CGPath(ellipseIn: CGRect(x: 30, y: 20, width: 40, height: 40), transform: nil)
        s.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let img = try Self.render(Self.shadowed(s))
        #expect(Self.isGrey(img.pixel(x: 50, y: 75)), "\(img.pixel(x: 50, y: 75))")
        #expect(Self.isWhite(img.pixel(x: 25, y: 75)) && Self.isWhite(img.pixel(x: 50, y: 85)))
        #expect(img.pixel(x: 50, y: 40) == PremultipliedColor(r: 0, g: 0, b: 0, a: 255))   // the shape over its shadow
    }

    /// A layer without background whose only colour is a sublayer (x 20…40, y 10…30) casts the
    /// sublayer's shadow (x 20…40, y 30…50).
    @Test func layerDrawnBySublayersCastsTheirShadow() throws {
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let sub = CALayer()
        sub.frame = CGRect(x: 20, y: 10, width: 20, height: 20)
        sub.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        l.addSublayer(sub)
        let img = try Self.render(Self.shadowed(l))
        #expect(Self.isGrey(img.pixel(x: 30, y: 40)), "\(img.pixel(x: 30, y: 40))")
        #expect(Self.isWhite(img.pixel(x: 30, y: 55)) && Self.isWhite(img.pixel(x: 60, y: 40)))
    }

    /// A text layer's shadow is its glyphs' alpha moved by the offset: every fully covered glyph
    /// pixel whose shifted place is not covered by a glyph shows the shadow grey there.
    @Test func textLayerCastsItsGlyphsShadow() throws {
        func text() -> CATextLayer {
            let t = CATextLayer()
            t.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
            t.string = "Hi"
            t.fontSize = 30
            t.foregroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            return t
        }
        let plain = try Self.render(text()), shadowed = try Self.render(Self.shadowed(text()))
        var checked = 0
        for y in 0..<80 { for x in 0..<100 where plain.pixel(x: x, y: y).r == 0 && Self.isWhite(plain.pixel(x: x, y: y + 20)) {
            #expect(Self.isGrey(shadowed.pixel(x: x, y: y + 20)), "(\(x), \(y + 20))")
            checked += 1
        } }
        #expect(checked > 20)
    }

    /// The shadow is part of the layer's own rendering, so shadowOffset is in layer space and
    /// turns with the layer (community-verified on iOS: a view turned by 180° casts its (0, 20)
    /// shadow upwards on screen). A 40 × 40 layer centred at (50, 50) turned by π: its shadow
    /// covers y 10…50 on screen, so (50, 20) is shadow and (50, 80) is not — for a background
    /// (shape shadow) and for a shape layer (alpha shadow) alike.
    @Test func offsetTurnsWithTheLayer() throws {
        func plain() -> CALayer {
            let l = CALayer()
            l.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            return l
        }
        func shape() -> CALayer {
            let s = CAShapeLayer()
            s.path = CGPath(rect: CGRect(x: 0, y: 0, width: 40, height: 40), transform: nil)
            s.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            return s
        }
        // Each layer made just before it is drawn (a layer changed after its first frame would animate).
        for make in [plain, shape] {
            let l = make()
            l.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
            l.position = CGPoint(x: 50, y: 50)
            l.transform = CATransform3DMakeRotation(.pi, 0, 0, 1)
            let img = try Self.render(Self.shadowed(l))
            #expect(Self.isGrey(img.pixel(x: 50, y: 20)) && Self.isWhite(img.pixel(x: 50, y: 80)),
                    "\(type(of: l)): \(img.pixel(x: 50, y: 20)), \(img.pixel(x: 50, y: 80))")
        }
    }

    /// With shadowPath set, the shadow is the path, whatever the layer draws.
    @Test func shadowPathReplacesTheAlpha() throws {
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        l.shadowPath = CGPath(rect: CGRect(x: 60, y: 0, width: 20, height: 20), transform: nil)
        let img = try Self.render(Self.shadowed(l))
        #expect(Self.isGrey(img.pixel(x: 70, y: 30)) && Self.isWhite(img.pixel(x: 30, y: 30)))
    }
}
