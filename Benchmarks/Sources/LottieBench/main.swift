// Citrine's side of scripts/bench-lottie: each Lottie file imported (`LottieAnimation.filepath(_:)`:
// reading the file, JSON parsing, the checked model and one build of the layer tree; image files
// are found beside the animation) and rendered by one
// CARenderer at SIZE×SIZE pixels (the composition scaled to fit, as `scale`), frame by frame on
// one thread. Prints one JSON object per file: median and minimum milliseconds of the import and
// of a frame (a frame: evaluating the layer tree's keyframe animations at that frame and
// drawing it; the renderer's default reuse of layer bitmaps between frames is left on, as a
// window's playback runs). `--raw OUT` writes every frame's pixels (premultiplied RGBA rows, the
// warm-up frame first) one after another to OUT, to compare two builds' frames with `cmp`.
//
//     lottie-bench [--size 512] [--frames 60] [--imports 5] [--raw OUT] FILE.json…
import Compositor
import FrameTiming
import Foundation
import Lottie
import QuartzCore

var args = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String, _ fallback: Int) -> Int {
    guard let i = args.firstIndex(of: name), i + 1 < args.count, let v = Int(args[i + 1]) else { return fallback }
    args.removeSubrange(i...(i + 1))
    return v
}
let size = option("--size", 512), frames = option("--frames", 60), imports = option("--imports", 5)
let rawOut: FileHandle? = {
    guard let i = args.firstIndex(of: "--raw"), i + 1 < args.count else { return nil }
    let path = args[i + 1]
    args.removeSubrange(i...(i + 1))
    guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
        FileHandle.standardError.write(Data("lottie-bench: cannot write \(path)\n".utf8))
        exit(1)
    }
    return handle
}()

func median(_ xs: [Double]) -> (median: Double, min: Double) {
    let s = xs.sorted()
    return (s[s.count / 2], s[0])
}

for file in args {
    guard let data = FileManager.default.contents(atPath: file) else {
        FileHandle.standardError.write(Data("lottie-bench: cannot read \(file)\n".utf8))
        exit(1)
    }
    var importTimes: [Double] = []
    var animation: LottieAnimation?
    for _ in 0..<max(imports, 1) {
        let start = DispatchTime.now().uptimeNanoseconds
        animation = LottieAnimation.filepath(file)
        importTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    guard let animation else {
        // The same import again, for its error.
        do { _ = try LottieAnimation.from(data: data) } catch { FileHandle.standardError.write(Data("lottie-bench: \(file): \(error)\n".utf8)) }
        exit(1)
    }
    let layer = LottieAnimationLayer(animation: animation)
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    layer.anchorPoint = .zero
    layer.position = .zero
    CATransaction.commit()
    let side = max(animation.size.width, animation.size.height)
    let renderer = try CARenderer(width: Int(animation.size.width), height: Int(animation.size.height),
                                  scale: CGFloat(size) / side)
    renderer.layer = layer
    var frameTimes: [Double] = []
    for i in 0...frames {
        // Whole frames spread over [startFrame, endFrame), as the other engines draw them; the
        // first (i = 0) is a warm-up, not counted.
        let f = animation.startFrame + ((animation.endFrame - animation.startFrame) * CGFloat(max(i - 1, 0)) / CGFloat(frames)).rounded(.down)
        layer.currentFrame = f
        CATransaction.flush()
        let ms = frameMilliseconds(renderer, at: Double(i))
        if i > 0 { frameTimes.append(ms) }
        if let rawOut {
            let frame = renderer.pixmap
            rawOut.write(Data(bytes: frame.pixels, count: frame.height * frame.bytesPerRow))
        }
    }
    let (im, imMin) = median(importTimes), (fm, fmMin) = median(frameTimes)
    let name = (file as NSString).lastPathComponent
    print(String(format: "{\"file\": \"%@\", \"bytes\": %d, \"import_ms\": %.3f, \"import_min_ms\": %.3f, \"frame_ms\": %.3f, \"frame_min_ms\": %.3f, \"frames\": %d}",
                 name, data.count, im, imMin, fm, fmMin, frameTimes.count))
}
