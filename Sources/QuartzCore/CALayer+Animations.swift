import Foundation

/// A layer class that keeps something of its animations after they leave it (a particle
/// emitter keeps those that changed the values particles are born with, for the particles born
/// while they ran). `CALayer` tells a layer whose class adopts it when animations leave,
/// knowing nothing of that class.
/// (A protocol rather than an overridable method: Swift does not override a method declared in
/// an extension, and `CALayer`'s class body is left to the geometry and tree code.)
protocol AnimationRetiring: CALayer {
    /// Called before the animation under `key` (nil: every animation) is removed or replaced.
    func retireAnimations(forKey key: String?)
    /// Called when `animation` has finished and is removed on completion; it applied until layer
    /// time `until` (its active end).
    func retireAnimation(_ animation: CAAnimation, until: CFTimeInterval)
}

/// Adding, finding and removing animations, and the times the renderer asks about.
extension CALayer {
    // MARK: - Animations

    /// Adds a copy of `anim` under `key` (replacing, and stopping with finished = false, any
    /// animation under the same key). beginTime 0 means "at the next commit"; duration ≤ 0 takes
    /// the transaction's duration.
    ///
    /// A `CATransition` is always stored under `kCATransition` (Apple: "the special key
    /// kCATransition is automatically used for transition animations") and remembers the layer's
    /// subtree as the last commit left it — the picture it transitions from, as Apple snapshots
    /// the render tree: a copy of this layer and of each sublayer (recursively) with its last
    /// presented values, with the sublayers each layer had at the last commit (those removed
    /// since are in, those added since are out). Types and filters it cannot draw as asked are
    /// reported through `CATransition._diagnostics`.
    public func add(_ anim: CAAnimation, forKey key: String?) {
        let copy = anim.copy() as! CAAnimation
        if copy.duration <= 0 { copy.duration = CATransaction.animationDuration() }
        if let group = copy as? CAAnimationGroup { group.giveChildrenDefaultDuration() }
        if let basic = copy as? CAPropertyAnimation, basic.keyPath == nil, let key { basic.keyPath = key }
        fillInPreviousValue(of: copy)
        var key = key
        if let transition = copy as? CATransition {
            key = kCATransition
            /// `layer` as last presented, with copies of its sublayers as last committed.
            func presentedCopy(_ layer: CALayer, depth: Int) -> CALayer {
                let copy = CALayer.copy(of: layer.presentationLayer ?? layer)
                guard depth < 64 else { return copy }
                let committed = CATransaction.committedSublayers(of: layer)
                for sub in committed ?? layer.sublayerStorage
                where committed != nil || sub.presentationLayer != nil || sub.createdBeforeCommit < CATransaction.commitCount {
                    copy.sublayerStorage.append(presentedCopy(sub, depth: depth + 1))
                    copy.sublayerStorage.last!.parent = .passUnretained(copy)
                }
                return copy
            }
            transition._sourceLayer = presentedCopy(self, depth: 0)
            transition._renderState = nil
            transition._reportUnsupported()
        }
        if let key { animationsWillLeave(forKey: key) }
        if let replaced = animationStore.add(copy, key: key ?? "__citrine_anonymous_\(animationStore.serial)") {
            reportRemoval(of: [replaced])
        }
        CATransaction.layerDidChange(self)
        if !isRegisteredForEvents {
            isRegisteredForEvents = true
            AnimatedLayerRegistry.register(self)
        }
        CATransaction.animationAdded(to: self)
    }

    public func animation(forKey key: String) -> CAAnimation? { animationStore.animation(forKey: key) }

    /// Whether the layer's animations ran compiled (`AnimationProgram`) at their last
    /// evaluation, rather than through the general path: for tests that compare the two.
    package var _animationsAreCompiled: Bool { animationStore.isCompiled }

    /// The media time at which the earliest of the animations attached in this layer's tree (its
    /// own, its sublayers' and masks', recursively) was added — for an animation added under the
    /// system clock, the moment the screen starts showing it — or nil when there are none. Where
    /// an exporter's default timeline starts.
    package var earliestAnimationAddition: CFTimeInterval? {
        var earliest: CFTimeInterval?
        var seen: Set<ObjectIdentifier> = []
        var pending: [CALayer] = [self]
        while let layer = pending.popLast() {
            guard seen.insert(ObjectIdentifier(layer)).inserted else { continue }
            if let t = layer.animationStore.earliestAddition { earliest = min(earliest ?? t, t) }
            pending.append(contentsOf: layer.sublayerStorage)
            if let mask = layer.mask { pending.append(mask) }
        }
        return earliest
    }

    /// Citrine extension for renderers: whether any animation is attached, including those added
    /// without a key (which `animationKeys()` does not list), or the layer changes with time by
    /// itself (`_changesWithTime`).
    public var _hasAnimations: Bool { !animationStore.isEmpty || _changesWithTime }

