import QuartzCore

/// One input a scene takes: a pointer event at a point of the drawn area, or a key.
public enum SceneInput: Sendable, Equatable {
    /// A pointer event at a point of the drawn area (points, origin top-left, y down), of
    /// pointer 0 (the mouse, the script's pointer).
    case pointer(HostPointerEvent.Phase, CGPoint)
    /// The same for pointer `n` (1: a second finger; 0 is `.pointer`).
    case touch(Int, HostPointerEvent.Phase, CGPoint)
    case key(HostKey)
}

/// Scripted input at given times (Citrine; Apple has no such thing): taps, drags, two-finger
/// drags (pinches, rotations), raw pointer phases and keys, played through the same calls a person at a window causes (`SceneDriver`).
///
///     let script = SceneScript([
///         .drag(from: CGPoint(x: 50, y: 50), to: CGPoint(x: 150, y: 80), at: 0.1, duration: 0.5, steps: 10),
///         .tap(CGPoint(x: 20, y: 30), at: 1.0),
///     ])
///
/// Times are seconds from the driver's start (`SceneDriver.startTime`); points are in the scene's
/// drawn area (origin top-left, y down). Steps are expanded in the order given into timed inputs
/// (a step's location defaults to where the previous step left the pointer), then sorted by
/// time, keeping that order for equal times. Bad values are tolerated, never trapped on: an input
/// whose time or location is NaN or infinite is left out (nor does it move the pointer), a
/// negative or non-finite duration counts as 0, and a drag has 1 to `maxDragSteps` moves.
public struct SceneScript: Sendable, Equatable, ExpressibleByArrayLiteral {
    /// Most moves a `.drag` step expands into (more are clamped to it): 100 000, far more than
    /// the frames of any drag one would script.
    public static let maxDragSteps = 100_000

    /// One input and the time it happens at.
    public struct Event: Sendable, Equatable {
        /// Seconds from the driver's start.
        public var time: CFTimeInterval
        public var input: SceneInput
        public init(time: CFTimeInterval, _ input: SceneInput) {
            self.time = time
            self.input = input
        }
    }

    /// A scripted action.
    public enum Step: Sendable, Equatable {
        /// The pointer goes down at `point` at `time`.
        case down(CGPoint, at: CFTimeInterval)
        /// The pointer (down) moves to `point` at `time`.
        case move(to: CGPoint, at: CFTimeInterval)
        /// The pointer goes up where it is, at `time`.
        case up(at: CFTimeInterval)
        /// The system cancels the press at `time`.
        case cancel(at: CFTimeInterval)
        /// Down at `from` at `time`, `steps` evenly spaced moves reaching `to` at `time + duration`,
        /// up there at that time.
        case drag(from: CGPoint, to: CGPoint, at: CFTimeInterval, duration: CFTimeInterval, steps: Int = 10)
        /// Down at `point` at `time`, up there `duration` seconds later.
        case tap(CGPoint, at: CFTimeInterval, duration: CFTimeInterval = 0.05)
        /// A key press at `time`.
        case key(HostKey, at: CFTimeInterval)
        /// Two fingers (pointers 0 and 1) go down at the two `from` points at `time`, make `steps`
        /// evenly spaced moves reaching the two `to` points at `time + duration`, and lift there:
        /// their midpoint moves in a straight line while the line between them turns (the shorter
        /// way) and stretches evenly, so a pinch changes the distance and a rotation the angle
        /// linearly in time. The script's pointer is left where pointer 0 ends.
        case twoFingerDrag(from: CGPoint, _: CGPoint, to: CGPoint, _: CGPoint,
                           at: CFTimeInterval, duration: CFTimeInterval, steps: Int = 10)
    }

    /// The inputs, in time order.
    public let events: [Event]

    public init(_ steps: [Step]) {
        var out: [Event] = []
        var at = CGPoint.zero
        func add(_ phase: HostPointerEvent.Phase, _ p: CGPoint, _ t: CFTimeInterval) {
            guard p.x.isFinite, p.y.isFinite, t.isFinite else { return }
            out.append(Event(time: t, .pointer(phase, p)))
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
            case let .key(key, t):
                if t.isFinite { out.append(Event(time: t, .key(key))) }
            case let .twoFingerDrag(a0, a1, b0, b1, t, d, n):
                let count = min(max(n, 1), Self.maxDragSteps), duration = finiteDuration(d)
                guard [a0, a1, b0, b1].allSatisfy({ $0.x.isFinite && $0.y.isFinite }), t.isFinite else { continue }
                func both(_ phase: HostPointerEvent.Phase, _ p0: CGPoint, _ p1: CGPoint, _ time: CFTimeInterval) {
                    out.append(Event(time: time, .pointer(phase, p0)))
                    out.append(Event(time: time, .touch(1, phase, p1)))
                    at = p0
                }
                // Midpoint, half-length and angle of the line from finger 0 to finger 1, at each end.
                let m0 = CGPoint(x: (a0.x + a1.x) / 2, y: (a0.y + a1.y) / 2), m1 = CGPoint(x: (b0.x + b1.x) / 2, y: (b0.y + b1.y) / 2)
                let r0 = hypot(a1.x - a0.x, a1.y - a0.y) / 2, r1 = hypot(b1.x - b0.x, b1.y - b0.y) / 2
                let angle0 = atan2(a1.y - a0.y, a1.x - a0.x)
                var turn = atan2(b1.y - b0.y, b1.x - b0.x) - angle0
                if turn > .pi { turn -= 2 * .pi } else if turn < -.pi { turn += 2 * .pi }
                both(.began, a0, a1, t)
                for i in 1...count {
                    let f = CGFloat(i) / CGFloat(count), time = t + duration * Double(i) / Double(count)
                    if i == count { both(.moved, b0, b1, time); continue }
                    let m = CGPoint(x: m0.x + (m1.x - m0.x) * f, y: m0.y + (m1.y - m0.y) * f)
                    let r = r0 + (r1 - r0) * f, angle = angle0 + turn * f
                    let half = CGPoint(x: r * cos(angle), y: r * sin(angle))
                    both(.moved, CGPoint(x: m.x - half.x, y: m.y - half.y), CGPoint(x: m.x + half.x, y: m.y + half.y), time)
                }
                both(.ended, b0, b1, t + duration)
            }
        }
        self.init(events: out)
    }

    /// These inputs, sorted by time (stable: equal times keep the order given); those at a NaN
    /// or infinite time are left out.
    public init(events: [Event]) {
        self.events = events.filter(\.time.isFinite).enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    public init(arrayLiteral events: Event...) { self.init(events: events) }

    /// The time of the last input (0 for none).
    public var endTime: CFTimeInterval { events.last?.time ?? 0 }
}
