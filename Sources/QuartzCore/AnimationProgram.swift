/// A layer's animations reduced to plain values, for presentation evaluation every frame.
///
/// The general path (`CAAnimation.apply`) reads class properties, builds `AnimatableValue`
/// enums and resolves key paths on every call, which costs thousands of instructions per layer
/// per frame in retains, releases and exclusivity checks. The common animations — a
/// `CABasicAnimation` or a linear `CAKeyframeAnimation` of a number or point property stored in
/// `LayerState`, not additive, not cumulative, without a value function — are compiled here
/// into `Track`s that hold no references, and evaluated with the same formulas:
///
///     fraction  f = timingFunction(TimingModel.state(at: t).fraction)
///     basic       = from + (to − from) · f
///     keyframes   = v[i] + (v[i+1] − v[i]) · t_i   (segment i and eased t_i from
///                                                   CAKeyframeAnimation.timedSegment)
///
/// A layer has a program only when every one of its (committed) animations compiles, so the
/// order in which animations apply never changes; otherwise the general path runs. An added
/// animation is a private copy that Apple says must not be modified ("undefined behavior"), so
/// its snapshot stays valid until the layer's animations change.
struct AnimationProgram {
    /// One compiled animation. Values and key times live in the program's `numbers` (one
    /// buffer, so a frame touches few cache lines), segment easings in `curves`; a point takes
    /// two consecutive numbers (x, y).
    struct Track {
        var timing: TimingModel.Parameters
        var easing: TimingCurve?
        var field: StateField
        var isPoint: Bool
        /// Keyframes (timed segments) or a basic animation (from = the first value, to = the second).
        var isKeyframes: Bool
        /// A basic animation's start / end adds the field's current value to its stored value
        /// (the endpoints CABasicAnimation takes from the presentation when not given).
        var startFollowsCurrent = false
        var endFollowsCurrent = false
        var firstValue: Int
        var valueCount: Int
        /// Index of the first key time, or nil when the keyframes are evenly spaced.
        var firstKeyTime: Int?
        var firstCurve: Int
        var curveCount: Int
    }

    private var tracks: [Track] = []
    private var numbers: [Double] = []
    private var curves: [TimingCurve] = []

    /// The program for `animations` on a layer of `layerClass`, or nil when one of them needs
    /// the general path.
    init?(_ animations: some Sequence<CAAnimation>, on layerClass: CALayer.Type) {
        for animation in animations {
            guard compile(animation, on: layerClass) else { return nil }
        }
    }

    /// Puts the model's value back into every field the program writes.
    func restore(_ s: inout LayerState, from model: CALayer) {
        for track in tracks { track.field.copy(from: model, to: &s) }
    }

    /// Applies every track, in order, at parent time `t`.
    func apply(to s: inout LayerState, at t: CFTimeInterval) {
        numbers.withUnsafeBufferPointer { numbers in
            curves.withUnsafeBufferPointer { curves in
                for track in tracks { apply(track, to: &s, at: t, numbers: numbers, curves: curves) }
            }
        }
    }

