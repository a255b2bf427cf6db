import Foundation

/// A layer's `CAMediaTiming` properties and the conversion of times between layers (Apple's
/// hierarchical timing: each layer's local time follows from its superlayer's through its
/// beginTime, speed and timeOffset, `TimingModel`).
extension CALayer {
    // MARK: - Timing (CAMediaTiming)

    public var beginTime: CFTimeInterval {
        get { state.beginTime }
        set { let old = state.beginTime; state.beginTime = newValue; changed("beginTime", old) }
    }
    /// Default 0, as Apple's CAMediaTiming.h says ("Defaults to 0"). A layer's local time is
    /// (parent time − beginTime) × speed + timeOffset for every duration: a layer's time never
    /// ends or repeats (Citrine applies no active duration, `repeatCount`, `repeatDuration` or
    /// `autoreverses` to layers), which is what Apple's layers do with the default duration 0.
    public var duration: CFTimeInterval {
        get { state.duration }
        set { let old = state.duration; state.duration = newValue; changed("duration", old) }
    }
    public var speed: Float {
        get { state.speed }
        set { let old = state.speed; state.speed = newValue; changed("speed", old) }
    }
    public var timeOffset: CFTimeInterval {
        get { state.timeOffset }
        set { let old = state.timeOffset; state.timeOffset = newValue; changed("timeOffset", old) }
    }
    public var repeatCount: Float {
        get { state.repeatCount }
        set { let old = state.repeatCount; state.repeatCount = newValue; changed("repeatCount", old) }
    }
    public var repeatDuration: CFTimeInterval {
        get { state.repeatDuration }
        set { let old = state.repeatDuration; state.repeatDuration = newValue; changed("repeatDuration", old) }
    }
    public var autoreverses: Bool {
        get { state.autoreverses }
        set { let old = state.autoreverses; state.autoreverses = newValue; changed("autoreverses", old) }
    }
    public var fillMode: CAMediaTimingFillMode {
        get { state.fillMode }
        set { let old = state.fillMode; state.fillMode = newValue; changed("fillMode", old) }
    }

    // MARK: - Time conversion

    /// Converts `t` from `layer`'s local time (nil: media time) to this layer's.
    public func convertTime(_ t: CFTimeInterval, from layer: CALayer?) -> CFTimeInterval {
        localTime(fromMediaTime: layer?.mediaTime(fromLocal: t) ?? t)
    }

    public func convertTime(_ t: CFTimeInterval, to layer: CALayer?) -> CFTimeInterval {
        let media = mediaTime(fromLocal: t)
        return layer?.localTime(fromMediaTime: media) ?? media
    }

    func localTime(fromMediaTime t: CFTimeInterval) -> CFTimeInterval {
        // Ancestors with the default timing (beginTime 0, speed 1, timeOffset 0) map a time to
        // itself exactly, so they are skipped in a loop: only layers with timing of their own
        // recurse, and a deep chain of plain layers cannot overflow the stack (issue 18).
        // Through the superlayers borrowed, not retained: this runs for every layer every frame.
        var timed = parent
        while let a = timed, a._withUnsafeGuaranteedRef({ $0.hasDefaultTiming }) {
            timed = a._withUnsafeGuaranteedRef { $0.parent }
        }
        let parent = timed?._withUnsafeGuaranteedRef { $0.localTime(fromMediaTime: t) } ?? t
        return hasDefaultTiming ? parent
            : TimingModel.localTime(parent, beginTime: _state.beginTime, speed: _state.speed, timeOffset: _state.timeOffset)
    }

    /// beginTime 0, speed 1 and timeOffset 0: local time is the parent's time.
    private var hasDefaultTiming: Bool { _state.beginTime == 0 && _state.speed == 1 && _state.timeOffset == 0 }

    func mediaTime(fromLocal t: CFTimeInterval) -> CFTimeInterval {
        // This layer's timing first, then each superlayer's, in a loop.
        var time = t
        var layer: CALayer? = self
        while let l = layer {
            time = TimingModel.parentTime(time, beginTime: l._state.beginTime, speed: l._state.speed, timeOffset: l._state.timeOffset)
            layer = l.superlayer
        }
        return time
    }
}
