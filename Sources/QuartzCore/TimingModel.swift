import Raster

/// Apple's `CAMediaTiming` model as pure functions.
///
/// An object's local time, given its parent's time t:
///
///     local = (t − beginTime) · speed + timeOffset
///
/// An animation is *active* for its active duration after `beginTime` (in its parent's time
/// scaled by `speed`):
///
///     simple   = duration                      (one play)
///     cycle    = simple · (autoreverses ? 2 : 1)
///     active   = repeatDuration > 0 ? repeatDuration
///              : cycle · max(repeatCount, 1)   (repeatCount may be fractional or .infinity)
///
/// ```
///   repeatCount 2, autoreverses:        beginTime
///   parent time ───────────────────────────|──────────────────────────────|──────────▶
///   phase              before (fill?)      |▶▶▶▶◀◀◀◀▶▶▶▶◀◀◀◀|  after (fill?)
///   fraction                               0   1   0   1   0
/// ```
///
/// Within the active period the iteration time is (elapsed + timeOffset) modulo the cycle,
/// mirrored in the second half of an autoreversing cycle. At the very end of the active period
/// the fraction is the end of the last (possibly partial) play: 1 for a whole number of forward
/// plays, 0 after a full autoreverse. Before it, `backwards`/`both` fill shows the start; after
/// it, `forwards`/`both` fill holds the end. A negative speed plays the active period from its end
/// to its start. Speed 0 freezes elapsed time at 0 (the animation shows `timeOffset`).
enum TimingModel {
    /// The `CAMediaTiming` properties of an animation as one plain value (no references), so a
    /// frame reads them with one load instead of one class-property access each.
    struct Parameters {
        var beginTime: CFTimeInterval = 0
        var duration: CFTimeInterval = 0
        var timeOffset: CFTimeInterval = 0
        var repeatDuration: CFTimeInterval = 0
        var speed: Float = 1
        var repeatCount: Float = 0
        var autoreverses = false
        /// From `fillMode`: `.backwards`/`.both` and `.forwards`/`.both`.
        var fillsBackwards = false
        var fillsForwards = false

        mutating func setFillMode(_ mode: CAMediaTimingFillMode) {
            fillsBackwards = mode == .backwards || mode == .both
            fillsForwards = mode == .forwards || mode == .both
        }
    }

    /// `Parameters` with the active duration worked out once: what `state(at:_:)` reads, and
    /// what a compiled animation keeps (39 bytes) so that a frame does not recompute it.
    struct Schedule: Hashable {
        var beginTime: CFTimeInterval
        var duration: CFTimeInterval
        var timeOffset: CFTimeInterval
        var activeDuration: CFTimeInterval
        var speed: Float
        var autoreverses: Bool
        var fillsBackwards: Bool
        var fillsForwards: Bool

        init(_ timing: Parameters) {
            beginTime = timing.beginTime
            duration = timing.duration
            timeOffset = timing.timeOffset
            activeDuration = TimingModel.activeDuration(timing)
            speed = timing.speed
            autoreverses = timing.autoreverses
            fillsBackwards = timing.fillsBackwards
            fillsForwards = timing.fillsForwards
        }
    }

    /// Where an object is in its active period at some parent time.
    struct State: Equatable {
        enum Phase: Equatable { case before, active, after }
        var phase: Phase
        /// Progress through the current play, 0…1, before the timing function.
        var fraction: Double
        /// Index of the current play (0-based), for cumulative animations.
        var iteration: Int
        /// True when the object's value should be applied (active, or filling).
        var isApplied: Bool
    }

    /// Local time at parent time `t` of an object with these timing properties.
    static func localTime(_ t: CFTimeInterval, beginTime: CFTimeInterval, speed: Float,
                          timeOffset: CFTimeInterval) -> CFTimeInterval {
        (t - beginTime) * CFTimeInterval(speed) + timeOffset
    }

    /// Inverse of `localTime`; for speed 0 every parent time maps to the same local time, and the
    /// parent time at `beginTime` is returned.
    static func parentTime(_ local: CFTimeInterval, beginTime: CFTimeInterval, speed: Float,
                           timeOffset: CFTimeInterval) -> CFTimeInterval {
        speed == 0 ? beginTime : (local - timeOffset) / CFTimeInterval(speed) + beginTime
    }

