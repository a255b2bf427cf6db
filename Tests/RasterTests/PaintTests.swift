import Foundation
import Raster
import Testing

/// Paint results against closed-form values: source-over arithmetic, the W3C blend formulas,
/// gradient and image sampling positions, group compositing, Gaussian blur.
struct PaintTests {
    static func canvas(_ w: Int = 8, _ h: Int = 8, fill: Color? = nil) throws -> Pixmap {
        let pm = try Pixmap(width: w, height: h)
        if let fill { pm.fill(with: fill.premultiplied) }
        return pm
    }

    static func near(_ a: PremultipliedColor, _ r: Int, _ g: Int, _ b: Int, _ al: Int, tolerance: Int = 1) -> Bool {
        abs(Int(a.r) - r) <= tolerance && abs(Int(a.g) - g) <= tolerance
            && abs(Int(a.b) - b) <= tolerance && abs(Int(a.a) - al) <= tolerance
    }

    @Test func translucentSourceOverOnOpaque() throws {
        // 50 % red over opaque blue: (255·0.5, 0, 255·0.5) → (128, 0, 127/128), alpha 255.
        let pm = try Self.canvas(fill: Color(r: 0, g: 0, b: 1))
        pm.fill(Rect(x: 0, y: 0, width: 8, height: 8), paint: Paint(color: Color(r: 1, g: 0, b: 0, a: 0.5)))
        #expect(Self.near(pm.pixel(x: 3, y: 3), 128, 0, 127, 255))
    }

    @Test func halfCoverageHalvesTheSource() throws {
        let pm = try Self.canvas(fill: .white)
        pm.fill(Rect(x: 2.5, y: 0, width: 4, height: 8), paint: Paint(color: .black))
        // Coverage 0.5 of opaque black over white: 255 · 0.5.
        #expect(Self.near(pm.pixel(x: 2, y: 4), 128, 128, 128, 255))
        #expect(pm.pixel(x: 3, y: 4) == PremultipliedColor(r: 0, g: 0, b: 0, a: 255))
    }

    @Test func opacityScalesThePaint() throws {
        let pm = try Self.canvas()
        pm.fill(Rect(x: 0, y: 0, width: 8, height: 8),
                paint: Paint(shader: .solid(Color(r: 0, g: 1, b: 0)), opacity: 0.25))
        #expect(Self.near(pm.pixel(x: 1, y: 1), 0, 64, 0, 64))
    }

    /// Separable modes by the W3C formula, computed here on straight colour:
    /// result = (1 − αd)·s + (1 − αs)·d + αs·αd·B(cs, cd) with both colours opaque → B(cs, cd).
    static func formula(_ mode: BlendMode, _ s: Double, _ d: Double) -> Double {
        switch mode {
        case .multiply: return s * d
        case .screen: return s + d - s * d
        case .darken: return min(s, d)
        case .lighten: return max(s, d)
        case .difference: return abs(s - d)
        case .exclusion: return s + d - 2 * s * d
        case .hardLight: return s <= 0.5 ? 2 * s * d : 1 - 2 * (1 - s) * (1 - d)
        case .overlay: return d <= 0.5 ? 2 * s * d : 1 - 2 * (1 - s) * (1 - d)
        default: return .nan
        }
    }

    @Test(arguments: [BlendMode.multiply, .screen, .darken, .lighten, .difference, .exclusion, .hardLight, .overlay])
    func separableBlendModes(_ mode: BlendMode) throws {
        let d = (0.2, 0.6, 0.9), s = (0.7, 0.3, 0.5)
        let pm = try Self.canvas(fill: Color(r: Float(d.0), g: Float(d.1), b: Float(d.2)))
        pm.fill(Rect(x: 0, y: 0, width: 8, height: 8),
                paint: Paint(color: Color(r: Float(s.0), g: Float(s.1), b: Float(s.2)), blendMode: mode))
        let p = pm.pixel(x: 4, y: 4)
        // Inputs are quantised to 8 bits first, so allow 2 levels.
        let expected = [Self.formula(mode, s.0, d.0), Self.formula(mode, s.1, d.1), Self.formula(mode, s.2, d.2)].map { Int(($0 * 255).rounded()) }
        #expect(Self.near(p, expected[0], expected[1], expected[2], 255, tolerance: 2), "\(mode)")
    }

