// Transition cost: a 1280×720 frame of a screen-like tree with a CATransition of each
// type at progress 0.5 on its full-size image layer, against a plain frame of the same tree, in
// one run, side by side. Prints a Markdown table (median ms per frame, ratio, allocations).
//
// The tree: root → screen (a 1280×720 photo-like image) → 8 rounded, bordered, translucent cards,
// a shape and a text layer. Every frame of the plain tree is drawn whole — the frame a
// transition frame is compared with: the whole frame is added to the renderer's update region
// first (`CARenderer.addUpdate`; a damage-tracked tree that did not change would otherwise redraw
// nothing). A transition's frames are drawn whole too (a running transition is not
// damage-tracked); the benchmark checks that every timed frame of both redrew the whole frame.
//
// The transition runs with startProgress = endProgress = p (default 0.5) over a long duration,
// subtype fromRight (or `--subtype`), its "after" state committed in the transaction that adds it. Per type: one
// CARenderer per tree, 3 warm-up frame pairs, then `pairs` alternated frames (plain, transition)
// at successive media times, each timed in the thread's CPU time (CLOCK_THREAD_CPUTIME_ID: on a
// shared machine wall time also counts the waits for a CPU) and in wall time; the table gives
// each side's median CPU time and their ratio, the ratio of the wall-time medians, the heap
// allocation calls per transition frame and per plain frame (medians), the largest single allocation of any timed
// transition frame (MallocCounter) against the 3 686 400 bytes of a full 1280×720 canvas, and
// the most minor page faults of a timed transition frame (a fresh canvas-sized buffer would
// fault ≈ 900 times).
//
//     swift build -c release --package-path Benchmarks --product transition-bench
//     Benchmarks/.build/release/transition-bench [--pairs 31] [--progress 0.5] [--types cube,oglFlip]
//                                                [--subtype fromTop]
//     Benchmarks/.build/release/transition-bench --checksums
//
// `--checksums` times nothing: it prints a checksum (FNV-1a over the pixels) of one transition
// frame per type, subtype (none, fromRight, fromTop, fromBottom), progress (0.25, 0.5, 0.75) and
// masksToBounds (off, on), to compare the frames two builds draw (e.g. before and after a change
// meant to keep the drawing identical: `diff` the outputs).
import Compositor
import Foundation
import MallocCounter
import QuartzCore
import Raster

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let pairs = option("--pairs").flatMap { Int($0) } ?? 31
let progress = option("--progress").flatMap { Float($0) } ?? 0.5
let allTypes = ["fade", "moveIn", "push", "reveal", "cube", "oglFlip", "pageCurl", "pageUnCurl", "rippleEffect",
                "suckEffect", "cameraIris", "cameraIrisHollowOpen", "cameraIrisHollowClose"]
let types = option("--types").map { $0.split(separator: ",").map(String.init) } ?? allTypes
let subtype = CATransitionSubtype(rawValue: option("--subtype") ?? "fromRight")
let width = 1280, height = 720

/// A photo-like image: gradients with per-pixel noise (no flat areas).
func photo() throws -> CGImage {
    let p = try Pixmap(width: width, height: height)
    var seed: UInt32 = 12345
    for y in 0..<height {
        for x in 0..<width {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let n = Int(seed >> 28)
            p.setPixel(x: x, y: y, PremultipliedColor(r: UInt8((x * 200 / width + n) & 255), g: UInt8((y * 180 / height + n) & 255),
                                                      b: UInt8(((x + y) * 120 / 2000 + 60 + n) & 255), a: 255))
        }
    }
    return CGImage(pixmap: p)
}

/// The cards' colours and the text before and after the transition's change.
func style(_ screen: CALayer, after: Bool) {
    for card in (screen.sublayers ?? []).prefix(8) {
        card.backgroundColor = after ? CGColor(red: 0.2, green: 0.5, blue: 0.3, alpha: 0.9) : CGColor(red: 0.95, green: 0.95, blue: 1, alpha: 0.9)
    }
    (screen.sublayers?.last as? CATextLayer)?.string = after ? "Second page" : "First page"
}

@MainActor func tree(image: CGImage) -> (root: CALayer, screen: CALayer) {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: width, height: height)
    let screen = CALayer()
    screen.frame = root.bounds
    screen.contents = image
    for i in 0..<8 {
        let card = CALayer()
        card.frame = CGRect(x: 60 + (i % 4) * 300, y: 120 + (i / 4) * 280, width: 260, height: 220)
        card.cornerRadius = 16
        card.borderWidth = 2
        card.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.3)
        screen.addSublayer(card)
    }
    let shape = CAShapeLayer()
    shape.path = CGPath(ellipseIn: CGRect(x: 1100, y: 20, width: 80, height: 80), transform: nil)
    shape.fillColor = CGColor(red: 1, green: 0.6, blue: 0, alpha: 1)
    screen.addSublayer(shape)
    let text = CATextLayer()
    text.frame = CGRect(x: 60, y: 30, width: 900, height: 60)
    text.fontSize = 40
    screen.addSublayer(text)
    style(screen, after: false)
    root.addSublayer(screen)
    return (root, screen)
}

func renderer(_ root: CALayer) throws -> CARenderer {
    let r = try CARenderer(width: width, height: height)
    r.layer = root
    r.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    return r
}

struct Frame { var ms: Double; var wallMs: Double; var allocations: UInt64; var largest: UInt64; var faults: Int }

