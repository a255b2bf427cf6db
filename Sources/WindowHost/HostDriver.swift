import Compositor
import QuartzCore
import Raster
import Scene

/// A rectangle of device pixels.
public struct PixelRect: Sendable, Equatable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public static let zero = PixelRect(x: 0, y: 0, width: 0, height: 0)
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var pixelCount: Int { isEmpty ? 0 : width * height }

    /// The common part (`.zero` when they do not meet).
    public func intersection(_ o: PixelRect) -> PixelRect {
        let x0 = max(x, o.x), y0 = max(y, o.y), x1 = min(x + width, o.x + o.width), y1 = min(y + height, o.y + o.height)
        return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : .zero
    }

    /// The smallest rectangle holding both (an empty one adds nothing).
    public func union(_ o: PixelRect) -> PixelRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = min(x, o.x), y0 = min(y, o.y), x1 = max(x + width, o.x + o.width), y1 = max(y + height, o.y + o.height)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func offsetBy(dx: Int, dy: Int) -> PixelRect { PixelRect(x: x + dx, y: y + dy, width: width, height: height) }

    /// The whole pixels covering `r` (device pixels, as `CARenderer._lastRedrawnArea` gives them).
    init(covering r: CGRect) {
        guard r.width > 0, r.height > 0, r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else {
            self = .zero
            return
        }
        let x0 = Int(r.minX.rounded(.down)), y0 = Int(r.minY.rounded(.down))
        self.init(x: x0, y: y0, width: Int(r.maxX.rounded(.up)) - x0, height: Int(r.maxY.rounded(.up)) - y0)
    }
}

/// The one event path between a host (window or script) and a `HostedScene`: host times are
/// turned into scene times (`HostClock`: pause, step), input and frames go to the scene through
/// its `SceneDriver` (which sets the calling thread's clock to each call's scene time), frames
/// are rendered, and the driver keeps track of when the next frame is needed.
///
/// Every call takes the host time it happens at; the host makes them in time order.
final class HostDriver {
    let scene: HostedScene
    private let driver: SceneDriver
    let renderer: CARenderer
    private(set) var clock: HostClock
    private(set) var grid: FrameGrid
    /// The last frame drawn: its host tick and scene time.
    private(set) var lastFrame: (hostTime: CFTimeInterval, sceneTime: CFTimeInterval)?
    /// The host time of the earliest redraw request not yet drawn (input, clock change).
    private(set) var requestedAt: CFTimeInterval?
    /// The host time of the latest input: no frame is drawn at a tick before it, so that frame
    /// times never precede the events the scene has seen.
    private var latestInput = -CFTimeInterval.infinity
    /// After the last frame, the scene time at which the tree or the scene next changes by itself.
    private var nextChange: CFTimeInterval = .infinity
    /// Frames drawn (each called `advance(to:)` once).
    private(set) var framesRendered = 0

    /// A driver for `scene` at `scale` device pixels per point, whose scene time is `sceneTime`
    /// at host time `hostTime`; frames fall on the display grid starting there.
    init(scene: HostedScene, scale: CGFloat, sceneTime: CFTimeInterval, hostTime: CFTimeInterval) throws(HostError) {
        let size = scene.size
        guard size.width.isFinite, size.height.isFinite, size.width >= 1, size.height >= 1 else {
            throw .invalidScene("size \(size.width)×\(size.height) points: each side must be at least 1 point")
        }
        guard scale.isFinite, scale >= 0.25, scale <= 8 else {
            throw .invalidScene("scale \(scale): must be between 0.25 and 8")
        }
        let (width, height) = (size.width.rounded(), size.height.rounded())
        guard width * scale <= 16_384, height * scale <= 16_384 else {
            throw .invalidScene("\(width)×\(height) points at scale \(scale) exceeds 16384 pixels on a side")
        }
        let w = Int(width), h = Int(height)
        do {
            renderer = try CARenderer(width: w, height: h, scale: scale)
        } catch {
            throw .invalidScene("\(error)")
        }
        renderer.layer = scene.rootLayer
        self.scene = scene
        driver = SceneDriver(scene: scene, startTime: sceneTime)
        clock = HostClock(sceneTime: sceneTime, atHostTime: hostTime)
        grid = FrameGrid(origin: hostTime)
        requestedAt = hostTime - grid.interval   // the first frame is due at once
    }

