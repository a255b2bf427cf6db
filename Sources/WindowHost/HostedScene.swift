import QuartzCore

/// A pointer (mouse button 1, or a scripted finger) event, as delivered to a hosted scene.
public struct HostPointerEvent: Sendable, Equatable {
    /// Where the pointer is in its press: down, dragging, up, or taken away by the system.
    public enum Phase: Sendable, Equatable {
        case began, moved, ended
        /// The press ended without a release the scene should act on (the window closed or lost
        /// the pointer, or a second press arrived before the release of the first).
        case cancelled
    }
    public var phase: Phase
    /// Points, in the root layer's coordinate space (y down).
    public var location: CGPoint
    /// Scene media time of the event (the value `CACurrentMediaTime()` returns during `handle`).
    public var timestamp: CFTimeInterval

    public init(phase: Phase, location: CGPoint, timestamp: CFTimeInterval) {
        self.phase = phase
        self.location = location
        self.timestamp = timestamp
    }
}

/// A key, as the host sees it. The host itself uses `space` (pause/resume the scene's clock),
/// `left`/`right` (step one frame back/forward while paused) and `character("q")` (quit); the
/// others go to `HostedScene.handleKey(_:)`.
public enum HostKey: Sendable, Equatable {
    case space, left, right, up, down, escape, `return`, tab, backspace
    /// A key that types text (its text, as the keyboard layout gives it: "q", "Q", "é").
    case character(String)
}

/// A scene a host can show: a layer tree of a fixed size in points, input in, frames out.
///
/// The host calls, on the thread that runs it, in time order: `handle(_:)` for each pointer event
/// as it arrives, and `advance(to:)` once per displayed frame, just before that frame is rendered.
/// During both, `CACurrentMediaTime()` returns the scene time of the call. Scene times never go
/// back except when a paused host is stepped back a frame (left arrow).
public protocol HostedScene: AnyObject {
    /// The root of the tree shown; drawn at its position in the host's `size`-point area.
    var rootLayer: CALayer { get }
    /// The drawn area, in points.
    var size: CGSize { get }
    /// One pointer event, in order of arrival.
    func handle(_ event: HostPointerEvent)
    /// Called once per displayed frame, before rendering it: run display links, commit changes.
    func advance(to time: CFTimeInterval)
    /// A key the host does not use itself. Default: ignored.
    func handleKey(_ key: HostKey)
    /// The earliest scene time after `time` at which the scene needs a frame even though no layer
    /// animation does (a running display link, a timer). The host asks after every frame.
    /// Default: `.infinity` (the layer tree's animations alone decide).
    func nextFrameTime(after time: CFTimeInterval) -> CFTimeInterval
}

extension HostedScene {
    public func handleKey(_ key: HostKey) {}
    public func nextFrameTime(after time: CFTimeInterval) -> CFTimeInterval { .infinity }
}

/// A ready-made scene around a layer tree: pointer events go to `onPointer`, each frame pumps
/// `CADisplayLink` and commits the implicit transaction. Set `runsContinuously` while display
/// links (or anything else outside the layer tree's animations) need every display frame.
public final class LayerScene: HostedScene {
    public let rootLayer: CALayer
    public let size: CGSize
    public var onPointer: ((HostPointerEvent) -> Void)?
    public var onKey: ((HostKey) -> Void)?
    /// Frames at the display rate even when no animation runs (default false).
    public var runsContinuously = false

    public init(rootLayer: CALayer, size: CGSize, onPointer: ((HostPointerEvent) -> Void)? = nil) {
        self.rootLayer = rootLayer
        self.size = size
        self.onPointer = onPointer
    }

    public func handle(_ event: HostPointerEvent) { onPointer?(event) }

    public func advance(to time: CFTimeInterval) {
        CADisplayLink.pump()
        CATransaction.flush()
    }

    public func handleKey(_ key: HostKey) { onKey?(key) }

    public func nextFrameTime(after time: CFTimeInterval) -> CFTimeInterval {
        runsContinuously ? time + 1 / CADisplayLink.displayRate : .infinity
    }
}
