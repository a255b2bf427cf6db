// A 3D scene of 200 intersecting planes, 1280×720, rendered frame by frame by
// CARenderer. The planes (200×140-pt bordered layers, each turned by a random angle about a random
// axis, centres spread over a 300×200×300-pt box) sit in a CATransformLayer that spins about y
// (one turn in 8 s) inside a container with perspective (sublayerTransform m34 = −1/1000): every
// frame all 200 planes share one 3D space, are cut along their intersections (a BSP tree) and
// drawn back to front. Prints median/min ms per frame over the animated sequence; optionally
// writes frame 0 as a PNG. `--flat`: the same 200 layers without 3D turns (zPosition order, the
// fast path), for comparison.
//
//     swift build -c release --package-path Benchmarks --product planes-bench
//     Benchmarks/.build/release/planes-bench [frames] [--png out.png] [--flat]
import AnchorScenes
import Compositor
import Foundation
import FrameTiming
import ImageCodecs
import QuartzCore

let args = Array(CommandLine.arguments.dropFirst())
let frames = args.first.flatMap { Int($0) } ?? 60
let pngPath = args.firstIndex(of: "--png").flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil }
let flat = args.contains("--flat")

CAMediaClock.setManualTime(0)
let size = CGSize(width: 1280, height: 720)
let root = CALayer()
root.frame = CGRect(origin: .zero, size: size)
var perspective = CATransform3DIdentity
perspective.m34 = -1 / 1000
root.sublayerTransform = perspective
let spinner = CATransformLayer()
spinner.frame = root.bounds
root.addSublayer(spinner)
var rng = PCG32(seed: 16)
@MainActor func random() -> CGFloat { CGFloat(rng.unit()) }
for _ in 0 ..< 200 {
    let plane = CALayer()
    plane.bounds = CGRect(x: 0, y: 0, width: 200, height: 140)
    plane.position = CGPoint(x: size.width / 2 + (random() - 0.5) * 300, y: size.height / 2 + (random() - 0.5) * 200)
    plane.backgroundColor = CGColor(red: random(), green: random(), blue: random(), alpha: 1)
    plane.borderWidth = 2
    plane.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    let angle = random() * 2 * .pi, axis = (random() - 0.5, random() - 0.5, random() - 0.5), depth = (random() - 0.5) * 300
    if !flat {
        plane.transform = CATransform3DTranslate(CATransform3DMakeRotation(angle, axis.0, axis.1, axis.2), 0, 0, depth)
    }
    spinner.addSublayer(plane)
}
CATransaction.flush()
if !flat {
    let spin = CABasicAnimation(keyPath: "transform.rotation.y")
    spin.byValue = 2 * CGFloat.pi
    spin.duration = 8
    spin.repeatCount = .infinity
    spinner.add(spin, forKey: "spin")
    CATransaction.flush()
}

let renderer = try CARenderer(width: Int(size.width), height: Int(size.height))
renderer.layer = root
renderer.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
_ = frameMilliseconds(renderer, at: 0)   // warm-up
if let pngPath { try PNGCodec.write(renderer.pixmap, to: pngPath) }
var times = (0 ..< frames).map { frameMilliseconds(renderer, at: Double($0 + 1) / 60) }
print("{\"planes\": 200, \"flat\": \(flat), \"frame\": \(statsJSON(&times))}")
