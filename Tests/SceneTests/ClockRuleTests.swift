// The clock rule: the driver sets the time of the thread that advances the scene, and nothing
// writes a clock another thread reads.
import Export
import Foundation
import Synchronization
import Scene
import Testing
import UIKit

/// Records `CACurrentMediaTime()` as touch code reads it.
final class ClockReadingView: UIView {
    private(set) var touchTimes: [CFTimeInterval] = []
    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { touchTimes.append(CACurrentMediaTime()) }
    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { touchTimes.append(CACurrentMediaTime()) }
}

/// The view the scene built (one scene at a time: UIKit scenes share `UIApplication.shared`).
nonisolated(unsafe) private var builtView: ClockReadingView?

@Suite(.serialized) struct ClockRuleTests {
    /// A tap at 0.123 s (down) and 0.173 s (up), between display frames, exported at 10 fps:
    /// touch code on the export thread reads each event's own time (as `UITouch.timestamp` on
    /// iOS is the event's), and the test thread's clock keeps the value it set.
    @Test func exportingScriptedInputKeepsEachThreadsClock() throws {
        CAMediaClock.setManualTime(42)
        defer { CAMediaClock.useSystemTime() }
        let exporter = CAAnimationExporter(size: CGSize(width: 40, height: 40), scenesShareState: true,
                                           script: SceneScript([.tap(CGPoint(x: 20, y: 20), at: 0.123, duration: 0.05)])) {
            let view = ClockReadingView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
            builtView = view
            return WindowScene(view: view)
        }
        exporter.threads = 1
        try exporter.forEachFrame(try ExportTimeline(start: 0, duration: 0.5, fps: 10)) { _ in }
        let seen = try #require(builtView).touchTimes
        #expect(seen.count == 2)
        #expect(zip(seen, [0.123, 0.173]).allSatisfy { abs($0 - $1) < 1e-9 }, "touch code read \(seen)")
        #expect(CACurrentMediaTime() == 42, "the export wrote the test thread's clock")
        builtView = nil
    }

    /// A driver on another thread moves that thread's clock only; the thread keeps its last
    /// scene time until it sets the shared clock again.
    @Test func aDriverSetsOnlyItsOwnThreadsClock() throws {
        CAMediaClock.setManualTime(7)
        defer { CAMediaClock.useSystemTime() }
        let readings = Mutex<[CFTimeInterval]>([])
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let scene = LayerScene(rootLayer: CALayer(), size: CGSize(width: 10, height: 10))
            scene.onPointer = { event in readings.withLock { $0.append(CACurrentMediaTime()) } }
            let driver = SceneDriver(scene: scene, script: [.init(time: 0.25, .pointer(.began, .zero))], startTime: 100)
            driver.advance(to: 100.5)
            readings.withLock { $0.append(CACurrentMediaTime()) }
            CAMediaClock.setManualTime(7)
            readings.withLock { $0.append(CACurrentMediaTime()) }
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(readings.withLock { $0 } == [100.25, 100.5, 7])
        #expect(CACurrentMediaTime() == 7)
    }
}
