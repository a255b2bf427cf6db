// Scene S8 `layer-storm` (../shared/bench/anchors/scenes.md) built as a real CALayer tree —
// 1000 rounded, bordered, image- or colour-filled, rotated, translucent layers at 1920×1080 —
// with animations on position, rotation and opacity, rendered frame by frame by CARenderer.
// Prints median/min ms per frame for: the animated sequence, an idle frame (nothing changes),
// frames in each of which one 100×100 layer moved (by 10 points; as many frames as the animated
// sequence, the first of which draws the new layer whole), and frames in which one 100×100 layer
// is animated (position and rotation) while the other 1000 stay put; optionally writes frame 0
// as a PNG.
// `--no-storm` skips the animated sequence (for instruction counts of the other frames).
// `--checksum` adds a hash of every animated frame's pixels (taken outside the timed part), to
// check that a change leaves the frames byte-identical.
// `--blur` adds frames of a 1920×1080 image layer with `filters = [gaussianBlur, inputRadius
// 10]` whose radius is animated (so each frame is drawn anew): the cost of a filtered layer.
// `frames`: the animated sequence's length at 60 frames per second; default 120, two seconds,
// as long as the anchor harness times Blend2D's S8 (`bench.py --target-seconds 2`).
//
//     swift build -c release --package-path Benchmarks --product layer-storm-bench
//     Benchmarks/.build/release/layer-storm-bench [frames] [--png out.png] [--no-storm] [--blur] [--checksum]
import AnchorScenes
import Compositor
import Foundation
import FrameTiming
import ImageCodecs
import QuartzCore
import Raster

let args = Array(CommandLine.arguments.dropFirst())
let frames = args.first.flatMap { Int($0) } ?? 120
let pngPath = args.firstIndex(of: "--png").flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil }
let storm = !args.contains("--no-storm")
let blur = args.contains("--blur")
let checksum = args.contains("--checksum")

let root = S8LayerStorm.layerTree(animated: true)

let renderer = try CARenderer(width: 1920, height: 1080)
renderer.layer = root
renderer.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

@MainActor func time(_ t: CFTimeInterval) -> Double { frameMilliseconds(renderer, at: t) }

_ = time(0)   // warm-up (backing stores, mipmaps)
if let pngPath { try PNGCodec.write(renderer.pixmap, to: pngPath) }
/// FNV-1a of the animated frames' words, in order.
var frameHash: UInt64 = 0xCBF2_9CE4_8422_2325
var animated: [Double] = storm ? (0..<frames).map { (k: Int) -> Double in
    let ms = time(Double(k + 1) / 60)
    if checksum {
        let pixmap = renderer.pixmap
        for i in 0..<pixmap.width * pixmap.height { frameHash = (frameHash ^ UInt64(pixmap.words[i])) &* 0x100_0000_01B3 }
    }
    return ms
} : [0]
let idleTime = Double(frames + 1) / 60
var idle = (0..<5).map { _ in time(idleTime) }   // same time again: nothing changed
root.sublayers?.forEach { $0.removeAllAnimations() }
let small = CALayer()
small.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
small.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1)
root.addSublayer(small)
var moved: [Double] = []
for k in 0..<frames {
    CATransaction.begin(); CATransaction.setDisableActions(true)
    small.position = CGPoint(x: 300 + 10 * k, y: 300)
    CATransaction.commit()
    moved.append(time(idleTime))
}
let turn = CABasicAnimation(keyPath: "transform.rotation.z")
turn.byValue = CGFloat.pi
turn.duration = 2
small.add(turn, forKey: "turn")
let slide = CABasicAnimation(keyPath: "position")
slide.byValue = CGPoint(x: 200, y: 100)
slide.duration = 2
small.add(slide, forKey: "slide")
CATransaction.flush()
var oneAnimated = (0..<frames).map { time(idleTime + Double($0 + 1) / 60) }
func stats(_ v: inout [Double]) -> String { statsJSON(&v) }
var blurred = blur ? try blurredFrames(count: min(frames, 30)) : []
let blurPart = blur ? ", \"blur_1080p_r10\": \(stats(&blurred))" : ""
let checksumPart = checksum ? ", \"checksum\": \"\(String(frameHash, radix: 16))\"" : ""
print("{\"animated\": \(stats(&animated)), \"idle\": \(stats(&idle)), \"one_layer_moved\": \(stats(&moved)), "
      + "\"one_layer_animated\": \(stats(&oneAnimated))" + blurPart + checksumPart + "}")

/// Milliseconds per frame of a 1920×1080 layer showing the scene's image, blurred with radius
/// 10 (an animation of `filters.blur.inputRadius` from 10 to 10 makes every frame a new one).
@MainActor func blurredFrames(count: Int) throws -> [Double] {
    let layer = CALayer()
    layer.frame = CGRect(x: 0, y: 0, width: 1920, height: 1080)
    layer.contents = CGImage(pixmap: S8LayerStorm().image)
    let filter = CAFilter(type: kCAFilterGaussianBlur)
    filter.name = "blur"
    filter.setValue(10, forKey: kCAFilterInputRadius)
    layer.filters = [filter]
    let hold = CABasicAnimation(keyPath: "filters.blur.inputRadius")
    hold.fromValue = 10
    hold.toValue = 10
    hold.duration = 1_000
    layer.add(hold, forKey: "hold")
    CATransaction.flush()
    let blurRenderer = try CARenderer(width: 1920, height: 1080)
    blurRenderer.layer = layer
    _ = frameMilliseconds(blurRenderer, at: 0)
    return (0..<count).map { frameMilliseconds(blurRenderer, at: Double($0 + 1) / 60) }
}