    /// Citrine extension for renderers: the earliest media time, from `now` on, at which this
    /// layer's own animations change what it shows — `now` while one runs, waits for its commit
    /// or has ended without its removal shown yet; the begin time of the next one to start;
    /// ∞ when none will change it (finished ones holding their end value, and every one while
    /// the layer's time stands still: speed 0 on it or an ancestor). Time running backwards
    /// (a negative speed on the way up) answers `now`.
    /// A layer that changes with time by itself (`_changesWithTime`) answers `now`.
    public func _nextChangeTime(afterMediaTime now: CFTimeInterval) -> CFTimeInterval {
        if _changesWithTime { return now }
        guard !animationStore.isEmpty else { return .infinity }
        let (t, rate) = localTimeAndRate(fromMediaTime: now)
        var next = CFTimeInterval.infinity
        for e in animationStore.entries {
            if e.pendingBegin { return now }
            guard rate != 0, e.animation.speed != 0 else { continue }
            if rate < 0 { return now }
            if t < e.animation.beginTime {
                next = min(next, mediaTime(fromLocal: e.animation.beginTime))
            } else if t < e.animation.activeEnd || !e.stopped {
                return now
            }
        }
        return max(next, now)
    }

    /// Citrine extension for renderers: the media times between which this layer's own
    /// animations can change what it shows, given its and its superlayers' timing (beginTime,
    /// speed, timeOffset) as they are now — from the earliest begin to the latest end of their
    /// active periods (`TimingModel`: before its begin an animation shows nothing or its
    /// backwards fill, after its end nothing or its forwards fill, the same at every such time;
    /// one whose speed is 0 changes only at its begin). nil when none can change it: no
    /// animation, or the layer's time stands still (speed 0 on it or a superlayer). Unbounded
    /// (−∞, ∞) when it changes with time by itself (`_changesWithTime`), an animation waits for
    /// its commit, or the arithmetic gives no answer (NaN). A repeatCount of infinity ends at ∞.
    public var _changeSpan: (from: CFTimeInterval, to: CFTimeInterval)? {
        let unbounded = (from: -CFTimeInterval.infinity, to: CFTimeInterval.infinity)
        if _changesWithTime { return unbounded }
        guard !animationStore.isEmpty else { return nil }
        var l: CALayer? = self
        while let layer = l {
            guard layer.speed != 0 else { return nil }
            l = layer.superlayer
        }
        var span: (from: CFTimeInterval, to: CFTimeInterval)?
        for e in animationStore.entries {
            guard !e.pendingBegin else { return unbounded }
            let a = e.animation
            let begin = mediaTime(fromLocal: a.beginTime), end = mediaTime(fromLocal: a.speed == 0 ? a.beginTime : a.activeEnd)
            guard !begin.isNaN, !end.isNaN else { return unbounded }
            // A negative speed on the way up runs local time backwards: the begin comes last.
            let from = min(begin, end, span?.from ?? .infinity), to = max(begin, end, span?.to ?? -.infinity)
            span = (from, to)
        }
        return span
    }

    /// Citrine extension for renderers: the running transition at media time `now` and its
    /// progress (startProgress…endProgress), if one is in its active period.
    public func _transition(atMediaTime now: CFTimeInterval) -> (transition: CATransition, progress: Float)? {
        guard animationStore.hasTransitionKey, let transition = animationStore.animation(forKey: kCATransition) as? CATransition,
              let progress = transition._progress(at: localTime(fromMediaTime: now)) else { return nil }
        return (transition, progress)
    }

    public func removeAnimation(forKey key: String) {
        CATransaction.layerDidChange(self)
        animationsWillLeave(forKey: key)
        if let removed = animationStore.remove(key: key) { reportRemoval(of: [removed]) }
    }

    public func removeAllAnimations() {
        CATransaction.layerDidChange(self)
        animationsWillLeave(forKey: nil)
        reportRemoval(of: animationStore.removeAll())
    }

    /// Tells a layer that keeps something of its animations (`AnimationRetiring`) that the
    /// animation under `key` (nil: every one) is about to be removed or replaced.
    private func animationsWillLeave(forKey key: String?) {
        (self as? AnimationRetiring)?.retireAnimations(forKey: key)
    }

    /// `animationDidStop(_:finished: false)` for removed animations, preceded by the
    /// `animationDidStart` of those that had begun with their start still to be reported (Core
    /// Animation reports a turn's starts and stops together, the starts first).
    private func reportRemoval(of entries: [AnimationStore.Entry]) {
        let t = localTime(fromMediaTime: CACurrentMediaTime())
        for entry in entries where entry.hasUnreportedStart(at: t) { entry.animation.delegate?.animationDidStart(entry.animation) }
        for entry in entries { entry.animation.delegate?.animationDidStop(entry.animation, finished: false) }
    }

    /// Keys of the attached animations, in the order they were added.
    public func animationKeys() -> [String]? {
        let keys = animationStore.keys.filter { !$0.hasPrefix("__citrine_anonymous_") }
        return keys.isEmpty ? nil : keys
    }
}
