import AnchorScenes
import ImageCodecs
import Raster
import Testing

/// "Correctness evidence": each scene rendered by Citrine against Skia's frame of the
/// same scene (Fixtures/, written by the anchor harness; see Fixtures/README.md). The bound is
/// the agreement the anchor engines have with each other: mean absolute difference ≤ 0.6 / 255
/// over all RGBA channels and ≤ 4 % of pixels with a channel off by more than 8.
struct SkiaAgreementTests {
    static let fixtures = String(#filePath.prefix(upTo: #filePath.lastIndex(of: "/")!)) + "/Fixtures"

    struct Difference: CustomStringConvertible {
        var meanAbsolute: Double
        var percentOver8: Double
        var description: String { "mean |d| \(meanAbsolute), \(percentOver8) % of pixels off by > 8" }
    }

    static func difference(_ a: Pixmap, _ b: Pixmap) -> Difference {
        var sum = 0, over = 0
        for i in 0..<a.width * a.height {
            var worst = 0
            for k in 0..<4 {
                let d = abs(Int(a.pixels[4 * i + k]) - Int(b.pixels[4 * i + k]))
                sum += d
                worst = max(worst, d)
            }
            if worst > 8 { over += 1 }
        }
        let pixels = Double(a.width * a.height)
        return Difference(meanAbsolute: Double(sum) / (4 * pixels), percentOver8: Double(over) * 100 / pixels)
    }

    /// The measured values of each run are in BENCHMARKS.md ("Pixel agreement with Skia").
    /// (S8 has no committed fixture; scripts/bench compares it with Skia's frame.)
    @Test(arguments: ["S1", "S2", "S3", "S4", "S5", "S6", "S7"])
    func matchesSkia(_ name: String) throws {
        let scene = try #require(AnchorSceneCatalog.make(name))
        let reference = try PNGCodec.decode(contentsOf: "\(Self.fixtures)/\(name)-\(type(of: scene).title)-skia.png")
        #expect(reference.width == scene.width && reference.height == scene.height)
        let frame = try Pixmap(width: scene.width, height: scene.height)
        scene.render(frame: scene.framesPerCycle - 1, into: frame)  // the harness's reference frame
        let d = Self.difference(frame, reference)
        #expect(d.meanAbsolute <= 0.6 && d.percentOver8 <= 4, "\(name): \(d)")
    }
}
