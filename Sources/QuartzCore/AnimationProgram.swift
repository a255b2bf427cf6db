/// A layer's animations reduced to plain values, for presentation evaluation every frame.
///
/// The general path (`CAAnimation.apply`) reads class properties, builds `AnimatableValue`
/// enums and resolves key paths on every call, which costs thousands of instructions per layer
/// per frame in retains, releases and exclusivity checks. The common animations — a
/// `CABasicAnimation` or a linear `CAKeyframeAnimation` of a number or point property stored in
/// `LayerState`, or of a number among `transform`'s parts (`transform.rotation.z`,
/// `transform.scale`, `transform.translation.x`, … — Apple's Key-Value Coding Extensions), not
/// additive, not cumulative, without a value function — are compiled here into `Track`s that
/// hold no references, and evaluated with the same formulas:
///
///     fraction  f = timingFunction(TimingModel.state(at: t).fraction)
///     basic       = from + (to − from) · f
///     keyframes   = v[i] + (v[i+1] − v[i]) · t_i   (segment i and eased t_i from
///                                                   CAKeyframeAnimation.timedSegment)
///
/// A layer has a program only when every one of its (committed) animations compiles, so the
/// order in which animations apply never changes; otherwise the general path runs. An added
/// animation is a private copy that Apple says must not be modified ("undefined behavior"), so
/// its snapshot stays valid until the layer's animations change. Programs with equal tracks share
/// their storage, and one that depends on the time alone remembers its last evaluation
/// (`AnimationProgram+Sharing.swift`): layers running the same animations evaluate them once per
/// frame.
struct AnimationProgram {
    /// One compiled animation, 48 bytes, followed in the program's storage by the numbers it
    /// reads (a frame reads every track of a layer, so their size is the cache lines it
    /// touches): its values (a point takes two consecutive numbers, x and y), then its key
    /// times (`hasKeyTimes`, one per value), its timing curve (`hasEasing`), and in the rest its
    /// segment curves (CAKeyframeAnimation.timingFunctions); a curve is four numbers (c1.x,
    /// c1.y, c2.x, c2.y).
    struct Track: Equatable {
        var schedule: TimingModel.Schedule
        /// How the animated field is stored; `offset` is its byte offset in `LayerState` (a
        /// track that sets a part of the transform: which part, `transformPart`).
        var scalar: StateField.Scalar
        var options: Options
        var offset: UInt16
        var valueCount: UInt16
        /// How many numbers follow this track.
        var numberCount: UInt16

        struct Options: OptionSet, Equatable {
            let rawValue: UInt8
            /// Keyframes (timed segments) or a basic animation (from = the first value, to =
            /// the second).
            static let isKeyframes = Options(rawValue: 1)
            /// A basic animation's start / end adds the field's current value to its stored
            /// value (the endpoints CABasicAnimation takes from the presentation when not given).
            static let startFollowsCurrent = Options(rawValue: 2)
            static let endFollowsCurrent = Options(rawValue: 4)
            /// No earlier track of the program writes this field: a restoring evaluation puts
            /// the model's value back into it just before this track applies (a later track of
            /// the same field finds the earlier one's value, as when every field is restored
            /// first).
            static let restoresField = Options(rawValue: 8)
            /// Key times follow the values; without them the keyframes are evenly spaced.
            static let hasKeyTimes = Options(rawValue: 16)
            /// The animation's timing curve follows; without it, linear pacing.
            static let hasEasing = Options(rawValue: 32)
            /// The track sets a number among `transform`'s parts, and `offset` holds which one
            /// (`transformPart`) instead of a field's offset (a track has no room for both).
            static let setsTransformPart = Options(rawValue: 64)
        }

        /// The part of `transform` the track sets (`setsTransformPart`), or nil when it sets
        /// the field at `offset`.
        var transformPart: ValueComponent? {
            options.contains(.setsTransformPart) ? ValueComponent(rawValue: UInt8(truncatingIfNeeded: offset)) : nil
        }

        /// Whether `other` writes the field this track writes.
        func writesSameField(as other: Track) -> Bool {
            let setsTransform = options.contains(.setsTransformPart)
            return setsTransform == other.options.contains(.setsTransformPart) && (setsTransform || offset == other.offset)
        }
    }

    /// Each track followed by its numbers, in one allocation (a frame's first read of the
    /// program brings in the lines of both; as two arrays they were two dependent cache misses
    /// per layer whenever the allocator did not put them side by side), after the memo when the
    /// program has one. Layers whose animations compile to the same tracks share one storage
    /// (`AnimationProgram+Sharing.swift`).
    private let storage: Storage

    /// The program for `animations` on a layer of `layerClass`, or nil when one of them needs
    /// the general path.
    init?(_ animations: some Sequence<CAAnimation>, on layerClass: CALayer.Type) {
        var builder = Builder()
        for animation in animations {
            guard builder.compile(animation, on: layerClass) else { return nil }
        }
        // A track's value is a function of the time alone unless it reads the field's current
        // value (an endpoint following the current value, a field an earlier track wrote, or
        // the transform whose part it sets).
        let isPure = builder.tracks.allSatisfy { track, _ in
            track.options.contains(.restoresField)
                && track.options.isDisjoint(with: [.startFollowsCurrent, .endFollowsCurrent, .setsTransformPart])
        }
        storage = Self.storage(builder.tracks, memoized: isPure)
    }

