import QuartzCore

/// Drives a scene by hand, as swift-nio's EmbeddedEventLoop drives its loop: the scene's time
/// moves only when the driver is told to advance, and the input of its script due by then is
/// delivered first, each input at its own time. The window host, the exporter and tests drive
/// scenes through it (see the module's design note).
///
/// **Clock.** Before every call into the scene the driver sets the calling thread's own media
/// time (`CAMediaClock._setManualTimeForCurrentThread`) to the scene time of the call, and
/// leaves it at the last one; no other thread's clock changes. The thread goes back to the
/// shared clock on `CAMediaClock.setManualTime(_:)`, `useSystemTime()` or `_useSharedTime()`.
///
///     let driver = SceneDriver(scene: LayerScene(rootLayer: root, size: size),
///                              script: [.init(time: 0.1, .pointer(.began, CGPoint(x: 20, y: 20)))])
///     for t in stride(from: 0.0, to: 1, by: 1.0 / 30) {
///         driver.advance(to: t)   // the press at 0.1 s is handled before the frame at 0.1333 s
///         // render driver.scene.rootLayer at t
///     }
public final class SceneDriver {
    /// The scene driven.
    public let scene: any HostedScene
    /// The scene time (media time, seconds) at which script time 0 falls.
    public let startTime: CFTimeInterval
    /// The scripted input, times from `startTime`.
    public let script: SceneScript
    /// How many of the script's inputs have been delivered.
    private var delivered = 0
    /// The scene time of the last `advance`, nil before the first.
    public private(set) var time: CFTimeInterval?

    /// Most frames one `play` runs (an export's `ExportTimeline.maxFrameCount`): past it the play
    /// stops, and one line on standard error says so the first time in a process.
    public static let maxFrameCount = 1_000_000

    /// A driver for `scene` whose script time 0 is scene time `startTime` (seconds of media time;
    /// default 0).
    public init(scene: any HostedScene, script: SceneScript = [], startTime: CFTimeInterval = 0) {
        self.scene = scene
        self.script = script
        self.startTime = startTime.isFinite ? startTime : 0
    }

    /// Delivers `input` at scene time `time`: a pointer event (of any pointer) at a point of the
    /// drawn area (converted to the root layer's space), or a key to `handleKey`.
    public func send(_ input: SceneInput, at time: CFTimeInterval) {
        CAMediaClock._setManualTimeForCurrentThread(time)
        switch input {
        case let .pointer(phase, point):
            scene.handle(HostPointerEvent(phase: phase, location: scene.rootLayer.convert(point, from: nil), timestamp: time))
        case let .touch(pointer, phase, point):
            scene.handle(HostPointerEvent(phase: phase, location: scene.rootLayer.convert(point, from: nil), timestamp: time,
                                          pointer: pointer))
        case let .key(key):
            scene.handleKey(key)
        }
    }

    /// Delivers the scripted input due by scene time `time` (each at its own time), then brings
    /// the scene to `time` once (`HostedScene.advance(to:)`). The calling thread's clock reads
    /// `time` afterwards.
    public func advance(to time: CFTimeInterval) {
        deliverInput(through: time)
        CAMediaClock._setManualTimeForCurrentThread(time)
        scene.advance(to: time)
        self.time = time
    }

