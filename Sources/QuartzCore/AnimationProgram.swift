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
    /// One compiled animation, 72 bytes (a frame reads every track of a layer, so their size is
    /// the cache lines it touches). Values, key times and Bézier control points live in the
    /// program's `numbers`, located by index; a point takes two consecutive numbers (x, y), a
    /// timing curve four (c1.x, c1.y, c2.x, c2.y).
    struct Track {
        var schedule: TimingModel.Schedule
        /// How the animated field is stored; `offset` is its byte offset in `LayerState`.
        var scalar: StateField.Scalar
        /// Keyframes (timed segments) or a basic animation (from = the first value, to = the second).
        var isKeyframes: Bool
        /// A basic animation's start / end adds the field's current value to its stored value
        /// (the endpoints CABasicAnimation takes from the presentation when not given).
        var startFollowsCurrent: Bool
        var endFollowsCurrent: Bool
        /// No earlier track of the program writes this field: a restoring evaluation puts the
        /// model's value back into it just before this track applies (a later track of the same
        /// field finds the earlier one's value, as when every field is restored first).
        var restoresField: Bool
        var offset: Int32
        var firstValue: Int32
        var valueCount: Int32
        /// Index of the first key time, or −1 when the keyframes are evenly spaced.
        var firstKeyTime: Int32
        /// Index of the animation's timing curve, or −1 for linear pacing.
        var easing: Int32
        /// Index of the first segment curve (CAKeyframeAnimation.timingFunctions) and their count.
        var firstCurve: Int32
        var curveCount: Int32
    }

    /// The tracks, then the numbers they index, in one allocation: a frame's first read of the
    /// program brings in the lines of both (as two arrays they were two dependent cache misses per
    /// layer whenever the allocator did not happen to put them side by side). Track k is bytes
    /// 72k ..< 72(k + 1); the numbers start after the last track.
    private let words: [Double]
    private let trackCount: Int
    private static let wordsPerTrack = MemoryLayout<Track>.stride / MemoryLayout<Double>.stride

    /// The program for `animations` on a layer of `layerClass`, or nil when one of them needs
    /// the general path.
    init?(_ animations: some Sequence<CAAnimation>, on layerClass: CALayer.Type) {
        var builder = Builder()
        for animation in animations {
            guard builder.compile(animation, on: layerClass) else { return nil }
        }
        assert(MemoryLayout<Track>.stride % MemoryLayout<Double>.stride == 0, "tracks must tile the words")
        trackCount = builder.tracks.count
        let firstNumber = builder.tracks.count * Self.wordsPerTrack
        var packed = [Double](repeating: 0, count: firstNumber + builder.numbers.count)
        packed.withUnsafeMutableBufferPointer { packed in
            let base = UnsafeMutableRawPointer(packed.baseAddress!)
            for (k, track) in builder.tracks.enumerated() {
                base.storeBytes(of: track, toByteOffset: k * MemoryLayout<Track>.stride, as: Track.self)
            }
            for (i, x) in builder.numbers.enumerated() { packed[firstNumber + i] = x }
        }
        words = packed
    }

    /// Where the tracks and numbers are, for prefetching (nil for an empty program).
    var storageAddress: UnsafeRawPointer? {
        words.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }

    /// Calls `body` with each track, in order, and the start of the numbers it indexes.
    @inline(__always)
    private func forEachTrack(_ body: (Track, UnsafePointer<Double>) -> Void) {
        guard trackCount > 0 else { return }
        words.withUnsafeBufferPointer { words in
            let tracks = UnsafeRawPointer(words.baseAddress!)
            let numbers = words.baseAddress! + trackCount * Self.wordsPerTrack
            for k in 0..<trackCount {
                body(tracks.load(fromByteOffset: k * MemoryLayout<Track>.stride, as: Track.self), numbers)
            }
        }
    }

    /// Applies every track, in order, at parent time `t`. With `model` (its state by address),
    /// first puts the model's value back into every field the program writes — field by field,
    /// each just before the first track that writes it, in the same pass.
    @inline(__always)
    func apply(to s: inout LayerState, restoringFrom model: UnsafeMutablePointer<LayerState>?, at t: CFTimeInterval) {
        withUnsafeMutableBytes(of: &s) { s in
            let state = s.baseAddress!
            forEachTrack { track, numbers in
                let field = state + Int(track.offset)
                if let model, track.restoresField {
                    track.scalar.copy(from: UnsafeRawPointer(model) + Int(track.offset), to: field)
                }
                Self.apply(track, to: field, at: t, numbers: numbers)
            }
        }
    }

    /// Writes the track's value at `t` into its field, at `field`.
    private static func apply(_ track: Track, to field: UnsafeMutableRawPointer, at t: CFTimeInterval,
                              numbers: UnsafePointer<Double>) {
        let state = TimingModel.state(at: t, track.schedule)
        guard state.isApplied else { return }
        let f = track.easing < 0 ? state.fraction : curve(at: Int(track.easing), numbers).solve(state.fraction)
        let isPoint = track.scalar == .point
        var from = Int(track.firstValue), u = f
        if track.isKeyframes {
            let count = Int(track.valueCount)
            let times = track.firstKeyTime < 0 ? nil
                : UnsafeBufferPointer(start: numbers + Int(track.firstKeyTime), count: count)
            let (i, local) = CAKeyframeAnimation.timedSegment(f, count: count, keyTimes: times) { i, t in
                i < track.curveCount ? curve(at: Int(track.firstCurve) + 4 * i, numbers).solve(t) : t
            }
            from += isPoint ? 2 * i : i
            u = local
        }
        let follows = track.startFollowsCurrent || track.endFollowsCurrent
        if isPoint {
            var a = CGPoint(x: numbers[from], y: numbers[from + 1])
            var b = CGPoint(x: numbers[from + 2], y: numbers[from + 3])
            if follows {
                let current = field.load(as: CGPoint.self)
                if track.startFollowsCurrent { a = CGPoint(x: current.x + a.x, y: current.y + a.y) }
                if track.endFollowsCurrent { b = CGPoint(x: current.x + b.x, y: current.y + b.y) }
            }
            field.storeBytes(of: AnimatableValue.lerp(a, b, u), as: CGPoint.self)
        } else {
            var a = numbers[from], b = numbers[from + 1]
            if follows {
                let current = track.scalar.number(at: field)
                if track.startFollowsCurrent { a += current }
                if track.endFollowsCurrent { b += current }
            }
            track.scalar.setNumber(a + (b - a) * u, at: field)
        }
    }

    /// The timing curve whose control points start at `numbers[i]`.
    private static func curve(at i: Int, _ numbers: UnsafePointer<Double>) -> TimingCurve {
        TimingCurve(c1: (numbers[i], numbers[i + 1]), c2: (numbers[i + 2], numbers[i + 3]))
    }

    // MARK: - Compiling

    /// The tracks and numbers while they are being compiled.
    private struct Builder {
        var tracks: [Track] = []
        var numbers: [Double] = []

        mutating func compile(_ animation: CAAnimation, on layerClass: CALayer.Type) -> Bool {
            guard let property = animation as? CAPropertyAnimation, !property.isAdditive, !property.isCumulative,
                  property.valueFunction == nil, let keyPath = property.keyPath,
                  case let .state(field, path) = AnimationTarget(ParsedKeyPath(keyPath), in: layerClass),
                  !path.hasSubpath, let slot = field.slot else { return false }
            let isPoint = slot.scalar == .point
            guard let source = Source(property, zero: isPoint ? .point(.zero) : .number(0)) else { return false }
            var flat: [Double] = []
            for value in source.values {
                switch (value, isPoint) {
                case let (.number(x), false): flat.append(x)
                case let (.point(p), true): flat += [Double(p.x), Double(p.y)]
                default: return false
                }
            }
            let matchingTimes = source.keyTimes.flatMap { $0.count == source.values.count ? $0 : nil }
            // Indices are 32-bit (Track's size): a program that would outgrow them is not compiled.
            let added = flat.count + (matchingTimes?.count ?? 0) + 4 * (1 + source.easings.count)
            guard numbers.count + added <= Int(Int32.max) else { return false }
            func append(_ more: [Double]) -> Int32 {
                defer { numbers += more }
                return Int32(numbers.count)
            }
            func append(_ curve: TimingCurve) -> Int32 { append([curve.c1.0, curve.c1.1, curve.c2.0, curve.c2.1]) }
            let firstValue = append(flat)
            let firstKeyTime = matchingTimes.map(append) ?? -1
            let easing = animation.timingFunction.map { append($0.curve) } ?? -1
            let firstCurve = Int32(numbers.count)
            for curve in source.easings { _ = append(curve) }
            let restoresField = !tracks.contains { $0.offset == Int32(slot.offset) }
            tracks.append(Track(schedule: TimingModel.Schedule(animation.timing), scalar: slot.scalar,
                                isKeyframes: source.isKeyframes,
                                startFollowsCurrent: source.startFollowsCurrent, endFollowsCurrent: source.endFollowsCurrent,
                                restoresField: restoresField,
                                offset: Int32(slot.offset), firstValue: firstValue, valueCount: Int32(source.values.count),
                                firstKeyTime: firstKeyTime, easing: easing,
                                firstCurve: firstCurve, curveCount: Int32(source.easings.count)))
            return true
        }
    }

    /// What a basic or linear keyframe animation passes through. A basic animation's ends come
    /// from `CABasicAnimation.endpointSources`: a fixed value, or the current value plus an
    /// offset (stored as the value, `zero` when there is none).
    private struct Source {
        var values: [AnimatableValue]
        var isKeyframes = false
        var keyTimes: [Double]?
        var easings: [TimingCurve] = []
        var startFollowsCurrent = false
        var endFollowsCurrent = false

        init?(_ animation: CAPropertyAnimation, zero: AnimatableValue) {
            if type(of: animation) == CABasicAnimation.self, let basic = animation as? CABasicAnimation {
                let (start, end) = basic.endpointSources
                func stored(_ e: CABasicAnimation.Endpoint) -> (AnimatableValue, follows: Bool) {
                    switch e {
                    case let .fixed(v): (v, false)
                    case let .current(plus: offset): (offset ?? zero, true)
                    }
                }
                let (a, b) = (stored(start), stored(end))
                values = [a.0, b.0]
                (startFollowsCurrent, endFollowsCurrent) = (a.follows, b.follows)
            } else if type(of: animation) == CAKeyframeAnimation.self, let keyframe = animation as? CAKeyframeAnimation,
                      keyframe.path == nil, keyframe.calculationMode == .linear, keyframe.rotationMode == nil,
                      keyframe.typed.count >= 2 {
                values = keyframe.typed
                isKeyframes = true
                keyTimes = keyframe.times
                easings = keyframe.timingFunctions?.map(\.curve) ?? []
            } else {
                return nil
            }
        }
    }
}
