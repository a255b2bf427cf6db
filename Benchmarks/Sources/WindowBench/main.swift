// The window benchmark: every demo live in a real X11 window (the window host `citrine
// play` uses), its scripted input timeline replayed through the X server in real time with
// xdotool (XTEST: the same pointer events a mouse makes), at scale 1 and 2. Per demo and scale:
// the host's time per rendered frame (`HostStatistics.frameDurations`: advance the scene, render
// the damage, convert it, put it) while the timeline plays, then the window thread's CPU over
// two idle seconds after it (no input; a demo whose animations repeat forever is not idle).
// Run it on one core with an X server that has XTEST (Xvfb does) and xdotool installed, e.g.
//
//     swift build -c release --package-path Benchmarks --product window-bench
//     Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>display.txt &
//     DISPLAY=:$(cat display.txt) taskset -c 0 Benchmarks/.build/release/window-bench \
//         [--demo NAME,NAME] [--scale 1,2] [--max-seconds 8] [--json FILE]
//
// Prints one line per demo and scale (at most --max-seconds of each demo's timeline), and a JSON
// summary with --json.
import UIKit
import Demos
import Foundation
import QuartzCore
import WindowHost
#if canImport(Glibc)
import Glibc
#endif

let args = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? { args.firstIndex(of: name).flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil } }
let scales = (option("--scale") ?? "1,2").split(separator: ",").compactMap { Double($0) }
let names = option("--demo").map { $0.split(separator: ",").map(String.init) }
let maxSeconds = option("--max-seconds").flatMap(Double.init) ?? 8
let demos = names.map { $0.compactMap { SeedDemo.named($0) } } ?? SeedDemo.all

/// One line on standard output, written at once (a crash later loses nothing).
func say(_ s: String) { FileHandle.standardOutput.write((s + "\n").data(using: .utf8)!) }
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
}

/// CPU seconds a thread has used.
func cpuTime(of thread: pthread_t) -> Double {
    var clock = clockid_t()
    guard pthread_getcpuclockid(thread, &clock) == 0 else { return .nan }
    var ts = timespec()
    clock_gettime(clock, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// The window's run loop on a thread of its own (as an application's main thread), the scene
/// built there.
final class Runner: @unchecked Sendable {
    private let lock = NSLock()
    private var window: X11Window?
    private var thread: pthread_t?
    private var failure: Error?
    private var done = false

    init(_ demo: SeedDemo, scale: Double) {
        let t = Thread { [self] in
            do {
                let w = try X11Window(scene: demo.makeScene(), scale: CGFloat(scale), title: "window-bench \(demo.name)")
                lock.withLock { window = w; thread = pthread_self() }
                try w.run()
            } catch {
                lock.withLock { failure = error }
            }
            lock.withLock { done = true }
        }
        t.stackSize = 8 << 20
        t.start()
    }

    func waitForWindow() throws -> (X11Window, pthread_t) {
        for _ in 0..<5000 {
            if let e = lock.withLock({ failure }) { throw e }
            if let w = lock.withLock({ window }), let t = lock.withLock({ thread }) { return (w, t) }
            usleep(2000)
        }
        throw NSError(domain: "window-bench", code: 1, userInfo: [NSLocalizedDescriptionKey: "the window did not open"])
    }

    func waitUntilDone() { while !lock.withLock({ done }) { usleep(2000) } }
}

/// xdotool arguments replaying `timeline` in real time over window `id` at `scale`, then waiting
/// until `end` seconds after the start.
func xdotoolReplay(_ timeline: SceneScript, window id: UInt, scale: Double, end: Double) -> [String] {
    var out: [String] = []
    var now = 0.0
    for event in timeline.events where event.time <= end {
        guard case let .pointer(phase, location) = event.input else { continue }
        if event.time > now { out += ["sleep", String(format: "%.3f", event.time - now)]; now = event.time }
        out += ["mousemove", "--window", String(id), String(Int(location.x * scale)), String(Int(location.y * scale))]
        switch phase {
        case .began: out += ["mousedown", "1"]
        case .ended, .cancelled: out += ["mouseup", "1"]
        default: break
        }
    }
    if end > now { out += ["sleep", String(format: "%.3f", end - now)] }
    return out
}

func runTool(_ arguments: [String]) throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = arguments
    try p.run()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else {
        throw NSError(domain: "window-bench", code: 2, userInfo: [NSLocalizedDescriptionKey: "\(arguments.first ?? "") failed"])
    }
}

/// A number for JSON (which has no NaN: a demo that drew no frame has no frame time).
func json(_ x: Double) -> Any { x.isFinite ? x : NSNull() }

var rows: [[String: Any]] = []
for scale in scales {
    for demo in demos {
        let runner = Runner(demo, scale: scale)
        let (window, thread) = try runner.waitForWindow()
        while window._statistics.framesRendered == 0 { usleep(2000) }
        usleep(300_000)                                            // first frames, retained bitmaps
        let skip = window._statistics.frameDurations.count
        let span = min(demo.span, maxSeconds)
        let (cpu0, t0) = (cpuTime(of: thread), Date())
        try runTool(["xdotool"] + xdotoolReplay(demo.timeline, window: window.windowID, scale: scale, end: span))
        let playing = window._statistics
        let (cpu1, t1) = (cpuTime(of: thread), Date())
        usleep(500_000)                                            // the last animations settle
        let idle0 = (cpuTime(of: thread), window._statistics, Date())
        usleep(2_000_000)
        let idle1 = (cpuTime(of: thread), window._statistics, Date())
        window.stop()
        runner.waitUntilDone()

        let d = Array(playing.frameDurations.dropFirst(skip)).map { $0 * 1000 }
        let playSeconds = t1.timeIntervalSince(t0), idleSeconds = idle1.2.timeIntervalSince(idle0.2)
        let row: [String: Any] = [
            "demo": demo.name, "scale": scale, "frames": d.count, "seconds": playSeconds,
            "median_ms": json(percentile(d, 0.5)), "p90_ms": json(percentile(d, 0.9)), "max_ms": json(d.max() ?? .nan),
            "play_cpu_percent": 100 * (cpu1 - cpu0) / playSeconds,
            "idle_cpu_percent": 100 * (idle1.0 - idle0.0) / idleSeconds,
            "idle_frames": idle1.1.framesRendered - idle0.1.framesRendered,
        ]
        rows.append(row)
        say(String(format: "%-30@ scale %.0f: %4d frames in %5.2f s; per frame median %6.3f ms, p90 %6.3f ms, max %6.3f ms; CPU %5.1f %% playing, %6.3f %% idle (%d frames in %.1f s)",
                     demo.name, scale, d.count, playSeconds, percentile(d, 0.5), percentile(d, 0.9), d.max() ?? .nan,
                     100 * (cpu1 - cpu0) / playSeconds, 100 * (idle1.0 - idle0.0) / idleSeconds,
                     idle1.1.framesRendered - idle0.1.framesRendered, idleSeconds))
    }
}
if let path = option("--json") {
    let data = try JSONSerialization.data(withJSONObject: ["cpus": ProcessInfo.processInfo.activeProcessorCount, "rows": rows],
                                          options: [.prettyPrinted, .sortedKeys])
    try data.write(to: URL(fileURLWithPath: path))
}