    static func activeDuration(_ timing: Parameters) -> CFTimeInterval {
        let cycle = timing.duration * (timing.autoreverses ? 2 : 1)
        if timing.repeatDuration > 0 { return timing.repeatDuration }
        let count = timing.repeatCount > 0 ? CFTimeInterval(timing.repeatCount) : 1
        return cycle * count
    }

    /// The state at parent time `t` of an object with `timing` (the schedule worked out per call).
    static func state(at t: CFTimeInterval, _ timing: Parameters) -> State { state(at: t, Schedule(timing)) }

    /// The state at parent time `t` of an object with `timing`. A duration that is not positive
    /// and finite has no end: always active at fraction 0 — a layer's default duration +∞
    /// (`CALayer.duration`, Apple's value) gives an active duration of ∞ whatever `repeatCount`
    /// and `autoreverses` say, so such an object is never before, after or repeating.
    @inline(__always)
    static func state(at t: CFTimeInterval, _ timing: Schedule) -> State {
        let duration = timing.duration
        guard duration > 0, duration.isFinite else {
            return State(phase: .active, fraction: 0, iteration: 0, isApplied: true)
        }
        let active = timing.activeDuration
        let speed = CFTimeInterval(timing.speed)
        var elapsed = (t - timing.beginTime) * abs(speed)
        if speed < 0 { elapsed = active - elapsed }
        if (speed >= 0 && t < timing.beginTime) || (speed < 0 && elapsed > active) {
            return State(phase: .before, fraction: playFraction(timing.timeOffset, timing).fraction,
                         iteration: 0, isApplied: timing.fillsBackwards)
        }
        if elapsed >= active || (speed < 0 && elapsed <= 0) {
            let end = speed < 0 ? 0 : active
            let (fraction, iteration) = endFraction(end, timing)
            return State(phase: .after, fraction: fraction, iteration: iteration,
                         isApplied: timing.fillsForwards)
        }
        let (fraction, iteration) = playFraction(elapsed + timing.timeOffset, timing)
        return State(phase: .active, fraction: fraction, iteration: iteration, isApplied: true)
    }

    /// Fraction and play index at local active time `time`.
    @inline(__always)
    static func playFraction(_ time: CFTimeInterval, _ timing: Schedule) -> (fraction: Double, iteration: Int) {
        let d = timing.duration
        let cycle = d * (timing.autoreverses ? 2 : 1)
        guard cycle > 0, time.isFinite else { return (0, 0) }
        let n = roundedDown(time / cycle)
        var within = time - n * cycle
        if timing.autoreverses && within > d { within = cycle - within }
        return (min(max(within / d, 0), 1), playIndex(n))
    }

    /// The play index of `n` whole cycles, clamped to 0…Int32.max: a time offset or active
    /// duration of 1e30 cycles must not trap the conversion (found by fuzz-layers).
    private static func playIndex(_ n: Double) -> Int { Int(clamping: n, to: 0...Int(Int32.max)) }

    /// Fraction at the end of the active period (`time` = active duration).
    private static func endFraction(_ time: CFTimeInterval, _ timing: Schedule) -> (Double, Int) {
        let d = timing.duration
        let cycle = d * (timing.autoreverses ? 2 : 1)
        let t = time + timing.timeOffset
        guard t.isFinite, cycle > 0 else { return (1, 0) }
        let n = roundedDown(t / cycle)
        let within = t - n * cycle
        if within < 1e-12 && n > 0 {
            // Exactly at a cycle boundary: the end of the previous play.
            return (timing.autoreverses ? 0 : 1, playIndex(n) - 1)
        }
        return playFraction(t, timing)
    }

    /// `x.rounded(.down)` for a finite `x`, without the call to libm's `floor` that baseline
    /// x86-64 code makes (no SSE4.1 `roundsd`): every Double of magnitude 2⁵² or more is an
    /// integer already, smaller ones truncate exactly through Int64. (−0.0 gives +0.0; callers
    /// only multiply and compare it.)
    @inline(__always)
    static func roundedDown(_ x: Double) -> Double {
        guard abs(x) < 0x1p52 else { return x }
        let truncated = Double(Int64(x))
        return truncated > x ? truncated - 1 : truncated
    }
}
