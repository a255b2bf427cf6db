import Foundation

/// Birth values: on Apple a particle keeps the values it was born with — changing or animating
/// a cell's or the layer's value (velocity, scale, colour, spin, emitter position, lifetime, …)
/// affects the particles born afterwards, and changing a birth rate changes only when the next
/// particles are born. Citrine keeps the emitter a closed form of time (see
/// `_particles(atMediaTime:into:)`) by recording what it needs:
///
/// - Model changes (the layer's emitter properties, `emitterCells`, and
///   `setValue(_:forKeyPath: "emitterCells.<name>.<key>")`) made after the layer's first commit
///   end a *segment* of emitter time: the layer keeps a copy of its values from before the change
///   (`BirthHistory`), which the particles born before the change go on using. A cell's births
///   continue across a change from where they were: the count of particles emitted so far (a
///   closed form of the earlier segments' rates) carries over, so particle k keeps its birth
///   time and its random values in every later frame.
/// - Animations of those values (`CABasicAnimation(keyPath: "emitterCells.spark.velocity")`,
///   …): a particle's values are the presented values at the 1/60 s step of emitter time in
///   which it is born (Core Animation steps an emitter once per display frame; a step grid
///   fixed in emitter time keeps frames independent of each other). An animation that leaves
///   the layer (finished and removed, replaced, or removed) is kept for the particles born
///   while it ran.
///
/// A segment is forgotten once no particle born in it can still be alive. Writing a property of
/// a cell object directly (`cell.velocity = 5`) is not seen as a change (Apple documents the key
/// path for changing a cell in a layer): it applies to every particle. An animated birth rate
/// spaces the births of the current segment by its presented value (as before this record).
extension CAEmitterLayer {
    /// Called before a model change of a value that particles take at birth.
    func willChangeBirthValues() {
        guard modelLayer == nil, !isShadowCopy, !applyingPresentation,
              createdBeforeCommit < CATransaction.commitCount else { return }
        let now = localTime(fromMediaTime: CACurrentMediaTime())
        guard now.isFinite else { return }
        birthHistory.record(before: birthValuesCopy(), at: now)
    }
}

extension CAEmitterLayer: AnimationRetiring {
    /// Called before the animation under `key` (nil: every animation) leaves this model layer,
    /// removed or replaced: one that changes birth values goes on giving them to the particles
    /// born before now.
    func retireAnimations(forKey key: String?) {
        guard modelLayer == nil else { return }
        let now = localTime(fromMediaTime: CACurrentMediaTime())
        for entry in animationStore.entries where (key == nil || entry.key == key) && !entry.pendingBegin {
            retireAnimation(entry.animation, until: now)
        }
    }

    /// Keeps `animation`, which leaves this model layer, for the particles born before `until`
    /// (layer time) when it changes birth values.
    func retireAnimation(_ animation: CAAnimation, until: CFTimeInterval) {
        guard modelLayer == nil, CAEmitterLayer.animatesBirthValues(animation), until.isFinite else { return }
        birthHistory.retire(animation, until: until, now: localTime(fromMediaTime: CACurrentMediaTime()),
                            reach: BirthHistory.reach(of: self))
    }
}

extension CAEmitterLayer {
    /// A copy of this layer's emitter values with its own copies of the cells.
    func birthValuesCopy() -> CAEmitterLayer {
        let copy = CAEmitterLayer(layer: self)
        copy.emitterCells = readableCells?.map { $0.deepCopy() }
        return copy
    }
}

/// The segments of emitter time before the model changes that particles may still remember.
struct BirthHistory {
    /// [start, end) of emitter time during which `values` were the model's; `counts[i]` is the
    /// number of particles top-level cell i had emitted by `start` (a real number: births are
    /// where the running count crosses an integer).
    struct Segment {
        let start: Double, end: Double
        let values: CAEmitterLayer
        let counts: [Double]
        /// `BirthHistory.reach(of: values)`.
        let reach: Double
    }

    private(set) var past: [Segment] = []
    /// Animations of birth values that left the layer, in the order they were added, each with
    /// the emitter time from which it no longer applies.
    private(set) var retired: [(animation: CAAnimation, until: Double)] = []
    /// Start of the current segment (emitter time; 0: emission start) and the counts there.
    private(set) var currentStart = 0.0
    private(set) var currentCounts: [Double] = []
    /// The longest reach of any segment recorded (segments older than it are forgotten).
    private(set) var longestReach = 0.0
    /// Changes whenever a segment or a retired animation is recorded or forgotten (what the
    /// particles of a frame are born with may then differ: `BirthStepCache` starts anew).
    private(set) var generation = 0

    /// Records that `values` (the model's until now) end at emitter time `time`. A change at or
    /// before emission start, or earlier than the last one (a clock set back), starts anew.
    mutating func record(before values: CAEmitterLayer, at time: Double) {
        generation &+= 1
        guard time > 0, time >= currentStart else {
            past = []
            currentStart = 0
            currentCounts = []
            longestReach = 0
            return
        }
        guard time > currentStart else { return }   // values from before the first change at this time are kept
        let rates = Self.rates(of: values)
        let counts = rates.indices.map { i in
            (i < currentCounts.count ? currentCounts[i] : 0) + rates[i] * (time - currentStart)
        }
        let reach = Self.reach(of: values)
        past.append(Segment(start: currentStart, end: time, values: values, counts: currentCounts, reach: reach))
        currentStart = time
        currentCounts = counts
        longestReach = max(longestReach, reach)
        var forgotten = max(0, past.count - Self.maxRecords)
        while forgotten < past.count, past[forgotten].end < time - longestReach { forgotten += 1 }
        past.removeFirst(forgotten)
    }

