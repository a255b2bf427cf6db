import QuartzCore

/// A layer tree as a scene: pointer events go to `onPointer`, keys to `onKey`, each frame pumps
/// `CADisplayLink`; the commit the renderer makes before drawing (or a driver's
/// `CATransaction.flush()`) then commits what they changed, and delivers the animation events due
/// — one commit per frame, as a display makes. Set `runsContinuously` while display links (or
/// anything else outside the layer tree's animations) need every display frame.
public final class LayerScene: HostedScene {
    public let rootLayer: CALayer
    public let size: CGSize
    public var onPointer: ((HostPointerEvent) -> Void)?
    public var onKey: ((HostKey) -> Void)?
    /// Frames at the display rate even when no animation runs (default false).
    public var runsContinuously = false

    /// `rootLayer` drawn in a `size`-point area (its position and bounds place it there).
    public init(rootLayer: CALayer, size: CGSize, onPointer: ((HostPointerEvent) -> Void)? = nil) {
        self.rootLayer = rootLayer
        self.size = size
        self.onPointer = onPointer
    }

    public func handle(_ event: HostPointerEvent) { onPointer?(event) }

    public func advance(to time: CFTimeInterval) { CADisplayLink.pump() }

    public func handleKey(_ key: HostKey) { onKey?(key) }

    public func nextFrameTime(after time: CFTimeInterval) -> CFTimeInterval {
        runsContinuously ? time + 1 / CADisplayLink.displayRate : .infinity
    }
}
