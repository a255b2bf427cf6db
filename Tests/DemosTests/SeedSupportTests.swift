// Shared helpers of the Seed*Tests suites (no tests here): a driver for seed demos and point comparisons.
import Scene
import UIKit
import Demos
import Testing

/// Drives a seed demo's window by hand through the Scene module's driver: pointer events through
/// `UIApplication`'s input path, then run-loop turns at 60 fps.
final class SeedDriver {
    let window: UIWindow
    private(set) var now: CFTimeInterval = 0
    private var sentThrough: CFTimeInterval?

    init(_ demo: SeedDemo) {
        CAMediaClock.setManualTime(0)
        window = demo.build()
        UIApplication.shared.advance(to: 0)
    }

    /// Sends the events of `timeline` after the last turn and up to `time` and advances the run
    /// loop frame by frame (60 fps) to `time`, calling `each(t)` after every turn.
    func run(_ timeline: SceneScript, to time: CFTimeInterval, each: (CFTimeInterval) -> Void = { _ in }) {
        let due = SceneScript(events: timeline.events.filter { $0.time > (sentThrough ?? -1) })
        let driver = SceneDriver(scene: WindowScene(window: window), script: due)
        while now < time - 1e-9 {
            // The next 60 fps frame boundary (from a frame count, so no drift), or `time`.
            var t = ((now * 60 + 1e-6).rounded(.down) + 1) / 60
            if t > time - 1e-9 { t = time }
            driver.advance(to: t)
            sentThrough = t
            now = t
            each(t)
        }
    }
}

func close(_ a: CGFloat, _ b: CGFloat, _ tolerance: CGFloat = 1e-6) -> Bool { abs(a - b) <= tolerance }
func close(_ a: CGPoint, _ b: CGPoint, _ tolerance: CGFloat = 1e-6) -> Bool {
    close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance)
}
