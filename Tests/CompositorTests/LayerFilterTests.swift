import Compositor
import Foundation
import QuartzCore
import Raster
import Testing

/// `filters`, `backgroundFilters` and `compositingFilter`. Expected values are
/// closed form: a blurred step edge is ½·erfc(d / (σ√2)) with σ = inputRadius (CIGaussianBlur's
/// radius is the standard deviation: Apple, `CIImage.applyingGaussianBlur(sigma:)`); a colour
/// matrix maps the un-premultiplied colour (CAColorMatrix rows as WebKit fills them); the blend
/// modes follow the W3C Compositing and Blending Level 1 formulas.
@Suite(.serialized) struct LayerFilterTests {
    static func color(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor {
        CGColor(red: r, green: g, blue: b, alpha: a)
    }

    static func render(_ l: CALayer, size: CGSize = CGSize(width: 100, height: 100), scale: CGFloat = 1,
                       background: CGColor? = nil) throws -> Pixmap {
        CAMediaClock.setManualTime(0)
        return try CARenderer.image(of: l, size: size, at: 0, scale: scale, background: background).pixmap
    }

    static func solid(_ frame: CGRect, _ c: CGColor) -> CALayer {
        let l = CALayer()
        l.frame = frame
        l.backgroundColor = c
        return l
    }

    static func blur(_ radius: Any, name: String = "blur") -> CAFilter {
        let f = CAFilter(type: kCAFilterGaussianBlur)
        f.name = name
        f.setValue(radius, forKey: kCAFilterInputRadius)
        return f
    }

    /// Channel `k` of pixel (x, y) in 0…1.
    static func channel(_ p: Pixmap, _ x: Int, _ y: Int, _ k: Int) -> Double {
        Double(p.pixels[4 * (y * p.width + x) + k]) / 255
    }

    // MARK: - gaussianBlur

    /// An opaque black layer over x < 100 of a 200 × 100 frame, blurred with inputRadius σ: along
    /// the middle row the alpha at pixel centre x + ½ is ½·erfc((x + ½ − 100) / (σ√2)).
    @Test(arguments: [(2.0, CGFloat(1)), (4, 1), (3, 2)])
    func blurredEdgeIsTheErrorFunction(sigma: Double, scale: CGFloat) throws {
        let l = Self.solid(CGRect(x: 0, y: 0, width: 100, height: 100), Self.color(0, 0, 0))
        l.filters = [Self.blur(sigma)]
        let img = try Self.render(l, size: CGSize(width: 200, height: 100), scale: scale)
        let s = sigma * Double(scale), edge = 100 * Double(scale), row = Int(50 * scale)
        var worst = 0.0
        for x in Int(edge - 4 * s)...Int(edge + 4 * s) {
            let expected = 0.5 * erfc((Double(x) + 0.5 - edge) / (s * 2.0.squareRoot()))
            worst = max(worst, abs(Self.channel(img, x, row, 3) - expected))
        }
        #expect(worst <= 3.0 / 255, "largest alpha error \(worst)")
    }

    /// Blurs of radius 10 and 24 (beyond `Pixmap.fullResolutionBlurSigma`, so drawn at reduced
    /// resolution) still follow the error function, to 2 %.
    @Test(arguments: [10.0, 24])
    func largeBlurFollowsTheErrorFunction(sigma: Double) throws {
        let l = Self.solid(CGRect(x: 0, y: 0, width: 200, height: 300), Self.color(0, 0, 0))
        l.filters = [Self.blur(sigma)]
        let img = try Self.render(l, size: CGSize(width: 400, height: 300))
        var worst = 0.0
        for x in 100...300 {
            let expected = 0.5 * erfc((Double(x) + 0.5 - 200) / (sigma * 2.0.squareRoot()))
            worst = max(worst, abs(Self.channel(img, x, 150, 3) - expected))
        }
        #expect(worst <= 0.02, "largest alpha error \(worst)")
    }

    /// CIFilter(name: "CIGaussianBlur") with kCIInputRadiusKey blurs as the CAFilter does.
    @Test func ciGaussianBlurMatchesCAFilter() throws {
        func layer(_ filter: Any) -> CALayer {
            let l = Self.solid(CGRect(x: 20, y: 20, width: 60, height: 60), Self.color(0.2, 0.5, 0.9))
            l.filters = [filter]
            return l
        }
        let ci = try #require(CIFilter(name: "CIGaussianBlur"))
        ci.setValue(5, forKey: kCIInputRadiusKey)
        let a = try Self.render(layer(ci)), b = try Self.render(layer(Self.blur(5)))
        #expect((0..<(100 * 100 * 4)).allSatisfy { a.pixels[$0] == b.pixels[$0] })
        #expect(a.pixel(x: 20, y: 50).a > 100 && a.pixel(x: 20, y: 50).a < 155)   // half-way up the edge
    }

    /// The blur applies to the layer and its sublayers as one group: a sublayer's edge inside the
    /// blurred layer is blurred too.
    @Test func filtersApplyToSublayers() throws {
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        l.addSublayer(Self.solid(CGRect(x: 50, y: 0, width: 50, height: 100), Self.color(0, 0, 0)))   // black for x ≥ 50
        l.masksToBounds = true
        l.filters = [Self.blur(3)]
        let img = try Self.render(l)
        let expected = 0.5 * erfc((50 - 48.5) / (3 * 2.0.squareRoot()))
        #expect(abs(Self.channel(img, 48, 50, 3) - expected) <= 3.0 / 255)
    }

    // MARK: - Colour filters

    /// colorMatrix: R' = G, G' = B, B' = ½R + ¼ on (0.2, 0.4, 0.6) gives (0.4, 0.6, 0.35).
    @Test func colorMatrixMapsTheColour() throws {
        let l = Self.solid(CGRect(x: 0, y: 0, width: 100, height: 100), Self.color(0.2, 0.4, 0.6))
        let f = CAFilter(type: kCAFilterColorMatrix)
        f.setValue(CAColorMatrix([0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0.5, 0, 0, 0, 0.25, 0, 0, 0, 1, 0]),
                   forKey: kCAFilterInputColorMatrix)
        l.filters = [f]
        let img = try Self.render(l)
        for (k, v) in [0.4, 0.6, 0.35, 1].enumerated() { #expect(abs(Self.channel(img, 50, 50, k) - v) <= 1.0 / 255) }
    }

    /// The matrix acts on un-premultiplied colour: invert of (1, 0, 0) at alpha ½ is (0, 1, 1) at
    /// alpha ½, stored premultiplied as (0, ½, ½, ½) — a premultiplied inversion would give
    /// red ½, not 0.
    @Test func colorInvertActsOnUnpremultipliedColour() throws {
        let l = Self.solid(CGRect(x: 0, y: 0, width: 100, height: 100), Self.color(1, 0, 0, 0.5))
        l.filters = [CAFilter(type: kCAFilterColorInvert)]
        let img = try Self.render(l)
        for (k, v) in [0, 0.5, 0.5, 0.5].enumerated() { #expect(abs(Self.channel(img, 50, 50, k) - v) <= 1.0 / 255) }
    }

    /// The colour adjustments on (0.8, 0.4, 0.2): colorSaturate 0 is the Filter Effects luminance
    /// 0.213·R + 0.715·G + 0.072·B; colorMonochrome 1 the same with 0.2126/0.7152/0.0722;
    /// colorBrightness 0.1 adds 0.1; colorContrast 2 maps c to 2c − ½; colorHueRotate 2π is the
    /// identity; CIColorMatrix with row vectors swaps R and B.
    @Test func colourAdjustmentsFollowTheirFormulas() throws {
        let (r, g, b) = (0.8, 0.4, 0.2)
        let luma = 0.213 * r + 0.715 * g + 0.072 * b, luma709 = 0.2126 * r + 0.7152 * g + 0.0722 * b
        func filter(_ type: String, _ key: String? = nil, _ value: Any? = nil) -> CAFilter {
            let f = CAFilter(type: type)
            if let key { f.setValue(value, forKey: key) }
            return f
        }
        let swap = try #require(CIFilter(name: "CIColorMatrix"))
        swap.setValue(CIVector(x: 0, y: 0, z: 1, w: 0), forKey: "inputRVector")
        swap.setValue([1, 0, 0, 0], forKey: "inputBVector")
        let cases: [(Any, [Double])] = [
            (filter(kCAFilterColorSaturate, kCAFilterInputAmount, 0), [luma, luma, luma]),
            (filter(kCAFilterColorMonochrome, kCAFilterInputAmount, 1), [luma709, luma709, luma709]),
            (filter(kCAFilterColorBrightness, kCAFilterInputAmount, 0.1), [r + 0.1, g + 0.1, b + 0.1]),
            (filter(kCAFilterColorContrast, kCAFilterInputAmount, 2), [2 * r - 0.5, 2 * g - 0.5, 0]),
            (filter(kCAFilterColorHueRotate, kCAFilterInputAngle, 2 * Double.pi), [r, g, b]),
            (swap, [b, g, r]),
        ]
        for (f, expected) in cases {
            let l = Self.solid(CGRect(x: 0, y: 0, width: 100, height: 100), Self.color(r, g, b))
            l.filters = [f]
            let img = try Self.render(l)
            for k in 0..<3 {
                #expect(abs(Self.channel(img, 50, 50, k) - min(1, max(0, expected[k]))) <= 1.5 / 255,
                        "\((f as? _LayerFilter)?.type ?? "?") channel \(k)")
            }
        }
    }

    /// Filters apply in array order: brightness +0.5 then invert gives 1 − (c + ½); the other
    /// order gives (1 − c) + ½.
    @Test func filtersApplyInOrder() throws {
        func render(_ order: [CAFilter]) throws -> Double {
            let l = Self.solid(CGRect(x: 0, y: 0, width: 100, height: 100), Self.color(0.2, 0.2, 0.2))
            l.filters = order
            return Self.channel(try Self.render(l), 50, 50, 0)
        }
        let brighter = CAFilter(type: kCAFilterColorBrightness)
        brighter.setValue(0.5, forKey: kCAFilterInputAmount)
        let invert = CAFilter(type: kCAFilterColorInvert)
        #expect(abs(try render([brighter, invert]) - 0.3) <= 1.0 / 255)
        #expect(abs(try render([invert, brighter]) - 1) <= 1.0 / 255)
    }

    // MARK: - compositingFilter

    /// Over an opaque backdrop cb = (0.8, 0.6, 0.4), a layer cs = (0.5, 0.5, 1) at alpha αs
    /// composites to (1 − αs)·cb + αs·B(cb, cs) (W3C Compositing and Blending, §5 with an opaque
    /// backdrop): multiply B = cs·cb, screen B = cs + cb − cs·cb, overlay B = hardLight(cs, cb)
    /// = 2·cs·cb where cb ≤ ½ else screen(cs, 2cb − 1), difference |cb − cs|.
    @Test(arguments: [1.0, 0.5])
    func blendModesFollowTheW3CFormulas(alpha: Double) throws {
        let cb = [0.8, 0.6, 0.4], cs = [0.5, 0.5, 1.0]
        func screen(_ a: Double, _ b: Double) -> Double { a + b - a * b }
        let modes: [(Any, (Double, Double) -> Double)] = [
            ("multiplyBlendMode", { s, d in s * d }),
            ("screenBlendMode", screen),
            (kCAFilterOverlayBlendMode, { s, d in d <= 0.5 ? 2 * s * d : screen(s, 2 * d - 1) }),
            (try #require(CIFilter(name: "CIDifferenceBlendMode")), { s, d in abs(d - s) }),
            ("CIMultiplyBlendMode", { s, d in s * d }),
            (CAFilter(type: kCAFilterScreenBlendMode), screen),
        ]
        for (filter, blend) in modes {
            let root = Self.solid(CGRect(x: 0, y: 0, width: 100, height: 100), Self.color(cb[0], cb[1], cb[2]))
            let top = Self.solid(CGRect(x: 25, y: 25, width: 50, height: 50), Self.color(cs[0], cs[1], cs[2], alpha))
            top.compositingFilter = filter
            root.addSublayer(top)
            let img = try Self.render(root)
            for k in 0..<3 {
                let expected = (1 - alpha) * cb[k] + alpha * blend(cs[k], cb[k])
                #expect(abs(Self.channel(img, 50, 50, k) - expected) <= 1.5 / 255, "\(filter) channel \(k)")
                #expect(abs(Self.channel(img, 10, 10, k) - cb[k]) <= 1.0 / 255)   // outside: the backdrop
            }
        }
    }

    /// Without a compositing filter, an unknown name or a value of another type, the layer is
    /// composited normally (source-over).
    @Test func unknownCompositingFilterCompositesNormally() throws {
        func render(_ filter: Any?) throws -> Pixmap {
            let root = Self.solid(CGRect(x: 0, y: 0, width: 100, height: 100), Self.color(0.8, 0.6, 0.4))
            let top = Self.solid(CGRect(x: 25, y: 25, width: 50, height: 50), Self.color(0.5, 0.5, 1, 0.5))
            top.compositingFilter = filter
            root.addSublayer(top)
            return try Self.render(root)
        }
        let normal = try render(nil)
        for other in [Any?.some("noSuchBlendMode"), 42, CAFilter(type: "noSuchFilter"), "normalBlendMode"] {
            let img = try render(other)
            #expect(img.pixel(x: 50, y: 50) == normal.pixel(x: 50, y: 50))
        }
    }

    // MARK: - backgroundFilters

    /// backgroundFilters [colorInvert] on a layer over a grey backdrop (0.2) with cornerRadius 20:
    /// inside the rounded bounds the backdrop is inverted (0.8) and the layer's own half-transparent
    /// white is drawn over it; outside, and in the cut-off corner, the backdrop is unchanged.
    @Test func backgroundFiltersFilterWhatIsBehindTheRoundedBounds() throws {
        let root = Self.solid(CGRect(x: 0, y: 0, width: 100, height: 100), Self.color(0.2, 0.2, 0.2))
        let glass = Self.solid(CGRect(x: 20, y: 20, width: 60, height: 60), Self.color(1, 1, 1, 0.5))
        glass.cornerRadius = 20
        glass.backgroundFilters = [CAFilter(type: kCAFilterColorInvert)]
        root.addSublayer(glass)
        let img = try Self.render(root)
        #expect(abs(Self.channel(img, 50, 50, 0) - (0.5 + 0.5 * 0.8)) <= 1.5 / 255)
        #expect(abs(Self.channel(img, 10, 50, 0) - 0.2) <= 1.0 / 255)
        #expect(abs(Self.channel(img, 21, 21, 0) - 0.2) <= 1.0 / 255)   // the rounded corner's outside
    }

    // MARK: - Animation and key paths

    /// `filters.blur.inputRadius` animates: half-way through 0 → 8 the picture is the one with
    /// radius 4; the model's filter keeps its value.
    @Test func inputRadiusAnimatesThroughItsKeyPath() throws {
        func layer(_ radius: Double) -> CALayer {
            let l = Self.solid(CGRect(x: 30, y: 30, width: 40, height: 40), Self.color(0, 0, 0))
            l.filters = [Self.blur(radius)]
            return l
        }
        CAMediaClock.setManualTime(0)
        let animated = layer(0)
        CATransaction.flush()
        let a = CABasicAnimation(keyPath: "filters.blur.inputRadius")
        a.fromValue = 0
        a.toValue = 8
        a.duration = 2
        a.beginTime = 1
        animated.add(a, forKey: "blur")
        CATransaction.flush()
        CAMediaClock.setManualTime(2)
        let frame = try CARenderer.image(of: animated, size: CGSize(width: 100, height: 100), at: 2).pixmap
        let expected = try Self.render(layer(4))
        #expect((0..<(100 * 100 * 4)).allSatisfy { frame.pixels[$0] == expected.pixels[$0] })
        #expect((animated.filters?.first as? CAFilter)?.value(forKey: "inputRadius") as? Double == 0)
    }

    /// Setting an input through the layer's key path changes the next frame of a retained renderer.
    @Test func keyPathChangeRedrawsTheLayer() throws {
        CAMediaClock.setManualTime(0)
        let l = Self.solid(CGRect(x: 30, y: 30, width: 40, height: 40), Self.color(0, 0, 0))
        l.filters = [Self.blur(0)]
        CATransaction.flush()
        let renderer = try CARenderer(width: 100, height: 100)
        renderer.layer = l
        renderer.beginFrame(atTime: 0)
        renderer.render()
        renderer.endFrame()
        #expect(renderer.pixmap.pixel(x: 30, y: 50).a == 255)
        l.setValue(4, forKeyPath: "filters.blur.inputRadius")
        CATransaction.flush()
        renderer.beginFrame(atTime: 0)
        renderer.render()
        renderer.endFrame()
        #expect(renderer.pixmap.pixel(x: 30, y: 50).a < 200)
    }

    // MARK: - Bad input

    /// NaN, ∞ and 1e308 radii, strings that are not numbers, a wrong type for the matrix, an
    /// unknown filter type and values that are not filters: no trap, and a bounded time. A
    /// non-number counts as unset (the default radius, 10); ±∞ is not finite, so also unset;
    /// 1e308 is clamped to `CAFilter.maxRadius`; an unknown type leaves the layer unfiltered.
    /// A colour adjustment whose matrix overflows — colorSaturate 10³⁰⁰, whose entries are ±∞ as
    /// Float — draws without a trap: ∞ · 0 is NaN in every colour channel, stored as 0 (as GPUs
    /// store NaN), so opaque red becomes opaque black.
    @Test func overflowingColourMatrixDrawsBlack() throws {
        let l = Self.solid(CGRect(x: 0, y: 0, width: 100, height: 100), Self.color(1, 0, 0))
        let f = CAFilter(type: kCAFilterColorSaturate)
        f.setValue(1e300, forKey: kCAFilterInputAmount)
        l.filters = [f]
        let img = try Self.render(l)
        for (k, v) in [0.0, 0, 0, 1].enumerated() { #expect(Self.channel(img, 50, 50, k) == v) }
    }

    @Test func badInputNeitherTrapsNorHangs() throws {
        let unfiltered = try Self.render(Self.solid(CGRect(x: 30, y: 30, width: 40, height: 40), Self.color(0, 0, 0)))
        let defaultBlur = try Self.render({
            let l = Self.solid(CGRect(x: 30, y: 30, width: 40, height: 40), Self.color(0, 0, 0))
            l.filters = [CAFilter(type: kCAFilterGaussianBlur)]
            return l
        }())
        let badMatrix = CAFilter(type: kCAFilterColorMatrix)
        badMatrix.setValue([1, 2, 3], forKey: kCAFilterInputColorMatrix)
        let cases: [([Any], Pixmap?)] = [
            ([Self.blur(Double.nan)], defaultBlur), ([Self.blur(Double.infinity)], defaultBlur),
            ([Self.blur("ten")], defaultBlur), ([Self.blur(1e308)], nil), ([Self.blur(-5)], unfiltered),
            ([badMatrix], unfiltered), ([CAFilter(type: "noSuchFilter")], unfiltered), (["gaussianBlur", 3, NSNull()], unfiltered),
        ]
        for (filters, expected) in cases {
            let l = Self.solid(CGRect(x: 30, y: 30, width: 40, height: 40), Self.color(0, 0, 0))
            l.filters = filters
            let img = try Self.render(l)
            if let expected { #expect((0..<(100 * 100 * 4)).allSatisfy { img.pixels[$0] == expected.pixels[$0] }, "\(filters)") }
        }
        #expect(CIFilter(name: "CINoSuchFilter") == nil)
    }
}
