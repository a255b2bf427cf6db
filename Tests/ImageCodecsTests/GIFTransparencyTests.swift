import ImageCodecs
import Raster
import Testing

/// Alpha: threshold to the transparent index, matte compositing, and areas that turn
/// transparent again (disposal). Decoded by Pillow; expected values in closed form.
///
/// Pillow shows later frames with transparency only when the first frame has a transparent
/// index (it decodes an opaque first frame in RGB mode), so the animations here start with
/// some transparent pixels.
@Suite(.serialized)
struct GIFTransparencyTests {
    static let rate = FrameRate(frames: 10, seconds: 1)!

    /// Premultiplied pixels with alphas around the threshold: alpha < t is transparent, the
    /// rest opaque with `round(c·255/a)` (at most 255 colours, so the palette is exact).
    static func alphaRamp() throws -> Pixmap {
        let alphas: [Int] = [0, 1, 60, 127, 128, 129, 200, 254, 255]
        let straight: [(Int, Int, Int)] = [(255, 0, 0), (10, 200, 90), (128, 128, 128), (0, 0, 255), (250, 250, 10)]
        let p = try Pixmap(width: alphas.count, height: straight.count)
        for (y, s) in straight.enumerated() {
            for (x, a) in alphas.enumerated() {
                func pm(_ c: Int) -> UInt8 { UInt8((c * a + 127) / 255) }
                p.setPixel(x: x, y: y, PremultipliedColor(r: pm(s.0), g: pm(s.1), b: pm(s.2), a: UInt8(a)))
            }
        }
        return p
    }

    @Test(arguments: [UInt8(128), 1, 200, 255])
    func thresholdCutsAlpha(threshold: UInt8) throws {
        let ramp = try Self.alphaRamp()
        let second = try Pixmap(width: ramp.width, height: ramp.height)
        second.pixels.update(from: ramp.pixels, count: ramp.bytesPerRow * ramp.height)
        second.setPixel(x: 8, y: 0, PremultipliedColor(r: 0, g: 0, b: 0, a: 255))
        let frames = [ramp, second]
        let decoded = try GIFTesting.roundTrip(frames, rate: Self.rate, options: GIFOptions(alpha: .threshold(threshold)))
        #expect(decoded.frames.count == 2)
        for (k, frame) in decoded.frames.enumerated() {
            #expect(GIFTesting.maxDifference(frame, frames[k], threshold: threshold) == 0, "frame \(k)")
        }
    }

    /// `threshold(0)` keeps every pixel opaque; a fully transparent one becomes black.
    @Test func thresholdZeroIsOpaque() throws {
        let ramp = try Self.alphaRamp()
        let decoded = try GIFTesting.roundTrip([ramp], rate: Self.rate, options: GIFOptions(alpha: .threshold(0)))
        #expect(GIFTesting.maxDifference(decoded.frames[0], ramp, threshold: 0) == 0)
        #expect(Array(decoded.frames[0].rgba[0..<4]) == [0, 0, 0, 255])
    }

    /// Matte: every pixel opaque, `c + round(m·(255 − a)/255)` per channel on premultiplied c.
    @Test func matteCompositesOverTheColour() throws {
        let ramp = try Self.alphaRamp()
        let matte = (r: 10, g: 200, b: 60)
        let decoded = try GIFTesting.roundTrip([ramp], rate: Self.rate,
                                               options: GIFOptions(alpha: .matte(red: 10, green: 200, blue: 60)))
        let rgba = decoded.frames[0].rgba
        var wrong = 0
        for i in 0..<(ramp.width * ramp.height) {
            let a = Int(ramp.pixels[4 * i + 3])
            let m = [matte.r, matte.g, matte.b]
            for k in 0..<3 {
                let want = min(255, Int(ramp.pixels[4 * i + k]) + Int((Double(m[k] * (255 - a)) / 255).rounded()))
                if Int(rgba[4 * i + k]) != want { wrong += 1 }
            }
            if rgba[4 * i + 3] != 255 { wrong += 1 }
        }
        #expect(wrong == 0)
        let blocks = try GIFBlocks.parse(try GIFTesting.encode([ramp], rate: Self.rate,
                                                              options: GIFOptions(alpha: .matte(red: 10, green: 200, blue: 60))))
        #expect(blocks.frames[0].transparentIndex == nil)
    }

