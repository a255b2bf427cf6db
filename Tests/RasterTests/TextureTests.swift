import Foundation
@testable import Raster
import Testing

/// `Pixmap.drawTexture` against the general path it shortcuts: filling the whole pixmap with the
/// same image as a bilinear, decal pattern at the same opacity. The results must be identical,
/// pixel for pixel, for translations (whole, fractional, partly off the canvas) and for general
/// affine maps.
struct TextureTests {
    typealias Generator = DifferentialTests.Generator

    /// A random premultiplied image with a share of transparent and opaque texels, optionally
    /// with transparent outermost rows and columns (the shortcut `drawTexture` takes for those),
    /// and optionally transparent outside the ellipse inscribed in it (rows with transparent ends,
    /// as in a rotated layer's bitmap, which `TexelExtents` trims).
    static func image(_ g: inout Generator, width: Int, height: Int, clearBorder: Bool, ellipse: Bool = false) throws -> Pixmap {
        let pm = try Pixmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let border = x == 0 || y == 0 || x == width - 1 || y == height - 1
                let dx = (Double(x) + 0.5) / Double(width) - 0.5, dy = (Double(y) + 0.5) / Double(height) - 0.5
                let outside = ellipse && dx * dx + dy * dy > 0.25
                let kind = clearBorder && border || outside ? 0 : g.next() % 4
                let a = kind == 0 ? 0 : kind == 1 ? 255 : UInt8(g.next() % 256)
                func channel() -> UInt8 { UInt8(g.next() % (UInt64(a) + 1)) }
                pm.setPixel(x: x, y: y, PremultipliedColor(r: channel(), g: channel(), b: channel(), a: a))
            }
        }
        return pm
    }

    /// A layer-like image: one colour (opaque or not) over an inset rectangle or ellipse, random
    /// texels around it and a transparent margin, so that `TexelExtents` finds flat runs and a
    /// flat block, which `drawTexture` blends as one colour instead of sampling.
    static func flatImage(_ g: inout Generator, width: Int, height: Int, ellipse: Bool) throws -> Pixmap {
        let pm = try image(&g, width: width, height: height, clearBorder: true)
        let a = g.next() % 2 == 0 ? 255 : UInt8(g.next() % 255 + 1)
        func channel() -> UInt8 { UInt8(g.next() % (UInt64(a) + 1)) }
        let flat = PremultipliedColor(r: channel(), g: channel(), b: channel(), a: a)
        let inset = Int(g.next() % 4) + 1
        for y in inset..<(height - inset) {
            for x in inset..<(width - inset) {
                let dx = (Double(x) + 0.5) / Double(width) - 0.5, dy = (Double(y) + 0.5) / Double(height) - 0.5
                if !ellipse || dx * dx + dy * dy < 0.2 { pm.setPixel(x: x, y: y, flat) }
            }
        }
        return pm
    }

    /// A turned layer's bitmap as the compositor keeps it in device orientation: one colour
    /// (opaque or not) inside an ellipse, a ring of random texels two or three wide around it,
    /// transparent outside. Its rows are sampled at both ends of their flat run, at columns that
    /// move from row to row: what `TexelExtents.Strips` copies out.
    static func ringImage(_ g: inout Generator, width: Int, height: Int) throws -> Pixmap {
        let pm = try Pixmap(width: width, height: height)
        let a = g.next() % 2 == 0 ? 255 : UInt8(g.next() % 255 + 1)
        func channel(_ a: UInt8) -> UInt8 { UInt8(g.next() % (UInt64(a) + 1)) }
        let flat = PremultipliedColor(r: channel(a), g: channel(a), b: channel(a), a: a)
        let ring = Double(g.next() % 2 + 2)
        let rx = Double(width) / 2 - 1, ry = Double(height) / 2 - 1
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x) + 0.5 - Double(width) / 2, dy = Double(y) + 0.5 - Double(height) / 2
                let r = ((dx / rx) * (dx / rx) + (dy / ry) * (dy / ry)).squareRoot()
                if r >= 1 { continue }
                if r < 1 - ring / Swift.min(rx, ry) {
                    pm.setPixel(x: x, y: y, flat)
                } else {
                    let ringAlpha = UInt8(g.next() % 256)
                    pm.setPixel(x: x, y: y, PremultipliedColor(r: channel(ringAlpha), g: channel(ringAlpha), b: channel(ringAlpha), a: ringAlpha))
                }
            }
        }
        return pm
    }

    /// An opaque 61×47 gradient to composite onto.
    static func canvas() throws -> Pixmap {
        let pm = try Pixmap(width: 61, height: 47)
        for y in 0..<47 { for x in 0..<61 { pm.setPixel(x: x, y: y, PremultipliedColor(r: UInt8(x * 4), g: UInt8(y * 5), b: 90, a: 255)) } }
        return pm
    }

    /// `drawTexture` (with the border checked, with it declared as `clearBorder`, and with the
    /// image's `TexelExtents`) against the pattern fill.
    static func expectSame(_ image: Pixmap, _ transform: Transform, opacity: Float, clearBorder: Bool,
                           _ comment: Comment) throws {
        let slow = try canvas()
        let pattern = ImagePattern(image: image, transform: transform, filter: .bilinear, spread: .decal)
        slow.fill(Rect(x: 0, y: 0, width: 61, height: 47), paint: Paint(shader: .image(pattern), opacity: opacity))
        for (declared, extents) in [(nil, nil), (clearBorder, nil), (clearBorder, TexelExtents(of: image))] {
            let fast = try canvas()
            fast.drawTexture(image, transform: transform, opacity: opacity, clearBorder: declared, extents: extents)
            var differing = 0
            for i in 0..<(61 * 47) where fast.words[i] != slow.words[i] { differing += 1 }
            #expect(differing == 0, "\(comment), border \(String(describing: declared)), extents \(extents != nil)")
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    func translationsMatchThePatternFill(seed: UInt64) throws {
        var g = Generator(state: seed)
        let image = try Self.image(&g, width: Int(g.next() % 30) + 1, height: Int(g.next() % 30) + 1,
                                   clearBorder: seed % 2 == 0, ellipse: seed > 8)
        for _ in 0..<6 {
            // Offsets in 1/64 pixel (exact in binary, so both paths see the same fraction), some
            // whole, some far enough out to be clipped by the canvas.
            let tx = Double(Int(g.next() % 6400) - 1600) / 64, ty = Double(Int(g.next() % 4800) - 1600) / 64
            let whole = g.next() % 3 == 0
            let t = Transform(a: 1, b: 0, c: 0, d: 1, tx: whole ? tx.rounded() : tx, ty: whole ? ty.rounded() : ty)
            let opacity = g.next() % 2 == 0 ? 1 : Float(g.unit())
            try Self.expectSame(image, t, opacity: opacity, clearBorder: seed % 2 == 0, "seed \(seed), \(t), opacity \(opacity)")
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5])
    func affineMapsMatchThePatternFill(seed: UInt64) throws {
        var g = Generator(state: seed)
        let image = try Self.image(&g, width: Int(g.next() % 40) + 1, height: Int(g.next() % 40) + 1,
                                   clearBorder: seed % 2 == 0)
        for _ in 0..<6 {
            let angle = g.unit() * 2 * Double.pi, scale = 0.5 + g.unit() * 1.5
            let t = Transform(a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle), d: scale * cos(angle),
                              tx: g.unit() * 80 - 10, ty: g.unit() * 60 - 10)
            try Self.expectSame(image, t, opacity: Float(g.unit()), clearBorder: seed % 2 == 0, "seed \(seed), \(t)")
        }
    }

    /// Scales and quarter turns: runs that step along one image axis only (the other step is 0),
    /// so the stretch of pixels inside the image is bounded by one axis.
    @Test(arguments: [1, 2, 3, 4])
    func axisAlignedMapsMatchThePatternFill(seed: UInt64) throws {
        var g = Generator(state: seed)
        let image = try Self.image(&g, width: Int(g.next() % 40) + 2, height: Int(g.next() % 40) + 2,
                                   clearBorder: seed % 2 == 0)
        for quarter in 0..<4 {
            let sx = 0.5 + g.unit() * 1.5, sy = 0.5 + g.unit() * 1.5
            let (cosine, sine) = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][quarter]
            let t = Transform(a: sx * cosine, b: sx * sine, c: -sy * sine, d: sy * cosine,
                              tx: g.unit() * 60, ty: g.unit() * 40)
            try Self.expectSame(image, t, opacity: Float(g.unit()), clearBorder: seed % 2 == 0, "seed \(seed), \(t)")
        }
    }

    /// Scales by powers of two at quarter-pixel offsets, with and without a quarter turn: the
    /// image's edges and its flat block's edges then fall exactly on pixel centres, where
    /// `drawTexture`'s estimate of which pixels are inside leaves the pixel to the sampler's
    /// own checks.
    @Test(arguments: [1, 2, 3, 4])
    func edgesOnPixelCentresMatchThePatternFill(seed: UInt64) throws {
        var g = Generator(state: seed)
        let image = try Self.flatImage(&g, width: Int(g.next() % 20) + 12, height: Int(g.next() % 20) + 12, ellipse: false)
        for (k, scale) in [0.5, 2, 1, 4].enumerated() {
            let turned = k % 2 == 1
            let tx = Double(Int(g.next() % 160)) / 4, ty = Double(Int(g.next() % 120)) / 4
            let t = Transform(a: turned ? 0 : scale, b: turned ? scale : 0, c: turned ? -scale : 0, d: turned ? 0 : -scale,
                              tx: tx + (turned ? 30 : 0), ty: ty + 30)
            try Self.expectSame(image, t, opacity: k == 0 ? 1 : Float(g.unit()), clearBorder: true, "seed \(seed), \(t)")
            try Self.expectSame(try Self.image(&g, width: 9, height: 7, clearBorder: false), t, opacity: 1, clearBorder: false,
                                "seed \(seed), \(t), no clear border")
        }
    }

    /// Images with a flat interior, translated (by fractions and whole pixels) and turned: the
    /// flat runs and block blended as one colour give the same pixels as sampling them.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func flatInteriorsMatchThePatternFill(seed: UInt64) throws {
        var g = Generator(state: seed)
        let image = try Self.flatImage(&g, width: Int(g.next() % 30) + 12, height: Int(g.next() % 30) + 12, ellipse: seed % 2 == 0)
        for k in 0..<8 {
            let t: Transform
            if k < 4 {
                let tx = Double(Int(g.next() % 3200) - 800) / 64, ty = Double(Int(g.next() % 2400) - 800) / 64
                t = Transform(a: 1, b: 0, c: 0, d: 1, tx: k == 0 ? tx.rounded() : tx, ty: k == 0 ? ty.rounded() : ty)
            } else {
                let angle = g.unit() * 2 * Double.pi, scale = 0.5 + g.unit() * 1.5
                t = Transform(a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle), d: scale * cos(angle),
                              tx: g.unit() * 60, ty: g.unit() * 40)
            }
            let opacity = k % 2 == 0 ? 1 : Float(g.unit())
            try Self.expectSame(image, t, opacity: opacity, clearBorder: true, "seed \(seed), \(t), opacity \(opacity)")
        }
    }

    /// Rings around a flat interior (`ringImage`), translated by fractions and whole pixels,
    /// partly off the canvas (a row clipped inside its flat run reads the image, not the
    /// strips): the same pixels as the pattern fill, the sampled texels read from the copies in
    /// the extents' strips. An image without flat runs has none.
    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func ringsReadFromStripsMatchThePatternFill(seed: UInt64) throws {
        var g = Generator(state: seed)
        let image = try Self.ringImage(&g, width: Int(g.next() % 20) + 80, height: Int(g.next() % 14) + 40)
        #expect(TexelExtents(of: image).strips != nil)
        #expect(TexelExtents(of: try Self.image(&g, width: 40, height: 30, clearBorder: true)).strips == nil)
        for k in 0..<8 {
            let tx = Double(Int(g.next() % 4800) - 2400) / 64, ty = Double(Int(g.next() % 3600) - 1800) / 64
            let t = Transform(a: 1, b: 0, c: 0, d: 1, tx: k == 0 ? tx.rounded() : tx, ty: k == 0 ? ty.rounded() : ty)
            let opacity = k % 2 == 0 ? 1 : Float(g.unit())
            try Self.expectSame(image, t, opacity: opacity, clearBorder: true, "seed \(seed), \(t), opacity \(opacity)")
        }
    }

    /// Images that are one rectangle of one colour on transparent (a layer's background; their
    /// `TexelExtents.solidRectangle`), opaque or not, at whole-pixel offsets — inside the
    /// canvas, partly off it, and covering it whole (one fill when opaque) — and at a fraction:
    /// the same pixels as the pattern fill.
    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func solidRectanglesMatchThePatternFill(seed: UInt64) throws {
        var g = Generator(state: seed)
        let (w, h) = (Int(g.next() % 40) + 70, Int(g.next() % 40) + 55)
        let image = try Pixmap(width: w, height: h)
        let a = seed % 2 == 0 ? 255 : UInt8(g.next() % 254 + 1)
        func channel() -> UInt8 { UInt8(g.next() % (UInt64(a) + 1)) }
        image.fill(with: .transparent)
        let color = PremultipliedColor(r: channel(), g: channel(), b: channel(), a: a)
        for y in 1..<(h - 1) { for x in 1..<(w - 1) { image.setPixel(x: x, y: y, color) } }
        #expect(TexelExtents(of: image).solidRectangle != nil)
        let offsets: [(Double, Double)] = [(-1, -1), (-3, -2), (5, 4), (-40, 20), (Double(Int(g.next() % 20)) + 0.25, -2)]
        for (tx, ty) in offsets {
            for opacity in [1, Float(g.unit())] {
                try Self.expectSame(image, Transform(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty), opacity: opacity, clearBorder: true,
                                    "seed \(seed), at (\(tx), \(ty)), opacity \(opacity)")
            }
        }
    }

    /// A group surface composited at its place (nearest filtering, integer translation, a
    /// pixel-aligned rectangle inside the image, opacity 150/255: the spans blended straight from
    /// the image's words) against source-over worked out per channel: s' = round(s·150/255),
    /// d' = s' + round(d·(255 − s'ₐ)/255) (x/255 never ties, 255 being odd). Rows longer than a
    /// 256-pixel chunk included.
    @Test func groupCompositeIsSourceOverWithOpacity() throws {
        var g = Generator(state: 77)
        let group = try Self.image(&g, width: 300, height: 9, clearBorder: false)
        let canvas = try Self.image(&g, width: 310, height: 12, clearBorder: false)
        let before = (0..<12).flatMap { y in (0..<310).map { canvas.pixel(x: $0, y: y) } }
        let at = Transform(a: 1, b: 0, c: 0, d: 1, tx: 4, ty: 2)
        let paint = Paint(shader: .image(ImagePattern(image: group, transform: at, filter: .nearest, spread: .decal)),
                          opacity: Float(150) / 255)
        canvas.fill(Rect(x: 5, y: 3, width: 298, height: 7), paint: paint)
        func rounded(_ x: Int) -> Int { Int((Double(x) / 255).rounded()) }
        var wrong = 0
        for y in 0..<12 {
            for x in 0..<310 {
                let d = before[y * 310 + x]
                var expected = d
                if x >= 5, x < 303, y >= 3, y < 10 {
                    let s = group.pixel(x: x - 4, y: y - 2)
                    let sa = rounded(Int(s.a) * 150)
                    func channel(_ s: UInt8, _ d: UInt8) -> UInt8 { UInt8(rounded(Int(s) * 150) + rounded(Int(d) * (255 - sa))) }
                    expected = PremultipliedColor(r: channel(s.r, d.r), g: channel(s.g, d.g), b: channel(s.b, d.b), a: channel(s.a, d.a))
                }
                if canvas.pixel(x: x, y: y) != expected { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }

    /// `Pixmap.prefetchStep`: from one prefetch point to the next the quads' rows move down by at
    /// most one (|dfv|·(step − 1) ≤ 1 row in 32.32 fixed point), so the point's three rows hold
    /// them; the step is 2 at half a row a pixel or more and at most 8, whatever the sign.
    @Test func prefetchStepKeepsQuadsInThePointsRows() {
        let one = Int64(1) << 32
        let slopes: [Int64] = [0, 1, one / 100, one / 8, one / 7, one / 7 + 1, one / 5, one / 3, one / 2 - 1, one / 2, one,
                               3 * one, Int64.max, Int64.min + 1, Int64.min]
        for dfv in slopes + slopes.map({ $0 == .min ? 0 : -$0 }) {
            let step = Pixmap.prefetchStep(dfv)
            #expect((2...8).contains(step), "dfv \(dfv)")
            if dfv.magnitude >= UInt64(one) / 2 { #expect(step == 2, "dfv \(dfv)") }
            #expect(dfv.magnitude.multipliedReportingOverflow(by: UInt64(step - 1)).partialValue <= UInt64(one) || step == 2,
                    "dfv \(dfv), step \(step)")
        }
    }
}