/// This thread's CPU time (ms): unlike wall time, it leaves out the time the thread waits for a
/// CPU on a shared machine.
func cpuMs() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
}

/// Minor page faults of the (single-threaded) process so far (a fresh buffer faults once per 4 KiB page it touches).
func pageFaults() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_minflt
}

/// One frame at media time `t`; fails when it was not drawn whole.
func frame(_ r: CARenderer, at t: CFTimeInterval, _ label: String) -> Frame {
    CAMediaClock.setManualTime(t)
    citrine_reset_largest_allocation()
    let calls = citrine_allocation_count(), faults = pageFaults()
    let wall = DispatchTime.now().uptimeNanoseconds, cpu = cpuMs()
    r.addUpdate(CGRect(x: 0, y: 0, width: width, height: height))
    r.beginFrame(atTime: t)
    r.render()
    r.endFrame()
    let ms = cpuMs() - cpu, wallMs = Double(DispatchTime.now().uptimeNanoseconds - wall) / 1e6
    let f = Frame(ms: ms, wallMs: wallMs, allocations: citrine_allocation_count() - calls, largest: citrine_largest_allocation(),
                  faults: pageFaults() - faults)
    guard r._lastRedrawnArea == CGRect(x: 0, y: 0, width: width, height: height) else {
        FileHandle.standardError.write(Data("\(label): frame at \(t) redrew \(r._lastRedrawnArea), not the whole frame\n".utf8))
        exit(1)
    }
    return f
}

func median<T: Comparable>(_ xs: [T]) -> T { xs.sorted()[xs.count / 2] }

let image = try photo()

/// Adds a transition of type `name` held at `progress` to `screen` and commits its "after" state
/// with it.
@MainActor func addTransition(_ name: String, _ subtype: CATransitionSubtype?, progress: Float, to screen: CALayer) {
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    let t = CATransition()
    t.type = CATransitionType(rawValue: name)
    t.subtype = subtype
    t.startProgress = progress
    t.endProgress = progress
    t.duration = 1e6
    screen.add(t, forKey: nil)
    style(screen, after: true)
    CATransaction.commit()
}

/// FNV-1a (64 bits) over the canvas's pixels.
func checksum(_ p: Pixmap) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for i in 0..<(p.width * p.height) { h = (h ^ UInt64(p.words[i])) &* 0x100_0000_01b3 }
    return h
}

/// One transition frame per type, subtype, progress and masksToBounds: its checksum.
@MainActor func printChecksums() throws {
    var time: CFTimeInterval = 0
    for name in types {
        for sub in [nil, CATransitionSubtype.fromRight, .fromTop, .fromBottom] {
            for p in [Float(0.25), 0.5, 0.75] {
                for masks in [false, true] {
                    time += 1
                    CAMediaClock.setManualTime(time)
                    CATransaction.begin()
                    CATransaction.setDisableActions(true)
                    let animated = tree(image: image)
                    animated.screen.masksToBounds = masks
                    animated.screen.bounds.size.width -= 200   // so that slides and masks show
                    CATransaction.commit()
                    let r = try renderer(animated.root)
                    _ = frame(r, at: time, name)
                    addTransition(name, sub, progress: p, to: animated.screen)
                    _ = frame(r, at: time + 1.0 / 60, name)
                    print(name, sub?.rawValue ?? "nil", p, masks ? "masks" : "-", String(checksum(r.pixmap), radix: 16))
                }
            }
        }
    }
}
if arguments.contains("--checksums") {
    try printChecksums()
    exit(0)
}

var rows: [String] = []
var time: CFTimeInterval = 0
for name in types {
    CAMediaClock.setManualTime(time)
    let plain = tree(image: image)
    style(plain.screen, after: true)
    let animated = tree(image: image)
    let plainRenderer = try renderer(plain.root), transitionRenderer = try renderer(animated.root)
    _ = frame(transitionRenderer, at: time, name)   // the "before" state presented
    addTransition(name, subtype, progress: progress, to: animated.screen)
    var plainFrames: [Frame] = [], transitionFrames: [Frame] = []
    for i in 0..<(3 + pairs) {
        time += 1.0 / 60
        let a = frame(plainRenderer, at: time, "plain")
        time += 1.0 / 60
        let b = frame(transitionRenderer, at: time, name)
        if i >= 3 { plainFrames.append(a); transitionFrames.append(b) }
    }
    let p = median(plainFrames.map(\.ms)), q = median(transitionFrames.map(\.ms))
    let pw = median(plainFrames.map(\.wallMs)), qw = median(transitionFrames.map(\.wallMs))
    rows.append(String(format: "| %@ | %.2f | %.2f | **%.2f** | %.2f | %llu | %llu | %llu | %d |", name, q, p, q / p, qw / pw,
                       median(transitionFrames.map(\.allocations)), median(plainFrames.map(\.allocations)),
                       transitionFrames.map(\.largest).max() ?? 0,
                       transitionFrames.map(\.faults).max() ?? 0))
    time += 1
}
print("Transition frame against a plain frame, 1280×720, progress \(progress), \(subtype.rawValue), \(pairs) alternated pairs per type (medians of thread CPU time)\n")
print("| type | transition ms | plain ms | ratio | wall-time ratio | allocations per frame | plain frame's allocations | largest allocation (bytes) | most page faults in a frame |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for r in rows { print(r) }
