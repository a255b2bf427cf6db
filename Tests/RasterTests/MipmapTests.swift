@testable import Raster
import Testing

/// `Pixmap.halved`, a mipmap level and a large blur's reduction, against its definition: output
/// pixel (x, y) is the 2×2 block of texels (2x, 2y) … (2x + 1, 2y + 1), a column or row past the
/// edge repeating the last one, each channel (sum + 2) / 4 — for sizes around the four-pixel
/// blocks the interior takes at once, odd and even.
struct MipmapTests {
    @Test func halvingAveragesEachTwoByTwoBlock() throws {
        var g = DifferentialTests.Generator(state: 41)
        for (width, height) in [(1, 1), (2, 1), (1, 3), (3, 3), (7, 2), (8, 5), (9, 4), (16, 16), (17, 3), (33, 7)] {
            let image = try TextureTests.image(&g, width: width, height: height, clearBorder: false)
            let half = try #require(image.halved())
            #expect(half.width == (width + 1) / 2 && half.height == (height + 1) / 2)
            var misses = 0
            for y in 0..<half.height {
                for x in 0..<half.width {
                    let texels = [(2 * x, 2 * y), (2 * x + 1, 2 * y), (2 * x, 2 * y + 1), (2 * x + 1, 2 * y + 1)].map {
                        image.words[min($0.1, height - 1) * width + min($0.0, width - 1)]
                    }
                    var expected: UInt32 = 0
                    for shift in [0, 8, 16, 24] as [UInt32] {
                        expected |= ((texels.reduce(0) { $0 + ($1 >> shift & 0xFF) } + 2) / 4) << shift
                    }
                    if half.words[y * half.width + x] != expected { misses += 1 }
                }
            }
            #expect(misses == 0, "\(width)×\(height)")
        }
    }
}
