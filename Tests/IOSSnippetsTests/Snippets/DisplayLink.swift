// A display link on the main run loop, as iOS code sets one up. Deviation: a
// closure instead of target/selector (README).
import Foundation
import QuartzCore

final class FrameCounter {
    private(set) var frames: [(timestamp: CFTimeInterval, target: CFTimeInterval, duration: CFTimeInterval)] = []
    private var link: CADisplayLink?

    func start(on runLoop: RunLoop = .main) {
        let link = CADisplayLink { [weak self] link in
            self?.step(link)
        }
        link.preferredFrameRateRange = CAFrameRateRange(minimum: 30, maximum: 60, preferred: 60)
        link.add(to: runLoop, forMode: .common)
        self.link = link
    }

    private func step(_ link: CADisplayLink) {
        frames.append((link.timestamp, link.targetTimestamp, link.duration))
    }

    func pause() { link?.isPaused = true }

    func stop() {
        link?.invalidate()
        link = nil
    }
}