    @Test func porterDuffOperators() throws {
        let red = Color(r: 1, g: 0, b: 0, a: 1)
        let half = Color(r: 0, g: 0, b: 1, a: 0.5)
        func result(_ mode: BlendMode) throws -> PremultipliedColor {
            let pm = try Self.canvas(fill: half)
            pm.fill(Rect(x: 0, y: 0, width: 8, height: 8), paint: Paint(color: red, blendMode: mode))
            return pm.pixel(x: 0, y: 0)
        }
        // s = (1,0,0,1), d = (0,0,.5,.5) premultiplied.
        #expect(Self.near(try result(.copy), 255, 0, 0, 255))
        #expect(Self.near(try result(.clear), 0, 0, 0, 0))
        #expect(Self.near(try result(.sourceIn), 128, 0, 0, 128))             // s·αd
        #expect(Self.near(try result(.destinationOver), 128, 0, 128, 255))    // s·(1−αd) + d
        #expect(Self.near(try result(.destinationOut), 0, 0, 0, 0))           // d·(1−αs)
        #expect(Self.near(try result(.xor), 128, 0, 0, 128))                  // s·(1−αd) + d·(1−αs)
    }

    @Test func linearGradientFollowsTheProjection() throws {
        let pm = try Self.canvas(256, 4)
        let g = LinearGradient(start: Point(x: 0, y: 0), end: Point(x: 256, y: 0),
                               stops: [GradientStop(offset: 0, color: .black), GradientStop(offset: 1, color: .white)])
        pm.fill(Rect(x: 0, y: 0, width: 256, height: 4), paint: Paint(shader: .linearGradient(g)))
        // Pixel centre x + 0.5 → t = (x + 0.5) / 256 → grey 255·t (ramp of 256 entries: ±1).
        for x in [0, 64, 128, 200, 255] {
            let expected = Int(((Double(x) + 0.5) / 256 * 255).rounded())
            #expect(abs(Int(pm.pixel(x: x, y: 1).r) - expected) <= 1, "x = \(x)")
        }
    }

    @Test func radialGradientRadius() throws {
        let pm = try Self.canvas(101, 101)
        let g = RadialGradient(startCenter: Point(x: 50.5, y: 50.5), startRadius: 0,
                               endCenter: Point(x: 50.5, y: 50.5), endRadius: 40,
                               stops: [GradientStop(offset: 0, color: .white), GradientStop(offset: 1, color: .black)])
        pm.fill(Rect(x: 0, y: 0, width: 101, height: 101), paint: Paint(shader: .radialGradient(g)))
        #expect(pm.pixel(x: 50, y: 50).r == 255)                       // centre: t = 0
        #expect(abs(Int(pm.pixel(x: 70, y: 50).r) - 128) <= 2)         // distance 20: t = 0.5
        #expect(pm.pixel(x: 95, y: 50).r == 0)                         // beyond: padded
    }

    @Test func conicGradientAngles() throws {
        let pm = try Self.canvas(100, 100)
        let g = ConicGradient(center: Point(x: 50, y: 50), startAngle: 0,
                              stops: [GradientStop(offset: 0, color: .black), GradientStop(offset: 1, color: .white)])
        pm.fill(Rect(x: 0, y: 0, width: 100, height: 100), paint: Paint(shader: .conicGradient(g)))
        // Below the centre (+y, angle π/2): t = 0.25; left (angle π): t = 0.5.
        #expect(abs(Int(pm.pixel(x: 50, y: 90).r) - 64) <= 2)
        #expect(abs(Int(pm.pixel(x: 10, y: 50).r) - 128) <= 3)
    }

