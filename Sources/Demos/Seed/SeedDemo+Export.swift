import CitrineUI
import Export

extension SeedDemo {
    /// The demo as an exporter's scene: its window, stepped through its scripted timeline —
    /// the events due by each frame time go through `UIApplication`'s input path, then one turn
    /// of its run loop (`advance(to:)`), as `play()` does headless. `UIApplication.shared` is
    /// one per process: export with `threads = 1`.
    public func makeScene() -> any ExportScene { Scene(window: build(), timeline: timeline) }

    final class Scene: ExportScene {
        let window: UIWindow
        let timeline: UIEventTimeline
        private var lastTime: CFTimeInterval?

        init(window: UIWindow, timeline: UIEventTimeline) {
            self.window = window
            self.timeline = timeline
        }

        var rootLayer: CALayer { window.layer }

        func advance(to time: CFTimeInterval) {
            timeline.sendEvents(after: lastTime, through: time, in: window)
            lastTime = time
            UIApplication.shared.advance(to: time)
        }
    }
}
