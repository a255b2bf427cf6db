import UIKit
import Export

extension SeedDemo {
    /// The demo as an exporter's scene: its window, stepped through its scripted timeline as a
    /// live window would run it — one run-loop turn (`UIApplication.advance(to:)`) at every
    /// display frame (1/60 s) from media time 0, each after the events due by then. A frame at
    /// time t therefore shows the same state whatever frame rate or still time is asked for
    /// (a still at 2 s has seen the drag at 0.1–0.6 s and the spring that followed).
    /// `UIApplication.shared` is one per process: two such scenes must not be alive at once
    /// (`exporter(scale:)` builds one).
    public func makeScene() -> any ExportScene { Scene(window: build(), timeline: timeline) }

    /// An exporter of the demo at `scale`: one scene, drawn on one thread, encoded on all the
    /// exporter's `threads` (`scenesShareState`).
    public func exporter(scale: CGFloat) -> CAAnimationExporter {
        CAAnimationExporter(size: size, scale: scale, scenesShareState: true) { makeScene() }
    }

    final class Scene: ExportScene {
        let window: UIWindow
        let timeline: UIEventTimeline
        /// The media time of the last run-loop turn, nil before the first.
        private var lastTurn: CFTimeInterval?

        init(window: UIWindow, timeline: UIEventTimeline) {
            self.window = window
            self.timeline = timeline
        }

        var rootLayer: CALayer { window.layer }

        /// Turns the run loop at each display frame after the last turn (from 0 for the first)
        /// and before `time`, then at `time`; the calling thread's clock reads `time` afterwards.
        func advance(to time: CFTimeInterval) {
            let step = 1 / CADisplayLink.displayRate
            var frame = lastTurn.map { ($0 / step + 1e-6).rounded(.down) + 1 } ?? 0
            while frame * step < time - 1e-9 {
                CAMediaClock._setManualTimeForCurrentThread(frame * step)
                turn(at: frame * step)
                frame += 1
            }
            CAMediaClock._setManualTimeForCurrentThread(time)
            turn(at: time)
        }

        private func turn(at time: CFTimeInterval) {
            timeline.sendEvents(after: lastTurn, through: time, in: window)
            lastTurn = time
            UIApplication.shared.advance(to: time)
        }
    }
}