    @Test func bilinearSamplingBetweenTexels() throws {
        // 2×1 image: black, white. Scaled ×10 horizontally: device pixel centre x + 0.5 maps to
        // u = (x + 0.5)/10; the bilinear weight of the white texel is u − 0.5, clamped.
        let image = try Pixmap(width: 2, height: 1)
        image.setPixel(x: 0, y: 0, PremultipliedColor(r: 0, g: 0, b: 0, a: 255))
        image.setPixel(x: 1, y: 0, PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
        let pm = try Self.canvas(20, 10)
        let pattern = ImagePattern(image: image, transform: Transform(a: 10, b: 0, c: 0, d: 10, tx: 0, ty: 0),
                                   filter: .bilinear, spread: .pad)
        pm.fill(Rect(x: 0, y: 0, width: 20, height: 10), paint: Paint(shader: .image(pattern)))
        for x in [3, 7, 10, 12] {
            let weight = min(max((Double(x) + 0.5) / 10 - 0.5, 0), 1)
            #expect(abs(Int(pm.pixel(x: x, y: 5).r) - Int((weight * 255).rounded())) <= 1, "x = \(x)")
        }
        let nearest = try Self.canvas(20, 10)
        nearest.fill(Rect(x: 0, y: 0, width: 20, height: 10),
                     paint: Paint(shader: .image(ImagePattern(image: image, transform: Transform(a: 10, b: 0, c: 0, d: 10, tx: 0, ty: 0), filter: .nearest))))
        #expect(nearest.pixel(x: 9, y: 5).r == 0 && nearest.pixel(x: 10, y: 5).r == 255)
    }

    @Test func projectiveImageMapping() throws {
        // H maps image (u, v) to ((u)/(1 + u/100), v/(1 + u/100)): the device point (x, y)
        // samples u = x/(1 − x/100). A 100×100 image with red where u ≥ 25, blue before:
        // the boundary lands at x = 25/(1 + 0.25) = 20.
        let image = try Pixmap(width: 100, height: 100)
        for y in 0..<100 { for x in 0..<100 {
            image.setPixel(x: x, y: y, x >= 25 ? PremultipliedColor(r: 255, g: 0, b: 0, a: 255)
                                              : PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        } }
        let h = Projective(1, 0, 0, 0, 1, 0, 0.01, 0, 1)
        let pm = try Self.canvas(100, 100)
        pm.fill(Rect(x: 0, y: 0, width: 100, height: 50), paint: Paint(shader: .image(ImagePattern(image: image, transform: h, filter: .nearest))))
        #expect(pm.pixel(x: 18, y: 10).b == 255)
        #expect(pm.pixel(x: 21, y: 10).r == 255)
    }

    @Test func mipmapsAverageAMinifiedCheckerboard() throws {
        let image = try Pixmap(width: 256, height: 256)
        for y in 0..<256 { for x in 0..<256 {
            let on = (x ^ y) & 1 == 0
            image.setPixel(x: x, y: y, on ? PremultipliedColor(r: 255, g: 255, b: 255, a: 255)
                                          : PremultipliedColor(r: 0, g: 0, b: 0, a: 255))
        } }
        let pm = try Self.canvas(16, 16)
        pm.fill(Rect(x: 0, y: 0, width: 16, height: 16),
                paint: Paint(shader: .image(ImagePattern(image: image, transform: Transform(a: 1.0 / 16, b: 0, c: 0, d: 1.0 / 16, tx: 0, ty: 0), filter: .smooth))))
        for x in 0..<16 { #expect(abs(Int(pm.pixel(x: x, y: 7).r) - 128) <= 2) }
    }

    @Test func groupCompositeAppliesOpacityOnce() throws {
        // A group of two overlapping opaque squares composited at 50 %: the overlap is not darker.
        let group = try Self.canvas(10, 10)
        group.fill(Rect(x: 0, y: 0, width: 6, height: 6), paint: Paint(color: .black))
        group.fill(Rect(x: 3, y: 3, width: 6, height: 6), paint: Paint(color: .black))
        let pm = try Self.canvas(20, 20, fill: .white)
        pm.draw(group, atX: 5, y: 5, opacity: 0.5)
        #expect(Self.near(pm.pixel(x: 6, y: 6), 128, 128, 128, 255))
        #expect(pm.pixel(x: 9, y: 9) == pm.pixel(x: 6, y: 6))
        #expect(pm.pixel(x: 2, y: 2) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
    }

    @Test func gaussianBlurPreservesMassAndProfile() throws {
        let sigma = 3.0
        let pm = try Self.canvas(41, 41)
        pm.setPixel(x: 20, y: 20, PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
        // Spread a 9×9 block so 8-bit rounding stays small relative to the values.
        pm.fill(Rect(x: 16, y: 16, width: 9, height: 9), paint: Paint(color: .white))
        pm.gaussianBlur(sigma: sigma)
        var mass = 0.0
        for y in 0..<41 { for x in 0..<41 { mass += Double(pm.pixel(x: x, y: y).a) } }
        #expect(abs(mass / 255 - 81) < 1.5)
        // Centre value: a 9-wide box convolved with a Gaussian, per axis ∫ over ±4.5 of N(0, σ).
        let axis = erf(4.5 / (sigma * 2.0.squareRoot()))
        #expect(abs(Double(pm.pixel(x: 20, y: 20).a) / 255 - axis * axis) < 0.02)
    }

    /// Convolution commutes with translation, and pixels outside a pixmap count as transparent:
    /// content blurred in a large transparent canvas gives, where it spreads, the same words as
    /// the same content blurred in a canvas just its size plus the blur's margin (the blur
    /// reads only the rows and columns the content reaches).
    @Test(arguments: [0.7, 2.5, 6.0])
    func gaussianBlurDependsOnlyOnTheContent(sigma: Double) throws {
        let margin = Pixmap.blurMargin(sigma: sigma)
        func draw(into pm: Pixmap, atX x: Double, y: Double) {
            pm.fill(Rect(x: x, y: y, width: 30, height: 20), paint: Paint(color: Color(r: 0.9, g: 0.2, b: 0.1, a: 0.8)))
            pm.fill(Rect(x: x + 5.5, y: y + 3.25, width: 9, height: 13), paint: Paint(color: Color(r: 0.1, g: 0.4, b: 1, a: 1)))
            pm.setPixel(x: Int(x) + 29, y: Int(y) + 19, PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
        }
        let small = try Self.canvas(30 + 2 * margin, 20 + 2 * margin)
        draw(into: small, atX: Double(margin), y: Double(margin))
        small.gaussianBlur(sigma: sigma)
        let large = try Self.canvas(300, 200)
        draw(into: large, atX: 137, y: 91)
        large.gaussianBlur(sigma: sigma)
        var differing = 0, outside = 0
        for y in 0..<200 {
            for x in 0..<300 {
                let (sx, sy) = (x - 137 + margin, y - 91 + margin)
                if sx >= 0, sy >= 0, sx < small.width, sy < small.height {
                    if large.pixel(x: x, y: y) != small.pixel(x: sx, y: sy) { differing += 1 }
                } else if large.pixel(x: x, y: y).a != 0 {
                    outside += 1
                }
            }
        }
        #expect(differing == 0 && outside == 0)
        let clear = try Self.canvas(40, 40)
        clear.gaussianBlur(sigma: sigma)
        #expect((0..<1600).allSatisfy { clear.words[$0] == 0 })
    }

    /// Past `Pixmap.maxExactBlurWork` (here σ = 100 over 2 048², 5·10⁹ multiply-adds exact) the
    /// blur is `boundedGaussianBlur`'s: a straight edge still blurs to the Gaussian's profile,
    /// 0.5·erfc(d / (σ√2)) at distance d from the edge (far from the pixmap's borders).
    @Test func gaussianBlurPastTheWorkBoundKeepsTheEdgeProfile() throws {
        let sigma = 100.0
        let pm = try Self.canvas(2048, 2048)
        pm.fill(Rect(x: 0, y: 0, width: 1024, height: 2048), paint: Paint(color: .black))
        pm.gaussianBlur(sigma: sigma)
        for d in stride(from: -250.0, through: 250, by: 50) {
            let x = Int(1024 + d)  // the pixel whose centre lies d + ½ past the edge
            let expected = 0.5 * erfc((d + 0.5) / (sigma * 2.0.squareRoot()))
            #expect(abs(Double(pm.pixel(x: x, y: 1024).a) / 255 - expected) < 0.02)
        }
    }
}
