// anchor-bench — times Citrine on the anchor scenes the way ../shared/bench/anchors/bench.py
// times the anchor engines (scenes.md §5): the scene (paths, paints, images) is built before
// timing; every frame clears the canvas to opaque white and draws everything, single-threaded;
// warm-up ≥ 0.3 s, ≥ 3 frames and ≥ one full cycle; then N frames timed one by one, N chosen so
// the timed part lasts ≈ --target-seconds (≥ 5, rounded up to whole cycles).
//
// Usage: anchor-bench [--scene S1,S2,…|all] [--target-seconds 2] [--frames N] [--json FILE] [--png-dir DIR]
//                     [--kernels swift|avx2|avx512]
// --kernels picks Raster's pixel loops (default: the widest the processor runs): to compare them
// in one binary (the pixels are the same).
// Prints one line per scene and, with --json, writes {"engine": "citrine", "results": [...]}.
// --frames N renders exactly frames 0 ..< N with no warm-up (for instruction counts under
// callgrind: I(N) − I(1) is the cost of N − 1 frames without the set-up).
import AnchorScenes
import ImageCodecs
import Raster
#if canImport(Glibc)
import Glibc
#endif

struct Options {
    var scenes = AnchorSceneCatalog.names
    var targetSeconds = 2.0
    /// Exactly this many frames, no warm-up (nil: the harness's timing).
    var frames: Int?
    var jsonPath: String?
    var pngFolder: String?

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { Options.fail("missing value after \(flag)") }
            switch flag {
            case "--scene": scenes = value == "all" ? AnchorSceneCatalog.names : value.split(separator: ",").map { $0.uppercased() }
            case "--target-seconds":
                guard let seconds = Double(value), seconds > 0 else { Options.fail("bad --target-seconds \(value)") }
                targetSeconds = seconds
            case "--frames":
                guard let count = Int(value), count > 0 else { Options.fail("bad --frames \(value)") }
                frames = count
            case "--json": jsonPath = value
            case "--png-dir": pngFolder = value
            case "--kernels":
                guard ["swift", "avx2", "avx512"].contains(value) else { Options.fail("bad --kernels \(value)") }
                AVX2Kernels.isEnabled = value != "swift" && AVX2Kernels.isEnabled
                AVX512Kernels.isEnabled = value == "avx512" && AVX512Kernels.isEnabled
            default: Options.fail("unknown option \(flag)")
            }
        }
    }

    static func fail(_ message: String) -> Never {
        let text = "anchor-bench: \(message)\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
}

/// Monotonic nanoseconds.
func now() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// bench.py's `time_frames`: returns the per-frame nanoseconds and the warm-up frame count.
func timeFrames(_ scene: any AnchorScene, into pixmap: Pixmap, targetSeconds: Double) -> ([UInt64], Int) {
    let cycle = scene.framesPerCycle
    var warm = 0
    let start = now()
    var elapsed = 0.0
    repeat {
        scene.render(frame: warm, into: pixmap)
        warm += 1
        elapsed = Double(now() - start) / 1e9
    } while (warm < max(3, cycle) || elapsed < 0.3) && elapsed <= 20
    let perFrame = elapsed / Double(warm)
    var n = max(5, Int((targetSeconds / perFrame).rounded(.up)))
    n = (n + cycle - 1) / cycle * cycle
    n = min(n, cycle > 1 ? 20_000 : 5_000)
    var samples = [UInt64](repeating: 0, count: n)
    for k in 0..<n {
        let t = now()
        scene.render(frame: k, into: pixmap)
        samples[k] = now() - t
    }
    return (samples, warm)
}

/// Frames 0 ..< count, each timed, without warm-up.
func timeExactly(_ count: Int, _ scene: any AnchorScene, into pixmap: Pixmap) -> ([UInt64], Int) {
    let samples = (0..<count).map { k -> UInt64 in
        let t = now()
        scene.render(frame: k, into: pixmap)
        return now() - t
    }
    return (samples, 0)
}

func median(_ sorted: [Double]) -> Double {
    let m = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
var results: [String] = []
for name in options.scenes {
    guard let scene = AnchorSceneCatalog.make(name) else { Options.fail("unknown scene \(name)") }
    let title = type(of: scene).title
    let pixmap = try Pixmap(width: scene.width, height: scene.height)
    let (ns, warm) = options.frames.map { timeExactly($0, scene, into: pixmap) }
        ?? timeFrames(scene, into: pixmap, targetSeconds: options.targetSeconds)
    let ms = ns.map { Double($0) / 1e6 }.sorted()
    let mean = ms.reduce(0, +) / Double(ms.count)
    let line = "\(name) \(title) citrine median \(median(ms)) ms  min \(ms.first!)  max \(ms.last!)  n=\(ms.count)"
    print(line)
    results.append("""
        {"engine": "citrine", "scene": "\(name)", "title": "\(title)", "w": \(scene.width), "h": \(scene.height), \
        "median_ms": \(median(ms)), "min_ms": \(ms.first!), "max_ms": \(ms.last!), "mean_ms": \(mean), \
        "n": \(ms.count), "warmup_frames": \(warm)}
        """)
    if let folder = options.pngFolder {
        // The reference frame of the harness: the last frame of the first cycle.
        scene.render(frame: scene.framesPerCycle - 1, into: pixmap)
        try PNGCodec.write(pixmap, to: "\(folder)/\(name)-\(title)-citrine.png")
    }
}
if let path = options.jsonPath {
    let json = "{\"engine\": \"citrine\", \"results\": [\n" + results.joined(separator: ",\n") + "\n]}\n"
    guard let file = fopen(path, "w") else { Options.fail("cannot write \(path)") }
    fputs(json, file)
    fclose(file)
}
