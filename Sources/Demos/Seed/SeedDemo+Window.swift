import UIKit
import WindowHost

extension SeedDemo {
    /// The demo as a window host's scene (`citrine play`): its window built now and committed.
    public func makeHostedScene() -> any HostedScene {
        let scene = WindowScene(window: build(), size: size)
        CATransaction.flush()
        return scene
    }
}

/// A UIKit window as the window host's scene: the host's pointer events go into
/// `UIApplication`'s one input path, and each displayed frame is one turn of its run loop — the
/// same calls a scripted `UIEventTimeline` makes headless.
final class WindowScene: HostedScene {
    let window: UIWindow
    let size: CGSize
    var rootLayer: CALayer { window.layer }

    init(window: UIWindow, size: CGSize) {
        self.window = window
        self.size = size
    }

    func handle(_ event: HostPointerEvent) {
        let phase: UITouch.Phase = switch event.phase {
        case .began: .began
        case .moved: .moved
        case .ended: .ended
        case .cancelled: .cancelled
        }
        UIApplication.shared.sendPointerEvent(phase, at: event.location, timestamp: event.timestamp, in: window)
    }

    func advance(to time: CFTimeInterval) { UIApplication.shared.advance(to: time) }

    /// The next display frame while the run loop has work besides the layer tree's animations
    /// (`UIApplication._needsNextTurn`: display links, queued blocks, touches and recognizers in
    /// progress); otherwise none, and the tree's animations and the next input decide.
    func nextFrameTime(after time: CFTimeInterval) -> CFTimeInterval {
        UIApplication.shared._needsNextTurn ? time + 1 / CADisplayLink.displayRate : .infinity
    }
}
