import UIKit
import Demos
import Foundation
import ImageCodecs
import Testing

@Suite(.serialized) struct SeedRenderTests {
    /// Plays each demo's default timeline at 10 fps and renders three of its frames (the third,
    /// the middle and the last): the views draw, with something besides the background.
    @Test(arguments: SeedDemo.all.map(\.name))
    func playsAndRenders(_ name: String) throws {
        let demo = try #require(SeedDemo.named(name))
        let frames = Int((demo.span * 10).rounded()) + 1
        var index = 0
        var drawn: [Int] = []
        try demo.play(framesPerSecond: 10) { window, t in
            defer { index += 1 }
            guard [2, frames / 2, frames - 1].contains(index) else { return }
            let image = try CARenderer.image(of: window.layer, size: demo.size, at: t, scale: 1, background: Gallery.background)
            #expect(image.width == Int(demo.size.width) && image.height == Int(demo.size.height))
            let pixels = image.pixmap.pixels
            var differing = 0
            for i in stride(from: 0, to: image.width * image.height * 4, by: 4)
                where pixels[i] != pixels[0] || pixels[i + 1] != pixels[1] || pixels[i + 2] != pixels[2] { differing += 1 }
            drawn.append(differing)
            if let folder = ProcessInfo.processInfo.environment["CITRINE_SEED_DUMP"] {
                try PNGCodec.write(image.pixmap, to: "\(folder)/\(name)-\(index).png")
            }
        }
        #expect(index == frames)
        if name == SeedDemo.stickyBubble.name {
            // The bubble broke off at the end of the second drag: the last frame is empty.
            #expect(drawn.count == 3 && drawn[0] > 50 && drawn[1] > 50 && drawn[2] == 0, "\(drawn)")
        } else {
            #expect(drawn.count == 3 && drawn.allSatisfy { $0 > 50 }, "\(name) draws something: \(drawn)")
        }
    }
}
