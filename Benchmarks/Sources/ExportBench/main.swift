// The export benchmark: a 1920×1080, 5-second animation (the seed demos on one wall,
// each scaled up, over an opaque background) exported to every format, in one run:
//   1. rendering alone (ExportFrames via forEachFrame) with 1 and with 2 threads, alternated;
//   2. each format's whole export (render + encode + write) with 1 and with 2 threads, alternated
//      in each round (medians; the two thread counts' files compared byte for byte);
//   3. the encoders against ffmpeg on the very same frames: GIF (ours vs ffmpeg's two-pass
//      palettegen/paletteuse) and APNG (ours vs ffmpeg's apng), encode time and bytes; GIF
//      quality (PSNR against the rendered frames) is computed afterwards by psnr.py.
// Writes its files and a JSON summary to --out (default Benchmarks/out/export). `--only` runs
// some of the parts: `--only exports` or `--only render,encoders`; `--formats gif,apng` some of
// the formats of part 2 (seq, gif, apng, mp4, mov, webm).
//
//     swift build -c release --package-path Benchmarks --product export-bench
//     Benchmarks/.build/release/export-bench [--seconds 5] [--fps 30] [--rounds 3] [--out DIR]
import Demos
import Export
import Foundation
import ImageCodecs
import QuartzCore
import Raster

let args = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? { args.firstIndex(of: name).flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil } }
let seconds = option("--seconds").flatMap(Double.init) ?? 5
let fps = option("--fps").flatMap(Double.init) ?? 30
let rounds = option("--rounds").flatMap(Int.init) ?? 3
let out = option("--out") ?? "Benchmarks/out/export"
try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
let size = CGSize(width: 1920, height: 1080)
let timeline = try ExportTimeline(duration: seconds, fps: fps)

