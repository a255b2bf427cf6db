// Presentation evaluation benchmark: 100 000 layers, each with a running
// CABasicAnimation of "position" and a CAKeyframeAnimation of "opacity", evaluated with
// `presentation()` at successive media times. Prints the median and minimum ms per frame and the
// heap allocations (every allocation call in the process, counted by MallocCounter) of the first
// frame, which makes the presentation copies, and the most of any later frame.
//
//     swift build -c release --package-path Benchmarks --product presentation-bench
//     Benchmarks/.build/release/presentation-bench [layers] [frames]
import Foundation
import MallocCounter
import QuartzCore

let args = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let layerCount = args.first ?? 100_000
let frames = args.count > 1 ? args[1] : 30

CAMediaClock.setManualTime(0)
let root = CALayer()
var layers: [CALayer] = []
layers.reserveCapacity(layerCount)
for i in 0..<layerCount {
    let l = CALayer()
    l.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    l.position = CGPoint(x: Double(i % 1000), y: Double(i / 1000))
    root.addSublayer(l)
    layers.append(l)
}
CATransaction.flush()
for (i, l) in layers.enumerated() {
    let move = CABasicAnimation(keyPath: "position")
    move.fromValue = CGPoint(x: 0, y: 0)
    move.toValue = CGPoint(x: 100, y: Double(i % 100))
    move.duration = 2
    move.repeatCount = .infinity
    let fade = CAKeyframeAnimation(keyPath: "opacity")
    fade.values = [1, 0.2, 1]
    fade.keyTimes = [0, 0.5, 1]
    fade.duration = 1.5
    fade.repeatCount = .infinity
    l.add(move, forKey: "move")
    l.add(fade, forKey: "fade")
}
CATransaction.flush()

var times: [Double] = []
times.reserveCapacity(frames)
var checksum = 0.0
var allocations: [UInt64] = []
allocations.reserveCapacity(frames)
for f in 0..<frames {
    let t = 0.1 + Double(f) / 60
    CAMediaClock.setManualTime(t)
    let allocationsBefore = citrine_allocation_count()
    let start = DispatchTime.now().uptimeNanoseconds
    for l in layers {
        let p = l.presentation()!
        checksum += Double(p.position.x) + Double(p.opacity)
    }
    let end = DispatchTime.now().uptimeNanoseconds
    allocations.append(citrine_allocation_count() - allocationsBefore)
    times.append(Double(end - start) / 1e6)
}
times.sort()
print(String(format: "{\"layers\": %d, \"frames\": %d, \"median_ms\": %.2f, \"min_ms\": %.2f, \"allocations_first_frame\": %llu, \"allocations_max_later_frame\": %llu, \"checksum\": %.3f}",
             layerCount, frames, times[times.count / 2], times[0], allocations[0], allocations.dropFirst().max() ?? 0, checksum))
