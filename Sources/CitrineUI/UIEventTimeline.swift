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
/// times.
public struct UIEventTimeline: Sendable {
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
            out.append(PointerEvent(phase: phase, location: p, time: t))
            at = p
        }
        for step in steps {
            switch step {
            case let .down(p, t): add(.began, p, t)
            case let .move(p, t): add(.moved, p, t)
            case let .up(t): add(.ended, at, t)
            case let .cancel(t): add(.cancelled, at, t)
            case let .tap(p, t, d):
                add(.began, p, t)
                add(.ended, p, t + max(d, 0))
            case let .drag(a, b, t, d, n):
                let count = max(n, 1), duration = max(d, 0)
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
    /// to `application`, each with the media clock set to its time (`CAMediaClock.setManualTime`),
    /// so code run by the touch sees the event's time. The clock is left at the last event's time.
    public func sendEvents(after: CFTimeInterval? = nil, through: CFTimeInterval,
                           to application: UIApplication = .shared, in window: UIWindow? = nil) {
        for e in events where e.time <= through && (after.map { e.time > $0 } ?? true) {
            CAMediaClock.setManualTime(e.time)
            application.sendPointerEvent(e.phase, at: e.location, timestamp: e.time, in: window)
        }
    }

    /// Plays the timeline headless: for each frame time t = start + k / framesPerSecond, up to
    /// the first one at or after `end` (default: the last event's time), sends the events due since the previous frame
    /// (at their own times), sets the media clock to t, runs `application.advance(to: t)` and then
    /// `frame(t)` (render there). Returns the frame times.
    @discardableResult
    public func play(on application: UIApplication = .shared, in window: UIWindow? = nil, from start: CFTimeInterval = 0,
                     through end: CFTimeInterval? = nil, framesPerSecond: Double = 60,
                     frame: (CFTimeInterval) throws -> Void) rethrows -> [CFTimeInterval] {
        let last = end ?? max(endTime, start)
        let fps = framesPerSecond.isFinite && framesPerSecond > 0 ? framesPerSecond : 60
        var times: [CFTimeInterval] = []
        var previous: CFTimeInterval?
        var k = 0
        while true {
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

    /// Plays the timeline headless without a per-frame action (see `play(on:in:from:through:framesPerSecond:frame:)`).
    @discardableResult
    public func play(on application: UIApplication = .shared, in window: UIWindow? = nil, from start: CFTimeInterval = 0,
                     through end: CFTimeInterval? = nil, framesPerSecond: Double = 60) -> [CFTimeInterval] {
        play(on: application, in: window, from: start, through: end, framesPerSecond: framesPerSecond) { _ in }
    }
}