    private func apply(_ track: Track, to s: inout LayerState, at t: CFTimeInterval,
                       numbers: UnsafeBufferPointer<Double>, curves: UnsafeBufferPointer<TimingCurve>) {
        let state = TimingModel.state(at: t, track.timing)
        guard state.isApplied else { return }
        let f = track.easing?.solve(state.fraction) ?? state.fraction
        let stride = track.isPoint ? 2 : 1
        var from = track.firstValue, u = f
        if track.isKeyframes {
            let times = track.firstKeyTime.map { UnsafeBufferPointer(rebasing: numbers[$0 ..< $0 + track.valueCount]) }
            let (i, local) = CAKeyframeAnimation.timedSegment(f, count: track.valueCount, keyTimes: times) { i, t in
                i < track.curveCount ? curves[track.firstCurve + i].solve(t) : t
            }
            from += i * stride
            u = local
        }
        let follows = track.startFollowsCurrent || track.endFollowsCurrent
        if track.isPoint {
            var a = CGPoint(x: numbers[from], y: numbers[from + 1])
            var b = CGPoint(x: numbers[from + 2], y: numbers[from + 3])
            if follows {
                let current = track.field.point(in: s)
                if track.startFollowsCurrent { a = CGPoint(x: current.x + a.x, y: current.y + a.y) }
                if track.endFollowsCurrent { b = CGPoint(x: current.x + b.x, y: current.y + b.y) }
            }
            track.field.setPoint(AnimatableValue.lerp(a, b, u), in: &s)
        } else {
            var a = numbers[from], b = numbers[from + 1]
            if follows {
                let current = track.field.number(in: s)
                if track.startFollowsCurrent { a += current }
                if track.endFollowsCurrent { b += current }
            }
            track.field.setNumber(a + (b - a) * u, in: &s)
        }
    }

    // MARK: - Compiling

    private mutating func compile(_ animation: CAAnimation, on layerClass: CALayer.Type) -> Bool {
        guard let property = animation as? CAPropertyAnimation, !property.isAdditive, !property.isCumulative,
              property.valueFunction == nil, let keyPath = property.keyPath else { return false }
        let path = ParsedKeyPath(keyPath)
        guard !path.hasSubpath, let field = layerClass.propertyRegistry[path.head]?.field, field.kind != .other
        else { return false }
        let isPoint = field.kind == .point
        guard let (points, isKeyframes, keyframeTimes, easings) = Self.keyframes(of: property, isPoint: isPoint)
        else { return false }
        var flat: [Double] = []
        for value in points {
            switch (value, isPoint) {
            case let (.number(x), false): flat.append(x)
            case let (.point(p), true): flat += [Double(p.x), Double(p.y)]
            default: return false
            }
        }
        let matchingTimes = keyframeTimes.flatMap { $0.count == points.count ? $0 : nil }
        var track = Track(timing: animation.timing, easing: animation.timingFunction?.curve, field: field,
                          isPoint: isPoint, isKeyframes: isKeyframes, firstValue: numbers.count,
                          valueCount: points.count,
                          firstKeyTime: matchingTimes.map { _ in numbers.count + flat.count },
                          firstCurve: curves.count, curveCount: easings.count)
        if let basic = property as? CABasicAnimation, !isKeyframes {
            // CABasicAnimation's table: a missing endpoint is the current value (by-only: current
            // → current + by); from+by, by+to and from+to fix both.
            let (from, to, by) = basic.typed
            track.startFollowsCurrent = from == nil && !(to != nil && by != nil)
            track.endFollowsCurrent = to == nil && !(from != nil && by != nil)
        }
        tracks.append(track)
        numbers += flat + (matchingTimes ?? [])
        curves += easings
        return true
    }

    /// The values a basic or linear keyframe animation passes through (a basic animation's
    /// endpoints with a current value of zero), whether they are timed keyframes, their key times
    /// and their segment easings; nil for anything else.
    private static func keyframes(of animation: CAPropertyAnimation, isPoint: Bool)
        -> ([AnimatableValue], Bool, [Double]?, [TimingCurve])? {
        if type(of: animation) == CABasicAnimation.self, let basic = animation as? CABasicAnimation {
            let (a, b) = basic.endpoints(current: isPoint ? .point(.zero) : .number(0))
            return ([a, b], false, nil, [])
        }
        if type(of: animation) == CAKeyframeAnimation.self, let keyframe = animation as? CAKeyframeAnimation,
           keyframe.path == nil, keyframe.calculationMode == .linear, keyframe.rotationMode == nil {
            let values = keyframe.typed
            guard values.count >= 2 else { return nil }
            return (values, true, keyframe.times, keyframe.timingFunctions?.map(\.curve) ?? [])
        }
        return nil
    }
}
