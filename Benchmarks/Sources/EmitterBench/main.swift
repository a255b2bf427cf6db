// A CAEmitterLayer with 5 000 live particles at 1920×1080, rendered frame by frame by
// CARenderer — the particle count is exact by the closed form (two cells of 1 000 per second,
// lifetime 2.5 s: 2 × 2 500 alive at every frame of the steady state). Each particle is a 16×16
// sprite (a soft dot or a square), scaled 0.6–1.4, turning, tinted, fading; source-over
// (`unordered`) and, as a second measurement, `additive`. Prints median/min ms per frame as
// JSON. `../../scripts/bench-emitter` runs it interleaved with `layer-storm-bench` (S8).
//
//     swift build -c release --package-path Benchmarks --product emitter-bench
//     Benchmarks/.build/release/emitter-bench [frames] [--png out.png] [--animate-birth-rate]
//
// `--animate-birth-rate` adds a repeating animation of the layer's `birthRate` (0.8 → 1.2 over
// 1 s, autoreversing): particles then take their values at their 1/60 s birth step
// (`CAEmitterLayer+BirthValues.swift`), so each frame needs the values of the ~150 steps in
// which the live particles were born.
import Compositor
import Foundation
import FrameTiming
import ImageCodecs
import QuartzCore
import Raster

let args = Array(CommandLine.arguments.dropFirst())
let frames = args.first.flatMap { Int($0) } ?? 120
let pngPath = args.firstIndex(of: "--png").flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil }
let animatesBirthRate = args.contains("--animate-birth-rate")

/// A 16×16 white sprite: a disc with a soft edge, or a square.
func sprite(round: Bool) throws -> CGImage {
    let p = try Pixmap(width: 16, height: 16)
    for y in 0..<16 {
        for x in 0..<16 {
            let d = ((Double(x) - 7.5) * (Double(x) - 7.5) + (Double(y) - 7.5) * (Double(y) - 7.5)).squareRoot()
            let a = round ? UInt8(max(0, min(1, 8 - d)) * 255) : (x >= 2 && x < 14 && y >= 2 && y < 14 ? 255 : 0)
            p.setPixel(x: x, y: y, PremultipliedColor(r: a, g: a, b: a, a: a))
        }
    }
    return CGImage(pixmap: p)
}

CAMediaClock.setManualTime(0)
let root = CALayer()
root.frame = CGRect(x: 0, y: 0, width: 1920, height: 1080)
let emitter = CAEmitterLayer()
emitter.frame = root.bounds
emitter.beginTime = -100   // the steady state from the first frame
emitter.emitterShape = .rectangle
emitter.emitterMode = .surface
emitter.emitterPosition = CGPoint(x: 960, y: 540)
emitter.emitterSize = CGSize(width: 1920, height: 1080)
emitter.seed = 17
emitter.emitterCells = try [true, false].map { round in
    let cell = CAEmitterCell()
    cell.contents = try sprite(round: round)
    cell.birthRate = 1000
    cell.lifetime = 2.5
    cell.velocity = 60
    cell.velocityRange = 40
    cell.emissionRange = .pi
    cell.yAcceleration = 20
    cell.spin = 2
    cell.spinRange = 3
    cell.scaleRange = 0.4
    cell.color = round ? CGColor(red: 0.9, green: 0.4, blue: 0.2, alpha: 1) : CGColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1)
    cell.redRange = 0.1; cell.greenRange = 0.1; cell.blueRange = 0.1
    cell.alphaSpeed = -0.3
    return cell
}
root.addSublayer(emitter)
if animatesBirthRate {
    let pulse = CABasicAnimation(keyPath: "birthRate")
    pulse.fromValue = 0.8
    pulse.toValue = 1.2
    pulse.duration = 1
    pulse.autoreverses = true
    pulse.repeatCount = .infinity
    pulse.beginTime = -100
    emitter.add(pulse, forKey: "pulse")
}
CATransaction.flush()

var frame = CAEmitterLayer.ParticleFrame()
emitter._particles(atMediaTime: 1, into: &frame)
let particles = frame.particles.count

let renderer = try CARenderer(width: 1920, height: 1080)
renderer.layer = root
renderer.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

@MainActor func time(_ t: CFTimeInterval) -> Double { frameMilliseconds(renderer, at: t) }

_ = time(0)   // warm-up
if let pngPath { try PNGCodec.write(renderer.pixmap, to: pngPath) }
var sourceOver = (0..<frames).map { time(Double($0 + 1) / 60) }
CATransaction.begin(); CATransaction.setDisableActions(true)
emitter.renderMode = .additive
CATransaction.commit()
var additive = (0..<frames).map { time(Double(frames + $0 + 1) / 60) }
func stats(_ v: inout [Double]) -> String { statsJSON(&v) }
print("{\"particles\": \(particles), \"emitter\": \(stats(&sourceOver)), \"emitter_additive\": \(stats(&additive))}")
