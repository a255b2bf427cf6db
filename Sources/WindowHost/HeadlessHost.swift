import Compositor
import QuartzCore
import Raster
import Scene

/// Drives a scene without a display: scripted input at given times, frames rendered into a
/// `Pixmap` at given times — through the same `HostDriver` calls the X11 window makes, so tests
/// and exports see what a person at the window would.
///
/// Times are the host timeline's, in seconds; the scene time equals it (the clock starts at scene
/// time `startTime` at timeline time `startTime`) until a scripted `space` pauses it. `frame(at:)`
/// first delivers every scripted input due by that time, in order (inputs at the same time in the
/// order given), then calls `advance(to:)` once and renders. Frame times are expected not to
/// decrease; the display grid does not apply (any time may be rendered).
///
/// ```swift
/// let host = try HeadlessHost(scene: scene, script: [
///     .init(time: 0.10, .pointer(.began, CGPoint(x: 20, y: 20))),
///     .init(time: 0.20, .pointer(.moved, CGPoint(x: 80, y: 40))),
///     .init(time: 0.30, .pointer(.ended, CGPoint(x: 80, y: 40))),
/// ])
/// for t in HeadlessHost.displayFrameTimes(from: 0, through: 0.5) {
///     let pixels = host.frame(at: t)   // the renderer's pixmap, reused by the next frame
/// }
/// ```
public final class HeadlessHost {
    private let driver: HostDriver
    /// The inputs not yet delivered, in time order (times are the host timeline's).
    private var pending: SceneScript
    private var nextInput = 0

    /// True once a scripted `q` asked to quit (later inputs are still delivered if frames ask).
    public private(set) var quitRequested = false

    /// A host for `scene` at `scale`, with `script` to deliver (its times are the host
    /// timeline's: keys such as `space` act on the host's clock, as at a window).
    public init(scene: HostedScene, scale: CGFloat = 1, script: SceneScript = [],
                startTime: CFTimeInterval = 0) throws(HostError) {
        driver = try HostDriver(scene: scene, scale: scale, sceneTime: startTime, hostTime: startTime)
        pending = script
    }

    /// Adds inputs to the script (those earlier than inputs already delivered are delivered at the
    /// next frame).
    public func schedule(_ inputs: SceneScript) {
        pending = SceneScript(events: Array(pending.events[nextInput...]) + inputs.events)
        nextInput = 0
    }

    /// The background the frame is cleared to before drawing (nil, the default: transparent).
    public var backgroundColor: CGColor? {
        get { driver.renderer.backgroundColor }
        set { driver.renderer.backgroundColor = newValue }
    }

    /// Delivers the inputs due by `time`, advances the scene and renders the frame of timeline time
    /// `time`. The pixmap is the renderer's, overwritten by the next frame.
    @discardableResult
    public func frame(at time: CFTimeInterval) -> Pixmap {
        deliverInputs(through: time)
        driver.renderFrame(atHostTime: time)
        return driver.pixmap
    }

    /// Renders a frame at each of `times` and hands it to `body`.
    public func frames(at times: [CFTimeInterval], _ body: (CFTimeInterval, Pixmap) throws -> Void) rethrows {
        for t in times { try body(t, frame(at: t)) }
    }

    /// Delivers the scripted inputs due by `time` without drawing.
    public func deliverInputs(through time: CFTimeInterval) {
        while nextInput < pending.events.count, pending.events[nextInput].time <= time {
            let entry = pending.events[nextInput]
            nextInput += 1
            switch entry.input {
            case let .pointer(phase, point):
                driver.pointer(phase, at: point, hostTime: entry.time)
            case let .touch(n, phase, point):
                driver.pointer(phase, at: point, hostTime: entry.time, pointer: n)
            case let .key(key):
                if driver.key(key, hostTime: entry.time) == .quit { quitRequested = true }
            }
        }
    }

    /// Device pixels redrawn by the last frame (empty when the frame equals the one before).
    public var lastRedrawnArea: PixelRect { PixelRect(covering: driver.renderer._lastRedrawnArea) }
    /// Frames rendered so far (each called `advance(to:)` once).
    public var framesRendered: Int { driver.framesRendered }
    /// Whether a scripted `space` has paused the scene clock.
    public var isPaused: Bool { driver.isPaused }
    /// The scene time at timeline time `time` (given the inputs delivered so far).
    public func sceneTime(at time: CFTimeInterval) -> CFTimeInterval { driver.sceneTime(atHostTime: time) }
    /// The timeline time at which the window would draw its next frame, given what has been
    /// delivered and drawn so far (∞: none needed). Lets tests check pacing without a display.
    public var nextFrameDue: CFTimeInterval { driver.nextFrameDue() }

    /// The display's frame times from `start` through `end` (60 Hz): none when either is NaN or
    /// infinite or `end` is before `start`, and at most the first `maxFrameTimes`.
    public static func displayFrameTimes(from start: CFTimeInterval, through end: CFTimeInterval) -> [CFTimeInterval] {
        let grid = FrameGrid(origin: start)
        guard start.isFinite, end.isFinite, end >= start else { return [] }
        let ticks = ((end - start) / grid.interval + 1e-7).rounded(.down)
        let count = ticks < Double(maxFrameTimes) ? Int(ticks) + 1 : maxFrameTimes
        return (0..<count).map { grid.tick(Double($0)) }
    }

    /// Most frame times `displayFrameTimes(from:through:)` gives: 1 000 000, as an export's frames.
    public static let maxFrameTimes = 1_000_000
}