    /// Opaque areas that turn transparent: frame 0 is half transparent, half blue; frame 1 cuts
    /// a hole in the blue and draws a green square on the left; frame 2 clears everything but
    /// one red pixel; frame 3 is frame 0 again. Each frame decodes exactly, and each frame
    /// followed by pixels turning transparent carries disposal 2 over a rectangle covering them.
    @Test func opaqueAreasTurnTransparentAgain() throws {
        let blue = PremultipliedColor(r: 20, g: 40, b: 220, a: 255)
        let green = PremultipliedColor(r: 30, g: 200, b: 60, a: 255)
        let red = PremultipliedColor(r: 240, g: 10, b: 10, a: 255)
        func frame(_ paint: (Int, Int) -> PremultipliedColor?) throws -> Pixmap {
            let p = try Pixmap(width: 24, height: 16)
            for y in 0..<16 { for x in 0..<24 { if let c = paint(x, y) { p.setPixel(x: x, y: y, c) } } }
            return p
        }
        let f0 = try frame { x, _ in x >= 12 ? blue : nil }
        let f1 = try frame { x, y in
            if x >= 12 { return (14..<20).contains(x) && (4..<12).contains(y) ? nil : blue }
            return (2..<8).contains(x) && (2..<8).contains(y) ? green : nil
        }
        let f2 = try frame { x, y in x == 5 && y == 5 ? red : nil }
        let f3 = try frame { x, _ in x >= 12 ? blue : nil }
        let frames = [f0, f1, f2, f3]
        for dithering in [GIFDithering.none, .ordered] {
            let bytes = try GIFTesting.encode(frames, rate: Self.rate, options: GIFOptions(dithering: dithering))
            let decoded = try GIFTesting.decode(bytes)
            #expect(decoded.frames.count == 4)
            for (k, f) in decoded.frames.enumerated() {
                #expect(GIFTesting.maxDifference(f, frames[k]) == 0, "frame \(k)")
            }
            let blocks = try GIFBlocks.parse(bytes)
            #expect(blocks.frames.map(\.disposal) == [2, 2, 2, 1])
            // Frame 0's rectangle is the canvas; frame 1's covers what frame 2 clears (the blue
            // half and the green square: x 2…23, y 0…15).
            let f = blocks.frames[1]
            #expect(f.x <= 2 && f.x + f.width >= 24 && f.y == 0 && f.height == 16)
            #expect(blocks.frames.allSatisfy { $0.transparentIndex != nil })
        }
    }

    /// A sprite moving over a transparent canvas: each frame clears the sprite's old place.
    @Test func spriteOverTransparency() throws {
        let frames = try (0..<6).map { k -> Pixmap in
            let p = try Pixmap(width: 40, height: 20)
            for y in 4..<12 { for x in (3 * k)..<(3 * k + 8) { p.setPixel(x: x, y: y, PremultipliedColor(r: 200, g: 100, b: 0, a: 255)) } }
            // A soft edge: alpha 100 (transparent at the default threshold) and 180 (opaque).
            p.setPixel(x: 3 * k + 8, y: 6, PremultipliedColor(r: 78, g: 39, b: 0, a: 100))
            p.setPixel(x: 3 * k + 8, y: 7, PremultipliedColor(r: 141, g: 71, b: 0, a: 180))
            return p
        }
        let decoded = try GIFTesting.roundTrip(frames, rate: Self.rate, options: GIFOptions())
        #expect(decoded.frames.count == 6)
        for (k, f) in decoded.frames.enumerated() { #expect(GIFTesting.maxDifference(f, frames[k]) == 0, "frame \(k)") }
    }
}
