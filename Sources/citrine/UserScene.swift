import QuartzCore
import UIKit
import WindowHost

/// What `play` shows of a page: a layer alone as a `LayerScene`; a view in a window of its own
/// size, whose pointer events and frames go through `UIApplication` as a demo's do (the view
/// at the window's origin; a view already in a window is shown in that window).
enum UserScene {
    static func make(for live: UserProgram.LiveView) -> any HostedScene {
        guard let view = live.view else {
            let scene = LayerScene(rootLayer: live.layer, size: live.size)
            scene.runsContinuously = true
            return scene
        }
        let window = view.window ?? {
            let window = UIWindow(frame: CGRect(origin: .zero, size: live.size))
            view.frame.origin = .zero
            window.addSubview(view)
            return window
        }()
        window.makeKeyAndVisible()
        CATransaction.flush()
        return WindowScene(window: window, size: window.bounds.size)
    }

    /// A window as the host's scene: pointer events into `UIApplication`'s input path, each
    /// displayed frame one turn of its run loop.
    private final class WindowScene: HostedScene {
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

        func nextFrameTime(after time: CFTimeInterval) -> CFTimeInterval {
            UIApplication.shared._needsNextTurn ? time + 1 / CADisplayLink.displayRate : .infinity
        }
    }
}
