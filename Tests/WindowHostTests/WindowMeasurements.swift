import Foundation
import QuartzCore
import Raster
import Testing
import TestSupport
import WindowHost

/// Numbers for the live window (not assertions of speed: run on demand, in a release build, and read
/// the printed lines):
///
///     CITRINE_MEASURE=1 swift test --scratch-path .build-host-release -c release \
///         --no-parallel --filter WindowHostTests.WindowMeasurements
///
/// Per-frame time of presenting a moving 100×100 layer in a 400×300 window (advance, render,
/// convert the damage, put it: `HostStatistics.frameDurations`), and the CPU an idle window uses.
@Suite(.serialized, .enabled(if: XTools.available && ProcessInfo.processInfo.environment["CITRINE_MEASURE"] == "1",
                             "set CITRINE_MEASURE=1 (and have Xvfb, xdotool, xwd) to measure"))
struct WindowMeasurements {
    /// A 100×100 rounded square moving across a 400×300 scene (`wholeFrame`: the background
    /// colour animates too, so every frame is redrawn and presented whole).
    static func movingLayerScene(wholeFrame: Bool) -> LayerScene {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
        root.backgroundColor = Palette.white
        if wholeFrame {
            let fade = CABasicAnimation(keyPath: "backgroundColor")
            fade.fromValue = Palette.white
            fade.toValue = CGColor(red: 0.5, green: 0.6, blue: 0.7, alpha: 1)
            fade.duration = 1
            fade.autoreverses = true
            fade.repeatCount = .infinity
            root.add(fade, forKey: "fade")
        }
        let square = CALayer()
        square.frame = CGRect(x: 0, y: 100, width: 100, height: 100)
        square.backgroundColor = Palette.red
        square.cornerRadius = 8
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 50
        move.toValue = 350
        move.duration = 1
        move.autoreverses = true
        move.repeatCount = .infinity
        square.add(move, forKey: "move")
        root.addSublayer(square)
        CATransaction.flush()
        return LayerScene(rootLayer: root, size: CGSize(width: 400, height: 300))
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
    }

    /// (scale, MIT-SHM, wait for the server each frame, whole frame damaged)
    static let cases: [(Double, Bool, Bool, Bool)] = [
        (1, true, false, false), (2, true, false, false),
        (1, true, true, false), (2, true, true, false), (1, false, true, false), (2, false, true, false),
        (1, true, true, true), (2, true, true, true),
    ]

    @Test(arguments: Self.cases)
    func movingLayerFrameTime(scale: Double, sharedMemory: Bool, synchronous: Bool, wholeFrame: Bool) throws {
        let xvfb = try Xvfb(width: 1024, height: 768)
        let display = xvfb.display
        let runner = WindowThread {
            CAMediaClock.setManualTime(0)
            let window = try X11Window(scene: Self.movingLayerScene(wholeFrame: wholeFrame), scale: CGFloat(scale),
                                       title: "measure", display: display, allowSharedMemory: sharedMemory)
            window._synchronousPresents = synchronous
            return window
        }
        let window = try runner.waitForWindow()
        usleep(500_000)                                            // warm up: retained bitmaps, first frames
        let skip = window._statistics.frameDurations.count
        let (cpu0, t0) = (runner.cpuTime(), Date())
        usleep(3_000_000)
        let stats = window._statistics
        let (cpu1, t1) = (runner.cpuTime(), Date())
        window.stop()
        #expect(runner.waitUntilFinished())
        let d = Array(stats.frameDurations.dropFirst(skip)).map { $0 * 1000 }
        try #require(d.count > 10)
        let seconds = t1.timeIntervalSince(t0)
        print(String(format: "[measure] scale %.0f %@ %@ %@: %d frames in %.2f s (%.1f fps); per frame median %.3f ms, p90 %.3f ms, max %.3f ms; window thread CPU %.1f %%; %@ pixels/frame avg",
                     scale, sharedMemory ? "MIT-SHM" : "XPutImage", synchronous ? "synced" : "async",
                     wholeFrame ? "whole-frame" : "moving-square", d.count, seconds, Double(d.count) / seconds,
                     Self.percentile(d, 0.5), Self.percentile(d, 0.9), d.max()!, 100 * (cpu1 - cpu0) / seconds,
                     String(stats.pixelsPresented / max(1, stats.framesPresented))))
    }

    /// The conversion alone: a whole 800×600 frame (400×300 at scale 2) into BGRX.
    @Test func conversionThroughput() throws {
        let pixmap = try Raster.Pixmap(width: 800, height: 600)
        for i in 0..<(800 * 600) { pixmap.words[i] = UInt32(truncatingIfNeeded: i &* 2654435761) | 0xff00_0000 }
        let format = try #require(PixelFormat(redMask: 0xff0000, greenMask: 0xff00, blueMask: 0xff, bitsPerPixel: 32, bigEndian: false))
        var image = [UInt8](repeating: 0, count: 800 * 600 * 4)
        var times: [Double] = []
        for _ in 0..<50 {
            let t0 = Date()
            image.withUnsafeMutableBytes { format.convert(PixelRect(x: 0, y: 0, width: 800, height: 600), of: pixmap, into: $0.baseAddress!, bytesPerRow: 3200) }
            times.append(Date().timeIntervalSince(t0))
        }
        let median = Self.percentile(times, 0.5)
        print(String(format: "[measure] conversion of an 800×600 frame to BGRX: median %.3f ms (%.2f ns/pixel)", median * 1000, median * 1e9 / 480_000))
        #expect(image[0] == UInt8(truncatingIfNeeded: pixmap.words[0] >> 16))
    }

    @Test func idleWindowCPU() throws {
        let xvfb = try Xvfb()
        let display = xvfb.display
        let runner = WindowThread {
            CAMediaClock.setManualTime(0)
            return try X11Window(scene: DragScene(animatedBar: true), title: "idle", display: display)
        }
        let window = try runner.waitForWindow()
        usleep(1_500_000)                                          // the 1 s animation ends
        let (s0, thread0, process0, t0) = (window._statistics, runner.cpuTime(), processCPUTime(), Date())
        usleep(5_000_000)
        let (s1, thread1, process1, t1) = (window._statistics, runner.cpuTime(), processCPUTime(), Date())
        window.stop()
        #expect(runner.waitUntilFinished())
        let seconds = t1.timeIntervalSince(t0)
        print(String(format: "[measure] idle window over %.2f s: window thread CPU %.3f ms (%.4f %%), whole test process %.3f ms (%.4f %%), frames %d, wake-ups %d",
                     seconds, (thread1 - thread0) * 1000, 100 * (thread1 - thread0) / seconds,
                     (process1 - process0) * 1000, 100 * (process1 - process0) / seconds,
                     s1.framesRendered - s0.framesRendered, s1.wakeups - s0.wakeups))
        #expect(s1.framesRendered == s0.framesRendered)
    }
}
