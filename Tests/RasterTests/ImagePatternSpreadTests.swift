@testable import Raster
import Testing

/// Bilinear image patterns past the image's edges, against each spread mode worked out pixel by
/// pixel here. Under a translation by (tx, ty), pixel (x, y) samples image position
/// (x + ½ − tx, y + ½ − ty); texel (i, j) sits at (i + ½, j + ½), so the pixel's quad starts at
/// texel (⌊x − tx⌋, ⌊y − ty⌋) and its weights are the fractions × 256 (offsets in sixteenths:
/// exact). Each texel index maps into the image as Core Graphics' and Skia's tile modes do —
/// pad clamps to the edge, repeat wraps, reflect mirrors at each end, decal is transparent
/// outside — and each channel is Σ texel · weight over the quad, rounded once: (Σ + 2¹⁵) >> 16
/// (`ImageSampler.weigh`: the four weights sum to 65 536). Drawn onto a transparent canvas, so
/// the pixel is the sample itself.
struct ImagePatternSpreadTests {
    /// Index i of a side of n texels under `spread`; nil outside for decal.
    static func mapped(_ i: Int, _ n: Int, _ spread: SpreadMode) -> Int? {
        switch spread {
        case .decal: return i >= 0 && i < n ? i : nil
        case .pad: return min(max(i, 0), n - 1)
        case .repeat: return ((i % n) + n) % n
        case .reflect:
            let k = ((i % (2 * n)) + 2 * n) % (2 * n)
            return k < n ? k : 2 * n - 1 - k
        }
    }

    @Test(arguments: [SpreadMode.decal, .pad, .repeat, .reflect])
    func bilinearSamplesPastTheEdgesFollowTheSpreadMode(_ spread: SpreadMode) throws {
        var g = DifferentialTests.Generator(state: 23)
        let (w, h) = (5, 3)
        let image = try Pixmap(width: w, height: h)
        var texels = [UInt32]()
        for i in 0..<(w * h) {
            let a = UInt32(g.next() % 256)
            let word = a << 24 | UInt32(g.next() % UInt64(a + 1)) << 16 | UInt32(g.next() % UInt64(a + 1)) << 8
                | UInt32(g.next() % UInt64(a + 1))
            image.words[i] = word
            texels.append(word)
        }
        let (width, height) = (24, 16)
        for (tx, ty) in [(3.25, 2.75), (-1.5, 4.125), (7.0625, -2.5), (11.0, 6.0)] {
            let canvas = try Pixmap(width: width, height: height)
            let pattern = ImagePattern(image: image, transform: Transform(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty),
                                       filter: .bilinear, spread: spread)
            canvas.fill(Rect(x: 0, y: 0, width: Double(width), height: Double(height)), paint: Paint(shader: .image(pattern)))
            var differing = 0
            for y in 0..<height {
                for x in 0..<width {
                    let u = Double(x) - tx, v = Double(y) - ty
                    let i = Int(u.rounded(.down)), j = Int(v.rounded(.down))
                    let wx = UInt32((u - u.rounded(.down)) * 256), wy = UInt32((v - v.rounded(.down)) * 256)
                    let quad: [(Int, Int, UInt32)] = [(i, j, (256 - wx) * (256 - wy)), (i + 1, j, wx * (256 - wy)),
                                                      (i, j + 1, (256 - wx) * wy), (i + 1, j + 1, wx * wy)]
                    var expected: UInt32 = 0
                    for shift: UInt32 in [0, 8, 16, 24] {
                        var sum: UInt32 = 0
                        for (column, row, weight) in quad {
                            guard let c = Self.mapped(column, w, spread), let r = Self.mapped(row, h, spread) else { continue }
                            sum += (texels[r * w + c] >> shift & 0xFF) * weight
                        }
                        expected |= ((sum + 32768) >> 16) << shift
                    }
                    if canvas.words[y * width + x] != expected { differing += 1 }
                }
            }
            #expect(differing == 0, "\(spread), offset (\(tx), \(ty))")
        }
    }
}