    /// Brings the scene to `time` as a display would: when the scene `advancesEveryDisplayFrame`,
    /// first at every display frame (`startTime + k / CADisplayLink.displayRate`) after the last
    /// advance — from `startTime` for the first — and before `time`, then at `time`; otherwise as
    /// `advance(to:)`. A frame at `time` then shows the same state whatever times were asked for
    /// before it (what an exporter calls for every frame time).
    ///
    /// Frames at which nothing can happen are skipped, so a time far ahead costs what happens
    /// before it, not its distance: after each frame the driver goes on from the last display
    /// frame at or before the next scripted input, the next turn the scene asks for
    /// (`nextFrameTime(after:)`: display links, queued blocks, touches in progress) and the next
    /// start or stop of an animation of the thread's layers, whichever is first — the same state
    /// as advancing at every frame, since a frame where none of these falls changes nothing.
    public func advanceFrameByFrame(to time: CFTimeInterval) {
        if scene.advancesEveryDisplayFrame {
            let step = 1 / CADisplayLink.displayRate
            var frame = self.time.map { (($0 - startTime) / step + 1e-6).rounded(.down) + 1 } ?? 0
            while frame * step < time - startTime - 1e-9 {
                let t = startTime + frame * step
                let deliveries = CATransaction.eventDeliveryCount
                advance(to: t)
                // The animation events (a walk over the thread's animated layers) are asked
                // for only when input and the scene would let frames be skipped. One due
                // already although the scene's turn delivered no events at all (its turns make
                // no commit) is not delivered by the following turns either: it does not hold
                // the driver at every frame.
                var next = min(nextInputTime, scene.nextFrameTime(after: t), time)
                if next > t + 2 * step {
                    let event = CATransaction.nextAnimationEventTime(afterMediaTime: t)
                    if event > t || CATransaction.eventDeliveryCount != deliveries { next = min(next, event) }
                }
                let resume = ((next - startTime) / step).rounded(.down)
                // Past 2⁵³ frames (or a frame number beyond Double's range) there is no next
                // display frame to go to: straight on to `time`.
                guard resume.isFinite, frame + 1 != frame else { break }
                frame = max(resume, frame + 1)
            }
        }
        advance(to: time)
    }

    /// The scene time of the next scripted input not yet delivered; ∞ when none is left.
    private var nextInputTime: CFTimeInterval {
        delivered < script.events.count ? startTime + script.events[delivered].time : .infinity
    }

    /// Delivers the scripted input due by scene time `time`, each at its own time, without
    /// advancing the scene.
    public func deliverInput(through time: CFTimeInterval) {
        let events = script.events
        while delivered < events.count, startTime + events[delivered].time <= time {
            let event = events[delivered]
            delivered += 1
            send(event.input, at: startTime + event.time)
        }
    }

    /// Plays the script headless: for each frame time t = start + k / framesPerSecond, up to the
    /// first one at or after `end` (default, or when `end` is NaN or infinite: the script's last
    /// input), delivers the input due by t, advances the scene to t (`advance(to:)`) and calls
    /// `frame(t)` (render there). Returns the frame times: none when `start` is NaN or infinite,
    /// at most `maxFrameCount`. A `framesPerSecond` that is not a positive number counts as 60.
    /// `start` defaults to `startTime`.
    @discardableResult
    public func play(from start: CFTimeInterval? = nil, through end: CFTimeInterval? = nil, framesPerSecond: Double = 60,
                     frame: (CFTimeInterval) throws -> Void) rethrows -> [CFTimeInterval] {
        let start = start ?? startTime
        guard start.isFinite else { return [] }
        let last = end.flatMap { $0.isFinite ? $0 : nil } ?? max(startTime + script.endTime, start)
        let fps = framesPerSecond.isFinite && framesPerSecond > 0 ? framesPerSecond : 60
        var times: [CFTimeInterval] = []
        var k = 0
        while true {
            guard k < Self.maxFrameCount else {
                Self.frameLimitMet.say("Citrine: SceneDriver.play from \(start) s through \(last) s stopped at "
                    + "\(Self.maxFrameCount) frames (SceneDriver.maxFrameCount; README: Limits)")
                break
            }
            let t = start + Double(k) / fps
            advance(to: t)
            try frame(t)
            times.append(t)
            if t >= last - 1e-9 { break }
            k += 1
        }
        return times
    }

    /// Plays the script headless without a per-frame action (see
    /// `play(from:through:framesPerSecond:frame:)`).
    @discardableResult
    public func play(from start: CFTimeInterval? = nil, through end: CFTimeInterval? = nil,
                     framesPerSecond: Double = 60) -> [CFTimeInterval] {
        play(from: start, through: end, framesPerSecond: framesPerSecond) { _ in }
    }

    private static let frameLimitMet = _OnceDiagnostic()
}