    /// Most past segments, and most retired animations, a layer keeps (README, Limits): past
    /// them the oldest are forgotten, and the particles born under them are no longer drawn.
    static let maxRecords = 4096

    /// Keeps `animation` for births before `until`, and forgets those no live particle can have
    /// been born under (ended more than `reach` before `now`).
    mutating func retire(_ animation: CAAnimation, until: Double, now: Double, reach: Double) {
        generation &+= 1
        retired.append((animation, until))
        retired.removeAll { $0.until < now - reach }
        if retired.count > Self.maxRecords { retired.removeFirst(retired.count - Self.maxRecords) }
    }

    /// Each top-level cell's birth rate with the layer's multiplier (particles per second).
    static func rates(of layer: CAEmitterLayer) -> [Double] {
        (layer.emitterCells ?? []).map { max(0, Double($0.birthRate) * Double(layer.birthRate)) }
    }

    /// Longest a particle of `cell` can live under the layer's `lifetime` multiplier (seconds):
    /// lifetime plus the whole range, both scaled (a negative multiplier included), at least 0.
    /// The one rule for how long particles last, used by the simulation and this history.
    static func longestLife(_ cell: CAEmitterCell, lifetime multiplier: Double) -> Double {
        max(0, Double(cell.lifetime) * multiplier + abs(Double(cell.lifetimeRange) * multiplier))
    }

    /// Longest a particle of `layer`'s cells, or any of its descendants, can live (seconds).
    static func reach(of layer: CAEmitterLayer) -> Double {
        func reach(_ cells: [CAEmitterCell]?) -> Double {
            (cells ?? []).map { cell in
                longestLife(cell, lifetime: Double(layer.lifetime)) + reach(cell.emitterCells)
            }.max() ?? 0
        }
        return reach(layer.readableCells)
    }
}

/// The keys of a layer's values that particles take at birth.
extension CAEmitterLayer {
    static let birthValueKeys: Set<String> = [
        "emitterCells", "birthRate", "lifetime", "emitterPosition", "emitterZPosition", "emitterSize",
        "emitterDepth", "emitterShape", "emitterMode", "velocity", "scale", "spin",
    ]

    /// Whether `animation` (or one in its group) animates a value particles take at birth.
    static func animatesBirthValues(_ animation: CAAnimation) -> Bool {
        if let group = animation as? CAAnimationGroup { return group.animations?.contains(where: animatesBirthValues) ?? false }
        guard let keyPath = (animation as? CAPropertyAnimation)?.keyPath else { return false }
        return keyPath.hasPrefix("emitterCells.") || birthValueKeys.contains(keyPath)
    }
}

/// The values a particle is born with, at a step of emitter time, when animations change them:
/// `base` (the model's values of the segment) with the model's animations applied at the step,
/// evaluated on a private copy of the layer (so no model or presentation value is written).
final class AnimatedBirthValues {
    /// Emitter-time steps per second at which animated values are sampled.
    static let stepsPerSecond = 60.0

    /// The animations in the order they were added, each applying to steps before `until`.
    private let animations: [(animation: CAAnimation, until: Double)]
    private let scratch: CAEmitterLayer
    /// What the values at a step depend on besides the base values (`BirthStepCache`).
    let token: Token

    /// The model's animations (its store's generation, which changes when one is added or
    /// removed, and how many are committed: a commit gives the pending ones their begin time)
    /// and its birth history's generation. The retired animations left out at `now` apply only
    /// to steps in which no particle alive at `now` was born, so they are not part of it.
    struct Token: Equatable {
        let store: Int, committed: Int, history: Int
    }

    /// nil when none of `model`'s committed animations, nor a retired one that a particle alive
    /// at emitter time `now` can have been born under, changes a birth value.
    init?(model: CAEmitterLayer, now: Double) {
        let committed = model.animationStore.entries.lazy.filter { !$0.pendingBegin }
        let current = committed.map(\.animation)
            .filter(CAEmitterLayer.animatesBirthValues).map { (animation: $0, until: Double.infinity) }
        let history = model.birthHistory
        let reach = max(history.longestReach, BirthHistory.reach(of: model))
        // A particle alive at `now` was born after now − reach, in a step that may start up to
        // one step earlier: an animation retired before that step's start applies to none of them.
        animations = history.retired.filter { $0.until >= now - reach - 1 / Self.stepsPerSecond } + current
        guard !animations.isEmpty else { return nil }
        token = Token(store: model.animationStore.generation, committed: committed.count, history: history.generation)
        scratch = CAEmitterLayer(layer: model)
        scratch.modelLayer = Unmanaged.passUnretained(model)
    }

    /// The step of emitter time in which a particle born at `time` takes its values.
    static func step(of time: Double) -> Double { (time * stepsPerSecond).rounded(.down) }

    /// `base`'s values with the animations applied at the start of `step` (a layer valid until
    /// the next call).
    func values(of base: CAEmitterLayer, atStep step: Double) -> CAEmitterLayer {
        scratch.copyProperties(from: base)
        let time = step / Self.stepsPerSecond
        for (animation, until) in animations where time < until { animation.apply(to: &scratch.state, of: scratch, at: time) }
        return scratch
    }
}