/// The wall: the seed demos in a 4×2 grid of 480×540 cells, each scaled to fill its cell.
@Sendable func wall() -> CALayer {
    let root = CALayer()
    root.frame = CGRect(origin: .zero, size: size)
    root.backgroundColor = CGColor(red: 0.97, green: 0.96, blue: 0.93, alpha: 1)
    for (i, demo) in LayerDemo.all.enumerated() {
        let cell = CGRect(x: CGFloat(i % 4) * 480, y: CGFloat(i / 4) * 540, width: 480, height: 540)
        let scene = demo.build()
        let k = min(cell.width / demo.size.width, cell.height / demo.size.height) * 0.95
        scene.position = CGPoint(x: cell.midX, y: cell.midY)
        scene.transform = CATransform3DMakeScale(k, k, 1)
        root.addSublayer(scene)
    }
    return root
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
/// CPU seconds used so far by this process (all its threads; not ffmpeg's) or by this thread.
func cpuTime(_ clock: clockid_t = CLOCK_PROCESS_CPUTIME_ID) -> Double {
    var t = timespec()
    clock_gettime(clock, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }
func fileSize(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0 }
var summary: [String: Any] = ["frames": timeline.frameCount, "fps": fps, "width": 1920, "height": 1080,
                              "cpus": ProcessInfo.processInfo.activeProcessorCount]
func log(_ s: String) { FileHandle.standardError.write((s + "\n").data(using: .utf8)!) }

// 1. Rendering alone, 1 and 2 threads alternated (frames handed over and dropped); then one
//    untimed pass keeps the frames for the encoder comparisons.
let parts = Set((option("--only") ?? "render,exports,encoders").split(separator: ",").map(String.init))
if parts.contains("render") {
    var renderTimes: [Int: [Double]] = [1: [], 2: []], renderCPU: [Int: [Double]] = [1: [], 2: []]
    for _ in 0..<rounds {
        for threads in [1, 2] {
            let exporter = CAAnimationExporter(size: size, makeLayer: wall)
            exporter.threads = threads
            let start = now(), startCPU = cpuTime()
            try exporter.forEachFrame(timeline) { _ in }
            renderTimes[threads]!.append(now() - start)
            renderCPU[threads]!.append(cpuTime() - startCPU)
            log("render threads=\(threads): \(String(format: "%.2f", now() - start)) s")
        }
    }
    summary["render_fps_1"] = Double(timeline.frameCount) / median(renderTimes[1]!)
    summary["render_fps_2"] = Double(timeline.frameCount) / median(renderTimes[2]!)
    summary["render_seconds"] = [median(renderTimes[1]!), median(renderTimes[2]!)]
    summary["render_cpu_seconds"] = [median(renderCPU[1]!), median(renderCPU[2]!)]
}

var kept: [Pixmap] = []
let rawPath = out + "/frames.rgba"
if parts.contains("encoders") {
    try CAAnimationExporter(size: size, makeLayer: wall).forEachFrame(timeline) { frame in
        let copy = try Pixmap(width: frame.pixmap.width, height: frame.pixmap.height)
        copy.pixels.update(from: frame.pixmap.pixels, count: copy.bytesPerRow * copy.height)
        kept.append(copy)
    }
    // The frames as raw RGBA for ffmpeg (the wall is opaque: premultiplied = straight).
    _ = FileManager.default.createFile(atPath: rawPath, contents: nil)
    let raw = try FileHandle(forWritingTo: URL(fileURLWithPath: rawPath))
    for frame in kept { raw.write(Data(bytes: frame.pixels, count: frame.bytesPerRow * frame.height)) }
    try raw.close()
}

// 2. Whole exports, every format with 1 and with 2 threads, alternated within each round; the
//    files of the two thread counts are compared byte for byte.
if parts.contains("exports") {
    func contents(_ name: String) -> [Data] {
        name.hasPrefix("seq")
            ? (0..<timeline.frameCount).map { FileManager.default.contents(atPath: out + "/seq/" + String(format: "%04d.png", $0)) ?? Data() }
            : [FileManager.default.contents(atPath: out + "/" + name) ?? Data()]
    }
    var exports: [[String: Any]] = []
    let names = ["seq": "seq/%04d.png", "gif": "wall.gif", "apng": "wall.apng", "mp4": "wall.mp4", "mov": "wall.mov", "webm": "wall.webm"]
    let formats = (option("--formats") ?? "seq,gif,apng,mp4,mov,webm").split(separator: ",").map(String.init)
    for name in formats.compactMap({ names[$0] }) {
        var times: [Int: [Double]] = [1: [], 2: []]
        var cpu: [Int: [Double]] = [1: [], 2: []]
        var bytes = 0
        var identical = true
        for _ in 0..<rounds {
            var files: [Int: [Data]] = [:]
            for threads in [1, 2] {
                if name.hasPrefix("seq") { try? FileManager.default.removeItem(atPath: out + "/seq") }
                try FileManager.default.createDirectory(atPath: out + "/seq", withIntermediateDirectories: true)
                let exporter = CAAnimationExporter(size: size, makeLayer: wall)
                exporter.threads = threads
                let start = now(), startCPU = cpuTime()
                try exporter.export(to: .file(out + "/" + name), timeline: timeline)
                let elapsed = now() - start
                times[threads]!.append(elapsed)
                cpu[threads]!.append(cpuTime() - startCPU)
                files[threads] = contents(name)
                bytes = files[threads]!.reduce(0) { $0 + $1.count }
                log("export \(name) threads=\(threads): \(String(format: "%.2f", elapsed)) s, \(bytes) bytes")
            }
            if files[1] != files[2] { identical = false }
        }
        let one = median(times[1]!), two = median(times[2]!)
        exports.append(["output": name, "seconds_1": one, "seconds_2": two, "fps_1": Double(timeline.frameCount) / one,
                        "fps_2": Double(timeline.frameCount) / two, "speedup": one / two, "bytes": bytes,
                        "same_bytes_1_and_2": identical, "all_seconds_1": times[1]!, "all_seconds_2": times[2]!,
                        "cpu_seconds_1": median(cpu[1]!), "cpu_seconds_2": median(cpu[2]!)])
        log("export \(name): median \(String(format: "%.2f", one)) s / \(String(format: "%.2f", two)) s, ×\(String(format: "%.2f", one / two)), same bytes: \(identical)")
    }
    summary["exports"] = exports
}

// 3. Encoders on the same frames.
if parts.contains("encoders") {
    let rate = timeline.rate
    func ours(_ encode: (MemorySink) throws -> Void) rethrows -> (seconds: Double, bytes: [UInt8]) {
        let sink = MemorySink()
        let start = now()
        try encode(sink)
        return (now() - start, sink.bytes)
    }
    func ffmpeg(_ arguments: [String]) throws -> Double {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        p.arguments = ["-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "1920x1080",
                       "-framerate", "\(rate.frames)/\(rate.seconds)", "-i", rawPath] + arguments
        let start = now()
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw ExportError.toolFailed("ffmpeg", "exit \(p.terminationStatus)") }
        return now() - start
    }
    var encoders: [[String: Any]] = []
    for _ in 0..<rounds {
        let gif = try ours { sink in
            let e = try GIFEncoder(sink: sink, width: 1920, height: 1080, rate: rate)
            for f in kept { try e.append(f) }
            try e.finish()
        }
        try Data(gif.bytes).write(to: URL(fileURLWithPath: out + "/ours.gif"))
        let ffGIF = try ffmpeg(["-vf", "split[a][b];[a]palettegen[p];[b][p]paletteuse", out + "/ffmpeg.gif"])
        let apng = try ours { sink in
            let e = try APNGEncoder(sink: sink, width: 1920, height: 1080, frameCount: kept.count, rate: rate)
            for f in kept { try e.append(f) }
            try e.finish()
        }
        try Data(apng.bytes).write(to: URL(fileURLWithPath: out + "/ours.apng"))
        let ffAPNG = try ffmpeg(["-f", "apng", "-plays", "0", out + "/ffmpeg.apng"])
        // The encoders' split on one thread, in CPU time of this thread: the per-frame work that
        // the exporter's workers do in parallel (prepare) and the serial rest (append, finish).
        func split<E: PreparingAnimationEncoder>(_ encoder: (MemorySink) throws -> E) throws -> (prepare: Double, serial: Double, bytes: [UInt8]) {
            let sink = MemorySink()
            let e = try encoder(sink)
            let preparer = try e.makePreparer(), prepared = e.makePreparedFrame()
            var prepare = 0.0, serial = 0.0
            for (k, f) in kept.enumerated() {
                let t0 = cpuTime(CLOCK_THREAD_CPUTIME_ID)
                try preparer.prepare(f, previous: k > 0 ? kept[k - 1] : nil, isLast: k == kept.count - 1, into: prepared)
                let t1 = cpuTime(CLOCK_THREAD_CPUTIME_ID)
                try e.append(prepared)
                serial += cpuTime(CLOCK_THREAD_CPUTIME_ID) - t1
                prepare += t1 - t0
            }
            let t2 = cpuTime(CLOCK_THREAD_CPUTIME_ID)
            try e.finish()
            serial += cpuTime(CLOCK_THREAD_CPUTIME_ID) - t2
            return (prepare, serial, sink.bytes)
        }
        let gifSplit = try split { try GIFEncoder(sink: $0, width: 1920, height: 1080, rate: rate) }
        let apngSplit = try split { try APNGEncoder(sink: $0, width: 1920, height: 1080, frameCount: kept.count, rate: rate) }
        encoders.append(["gif_prepare_cpu_s": gifSplit.prepare, "gif_serial_cpu_s": gifSplit.serial,
                         "gif_split_same_bytes": gifSplit.bytes == gif.bytes, "apng_prepare_cpu_s": apngSplit.prepare,
                         "apng_serial_cpu_s": apngSplit.serial, "apng_split_same_bytes": apngSplit.bytes == apng.bytes,
                         "gif_ours_s": gif.seconds, "gif_ours_bytes": gif.bytes.count, "gif_ffmpeg_s": ffGIF,
                         "gif_ffmpeg_bytes": fileSize(out + "/ffmpeg.gif"), "apng_ours_s": apng.seconds,
                         "apng_ours_bytes": apng.bytes.count, "apng_ffmpeg_s": ffAPNG, "apng_ffmpeg_bytes": fileSize(out + "/ffmpeg.apng")])
        log("encoders: \(encoders.last!)")
    }
    summary["encoders"] = encoders
}
let json = try JSONSerialization.data(withJSONObject: summary, options: [.prettyPrinted, .sortedKeys])
try json.write(to: URL(fileURLWithPath: out + "/summary.json"))
print(String(decoding: json, as: UTF8.self))
