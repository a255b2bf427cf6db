// The clock rule: the driver sets the time of the thread that advances the scene, and nothing
// writes a clock another thread reads.
import Demos
import Export
import Foundation
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
        let demo = SeedDemo(name: "clock", seeds: [], description: "", size: CGSize(width: 40, height: 40), span: 0.5,
                            timeline: UIEventTimeline([.tap(CGPoint(x: 20, y: 20), at: 0.123, duration: 0.05)])) {
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
            let view = ClockReadingView(frame: window.bounds)
            window.addSubview(view)
            window.makeKeyAndVisible()
            builtView = view
            return window
        }
        let exporter = demo.exporter(scale: 1)
        exporter.threads = 1
        try exporter.forEachFrame(try ExportTimeline(start: 0, duration: 0.5, fps: 10)) { _ in }
        let seen = try #require(builtView).touchTimes
        #expect(seen.count == 2)
        #expect(zip(seen, [0.123, 0.173]).allSatisfy { abs($0 - $1) < 1e-9 }, "touch code read \(seen)")
        #expect(CACurrentMediaTime() == 42, "the export wrote the test thread's clock")
        builtView = nil
    }
}
