@testable import Raster
import Testing

/// The 16-bit-lane arithmetic of `PaintBlitter.scale4` against the exactly rounded c·f/255 of
/// every channel value c and factor f. (c·f/255 is never halfway between integers: 255 is odd.)
struct BlendArithmeticTests {
    @Test func scale4RoundsEveryProductToNearest() {
        var mismatches = 0
        for f in UInt32(0)...255 {
            for c in UInt32(0)...255 {
                // R = c, G = 255 − c, B = c / 2, A = 255 − c / 2: every byte position sees many values.
                let word = c | (255 - c) << 8 | (c / 2) << 16 | (255 - c / 2) << 24
                let scaled = PaintBlitter.scale4(SIMD4(repeating: word), SIMD4(repeating: f))[0]
                for shift in stride(from: UInt32(0), to: 32, by: 8) {
                    let channel = Double((word >> shift) & 0xFF)
                    let expected = UInt32((channel * Double(f) / 255).rounded())
                    if (scaled >> shift) & 0xFF != expected { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// Copy (Porter-Duff R = S) at full coverage gives the source word itself, whatever the
    /// destination: the general blend's float lerp d + (s − d)·1, computed here for every pair of
    /// channel values and rounded as `packed` rounds, lands back on every source channel, so its
    /// shortcut (the source, colours clamped to alpha) changes no pixel.
    @Test func copyAtFullCoverageIsTheSource() {
        var floatMisses = 0, blendMisses = 0
        for sc in UInt32(0)...255 {
            for dc in UInt32(0)...255 {
                let s = Float(sc) / 255, d = Float(dc) / 255
                let v = d + (s - d) * (Float(255) / 255)
                if UInt32(Swift.min(Swift.max(v, 0), 1) * 255 + 0.5) != sc { floatMisses += 1 }
                // The channel value in every byte position (alpha 255 above it), and as alpha.
                let source = sc | sc << 8 | sc << 16 | 0xFF00_0000, destination = dc | (255 - dc) << 8 | dc << 16 | dc << 24
                if BlendMode.copy.blend(source: source, destination: destination, factor: 255) != source { blendMisses += 1 }
                if BlendMode.copy.blend(source: sc << 24, destination: destination, factor: 255) != sc << 24 { blendMisses += 1 }
            }
        }
        #expect(floatMisses == 0)
        #expect(blendMisses == 0)
        // Colours above alpha (not premultiplied) are clamped to it, as `packed` clamps them.
        #expect(BlendMode.copy.blend(source: 0x80FF_4020, destination: 0, factor: 255) == 0x8080_4020)
    }

    /// A pixmap drawn with copy through a clip (a backdrop filter's write-back): every pixel is
    /// the per-pixel blend at the clip's factor — the source where it is 255, the destination
    /// where it is 0, the lerp between — whether its four-pixel block is whole (all 255), empty or
    /// mixed; widths around the blocks, at opacity 1 and below.
    @Test func copyThroughAClipIsEachPixelsBlend() throws {
        var g = DifferentialTests.Generator(state: 57)
        for width in [1, 3, 4, 5, 8, 13, 31] {
            let source = try TextureTests.image(&g, width: width, height: 6, clearBorder: false)
            let canvas = try TextureTests.image(&g, width: width, height: 6, clearBorder: false)
            let clip = try Mask(width: width, height: 6)
            for i in 0..<width * 6 { clip.data[i] = [0, 255, 255, 255, UInt8(g.next() % 256)][Int(g.next() % 5)] }
            for opacity: Float in [1, 0.6] {
                let drawn = try Pixmap(width: width, height: 6)
                drawn.words.update(from: canvas.words, count: width * 6)
                drawn.draw(source, atX: 0, y: 0, opacity: opacity, blendMode: .copy, clip: clip)
                let f = Pixmap.opacityFactor(opacity)
                let misses = (0..<width * 6).filter { i in
                    let factor = PaintBlitter.div255(PaintBlitter.div255(UInt32(clip.data[i]) * 255) * f)
                    return drawn.words[i] != BlendMode.copy.blend(source: source.words[i], destination: canvas.words[i], factor: factor)
                }.count
                #expect(misses == 0, "width \(width), opacity \(opacity)")
            }
        }
    }

    /// Destination-in and -out of a whole pixmap (a mask applied to its group; a matte's
    /// cut-out), four pixels at a time and the rest one by one (widths 1…9), at several
    /// opacities: every channel c becomes round(c·k/255) with k = 255 − round(s·f/255) for
    /// destination-out and 255 − round((255 − s)·f/255) for destination-in, s the source's alpha
    /// and f the opacity factor — the Porter-Duff d·(1 − s) and d·s with each product rounded.
    @Test func destinationInAndOutScaleEveryChannelByTheSourceAlpha() throws {
        func rounded(_ x: UInt32) -> UInt32 { UInt32((Double(x) / 255).rounded()) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt32 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: state >> 33)
        }
        /// A premultiplied word: alpha first, each colour channel at most alpha.
        func premultiplied() -> UInt32 {
            let a = next() % 4 == 0 ? [0, 255][Int(next() % 2)] : next() % 256
            var word = a << 24
            for shift in [0, 8, 16] as [UInt32] { word |= (a == 0 ? 0 : next() % (a + 1)) << shift }
            return word
        }
        for width in 1...9 {
            for (mode, opacity) in [(BlendMode.destinationIn, Float(1)), (.destinationIn, 0.4), (.destinationOut, 1), (.destinationOut, 0.7)] {
                let dst = try Pixmap(width: width, height: 3), src = try Pixmap(width: width, height: 3)
                for i in 0..<(width * 3) { dst.words[i] = premultiplied(); src.words[i] = premultiplied() }
                let before = Array(UnsafeBufferPointer(start: dst.words, count: width * 3))
                dst.draw(src, atX: 0, y: 0, opacity: opacity, blendMode: mode)
                let f = UInt32((opacity * 255).rounded())
                for i in 0..<(width * 3) {
                    let s = src.words[i] >> 24
                    let k = mode == .destinationOut ? 255 - rounded(s * f) : 255 - rounded((255 - s) * f)
                    var expected: UInt32 = 0
                    for shift in stride(from: UInt32(0), to: 32, by: 8) { expected |= rounded(((before[i] >> shift) & 0xFF) * k) << shift }
                    #expect(dst.words[i] == expected, "\(mode) width \(width) opacity \(opacity) pixel \(i)")
                }
            }
        }
    }
}
