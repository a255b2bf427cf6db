import Foundation
import Synchronization

/// A layer's `CAMediaTiming` properties and the conversion of times between layers (Apple's
/// hierarchical timing: each layer's local time follows from its superlayer's — a mask's from
/// the layer it masks, `timeParent` — through its beginTime, speed and timeOffset, `TimingModel`).
extension CALayer {
    // MARK: - Timing (CAMediaTiming)

    public var beginTime: CFTimeInterval {
        get { state.beginTime }
        set { let old = state.beginTime; state.beginTime = newValue; CALayer.timingDidChange(); changed("beginTime", old) }
    }
    /// Default +∞ for a layer, both `CALayer().duration` and
    /// `CALayer.defaultValue(forKey: "duration")`: measured against Apple's QuartzCore by GNUstep
    /// libs-quartzcore's timing tests (`Tests/quartzcore/CAMediaTiming/timing.m`, "a layer's
    /// duration is infinite", "a layer's duration comes from the class"). The "Defaults to 0" of
    /// CAMediaTiming.h is the protocol's default, which animations keep (an animation's 0 takes
    /// the transaction's duration when added).
    ///
    /// A layer's local time is (parent time − beginTime) × speed + timeOffset for every
    /// duration: a layer's time never ends or repeats (Citrine applies no active duration,
    /// `repeatCount`, `repeatDuration` or `autoreverses` to layers). With the default +∞ that is
    /// exactly Apple's model — the active duration ∞ × max(repeatCount, 1) is ∞, so the layer is
    /// always active (`TimingModel.state` treats a non-finite duration as always active); a
    /// duration the user sets is kept and read back (timing.m: "the duration reads back as it
    /// was set") and leaves the layer's time running (TimingTests `layerDurationIsInfiniteAndTimeRunsOn`).
    public var duration: CFTimeInterval {
        get { state.duration }
        set { let old = state.duration; state.duration = newValue; changed("duration", old) }
    }
    public var speed: Float {
        get { state.speed }
        set { let old = state.speed; state.speed = newValue; CALayer.timingDidChange(); changed("speed", old) }
    }
    public var timeOffset: CFTimeInterval {
        get { state.timeOffset }
        set { let old = state.timeOffset; state.timeOffset = newValue; CALayer.timingDidChange(); changed("timeOffset", old) }
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

    /// This layer's local time at media time `t`: each layer from the root down maps its
    /// superlayer's time through its own timing (`TimingModel.localTime`; a layer with the default
    /// timing passes it on unchanged), so the result is exactly that composition, evaluated level by
    /// level. O(1) amortized: see `timeOfParent(atMediaTime:)`.
    func localTime(fromMediaTime t: CFTimeInterval) -> CFTimeInterval {
        ownTime(fromParent: timeOfParent(atMediaTime: t)).time
    }

    /// This layer's local time at media time `t` and its rate: local seconds per media second,
    /// the product of the speeds of the layer and its ancestors (0 while time stands still on the
    /// way up, negative when it runs backwards), multiplied from the root down.
    func localTimeAndRate(fromMediaTime t: CFTimeInterval) -> (time: CFTimeInterval, rate: Double) {
        ownTime(fromParent: timeOfParent(atMediaTime: t))
    }

    /// One remembered answer of `timeOfParent(atMediaTime:)`: the superlayer's time and rate at
    /// a media time.
    struct TimeCache {
        /// `timingGeneration` when the entry was made; −1: none yet.
        var generation = -1
        /// The media time asked, as its bit pattern (so that NaN finds itself).
        var mediaTime: UInt64 = 0
        var parentTime: CFTimeInterval = 0
        var parentRate: Double = 1

        /// The superlayer's time and rate when this entry is for media time `t` under `generation`.
        @inline(__always)
        func entry(_ generation: Int, _ t: CFTimeInterval) -> (time: CFTimeInterval, rate: Double)? {
            generation == self.generation && mediaTime == t.bitPattern ? (parentTime, parentRate) : nil
        }
    }

    /// Changes whenever any layer's beginTime, speed or timeOffset, or any layer's superlayer
    /// or mask, changes: a `TimeCache` entry made under an older value may be wrong. Process-wide (every
    /// thread's layers; trees are confined to their thread, so only the counter is shared).
    static let timingGeneration = Atomic<Int>(0)

    /// Citrine plumbing for renderers: `timingGeneration` — unchanged, no layer of any tree has
    /// gained or lost a sublayer, superlayer or mask, nor changed its timing.
    package static var timingChangeCount: Int { timingGeneration.load(ordering: .relaxed) }

    /// Invalidates every layer's cached time (`timingGeneration`).
    static func timingDidChange() { timingGeneration.add(1, ordering: .relaxed) }

    /// The superlayer's (`timeParent`'s) local time and rate at media time `t` (media time and
    /// rate 1 for a root), through `timeCache`: a layer's entry holds its superlayer's time at
    /// the last media time it was filled for, valid while `timingGeneration` holds. In the usual
    /// case the superlayer's own entry is current (a tree evaluated from the root down, or
    /// siblings in turn): the answer follows from it in O(1), and this layer's entry is neither
    /// read nor written — most layers are leaves, whose entries nothing else reads, and an entry
    /// that a sublayer needs is filled by that sublayer's walk below. Otherwise this layer's own
    /// entry, and failing that a walk up only as far as the nearest ancestor with a valid entry
    /// — in a loop, never recursion — collecting the layers on the way, then filling their
    /// entries from the top down. So n layers of a chain of any depth cost O(n) in all, in any
    /// order, and each answer is the exact level-by-level composition (the cache keeps values,
    /// never a composed formula). Through the superlayers borrowed, not retained: this runs for
    /// every layer every frame.
    private func timeOfParent(atMediaTime t: CFTimeInterval) -> (time: CFTimeInterval, rate: Double) {
        let generation = CALayer.timingGeneration.load(ordering: .relaxed)
        guard let parent = timeParent else {
            if timeCache.entry(generation, t) == nil {
                timeCache = TimeCache(generation: generation, mediaTime: t.bitPattern, parentTime: t, parentRate: 1)
            }
            return (t, 1)
        }
        if let above = parent._withUnsafeGuaranteedRef({ p in p.timeCache.entry(generation, t).map { p.ownTime(fromParent: $0) } }) {
            return above
        }
        if let entry = timeCache.entry(generation, t) { return entry }
        return fillTimeCaches(generation: generation, at: t)
    }

    /// Makes this layer's own entry current for media time `t` (what its sublayers read), filling
    /// those above it that need it too.
    func makeTimeCacheEntryCurrent(atMediaTime t: CFTimeInterval) {
        let generation = CALayer.timingGeneration.load(ordering: .relaxed)
        if timeCache.entry(generation, t) == nil { _ = fillTimeCaches(generation: generation, at: t) }
    }

    /// Walks up from this layer to the nearest one whose superlayer has a valid entry (or to the
    /// root), then fills the entries of the layers passed from the top down; returns the
    /// superlayer's time and rate. The layers passed are counted by a first walk and kept in a
    /// temporary buffer (on the stack for any usual depth): this runs at the first layer asked
    /// of every frame, and a growing array would allocate every frame.
    private func fillTimeCaches(generation: Int, at t: CFTimeInterval) -> (time: CFTimeInterval, rate: Double) {
        var count = 1
        var top = Unmanaged.passUnretained(self)
        var above = (time: t, rate: 1.0)
        while let parent = top._withUnsafeGuaranteedRef({ $0.timeParent }) {
            if let known = parent._withUnsafeGuaranteedRef({ p in p.timeCache.entry(generation, t).map { p.ownTime(fromParent: $0) } }) {
                above = known
                break
            }
            count += 1
            top = parent
        }
        return withUnsafeTemporaryAllocation(of: Unmanaged<CALayer>.self, capacity: count) { missing in
            var layer = Unmanaged.passUnretained(self)
            for i in 0..<count {
                missing.initializeElement(at: i, to: layer)
                if i + 1 < count { layer = layer._withUnsafeGuaranteedRef { $0.timeParent! } }
            }
            for l in missing.reversed() {
                l._withUnsafeGuaranteedRef { l in
                    l.timeCache = TimeCache(generation: generation, mediaTime: t.bitPattern, parentTime: above.time, parentRate: above.rate)
                    if l !== self { above = l.ownTime(fromParent: above) }
                }
            }
            return above
        }
    }

    /// The layer whose local time this layer's time is mapped from: its superlayer, or — for a
    /// mask layer, which has none — the layer it masks; nil for a root. A mask lives in its
    /// owner's time space as in its coordinate space: lottie-ios's Core Animation engine pauses
    /// a whole animation with the root layer's speed 0 and scrubs it with timeOffset, and keyframes
    /// the paths of the mask layers it assigns (`MaskCompositionLayer`), which follow that
    /// timeline on Apple (LayerTimingTests.aMaskFollowsTheTimeOfTheLayerItMasks,
    /// LottieMaskTests.masksAndMattesFollowAScrubbedTimeline).
    var timeParent: Unmanaged<CALayer>? {
        if let parent { return parent }
        return maskOwner.map { Unmanaged.passUnretained($0) }
    }

    /// This layer's time and rate given its superlayer's.
    private func ownTime(fromParent parent: (time: CFTimeInterval, rate: Double)) -> (time: CFTimeInterval, rate: Double) {
        hasDefaultTiming ? parent
            : (TimingModel.localTime(parent.time, beginTime: _state.beginTime, speed: _state.speed, timeOffset: _state.timeOffset),
               parent.rate * Double(_state.speed))
    }

    /// beginTime 0, speed 1 and timeOffset 0: local time is the parent's time (exactly: the
    /// mapping is skipped, not applied).
    private var hasDefaultTiming: Bool { _state.beginTime == 0 && _state.speed == 1 && _state.timeOffset == 0 }

    /// The media time at which this layer's local time is `t` (the inverse of
    /// `localTime(fromMediaTime:)`; `TimingModel.parentTime` at each level: a layer whose speed is
    /// 0 answers its beginTime in its superlayer's time, whatever `t`). O(1) amortized:
    /// - within `exactInverseDepth` levels of the root, the level-by-level walk (exact, as before);
    /// - deeper, the composed map is affine (each level's is, Apple's CAMediaTiming), so the
    ///   inverse follows from one point of it and its rate: m + (t − local(m)) / rate, with
    ///   local(m) and rate from `timeCache` at whatever media time m it holds (`timeAnchor`).
    ///   This may differ from the level-by-level walk by rounding (a few ulps of the times
    ///   involved, DeepTimingTests);
    /// - where there is no inverse (rate 0: speed 0 on the way up) or the anchor or the answer is
    ///   not finite (non-finite or overflowing timing), the level-by-level walk, O(depth).
    func mediaTime(fromLocal t: CFTimeInterval) -> CFTimeInterval {
        if let exact = mediaTimeLevelByLevel(fromLocal: t, maxLevels: CALayer.exactInverseDepth) { return exact }
        let anchor = timeAnchor()
        if anchor.rate != 0, anchor.rate.isFinite, anchor.time.isFinite {
            let media = anchor.mediaTime + (t - anchor.time) / anchor.rate
            if media.isFinite || !t.isFinite { return media }
        }
        return mediaTimeLevelByLevel(fromLocal: t, maxLevels: .max)!
    }

    /// Layers this close to the root (the layer itself counted) get `mediaTime(fromLocal:)` by
    /// the exact level-by-level walk; deeper ones through the cache.
    static let exactInverseDepth = 16

    /// `mediaTime(fromLocal:)` by `TimingModel.parentTime` at this layer, then each superlayer,
    /// in a loop; nil when the root is more than `maxLevels` levels up.
    private func mediaTimeLevelByLevel(fromLocal t: CFTimeInterval, maxLevels: Int) -> CFTimeInterval? {
        var time = t
        var layer: CALayer? = self
        var levels = 0
        while let l = layer {
            guard levels < maxLevels else { return nil }
            time = TimingModel.parentTime(time, beginTime: l._state.beginTime, speed: l._state.speed, timeOffset: l._state.timeOffset)
            layer = l.timeParent?.takeUnretainedValue()
            levels += 1
        }
        return time
    }

    /// A media time m (finite) with this layer's local time and rate there, from `timeCache`:
    /// this layer's own entry when it is current, whatever media time it was made for; else the
    /// entries are filled at the media time of the nearest ancestor's current entry (so the
    /// layers of one subtree asked in turn share it and each walk stops where the last began),
    /// or at the current media time when no ancestor has one. Every layer walked past gets a
    /// current entry, so the walks cost O(n) in all until the next timing change.
    private func timeAnchor() -> (mediaTime: CFTimeInterval, time: CFTimeInterval, rate: Double) {
        let generation = CALayer.timingGeneration.load(ordering: .relaxed)
        if let m = timeCache.anchorTime(generation) {
            let own = ownTime(fromParent: (timeCache.parentTime, timeCache.parentRate))
            return (m, own.time, own.rate)
        }
        var reference = CACurrentMediaTime()
        var layer = timeParent?.takeUnretainedValue()
        while let l = layer {
            if let m = l.timeCache.anchorTime(generation) { reference = m; break }
            layer = l.timeParent?.takeUnretainedValue()
        }
        let own = localTimeAndRate(fromMediaTime: reference)
        return (reference, own.time, own.rate)
    }
}

extension CALayer.TimeCache {
    /// The media time of this entry when it was made under `generation` for a finite media time.
    func anchorTime(_ generation: Int) -> CFTimeInterval? {
        let m = CFTimeInterval(bitPattern: mediaTime)
        return generation == self.generation && m.isFinite ? m : nil
    }
}