    /// Where the storage starts (its header, then the memo or the first track), for
    /// prefetching: the object's address, read without touching it.
    var storageAddress: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(storage).toOpaque()) }

    /// Applies every track, in order, at parent time `t`. With `model` (its state by address),
    /// first puts the model's value back into every field the program writes — field by field,
    /// each just before the first track that writes it, in the same pass. A program shared
    /// between layers copies the values its memo holds for `t` instead (see `Memo`), and
    /// otherwise records what it evaluated.
    @inline(__always)
    func apply(to s: inout LayerState, restoringFrom model: UnsafeMutablePointer<LayerState>?, at t: CFTimeInterval) {
        storage.withUnsafeMutablePointers { header, words in
            let trackCount = header.pointee.trackCount
            guard trackCount > 0 else { return }
            let memoWords = header.pointee.memoWords
            let memo = memoWords > 0 ? Memo(words, trackCount: trackCount) : nil
            if let memo, let model,
               withUnsafeMutableBytes(of: &s, { memo.apply(to: $0.baseAddress!, restoringFrom: UnsafeRawPointer(model), at: t) }) {
                return
            }
            let recording = memo?.beginRecording(at: t)
            var p = UnsafeRawPointer(words + memoWords)
            for i in 0..<trackCount {
                let track = p.load(as: Track.self)
                let numbers = (p + MemoryLayout<Track>.stride).assumingMemoryBound(to: Double.self)
                p += MemoryLayout<Track>.stride + 8 * Int(track.numberCount)
                if let part = track.transformPart {
                    Self.apply(track, setting: part, of: &s, restoringFrom: model, at: t, numbers: numbers)
                    continue
                }
                withUnsafeMutableBytes(of: &s) { s in
                    let field = s.baseAddress! + Int(track.offset)
                    if let model, track.options.contains(.restoresField) {
                        track.scalar.copy(from: UnsafeRawPointer(model) + Int(track.offset), to: field)
                    }
                    let applied = Self.apply(track, to: field, at: t, numbers: numbers)
                    if recording != nil { memo!.record(track: i, track, applied: applied, field: field) }
                }
            }
            if let recording { memo!.endRecording(recording) }
        }
    }

    /// Sets `part` of the state's `transform` to the track's number at `t` (first putting the
    /// model's transform back when the track restores it), as the general path does
    /// (`AnimationTarget.set`, `ValueComponent.set`): the transform is decomposed into its parts
    /// (`TransformFields`), the part replaced, and the transform composed again with its
    /// perspective entries kept. An endpoint that follows the current value adds the part's
    /// value in the transform before this track.
    private static func apply(_ track: Track, setting part: ValueComponent, of s: inout LayerState,
                              restoringFrom model: UnsafeMutablePointer<LayerState>?, at t: CFTimeInterval,
                              numbers: UnsafePointer<Double>) {
        if let model, track.options.contains(.restoresField) { s.transform = model.pointee.transform }
        guard let (from, u) = segment(track, at: t, numbers: numbers) else { return }
        let whole = s.transform
        var parts = TransformFields(whole)
        let x = number(track, from: from, u, numbers: numbers) { Double(part.number(in: parts)) }
        part.setNumber(CGFloat(x), in: &parts)
        s.transform = parts.transform(keepingPerspectiveOf: whole)
    }

    /// Writes the track's value at `t` into its field, at `field`; `numbers` are the track's.
    /// Whether the track applies at `t` (active or filling; otherwise the field is left as it is).
    @inline(__always)
    private static func apply(_ track: Track, to field: UnsafeMutableRawPointer, at t: CFTimeInterval,
                              numbers: UnsafePointer<Double>) -> Bool {
        guard let (from, u) = segment(track, at: t, numbers: numbers) else { return false }
        if track.scalar == .point {
            var a = CGPoint(x: numbers[from], y: numbers[from + 1])
            var b = CGPoint(x: numbers[from + 2], y: numbers[from + 3])
            let startFollows = track.options.contains(.startFollowsCurrent)
            let endFollows = track.options.contains(.endFollowsCurrent)
            if startFollows || endFollows {
                let current = field.load(as: CGPoint.self)
                if startFollows { a = CGPoint(x: current.x + a.x, y: current.y + a.y) }
                if endFollows { b = CGPoint(x: current.x + b.x, y: current.y + b.y) }
            }
            field.storeBytes(of: AnimatableValue.lerp(a, b, u), as: CGPoint.self)
        } else {
            track.scalar.setNumber(number(track, from: from, u, numbers: numbers) { track.scalar.number(at: field) }, at: field)
        }
        return true
    }

    /// A number track's value in segment `from` (the index of its first value in `numbers`) at
    /// fraction `u` of it; `current` gives the current value when an endpoint follows it.
    @inline(__always)
    private static func number(_ track: Track, from: Int, _ u: Double, numbers: UnsafePointer<Double>,
                               current: () -> Double) -> Double {
        var a = numbers[from], b = numbers[from + 1]
        let startFollows = track.options.contains(.startFollowsCurrent)
        let endFollows = track.options.contains(.endFollowsCurrent)
        if startFollows || endFollows {
            let c = current()
            if startFollows { a += c }
            if endFollows { b += c }
        }
        return a + (b - a) * u
    }

    /// Where the track is at `t`: the index in `numbers` of the first value of the segment it is
    /// in (a basic animation's one segment is its two values) and the eased fraction of that
    /// segment; nil when the track does not apply at `t` (neither active nor filling).
    @inline(__always)
    private static func segment(_ track: Track, at t: CFTimeInterval,
                                numbers: UnsafePointer<Double>) -> (from: Int, u: Double)? {
        let state = TimingModel.state(at: t, track.schedule)
        guard state.isApplied else { return nil }
        let isPoint = track.scalar == .point
        let count = Int(track.valueCount)
        var after = isPoint ? 2 * count : count
        let times = track.options.contains(.hasKeyTimes) ? UnsafeBufferPointer(start: numbers + after, count: count) : nil
        if times != nil { after += count }
        let f: Double
        if track.options.contains(.hasEasing) {
            f = curve(at: after, numbers).solve(state.fraction)
            after += 4
        } else {
            f = state.fraction
        }
        var from = 0, u = f
        if track.options.contains(.isKeyframes) {
            let curves = after, curveCount = (Int(track.numberCount) - after) / 4
            let (i, local) = CAKeyframeAnimation.timedSegment(f, count: count, keyTimes: times) { i, t in
                i < curveCount ? curve(at: curves + 4 * i, numbers).solve(t) : t
            }
            from = isPoint ? 2 * i : i
            u = local
        }
        return (from, u)
    }

    /// The timing curve whose control points start at `numbers[i]`.
    private static func curve(at i: Int, _ numbers: UnsafePointer<Double>) -> TimingCurve {
        TimingCurve(c1: (numbers[i], numbers[i + 1]), c2: (numbers[i + 2], numbers[i + 3]))
    }

    // MARK: - Compiling

    /// The tracks, each with its numbers, while they are being compiled.
    private struct Builder {
        var tracks: [(track: Track, numbers: [Double])] = []

        mutating func compile(_ animation: CAAnimation, on layerClass: CALayer.Type) -> Bool {
            guard let property = animation as? CAPropertyAnimation, !property.isAdditive, !property.isCumulative,
                  property.valueFunction == nil, let keyPath = property.keyPath,
                  case let .state(field, path) = AnimationTarget(ParsedKeyPath(keyPath), in: layerClass)
            else { return false }
            // A field stored inline, by its offset; or a number among the transform's parts,
            // by which one.
            let slot: (offset: Int, scalar: StateField.Scalar), setsPart: Bool
            if !path.hasSubpath, let inline = field.slot {
                (slot, setsPart) = (inline, false)
            } else if case .transform = field, let part = path.component, part.isTransformNumber {
                (slot, setsPart) = ((Int(part.rawValue), .double), true)
            } else {
                return false
            }
            let isPoint = slot.scalar == .point
            guard let source = Source(property, zero: isPoint ? .point(.zero) : .number(0)) else { return false }
            var numbers: [Double] = []
            for value in source.values {
                switch (value, isPoint) {
                case let (.number(x), false): numbers.append(x)
                case let (.point(p), true): numbers += [Double(p.x), Double(p.y)]
                default: return false
                }
            }
            var options: Track.Options = []
            if let times = source.keyTimes, times.count == source.values.count {
                numbers += times
                options.insert(.hasKeyTimes)
            }
            if let easing = animation.timingFunction?.curve {
                numbers += [easing.c1.0, easing.c1.1, easing.c2.0, easing.c2.1]
                options.insert(.hasEasing)
            }
            for curve in source.easings { numbers += [curve.c1.0, curve.c1.1, curve.c2.0, curve.c2.1] }
            // Counts and offsets are 16-bit (Track's size): an animation that would outgrow
            // them is not compiled.
            guard numbers.count <= Int(UInt16.max), slot.offset <= Int(UInt16.max) else { return false }
            if source.isKeyframes { options.insert(.isKeyframes) }
            if source.startFollowsCurrent { options.insert(.startFollowsCurrent) }
            if source.endFollowsCurrent { options.insert(.endFollowsCurrent) }
            if setsPart { options.insert(.setsTransformPart) }
            var track = Track(schedule: TimingModel.Schedule(animation.timing), scalar: slot.scalar, options: options,
                              offset: UInt16(slot.offset), valueCount: UInt16(source.values.count),
                              numberCount: UInt16(numbers.count))
            if !tracks.contains(where: { $0.track.writesSameField(as: track) }) { track.options.insert(.restoresField) }
            tracks.append((track, numbers))
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
