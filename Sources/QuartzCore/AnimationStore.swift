/// A layer's animations in insertion order (Apple applies them in that order), with the state
/// needed to deliver delegate events once each.
struct AnimationStore {
    struct Entry {
        var key: String
        var animation: CAAnimation
        /// beginTime was 0 when added: set to the layer's local time at the next commit.
        var pendingBegin: Bool
        /// The delivery turn (`CATransaction.deliveryTurn`) in which the animation was added:
        /// its start is reported in a later turn, never inside the commit that starts it.
        var addedInTurn: Int
        /// The media time (`CACurrentMediaTime()` on the adding thread) at which it was added.
        var addedAt: CFTimeInterval
        var started = false
        var stopped = false

        /// Whether the animation has begun by layer time `t` without its start being reported
        /// yet (a removal reports that start before the stop, as Core Animation's one batch of
        /// callbacks does).
        func hasUnreportedStart(at t: CFTimeInterval) -> Bool {
            !started && !pendingBegin && t >= animation.beginTime
        }
    }

    enum Event {
        case start(CAAnimation)
        case stop(CAAnimation)
    }

    // The fields a frame reads first (`hasDueEvents`, the compiled program): stored properties
    // are laid out in declaration order.
    /// Layer time of the earliest start or stop still to deliver (−∞: not known, look).
    private var nextEventTime = -CFTimeInterval.infinity
    /// The compiled form of the committed animations, built at the first evaluation after a
    /// change (see `AnimationProgram`); nil when not built yet or when some animation needs the
    /// general path. (An optional stored property, not an enum payload: a frame then calls it
    /// in place instead of copying it out, which would retain and release its buffers.)
    private var program: AnimationProgram?
    /// Whether the program has been built since the animations last changed: evaluating them
    /// then writes nothing in the store (unless events are due, `hasDueEvents`).
    private(set) var programIsBuilt = false
    /// Changes whenever an animation is added or removed (not when one merely starts), so a
    /// presentation can tell that the set of animated properties is the one it last applied.
    private(set) var generation = 0 { didSet { forgetProgram() } }
    private(set) var entries: [Entry] = []
    /// The keys of `entries`, so that adding under a new key costs O(1), not a search of every
    /// entry (100 000 animations added to one layer cost O(n²)).
    private var keySet: Set<String> = [] { didSet { hasTransitionKey = keySet.contains(kCATransition) } }
    /// Whether an animation is keyed `kCATransition` (where a layer's running transition is
    /// kept): asked for every layer twice a frame, where a hashed look-up of the key made
    /// `_transition(atMediaTime:)` cost 9.3 K instructions of rect-animated.json's 485 K-
    /// instruction frame (scripts/lottie-testfiles, callgrind; 0.5 K with this flag).
    private(set) var hasTransitionKey = false
    private(set) var serial = 0

    private mutating func forgetProgram() {
        program = nil
        programIsBuilt = false
        nextEventTime = -.infinity
    }

    var isEmpty: Bool { entries.isEmpty }

    /// Whether some animation has a start or stop still to report (or waits for its commit).
    var hasUnreportedEvents: Bool { entries.contains { $0.pendingBegin || !$0.stopped } }
    /// Where the compiled program's storage is, for prefetching (nil when there is none).
    var programAddress: UnsafeRawPointer? { program?.storageAddress }
    var keys: [String] { entries.map(\.key) }

    /// Adds `animation` under `key`; returns the entry it replaced unless that one's stop was
    /// already reported.
    mutating func add(_ animation: CAAnimation, key: String) -> Entry? {
        serial += 1
        generation &+= 1
        var replaced: Entry?
        if !keySet.insert(key).inserted, let i = entries.firstIndex(where: { $0.key == key }) {
            let old = entries.remove(at: i)
            if !old.stopped { replaced = old }
        }
        entries.append(Entry(key: key, animation: animation, pendingBegin: animation.beginTime == 0,
                             addedInTurn: CATransaction.deliveryTurn, addedAt: CACurrentMediaTime()))
        return replaced
    }

    /// The media time at which the earliest of the animations was added (nil for none).
    var earliestAddition: CFTimeInterval? { entries.lazy.map(\.addedAt).min() }

    func animation(forKey key: String) -> CAAnimation? {
        keySet.contains(key) ? entries.first { $0.key == key }?.animation : nil
    }