    /// Starts over: scene time `sceneTime` at host time `hostTime`, running, the display grid from
    /// there, the first frame due at once.
    func restart(sceneTime: CFTimeInterval, hostTime: CFTimeInterval) {
        clock = HostClock(sceneTime: sceneTime, atHostTime: hostTime)
        grid = FrameGrid(origin: hostTime)
        lastFrame = nil
        nextChange = .infinity
        latestInput = -.infinity
        requestedAt = hostTime - grid.interval
    }

    var pixmap: Pixmap { renderer.pixmap }
    var scale: CGFloat { renderer.scale }

    // MARK: input

    /// Delivers a pointer event of `pointer` (0 the mouse) at `viewPoint` (points in the drawn
    /// area, y down; converted to the root layer's space) and requests a frame.
    func pointer(_ phase: HostPointerEvent.Phase, at viewPoint: CGPoint, hostTime: CFTimeInterval, pointer: Int = 0) {
        driver.send(pointer == 0 ? .pointer(phase, viewPoint) : .touch(pointer, phase, viewPoint),
                    at: clock.sceneTime(atHostTime: hostTime))
        requestFrame(at: hostTime)
    }

    /// What a key did.
    enum KeyOutcome: Equatable { case handled, quit }

    /// Space pauses/resumes the scene clock, left/right step it while paused, `q` quits; any other
    /// key (and the arrows while running) goes to the scene.
    func key(_ key: HostKey, hostTime: CFTimeInterval) -> KeyOutcome {
        switch key {
        case .character("q"), .character("Q"):
            return .quit
        case .space:
            clock.togglePause(atHostTime: hostTime)
        case .left where clock.isPaused:
            clock.step(frames: -1)
        case .right where clock.isPaused:
            clock.step(frames: 1)
        default:
            driver.send(.key(key), at: clock.sceneTime(atHostTime: hostTime))
        }
        requestFrame(at: hostTime)
        return .handled
    }

    var isPaused: Bool { clock.isPaused }

    func sceneTime(atHostTime t: CFTimeInterval) -> CFTimeInterval { clock.sceneTime(atHostTime: t) }

    /// Asks for a frame at the next display tick after `hostTime`.
    func requestFrame(at hostTime: CFTimeInterval) {
        requestedAt = min(requestedAt ?? .infinity, hostTime)
        latestInput = max(latestInput, hostTime)
    }

    // MARK: frames

    /// The host time at which the next frame is due: the tick after a redraw request, the tick
    /// after the last frame while something animates, the first tick at or after the next
    /// scheduled change; ∞ when nothing will change (or the clock is paused and nothing was asked).
    /// Never a tick at or before the latest input (say, the last frame was drawn before a pause
    /// and the animation resumes now: its next frame is the tick after the resume, not a tick in
    /// the past, which would show scene time going back).
    func nextFrameDue() -> CFTimeInterval {
        var due = requestedAt.map { grid.firstTick(after: $0) } ?? .infinity
        if let last = lastFrame, !clock.isPaused, nextChange.isFinite {
            due = min(due, nextChange <= last.sceneTime
                ? grid.firstTick(after: last.hostTime)
                : grid.firstTick(atOrAfter: clock.hostTime(forSceneTime: nextChange)))
        }
        return latestInput.isFinite ? max(due, grid.firstTick(after: latestInput)) : due
    }

    /// Draws the frame of host tick `hostTime`: the scene advances to its scene time, the tree is
    /// rendered there. Returns the device pixels redrawn (empty for a frame identical to the last).
    @discardableResult
    func renderFrame(atHostTime hostTime: CFTimeInterval) -> PixelRect {
        let t = clock.sceneTime(atHostTime: hostTime)
        driver.advance(to: t)
        renderer.beginFrame(atTime: t)
        renderer.render()
        renderer.endFrame()
        framesRendered += 1
        lastFrame = (hostTime, t)
        requestedAt = nil
        nextChange = min(renderer.nextFrameTime(), scene.nextFrameTime(after: t))
        return PixelRect(covering: renderer._lastRedrawnArea)
    }
}
