import Foundation

// Design note: a scroll view's motion after the finger lifts (deceleration, the bounce back at an
// edge, paging, animated `setContentOffset`) is one closed-form function of the time since it
// started per axis, sampled by a display link at each frame's timestamp. The same media time
// therefore gives the same offset at any frame rate, and tests compare against the formulas.

/// One axis of a scroll view's motion (content-offset points against seconds since the start).
struct ScrollAxisMotion {
    /// The pieces the motion is made of.
    enum Piece {
        /// Deceleration: each millisecond the velocity is multiplied by `rate` (Apple's
        /// `decelerationRate`, "per millisecond" — .normal 0.998, .fast 0.99) and the offset
        /// moves by it, so after n ms the offset is x₀ + (v/1000)·r·(1 − rⁿ)/(1 − r) and the
        /// whole distance the geometric sum (v/1000)·r/(1 − r); v in points per second.
        case decay(start: CGFloat, velocity: CGFloat, rate: CGFloat)
        /// A critically damped spring at `rest`: displacement (d₀ + (v₀ + ωd₀)t)·e^(−ωt).
        case spring(rest: CGFloat, displacement: CGFloat, velocity: CGFloat)
        /// From `from` to `to` in `duration` seconds on the ease-in-ease-out curve.
        case ease(from: CGFloat, to: CGFloat, duration: Double)
        /// Staying at a value.
        case still(CGFloat)
    }

    private var piece: Piece
    /// Where a deceleration reaches an edge and hands over to the bounce back.
    private var handover: (time: Double, next: Piece)?

    /// The bounce-back spring's natural frequency ω (per second). Apple documents no curve for
    /// the bounce back; Citrine's choice is a critically damped spring with a 0.4 s response
    /// (ω = 2π/0.4), which settles within about half a second.
    static let springFrequency = 2 * Double.pi / 0.4
    /// A motion ends once it is within this distance of where it rests (points): less than a
    /// pixel's half on a 1× display.
    static let restDistance: CGFloat = 0.5
    /// The length of `setContentOffset(_:animated: true)` (seconds). Apple documents none;
    /// Citrine's choice.
    static let animationDuration = 0.3
    /// The longest a motion runs (seconds) before the scroll view puts it at rest: far beyond the
    /// 4.3 s a deceleration from 5 000 points per second takes at `.normal` (to within
    /// `restDistance`), so it only cuts short rates close to 1 set by hand.
    static let longest = 30.0

    private init(_ piece: Piece, handover: (time: Double, next: Piece)? = nil) {
        self.piece = piece
        self.handover = handover
    }

    /// No motion: stays at `value`.
    static func still(_ value: CGFloat) -> ScrollAxisMotion { ScrollAxisMotion(.still(value)) }

    /// The ease-in-ease-out animation of `setContentOffset(_:animated: true)`.
    static func animation(from: CGFloat, to: CGFloat) -> ScrollAxisMotion {
        ScrollAxisMotion(from == to ? .still(to) : .ease(from: from, to: to, duration: animationDuration))
    }

    /// The whole distance a deceleration from velocity `v` (points per second) travels at `rate`.
    static func projectedDistance(velocity v: CGFloat, rate r: CGFloat) -> CGFloat {
        v / 1000 * r / (1 - r)
    }

    /// The motion after a drag released at `start` with `velocity` (points per second) on an axis
    /// whose offset may range over `limits`: back inside with the spring when released outside;
    /// else a deceleration to `target` — the natural one when `target` is where it would stop,
    /// one whose initial velocity is chosen to stop exactly there otherwise (a delegate's or
    /// paging's target) — or, when the natural deceleration would cross an edge and `bounces`,
    /// the natural deceleration up to the edge, then the spring from there with the velocity
    /// it has.
    static func release(at start: CGFloat, velocity: CGFloat, target: CGFloat, natural: CGFloat,
                        limits: ClosedRange<CGFloat>, rate: CGFloat, bounces: Bool) -> ScrollAxisMotion {
        if !limits.contains(start) {
            let rest = min(max(start, limits.lowerBound), limits.upperBound)
            return ScrollAxisMotion(.spring(rest: rest, displacement: start - rest, velocity: velocity))
        }
        if target == start { return .still(start) }
        if bounces, target == natural.clamped(to: limits), natural != target, velocity != 0 {
            // Natural deceleration to the edge: rⁿ = 1 − (edge − x₀)/A, A the whole distance.
            let whole = projectedDistance(velocity: velocity, rate: rate)
            let n = log(Double(1 - (target - start) / whole)) / log(Double(rate))
            if n.isFinite, n >= 0 {
                let edgeVelocity = velocity * CGFloat(pow(Double(rate), n))
                return ScrollAxisMotion(.decay(start: start, velocity: velocity, rate: rate),
                                        handover: (n / 1000, .spring(rest: target, displacement: 0, velocity: edgeVelocity)))
            }
        }
        let needed = target == natural ? velocity : (target - start) * 1000 * (1 - rate) / rate
        guard needed.isFinite, projectedDistance(velocity: needed, rate: rate).isFinite else { return .still(target) }
        return ScrollAxisMotion(.decay(start: start, velocity: needed, rate: rate))
    }

    /// The offset `t` seconds after the start.
    func value(at t: Double) -> CGFloat {
        if let handover, t >= handover.time { return Self.value(of: handover.next, at: t - handover.time) }
        return Self.value(of: piece, at: t)
    }

    /// Whether the motion has come to rest by `t` (then it stays at `restingValue`).
    func isFinished(at t: Double) -> Bool {
        if let handover {
            return t >= handover.time && Self.isFinished(handover.next, at: t - handover.time)
        }
        return Self.isFinished(piece, at: t)
    }

    /// Where the motion comes to rest.
    var restingValue: CGFloat { Self.restingValue(of: handover?.next ?? piece) }

    private static func value(of piece: Piece, at t: Double) -> CGFloat {
        let t = max(t, 0)
        switch piece {
        case let .decay(x0, v, r):
            return x0 + projectedDistance(velocity: v, rate: r) * (1 - CGFloat(pow(Double(r), t * 1000)))
        case let .spring(rest, d0, v0):
            let w = springFrequency
            return rest + CGFloat((Double(d0) + (Double(v0) + w * Double(d0)) * t) * exp(-w * t))
        case let .ease(from, to, duration):
            let f = t >= duration ? 1 : easeInEaseOut._solve(forInput: t / duration)
            return from + (to - from) * CGFloat(f)
        case let .still(x):
            return x
        }
    }

    private static func isFinished(_ piece: Piece, at t: Double) -> Bool {
        switch piece {
        case .decay, .spring:
            return abs(value(of: piece, at: t) - restingValue(of: piece)) < restDistance
                && abs(value(of: piece, at: t + 0.001) - value(of: piece, at: t)) < restDistance / 10
        case let .ease(_, _, duration):
            return t >= duration
        case .still:
            return true
        }
    }

    private static func restingValue(of piece: Piece) -> CGFloat {
        switch piece {
        case let .decay(x0, v, r): x0 + projectedDistance(velocity: v, rate: r)
        case let .spring(rest, _, _): rest
        case let .ease(_, to, _): to
        case let .still(x): x
        }
    }

    private static let easeInEaseOut = CAMediaTimingFunction(name: .easeInEaseOut)
}

extension CGFloat {
    /// The value moved into `limits`.
    func clamped(to limits: ClosedRange<CGFloat>) -> CGFloat { Swift.min(Swift.max(self, limits.lowerBound), limits.upperBound) }
}