    /// Removes the animation under `key`; returns its entry unless its stop was reported.
    mutating func remove(key: String) -> Entry? {
        guard keySet.remove(key) != nil, let i = entries.firstIndex(where: { $0.key == key }) else { return nil }
        generation &+= 1
        let e = entries.remove(at: i)
        return e.stopped ? nil : e
    }

    mutating func removeAll() -> [Entry] {
        let all = entries.filter { !$0.stopped }
        generation &+= 1
        entries = []
        keySet = []
        return all
    }

    mutating func assignBeginTimes(_ localTime: CFTimeInterval) {
        for i in entries.indices where entries[i].pendingBegin {
            entries[i].animation.beginTime = localTime
            entries[i].pendingBegin = false
            forgetProgram()
        }
    }

    /// Applies every animation (except those still waiting for their commit), in the order they
    /// were added, to the presentation `layer` whose state is `s`. With `restoringFrom`, first puts
    /// that model's values back into every property the animations write (the presentation then
    /// holds the previous frame's animated values and is otherwise equal to the model).
    mutating func apply(to s: inout LayerState, of layer: CALayer, at localTime: CFTimeInterval,
                        restoringFrom model: CALayer?) {
        if !programIsBuilt {
            program = AnimationProgram(entries.lazy.filter { !$0.pendingBegin }.map(\.animation), on: type(of: layer))
            programIsBuilt = true
        }
        if program != nil {
            if let model {
                model.withUnsafeState { program!.apply(to: &s, restoringFrom: $0, at: localTime) }
            } else {
                program!.apply(to: &s, restoringFrom: nil, at: localTime)
            }
            return
        }
        if let model {
            for e in entries where !e.pendingBegin { e.animation.restoreTargets(&s, of: layer, from: model) }
        }
        for e in entries where !e.pendingBegin {
            e.animation.apply(to: &s, of: layer, at: localTime)
        }
    }

    /// The presentation fast path: when the animations are compiled, puts `model`'s values back
    /// into the fields they write and re-applies them at `localTime`. Returns false (changing
    /// nothing) when the program is not built or the general path is needed.
    /// (Mutating, and the model's state by address, so that neither this store nor the state
    /// is copied.)
    mutating func reapplyCompiled(to s: inout LayerState, restoringFrom model: UnsafeMutablePointer<LayerState>,
                                  at localTime: CFTimeInterval) -> Bool {
        guard program != nil else { return false }
        program!.apply(to: &s, restoringFrom: model, at: localTime)
        return true
    }

    /// Whether the animations were compiled at their last evaluation (false before it).
    var isCompiled: Bool { programIsBuilt && program != nil }

    /// Whether some start or stop is due at layer time `t` (every frame, every layer: one
    /// comparison until the next event).
    func hasDueEvents(at t: CFTimeInterval) -> Bool { t >= nextEventTime }

    /// Start and stop events due at layer time `t`, in time order; finished animations with
    /// isRemovedOnCompletion are removed. An animation added in the current delivery `turn`
    /// is not reported yet (nor, so, its stop): Core Animation sends `animationDidStart` after
    /// the commit, on a later turn of the main run loop.
    mutating func dueEvents(at t: CFTimeInterval, turn: Int) -> [Event] {
        guard hasDueEvents(at: t) else { return [] }
        var timed: [(CFTimeInterval, Int, Event)] = []
        var order = 0
        for i in entries.indices where !entries[i].pendingBegin {
            let a = entries[i].animation
            if !entries[i].started && t >= a.beginTime && entries[i].addedInTurn != turn {
                entries[i].started = true
                timed.append((a.beginTime, order, .start(a))); order += 1
            }
            let end = a.activeEnd
            if entries[i].started && !entries[i].stopped && t >= end {
                entries[i].stopped = true
                timed.append((end, order, .stop(a))); order += 1
            }
        }
        let count = entries.count
        entries.removeAll { $0.stopped && $0.animation.isRemovedOnCompletion }
        if entries.count != count {
            generation &+= 1
            keySet = Set(entries.map(\.key))
        }
        nextEventTime = entries.lazy.filter { !$0.pendingBegin && !$0.stopped }
            .map { $0.started ? $0.animation.activeEnd : $0.animation.beginTime }.min() ?? .infinity
        return timed.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }
}
