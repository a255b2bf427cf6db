import UIKit

/// A UIKit window as a scene: pointer events go into `UIApplication`'s one input path
/// (`sendPointerEvent`, as a touch on iOS reaches `UIApplication.sendEvent`), and each frame is
/// one turn of its run loop (`UIApplication.advance(to:)`: due blocks, display links, layout,
/// the commit). It advances at every display frame (`advancesEveryDisplayFrame`), as the run
/// loop of a screen turns. `UIApplication.shared` is one per process: two such scenes alive at
/// once share it (export them on one thread).
public final class WindowScene: HostedScene {
    /// The window shown.
    public let window: UIWindow
    /// The drawn area in points: the window's bounds size unless given.
    public let size: CGSize
    public var rootLayer: CALayer { window.layer }
    public var advancesEveryDisplayFrame: Bool { true }

    /// `window` as a scene of `size` points (default: the window's bounds size).
    public init(window: UIWindow, size: CGSize? = nil) {
        self.window = window
        self.size = size ?? window.bounds.size
    }

    /// A new window of `size` points (default: the view's bounds size), white, holding `view`
    /// at its origin, made key and visible.
    public convenience init(view: UIView, size: CGSize? = nil) {
        let size = size ?? view.bounds.size
        let window = UIWindow(frame: CGRect(origin: .zero, size: size))
        window.backgroundColor = .white
        view.frame.origin = .zero
        window.addSubview(view)
        window.makeKeyAndVisible()
        self.init(window: window, size: size)
    }

    /// A new window of `size` points (default: the controller's view's bounds size, or 320×480
    /// points when it has none) whose root view controller is `controller`, made key and visible.
    public convenience init(rootViewController controller: UIViewController, size: CGSize? = nil) {
        let own = controller.view.bounds.size
        let size = size ?? (own.width >= 1 && own.height >= 1 ? own : CGSize(width: 320, height: 480))
        let window = UIWindow(frame: CGRect(origin: .zero, size: size))
        window.backgroundColor = .white
        window.rootViewController = controller
        window.makeKeyAndVisible()
        self.init(window: window, size: size)
    }

    public func handle(_ event: HostPointerEvent) {
        UIApplication.shared.sendPointerEvent(UITouch.Phase(event.phase), at: event.location, timestamp: event.timestamp,
                                             pointer: event.pointer, in: window)
    }

    public func advance(to time: CFTimeInterval) { UIApplication.shared.advance(to: time) }

    /// The next display frame while the run loop has work besides the layer tree's animations
    /// (`UIApplication._needsNextTurn`: display links, queued blocks, touches and recognizers in
    /// progress); otherwise none, and the tree's animations and the next input decide.
    public func nextFrameTime(after time: CFTimeInterval) -> CFTimeInterval {
        UIApplication.shared._needsNextTurn ? time + 1 / CADisplayLink.displayRate : .infinity
    }
}

/// The scene that shows `object`: a `CALayer` (`LayerScene`), a `UIWindow` (`WindowScene`), a
/// `UIView` or a `UIViewController` (a `WindowScene` of a new window holding it); nil for
/// anything else. `size` is the drawn area in points; nil takes the object's own bounds size
/// (a layer's `bounds`, placed at its `position` in an area as large as its frame's far corner;
/// 320×480 points for a controller whose view has no size yet). The tree is committed on the
/// calling thread before returning, so animations already added begin now.
public func makeScene(for object: Any, size: CGSize?) -> (any HostedScene)? {
    let scene: any HostedScene
    switch object {
    case let window as UIWindow:
        scene = WindowScene(window: window, size: size)
    case let view as UIView:
        scene = WindowScene(view: view, size: size)
    case let controller as UIViewController:
        scene = WindowScene(rootViewController: controller, size: size)
    case let layer as CALayer:
        let frame = layer.frame
        scene = LayerScene(rootLayer: layer, size: size ?? CGSize(width: max(frame.maxX, 0), height: max(frame.maxY, 0)))
    default:
        return nil
    }
    CATransaction.flush()
    return scene
}

extension SceneScript {
    /// Plays the script headless into `window` (default: the application's key window, else its
    /// last window, else the application alone) through a `SceneDriver` starting at media time 0:
    /// see `SceneDriver.play(from:through:framesPerSecond:frame:)`.
    @discardableResult
    public func play(in window: UIWindow? = nil, from start: CFTimeInterval = 0, through end: CFTimeInterval? = nil,
                     framesPerSecond: Double = 60, frame: (CFTimeInterval) throws -> Void) rethrows -> [CFTimeInterval] {
        try driver(in: window).play(from: start, through: end, framesPerSecond: framesPerSecond, frame: frame)
    }

    /// The same without a per-frame action.
    @discardableResult
    public func play(in window: UIWindow? = nil, from start: CFTimeInterval = 0, through end: CFTimeInterval? = nil,
                     framesPerSecond: Double = 60) -> [CFTimeInterval] {
        driver(in: window).play(from: start, through: end, framesPerSecond: framesPerSecond)
    }

    private func driver(in window: UIWindow?) -> SceneDriver {
        let target = window ?? UIApplication.shared.keyWindow ?? UIApplication.shared.windows.last
        return SceneDriver(scene: target.map { WindowScene(window: $0) } ?? ApplicationScene(), script: self)
    }
}

/// The application with no window: pointer events find none, run-loop turns still run.
private final class ApplicationScene: HostedScene {
    let rootLayer = CALayer()
    var size: CGSize { .zero }
    func handle(_ event: HostPointerEvent) {
        UIApplication.shared.sendPointerEvent(.init(event.phase), at: event.location, timestamp: event.timestamp, pointer: event.pointer)
    }
    func advance(to time: CFTimeInterval) { UIApplication.shared.advance(to: time) }
}

extension UITouch.Phase {
    /// The touch phase of a scene's pointer phase.
    init(_ phase: HostPointerEvent.Phase) {
        self = switch phase {
        case .began: .began
        case .moved: .moved
        case .ended: .ended
        case .cancelled: .cancelled
        }
    }
}
