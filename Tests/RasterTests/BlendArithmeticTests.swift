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
}
