import Compositor
import Foundation
import QuartzCore
import Raster
import Testing

/// A layer's shadow blur and its masksToBounds clip. Expected values are closed form: a
/// Gaussian of standard deviation σ across a straight edge of an opaque shape gives alpha
/// ½·erfc(d / (σ√2)) at distance d outside it, with σ = shadowRadius (Core Animation's
/// `shadowRadius` is the Gaussian's σ: WebKit hands a CSS drop-shadow's standard deviation to
/// `CALayer.shadowRadius` unchanged, WebCore `PlatformCAFiltersCocoa.mm`; the design-tool
/// conversions set shadowRadius = b / 2 for a CSS-style blur b, whose σ is b / 2). With
/// masksToBounds a layer shows no shadow outside its rounded bounds (Apple, `shadowPath`: a
/// shadow is clipped "only if the normal layer masking rules cause that"; Lockwood, *iOS Core
/// Animation: Advanced Techniques*, ch. 4, "Shadow Clipping").
@Suite(.serialized) struct ShadowProfileTests {
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    static func render(_ l: CALayer, size: CGSize, scale: CGFloat = 1) throws -> Pixmap {
        CAMediaClock.setManualTime(0)
        return try CARenderer.image(of: l, size: size, at: 0, scale: scale).pixmap
    }

    /// Channel `k` of pixel (x, y) in 0…1.
    static func channel(_ p: Pixmap, _ x: Int, _ y: Int, _ k: Int) -> Double {
        Double(p.pixels[4 * (y * p.width + x) + k]) / 255
    }

    /// An opaque white layer over x < 100 of a 200 × 100 target with an opaque blue shadow,
    /// offset 0, radius r: along the middle row the pixel at centre x + ½ beyond the edge is the
    /// shadow colour at alpha ½·erfc((x + ½ − 100) / (σ√2)), σ = r points (r·scale pixels),
    /// within 3/255 (8-bit pixels and the blur's rounding). With the former σ = r / 2 the alpha
    /// one σ out would be 0.023 instead of 0.159.
    @Test(arguments: [(CGFloat(2), CGFloat(1)), (4, 1), (3, 2)])
    func shadowAcrossAnEdgeIsTheGaussianErrorFunction(radius: CGFloat, scale: CGFloat) throws {
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        l.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        l.shadowColor = Self.blue
        l.shadowOpacity = 1
        l.shadowOffset = .zero
        l.shadowRadius = radius
        let img = try Self.render(l, size: CGSize(width: 200, height: 100), scale: scale)
        let sigma = Double(radius * scale), edge = 100 * Double(scale), row = Int(50 * scale)
        var worst = 0.0
        for x in Int(edge)...Int(edge + 4 * sigma) {
            let expected = 0.5 * erfc((Double(x) + 0.5 - edge) / (sigma * 2.0.squareRoot()))
            let a = Self.channel(img, x, row, 3)
            worst = max(worst, abs(a - expected))
            // The shadow colour (premultiplied): blue = alpha, no red or green.
            #expect(Self.channel(img, x, row, 0) == 0 && Self.channel(img, x, row, 1) == 0)
            #expect(abs(Self.channel(img, x, row, 2) - a) <= 1.0 / 255)
        }
        #expect(worst <= 3.0 / 255, "largest alpha error \(worst)")
        #expect(img.pixel(x: Int(edge) - 1, y: row) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
    }

    /// How a shadowed layer at (20, 20, 40, 40) in a 100 × 100 target is made.
    enum Kind: String, CaseIterable {
        /// An opaque background: the shadow is the rounded bounds (`drawShadow`).
        case opaque
        /// A shadowPath reaching past the bounds.
        case shadowPath
        /// No background, a sublayer reaching past the bounds: the alpha shadow.
        case alpha
        /// An opaque background at opacity 0.5 (drawn as a group).
        case grouped
    }

    static func shadowed(_ kind: Kind, masksToBounds: Bool) -> CALayer {
        let l = CALayer()
        l.frame = CGRect(x: 20, y: 20, width: 40, height: 40)
        l.cornerRadius = 10
        l.masksToBounds = masksToBounds
        l.shadowColor = Self.blue
        l.shadowOpacity = 1
        l.shadowRadius = 3
        l.shadowOffset = CGSize(width: 12, height: 12)
        switch kind {
        case .opaque, .grouped:
            l.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            if kind == .grouped { l.opacity = 0.5 }
        case .shadowPath:
            l.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            l.shadowPath = CGPath(rect: CGRect(x: -10, y: -10, width: 60, height: 60), transform: nil)
        case .alpha:
            let sub = CALayer()
            sub.frame = CGRect(x: 0, y: 0, width: 20, height: 60)
            sub.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            l.addSublayer(sub)
        }
        return l
    }

    /// With masksToBounds every pixel outside the layer's rounded bounds is transparent — the
    /// shadow (offset 12, radius 3) is not drawn there — while without it the same layer's
    /// shadow shows outside the bounds. Pixels wholly
    /// outside the outline: beyond the bounds rectangle, or farther than 10 + 1 from a corner's
    /// centre within a corner square.
    @Test(arguments: Kind.allCases)
    func masksToBoundsClipsTheShadow(kind: Kind) throws {
        let free = try Self.render(Self.shadowed(kind, masksToBounds: false), size: CGSize(width: 100, height: 100))
        // The sublayer's shadow is x 32…52, y 32…92; the others reach x, y = 72 or more.
        let probe = kind == .alpha ? (x: 45, y: 85) : (x: 66, y: 66)
        #expect(free.pixel(x: probe.x, y: probe.y).a > 100,
                "\(kind): the shadow without masksToBounds: \(free.pixel(x: probe.x, y: probe.y))")
        let clipped = try Self.render(Self.shadowed(kind, masksToBounds: true), size: CGSize(width: 100, height: 100))
        var outside = 0, drawn: [(Int, Int)] = []
        for y in 0..<100 {
            for x in 0..<100 {
                let (cx, cy) = (Double(x) + 0.5, Double(y) + 0.5)
                let inRect = cx > 19 && cx < 61 && cy > 19 && cy < 61
                // Corner centres at (30, 30), (50, 30), (30, 50), (50, 50).
                let dx = max(0, abs(cx - 40) - 10), dy = max(0, abs(cy - 40) - 10)
                let inCorner = (dx * dx + dy * dy).squareRoot() < 11
                guard !(inRect && inCorner) else { continue }
                outside += 1
                if clipped.pixel(x: x, y: y).a != 0 { drawn.append((x, y)) }
            }
        }
        #expect(outside > 8000)
        #expect(drawn.isEmpty, "\(kind): \(drawn.count) pixels drawn outside the bounds, first \(drawn.prefix(4))")
    }

    /// Inside the bounds the clipped shadow stays beneath the content: a masksToBounds layer
    /// without background whose sublayer covers its left half casts the sublayer's shadow on
    /// its own transparent right half (x 40…60 is transparent content; the shadow of x 20…40
    /// moved by 12 reaches to x = 52).
    @Test func clippedShadowShowsInsideTheBounds() throws {
        let img = try Self.render(Self.shadowed(.alpha, masksToBounds: true), size: CGSize(width: 100, height: 100))
        let p = img.pixel(x: 45, y: 45)
        #expect(p.a > 200 && abs(Int(p.b) - Int(p.a)) <= 1 && p.r == 0, "\(p)")
    }
}
