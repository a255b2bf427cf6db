import Foundation
import QuartzCore

/// Scripted pointer input at given media times (Citrine; UIKit has no such thing): what tests,
/// the exporter and `citrine play` feed through the same entry point as a live window,
/// `UIApplication.sendPointerEvent`, while `UIApplication.advance(to:)` steps the clock.
///
///     let input = UIEventTimeline([
///         .drag(from: CGPoint(x: 50, y: 50), to: CGPoint(x: 150, y: 80), at: 0.1, duration: 0.5, steps: 10),
///         .tap(CGPoint(x: 20, y: 30), at: 1.0),
///     ])
///     input.play(through: 2) { t in /* render the window's layer at t */ }
///
/// Steps are expanded in the order given into pointer events (a step's location defaults to
/// where the previous step left the pointer), then sorted by time, keeping that order for equal
/// times. Bad values are tolerated, never trapped on (issue 18): an event whose time or location
/// is NaN or infinite is left out (nor does it move the pointer), a negative or non-finite
/// duration counts as 0, and a drag has 1 to `maxDragSteps` moves.
public struct UIEventTimeline: Sendable {
    /// Most moves a `.drag` step expands into (more are clamped to it): 100 000, far more than
    /// the frames of any drag one would script.
    public static let maxDragSteps = 100_000
    /// Most frames one `play` runs, as an export (`ExportTimeline.maxFrameCount`): past it the
    /// play stops, and one line on standard error says so the first time in a process.
    public static let maxFrameCount = 1_000_000

    /// One raw pointer event.
    public struct PointerEvent: Hashable, Sendable {
        public var phase: UITouch.Phase
        /// Window coordinates (points, origin top-left, y down).
        public var location: CGPoint
        /// Media time, seconds.
        public var time: CFTimeInterval
        public init(phase: UITouch.Phase, location: CGPoint, time: CFTimeInterval) {
            self.phase = phase
            self.location = location
            self.time = time
        }
    }

    /// A scripted action.
    public enum Step: Sendable {
        /// The pointer goes down at `point` at `time`.
        case down(CGPoint, at: CFTimeInterval)
        /// The pointer (down) moves to `point` at `time`.
        case move(to: CGPoint, at: CFTimeInterval)
        /// The pointer goes up where it is, at `time`.
        case up(at: CFTimeInterval)
        /// The system cancels the touch at `time`.
        case cancel(at: CFTimeInterval)
        /// Down at `from` at `time`, `steps` evenly spaced moves reaching `to` at `time + duration`,
        /// up there at that time.
        case drag(from: CGPoint, to: CGPoint, at: CFTimeInterval, duration: CFTimeInterval, steps: Int = 10)
        /// Down at `point` at `time`, up there `duration` seconds later.
        case tap(CGPoint, at: CFTimeInterval, duration: CFTimeInterval = 0.05)
    }

    /// The pointer events, in time order.
    public let events: [PointerEvent]

    public init(_ steps: [Step]) {
        var out: [PointerEvent] = []
        var at = CGPoint.zero
        func add(_ phase: UITouch.Phase, _ p: CGPoint, _ t: CFTimeInterval) {
            guard p.x.isFinite, p.y.isFinite, t.isFinite else { return }
            out.append(PointerEvent(phase: phase, location: p, time: t))
            at = p
        }
        func finiteDuration(_ d: CFTimeInterval) -> CFTimeInterval { d.isFinite ? max(d, 0) : 0 }
        for step in steps {
            switch step {
            case let .down(p, t): add(.began, p, t)
            case let .move(p, t): add(.moved, p, t)
            case let .up(t): add(.ended, at, t)
            case let .cancel(t): add(.cancelled, at, t)
            case let .tap(p, t, d):
                add(.began, p, t)
                add(.ended, p, t + finiteDuration(d))
            case let .drag(a, b, t, d, n):
                let count = min(max(n, 1), Self.maxDragSteps), duration = finiteDuration(d)
                add(.began, a, t)
                for i in 1...count {
                    let f = CGFloat(i) / CGFloat(count)
                    add(.moved, CGPoint(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f), t + duration * Double(i) / Double(count))
                }
                add(.ended, b, t + duration)
            }
        }
        events = out.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// The time of the last event (0 for none).
    public var endTime: CFTimeInterval { events.last?.time ?? 0 }

    /// Sends the events with `after < time ≤ through` (all up to `through` when `after` is nil)
    /// to `application`, each with the clock the calling thread reads set to its time (the
    /// thread's own time when it has one, as an exporter's thread has, else the shared manual
    /// time), so code run by the touch sees the event's time and no other thread's clock moves.
    /// The clock is left at the last event's time.
    public func sendEvents(after: CFTimeInterval? = nil, through: CFTimeInterval,
                           to application: UIApplication = .shared, in window: UIWindow? = nil) {
        for e in events where e.time <= through && (after.map { e.time > $0 } ?? true) {
            CAMediaClock.setTimeReadByCurrentThread(e.time)
            application.sendPointerEvent(e.phase, at: e.location, timestamp: e.time, in: window)
        }
    }

    /// Plays the timeline headless: for each frame time t = start + k / framesPerSecond, up to
    /// the first one at or after `end` (default, or when `end` is NaN or infinite: the last
    /// event's time), sends the events due since the previous frame (at their own times), sets
    /// the media clock to t, runs `application.advance(to: t)` and then `frame(t)` (render
    /// there). Returns the frame times: none when `start` is NaN or infinite, at most
    /// `maxFrameCount`. A `framesPerSecond` that is not a positive number counts as 60.
    @discardableResult
    public func play(on application: UIApplication = .shared, in window: UIWindow? = nil, from start: CFTimeInterval = 0,
                     through end: CFTimeInterval? = nil, framesPerSecond: Double = 60,
                     frame: (CFTimeInterval) throws -> Void) rethrows -> [CFTimeInterval] {
        guard start.isFinite else { return [] }
        let last = end.flatMap { $0.isFinite ? $0 : nil } ?? max(endTime, start)
        let fps = framesPerSecond.isFinite && framesPerSecond > 0 ? framesPerSecond : 60
        var times: [CFTimeInterval] = []
        var previous: CFTimeInterval?
        var k = 0
        while true {
            guard k < Self.maxFrameCount else {
                Self.reportFrameLimit(start: start, end: last)
                break
            }
            let t = start + Double(k) / fps
            sendEvents(after: previous, through: t, to: application, in: window)
            CAMediaClock.setManualTime(t)
            application.advance(to: t)
            try frame(t)
            times.append(t)
            previous = t
            if t >= last - 1e-9 { break }
            k += 1
        }
        return times
    }

    private static let frameLimitMet = _OnceDiagnostic()

    /// Says once per process that a play stopped at `maxFrameCount`.
    private static func reportFrameLimit(start: CFTimeInterval, end: CFTimeInterval) {
        frameLimitMet.say("Citrine: UIEventTimeline.play from \(start) s through \(end) s stopped at \(maxFrameCount) frames "
            + "(UIEventTimeline.maxFrameCount; README: Limits)")
    }

    /// Plays the timeline headless without a per-frame action (see `play(on:in:from:through:framesPerSecond:frame:)`).
    @discardableResult
    public func play(on application: UIApplication = .shared, in window: UIWindow? = nil, from start: CFTimeInterval = 0,
                     through end: CFTimeInterval? = nil, framesPerSecond: Double = 60) -> [CFTimeInterval] {
        play(on: application, in: window, from: start, through: end, framesPerSecond: framesPerSecond) { _ in }
    }
}
