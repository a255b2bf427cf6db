// One frame on all cores: the same whole frames timed on 1 and on 2 threads in one run, side by
// side. A renderer draws a full frame in as many horizontal bands as `CITRINE_RENDER_THREADS`
// says (read once per process), so each thread count runs in a child process of its own
// (this program again, with `--child`), the counts alternating over `--rounds` rounds; the
// parent prints, per scene, each count's median and minimum milliseconds per frame over all
// rounds and the speed-up (1-thread median / N-thread median). Scenes:
// - `s8`: scene S8 as a CALayer tree at 1920×1080 (`S8LayerStorm.layerTree`, as layer-storm-bench
//   builds it) over its animated sequence at 60 fps: every frame is drawn whole.
// - `demo`: a seed demo (`--demo`, default dynamics-pile, 320×480 points) played through its
//   scripted timeline at 60 fps and drawn at 1080 rows (scale 1080 / its height) by one renderer
//   kept from frame to frame, as a window's is; only `render()` is timed, and only frames drawn
//   whole (a frame that redraws a damaged patch only, or nothing, is not counted); the play
//   stops once `--frames` whole frames are timed. `--fresh`: a new renderer for every frame
//   instead (each frame a still render, drawn whole, as `citrine render --time` draws one).
// Run it on a quiet machine with at least as many free cores as the largest thread count:
//
//     swift build -c release --package-path Benchmarks --product band-bench
//     Benchmarks/.build/release/band-bench [--rounds 5] [--frames 60] [--threads 1,2]
//         [--demo dynamics-pile] [--fresh] [--scene s8,demo]
//
// `--child SCENE` runs one scene on the threads `CITRINE_RENDER_THREADS` gives and prints its
// frame times (what the parent runs; also the way to count instructions per thread, e.g.
// `CITRINE_RENDER_THREADS=2 valgrind --tool=callgrind --separate-threads=yes band-bench --child s8 --frames 10`).
import AnchorScenes
import Compositor
import Demos
import Foundation
import FrameTiming
import QuartzCore
import UIKit

let args = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? { args.firstIndex(of: name).flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil } }
let frames = option("--frames").flatMap(Int.init) ?? 60
let demoName = option("--demo") ?? SeedDemo.dynamicsPile.name
let fresh = args.contains("--fresh")

/// Fails with `message` on standard error (exit status 2).
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(("band-bench: " + message + "\n").data(using: .utf8)!)
    exit(2)
}

/// Milliseconds of each whole frame of `scene` (child side).
@MainActor func frameTimes(of scene: String) throws -> [Double] {
    switch scene {
    case "s8":
        let renderer = try CARenderer(width: 1920, height: 1080)
        renderer.layer = S8LayerStorm.layerTree(animated: true)
        renderer.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        _ = frameMilliseconds(renderer, at: 0)   // warm-up (retained bitmaps, mipmaps)
        return (0..<frames).map { frameMilliseconds(renderer, at: Double($0 + 1) / 60) }
    case "demo":
        guard let demo = SeedDemo.named(demoName) else { fail("no demo named '\(demoName)' (citrine demos lists them)") }
        let scale = 1080 / demo.size.height
        func makeRenderer() throws -> CARenderer {
            // The demo's size in points, drawn at `scale` pixels a point: 1080 rows.
            let renderer = try CARenderer(width: Int(demo.size.width), height: Int(demo.size.height), scale: scale)
            renderer.backgroundColor = Gallery.background
            return renderer
        }
        var renderer = try makeRenderer()
        var times: [Double] = []
        var index = 0
        struct Enough: Error {}
        do {
            _ = try demo.play(framesPerSecond: 60) { window, t in
                if fresh { renderer = try makeRenderer() }
                renderer.layer = window.layer
                let ms = frameMilliseconds(renderer, at: t)
                let whole = renderer._lastRedrawnArea.width == CGFloat(renderer.pixmap.width)
                    && renderer._lastRedrawnArea.height == CGFloat(renderer.pixmap.height)
                if index > 0, whole { times.append(ms) }
                index += 1
                if times.count == frames { throw Enough() }
            }
        } catch is Enough {}
        return times
    default:
        fail("unknown scene '\(scene)' (s8, demo)")
    }
}

if let scene = option("--child") {
    let times = try MainActor.assumeIsolated { try frameTimes(of: scene) }
    print(times.map { String(format: "%.3f", $0) }.joined(separator: " "))
    exit(0)
}

let rounds = option("--rounds").flatMap(Int.init) ?? 5
let threadCounts = (option("--threads") ?? "1,2").split(separator: ",").compactMap { Int($0) }
let scenes = (option("--scene") ?? "s8,demo").split(separator: ",").map(String.init)
guard rounds > 0, frames > 0, !threadCounts.isEmpty, threadCounts.allSatisfy({ (1...64).contains($0) }) else {
    fail("--rounds and --frames take a positive whole number, --threads a list of 1…64")
}

/// One child run of `scene` on `threads` threads: its frame times.
func child(_ scene: String, threads: Int) -> [Double] {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    p.arguments = ["--child", scene, "--frames", String(frames), "--demo", demoName] + (fresh ? ["--fresh"] : [])
    var environment = ProcessInfo.processInfo.environment
    environment["CITRINE_RENDER_THREADS"] = String(threads)
    p.environment = environment
    let out = Pipe()
    p.standardOutput = out
    do { try p.run() } catch { fail("cannot start a child: \(error)") }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { fail("the child for \(scene) on \(threads) threads failed") }
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
}

func median(_ v: [Double]) -> Double { let s = v.sorted(); return s.isEmpty ? .nan : s[s.count / 2] }

let scaleNote = SeedDemo.named(demoName).map { String(format: "%.0f×1080", $0.size.width * 1080 / $0.size.height) } ?? "?"
print("band-bench: \(rounds) rounds, \(frames) frames a run, threads \(threadCounts.map(String.init).joined(separator: ", ")), "
      + "\(ProcessInfo.processInfo.activeProcessorCount) processors")
for scene in scenes {
    var times = [Int: [Double]]()
    for _ in 0..<rounds {
        for n in threadCounts { times[n, default: []] += child(scene, threads: n) }
    }
    let label = scene == "demo" ? "\(demoName) at \(scaleNote)" : "S8 layer tree at 1920×1080"
    let base = median(times[threadCounts[0]] ?? [])
    for n in threadCounts {
        let v = times[n] ?? []
        print(String(format: "%@, %d thread%@: median %.2f ms, min %.2f ms, %d frames; speed-up %.2f×", label, n,
                     n == 1 ? "" : "s", median(v), v.min() ?? .nan, v.count, base / median(v)))
    }
}
