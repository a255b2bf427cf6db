import Compositor
import Foundation
import CoreGraphics
import ImageCodecs
import QuartzCore
import Raster

/// Scale measurements for the figures in RELIABILITY.md that the suite does not
/// need (a million sibling layers is too slow for its time budget in a debug build; the 1 M
/// paths compare with earlier figures): the probe runs them by name (`citrine-bad-input NAME`),
/// but `BadInputCase.all` does not list them.
extension BadInputCase {
    static let scaleMeasurements: [BadInputCase] = [
        BadInputCase("measure-path-1m-segments-filled-and-stroked", area: "memory", expected: "drew", seconds: 600) {
            try zigzag(segments: 1_000_000, step: 0.001)
        },
        BadInputCase("measure-path-1m-segments-on-the-target", area: "memory", expected: "drew", seconds: 600) {
            try zigzag(segments: 1_000_000, step: 0.00003)
        },
        BadInputCase("measure-path-10m-segments-on-the-target", area: "memory", expected: "drew", seconds: 600) {
            try zigzag(segments: 10_000_000, step: 0.000003)
        },
        BadInputCase("measure-path-1m-curves-filled-and-stroked", area: "memory", expected: "drew", seconds: 600) {
            let path = CGMutablePath()
            path.move(to: CGPoint(x: 0, y: 0))
            for i in 1...1_000_000 {
                path.addQuadCurve(to: CGPoint(x: CGFloat(i) * 0.001, y: i % 2 == 0 ? 0 : 30),
                                  control: CGPoint(x: CGFloat(i) * 0.001 - 0.0005, y: 40))
            }
            return try filledAndStroked(path)
        },
        BadInputCase("measure-png-32768-by-8192-encoded", area: "cost", expected: "wrote", seconds: 600) {
            try encodedLargePNG(threads: ProcessInfo.processInfo.activeProcessorCount, level: 6)
        },
        BadInputCase("measure-png-32768-by-8192-encoded-on-one-thread", area: "cost", expected: "wrote", seconds: 600) {
            try encodedLargePNG(threads: 1, level: 6)
        },
        BadInputCase("measure-png-32768-by-8192-encoded-at-level-1", area: "cost", expected: "wrote", seconds: 600) {
            try encodedLargePNG(threads: ProcessInfo.processInfo.activeProcessorCount, level: 1)
        },
        BadInputCase("measure-siblings-1m-on-the-target", area: "memory", expected: "drew", seconds: 600) {
            try siblings(1_000_000, offTarget: false)
        },
        BadInputCase("measure-siblings-1m-off-the-target", area: "memory", expected: "drew", seconds: 600) {
            try siblings(1_000_000, offTarget: true)
        },
        BadInputCase("measure-siblings-1m-frames-with-one-renderer", area: "memory", expected: "drew", seconds: 900) {
            try siblingFrames(1_000_000, frames: 3)
        },
    ]

    /// `count` siblings on the target (as `siblings`) drawn frame after frame by one `CARenderer`,
    /// one sibling moved between frames, so every frame measures damage (footprints kept).
    static func siblingFrames(_ count: Int, frames: Int) throws -> String {
        CAMediaClock.setManualTime(0)
        let root = siblingTree(count, offTarget: false)
        let renderer = try CARenderer(width: 64, height: 64)
        renderer.layer = root
        for f in 0..<frames {
            if f > 0 {
                CATransaction.begin()
                CATransaction.setDisableActions(true)
                root.sublayers![f].position.x += 1
                CATransaction.commit()
            }
            renderer.beginFrame(atTime: 0)
            renderer.render()
            renderer.endFrame()
        }
        return "drew"
    }

    /// A 32 768 × 8 192 pixmap — a diagonal gradient under a grid of translucent discs, drawn
    /// pixel by pixel — encoded to a PNG file with `threads` threads at zlib `level`; reports the
    /// seconds the encoding took (wall and the process's CPU), the file's size and the peak
    /// resident size it added.
    static func encodedLargePNG(threads: Int, level: Int32) throws -> String {
        let pixmap = try Pixmap(width: 32_768, height: 8_192)
        for y in 0..<pixmap.height {
            let row = pixmap.pixels + y * pixmap.width * 4
            for x in 0..<pixmap.width {
                let t = (x + 4 * y) * 255 / (pixmap.width + 4 * pixmap.height)
                let dx = x % 2_048 - 1_024, dy = y % 2_048 - 1_024
                let disc = dx * dx + dy * dy < 640 * 640
                row[4 * x] = UInt8(disc ? (t + 255) / 2 : t)
                row[4 * x + 1] = UInt8(disc ? (128 + 255) / 2 : 128)
                row[4 * x + 2] = UInt8(disc ? (255 - t + 255) / 2 : 255 - t)
                row[4 * x + 3] = 255
            }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-encoded-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        func cpuSeconds() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        }
        let before = peakResidentKiB()
        let start = Date(), startCPU = cpuSeconds()
        try PNGStillEncoder(compressionLevel: level, threads: threads).write(pixmap, pixelsPerPoint: 1, to: path)
        let seconds = Date().timeIntervalSince(start), cpu = cpuSeconds() - startCPU
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return String(format: "wrote in %.2f s (%.2f s of CPU), %d bytes, peak +%d MiB beside the pixmap", seconds, cpu, size,
                      (peakResidentKiB() - before) / 1_024)
    }

    /// A zigzag of `segments` line segments between y = 0 and y = 30, `step` apart in x, filled
    /// then stroked in a 32×32 context.
    static func zigzag(segments: Int, step: CGFloat) throws -> String {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        for i in 1...segments { path.addLine(to: CGPoint(x: CGFloat(i) * step, y: i % 2 == 0 ? 0 : 30)) }
        return try filledAndStroked(path)
    }

    /// Fills then strokes (width 1) `path` in a 32×32 context.
    static func filledAndStroked(_ path: CGPath) throws -> String {
        let ctx = try context()
        ctx.addPath(path)
        ctx.fillPath()
        ctx.addPath(path)
        ctx.strokePath()
        return "drew"
    }

    /// `count` 1×1 sibling layers in a 64×64 root, each on its own pixel of the target, or (with
    /// `offTarget`) all but one in every 1 000 placed beyond its right edge.
    static func siblings(_ count: Int, offTarget: Bool) throws -> String {
        try drawn(siblingTree(count, offTarget: offTarget), size: CGSize(width: 64, height: 64))
    }

    /// The tree `siblings` draws.
    static func siblingTree(_ count: Int, offTarget: Bool) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        for i in 0..<count {
            let l = CALayer()
            let x = offTarget && i % 1_000 != 0 ? 100 + i % 1_000 : i % 64
            l.frame = CGRect(x: x, y: (i / 64) % 64, width: 1, height: 1)
            l.backgroundColor = CGColor(gray: 0.5, alpha: 1)
            root.addSublayer(l)
        }
        return root
    }
}
