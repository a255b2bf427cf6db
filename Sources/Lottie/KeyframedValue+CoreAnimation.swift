import QuartzCore

// Keyframes → `CAKeyframeAnimation`, the way lottie-ios's Core Animation engine maps them:
// - the animation runs in the local time of the layer it is added to, which is the Lottie
//   layer's own time (frames / frame rate, `LayerImporter`): `beginTime` is the first
//   keyframe's time, `duration` reaches the last, `fillMode` `.both` holds the first value
//   before and the last after, and it is never removed;
// - `keyTimes` are the keyframe times over that span; each segment's `timingFunction` is the
//   cubic Bézier of its `o`/`i` easing handles (x clamped to 0…1, as CAMediaTimingFunction's
//   control points must be; y may overshoot);
// - hold keyframes (`h`): all holds → `calculationMode` `.discrete`; a hold among eased
//   segments → that segment keeps its value and a zero-length segment jumps at the next
//   keyframe's time (equal successive keyTimes are allowed by CAKeyframeAnimation.h);
// - spatial tangents (`to`/`ti`) of a position → the keyframe `path`, a cubic per segment.

/// `beginTime` for an animation that starts at local time 0: a value that is not 0, since 0
/// means "now" when the animation is added (CAMediaTiming.h); AVFoundation's
/// `AVCoreAnimationBeginTimeAtZero` is this same value for the same reason.
let beginTimeAtZero: CFTimeInterval = 1e-100

/// How one Lottie layer's animations are timed: its frame rate and, inside a time-remapped
/// precomp, the frames sampled (in the local time of the CA layers the animations are added to)
/// and each one's frame in the Lottie layer's own time (`KeyframedValue+Evaluation.swift`).
struct AnimationTiming {
    let fps: Double
    /// nil: keyframes run in the CA layer's local time (frame / fps), Core Animation interpolating.
    var samples: [Double]? = nil
    var local: (Double) -> Double = { $0 }
}

extension KeyframedValue where Value: Interpolatable {
    /// Sets the initial value with `set` and, when keyframed, adds a keyframe animation of
    /// `keyPath` to `layer` with the values `convert` makes.
    func apply(to layer: CALayer, _ keyPath: String, timing: AnimationTiming, convert: (Value) -> Any,
               set: (Value) -> Void) {
        set(initial)
        guard case let .keyframed(frames) = self else { return }
        let animation = timing.samples.map { samples in
            Self.sampled(keyPath, samples, fps: timing.fps) { convert(value(at: timing.local($0))) }
        } ?? Self.animation(keyPath, frames, frameRate: timing.fps, convert: convert)
        if let animation { layer.add(animation, forKey: keyPath) }
    }
}

extension KeyframedValue {
    /// A keyframe animation through `value` at each of `frames` (in order), linear or discrete;
    /// nil for fewer than two.
    static func sampled(_ keyPath: String, _ frames: [Double], fps: Double, discrete: Bool = false,
                        _ value: (Double) -> Any) -> CAKeyframeAnimation? {
        guard let first = frames.first, let last = frames.last, last > first else { return nil }
        let animation = CAKeyframeAnimation(keyPath: keyPath)
        // A discrete step at a sample's time must be taken at that time exactly, not lost to
        // rounding in keyTime × duration: the steps come 10⁻⁷ s early.
        let start = first / fps - (discrete ? 1e-7 : 0)
        animation.beginTime = start == 0 ? beginTimeAtZero : start
        animation.duration = (last - first) / fps
        animation.fillMode = .both
        animation.isRemovedOnCompletion = false
        animation.values = frames.map(value)
        animation.keyTimes = frames.map { NSNumber(value: ($0 - first) / (last - first)) }
        if discrete { animation.calculationMode = .discrete }
        return animation
    }

    /// The keyframe animation of `frames`; nil when they span no time (all at one frame).
    /// `path`: the point of a value, for a keyframe path where there are spatial tangents (or,
    /// with `alwaysPath`, straight segments where there are none, for `rotationMode`).
    static func animation(_ keyPath: String, _ frames: [Keyframe<Value>], frameRate: Double,
                          convert: (Value) -> Any, path: ((Value) -> CGPoint)? = nil,
                          alwaysPath: Bool = false) -> CAKeyframeAnimation? {
        guard let first = frames.first, let last = frames.last, last.time > first.time else { return nil }
        let span = last.time - first.time
        let animation = CAKeyframeAnimation(keyPath: keyPath)
        animation.beginTime = first.time == 0 ? beginTimeAtZero : first.time / frameRate
        animation.duration = span / frameRate
        animation.fillMode = .both
        animation.isRemovedOnCompletion = false
        let segments = frames.dropLast()
        if segments.allSatisfy(\.hold) {
            // Each step at its keyframe's time exactly, whatever the rounding of keyTime × duration.
            animation.beginTime = first.time / frameRate - 1e-7 == 0 ? beginTimeAtZero : first.time / frameRate - 1e-7
            animation.calculationMode = .discrete
            animation.values = frames.map { convert($0.value) }
            animation.keyTimes = frames.map { NSNumber(value: ($0.time - first.time) / span) }
            return animation
        }

        // Segments after holds are expanded: (time, value, timing, spatial control points).
        var times = [first.time], values = [first.value], timing: [CAMediaTimingFunction] = []
        var controls: [(CGPoint, CGPoint)?] = []
        let linear = CAMediaTimingFunction(name: .linear)
        for (n, frame) in segments.enumerated() {
            let next = frames[n + 1]
            if frame.hold {
                times += [next.time, next.time]
                values += [frame.value, next.value]
                timing += [linear, linear]
                controls += [nil, nil]
                continue
            }
            times.append(next.time)
            values.append(next.value)
            if let o = frame.easeOut, let i = frame.easeIn {
                timing.append(CAMediaTimingFunction(controlPoints: Float(min(max(o.x, 0), 1)), Float(o.y),
                                                    Float(min(max(i.x, 0), 1)), Float(i.y)))
            } else {
                timing.append(linear)
            }
            if let point = path, let to = frame.spatialOut, let ti = frame.spatialIn, to != .zero || ti != .zero {
                let a = point(frame.value), b = point(next.value)
                controls.append((CGPoint(x: a.x + to.x, y: a.y + to.y), CGPoint(x: b.x + ti.x, y: b.y + ti.y)))
            } else {
                controls.append(nil)
            }
        }
        animation.keyTimes = times.map { NSNumber(value: ($0 - first.time) / span) }
        animation.timingFunctions = timing
        if let point = path, alwaysPath || controls.contains(where: { $0 != nil }) {
            let curve = CGMutablePath()
            curve.move(to: point(values[0]))
            for (n, control) in controls.enumerated() {
                let end = point(values[n + 1])
                if let (c1, c2) = control { curve.addCurve(to: end, control1: c1, control2: c2) } else { curve.addLine(to: end) }
            }
            animation.path = curve
        } else {
            animation.values = values.map(convert)
        }
        return animation
    }
}
