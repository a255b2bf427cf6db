import Demos
import Foundation
import ImageCodecs
import QuartzCore
import Raster
import Testing

/// Regression guard for the renderer on the layer-only scenes (`LayerDemo`): each scene's key frame (half-way through its strip, 1×)
/// against a golden PNG that was looked at when committed (Goldens/). Not evidence of
/// correctness — the behaviour tests are — but a change in any demo's picture shows up here.
/// Tolerance: mean absolute difference ≤ 0.5 / 255 per channel and no channel off by more than 32.
/// Set CITRINE_RECORD_GOLDENS=1 to rewrite the goldens (then look at them before committing).
@Suite(.serialized) struct GoldenTests {
    static let folder = String(#filePath.prefix(upTo: #filePath.lastIndex(of: "/")!)) + "/Goldens"

    /// Every layer-only scene.
    static let scenes = LayerDemo.all + ParticleDemos.demos + FilterDemos.demos + DepthDemos.demos

    @Test(arguments: scenes.map(\.name))
    func keyFrameMatchesGolden(_ name: String) throws {
        let demo = try #require(Self.scenes.first { $0.name == name })
        let root = LayerDemo.start(demo)
        let image = try LayerDemo.frame(demo, root: root, at: demo.span / 2, scale: 1)
        let path = "\(Self.folder)/\(name).png"
        if ProcessInfo.processInfo.environment["CITRINE_RECORD_GOLDENS"] == "1" {
            try PNGCodec.write(image.pixmap, to: path)
            return
        }
        let golden = try PNGCodec.decode(contentsOf: path)
        #expect(golden.width == image.width && golden.height == image.height)
        var sum = 0, worst = 0
        for i in 0..<(golden.width * golden.height * 4) {
            let d = abs(Int(golden.pixels[i]) - Int(image.pixmap.pixels[i]))
            sum += d
            worst = max(worst, d)
        }
        let mean = Double(sum) / Double(golden.width * golden.height * 4)
        #expect(mean <= 0.5 && worst <= 32, "\(name): mean \(mean), max \(worst)")
    }
}
