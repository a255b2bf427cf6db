import Foundation
import CPrefetch

/// The presentation copy: every animation applied at the current media time.
extension CALayer {
    // MARK: - Presentation

    /// A copy of the layer with its animations applied at the current media time (nil until the
    /// layer has been committed). Delegate events due by now are delivered first.
    public func presentation() -> Self? {
        if let modelLayer { return modelLayer.takeUnretainedValue().presentation() as? Self }
        CATransaction.commitImplicitIfNeeded()
        return _presentation(atMediaTime: CACurrentMediaTime())
    }

    /// Citrine extension for renderers: the presentation at media time `now` (a replicator's
    /// instance i evaluates its sublayers at now − i·instanceDelay). Does not commit the implicit
    /// transaction; delivers the delegate events due by `now`.
    public func _presentation(atMediaTime now: CFTimeInterval) -> Self? {
        if let modelLayer { return modelLayer.takeUnretainedValue()._presentation(atMediaTime: now) as? Self }
        prefetchForNextSiblings()
        let t = localTime(fromMediaTime: now)
        if animationStore.hasDueEvents(at: t) { processAnimationEvents(atLocalTime: t) }
        // Asked again for the time it was evaluated at, nothing changed since (a renderer asks
        // twice a frame: its footprints, then its drawing).
        if let owned = ownedPresentation, presentedAt.time == t, presentationFollowsModel,
           owned._withUnsafeGuaranteedRef({ $0.modelVersion }) == presentedAt.version {
            return unsafeDowncast(owned.takeUnretainedValue(), to: Self.self)
        }
        if let owned = ownedPresentation, presentationIsSynced, owned._withUnsafeGuaranteedRef({ p in
            withUnsafeState { model in animationStore.reapplyCompiled(to: &p._state, restoringFrom: model, at: t) }
        }) {
            presentedAt = (t, owned._withUnsafeGuaranteedRef { $0.modelVersion })
            return unsafeDowncast(owned.takeUnretainedValue(), to: Self.self)
        }
        let p: CALayer
        var copied = false
        if let existing = presentationLayer, !makesFreshPresentationCopies { p = existing } else {
            // An app's subclass is copied anew at every evaluation, as Core Animation does on
            // Apple (`copy(of:)` copies its own stored properties); a replaced copy keeps its
            // model alive while someone holds it.
            if let retired = presentationLayer { retired.retiredModel = self }
            p = CALayer.copy(of: self)
            p.modelLayer = Unmanaged.passUnretained(self)
            presentationLayer = p
            copied = true
        }
        let restoring = presentationIsSynced
        if !restoring {
            if !copied { p.copyProperties(from: self) }
            presentationSyncedVersion = (modelVersion, animationStore.generation)
        }
        // No observers run: p's setters (subclass and extra keys) see `modelLayer` set and return.
        animationStore.apply(to: &p.state, of: p, at: t, restoringFrom: restoring ? self : nil)
        presentedAt = (t, p.modelVersion)
        // p was made by `CALayer.copy(of: self)`, of this layer's class: the cast cannot fail.
        return unsafeDowncast(p, to: Self.self)
    }

    /// Whether `presentationLayer` equals this model except for what its animations write:
    /// nothing changed in the model or its set of animations since the last full copy. Only for
    /// plain `CALayer`s, all of whose copied properties live in `state` and `extraValues`
    /// (subclasses, Citrine's or the app's, may store more, so they are always copied).
    var presentationIsSynced: Bool { type(of: self) == CALayer.self && modelUnchangedSinceCopy }

    /// Whether `presentationLayer`, as last evaluated, still follows this model: nothing
    /// changed in the model or its set of animations since (a plain `CALayer`, or one of
    /// QuartzCore's classes whose every property write counts in `modelVersion`,
    /// `presentationFollowsModelVersion`; an app's subclass is copied anew at every evaluation).
    private var presentationFollowsModel: Bool { countsEveryWrite && modelUnchangedSinceCopy }

    /// Whether every write to the layer's properties counts in `modelVersion`: a plain
    /// `CALayer`, or one of QuartzCore's classes that say so (`presentationFollowsModelVersion`);
    /// not an app's subclass, whose stored properties live outside `state`.
    private var countsEveryWrite: Bool {
        type(of: self) == CALayer.self || type(of: self).presentationFollowsModelVersion && !makesFreshPresentationCopies
    }

    /// Citrine plumbing for renderers (damage tracking): a stamp of everything this model
    /// layer's presentation follows from — its property writes (`modelVersion`) and its set of
    /// animations — so that equal stamps at two frames mean the same presentation at both,
    /// whatever the media time. nil when no stamp can say so: the layer has animations or changes
    /// with time by itself (its presentation moves with the clock), or its class does not count
    /// every write (`countsEveryWrite`: not an app's subclass, nor CATextLayer), the test the
    /// presentation cache makes too. Its sublayers and mask are not part of it: they change
    /// `CALayer.timingChangeCount`.
    package var presentationStamp: PresentationStamp? {
        guard !_hasAnimations, countsEveryWrite else { return nil }
        return PresentationStamp(layer: _serial, model: modelVersion, animations: animationStore.generation)
    }

    /// Citrine plumbing for renderers: whether the layer has neither sublayers nor a mask.
    package var isLeaf: Bool { sublayerStorage.isEmpty && state.mask == nil }

    /// The model and its animations are as they were at the last full copy.
    private var modelUnchangedSinceCopy: Bool {
        presentationSyncedVersion.model == modelVersion && presentationSyncedVersion.animations == animationStore.generation
    }

    /// Asks the CPU to fetch, while this layer is evaluated, what evaluating the next siblings
    /// will read: the model object `modelPrefetchDistance` places on (`prefetchModelData`), and
    /// the presentation copy and compiled program `copyPrefetchDistance` places on
    /// (`prefetchPresentationData`, whose model an earlier call fetched). Renderers and loops over
    /// `sublayers` evaluate siblings in order; with 100 000 layers each one's data is a chain of
    /// cache misses (model, then copy and program) that the CPU cannot start on its own until the
    /// previous layer is done. Only addresses are read; nothing is retained, and a sibling order
    /// that is not followed costs a few wasted prefetches.
    @inline(__always)
    func prefetchForNextSiblings() {
        parent?._withUnsafeGuaranteedRef { parent in
            if !parent.sublayerIndicesAreCurrent { parent.numberSublayers() }
            // Element addresses as raw words: reading them as references would retain them.
            let siblings = parent.sublayerAddresses
            let stride = MemoryLayout<CALayer>.stride
            let count = siblings.count / stride
            let mine = indexInSuperlayer
            if mine + Self.modelPrefetchDistance < count {
                let model = siblings.load(fromByteOffset: (mine + Self.modelPrefetchDistance) * stride, as: UnsafeRawPointer.self)
                Unmanaged<CALayer>.fromOpaque(model)._withUnsafeGuaranteedRef { $0.prefetchModelData() }
            }
            guard mine + Self.copyPrefetchDistance < count else { return }
            let following = siblings.load(fromByteOffset: (mine + Self.copyPrefetchDistance) * stride, as: UnsafeRawPointer.self)
            Unmanaged<CALayer>.fromOpaque(following)._withUnsafeGuaranteedRef { $0.prefetchPresentationData() }
        }
    }

    /// How many siblings on `prefetchForNextSiblings` asks for the model, and for the copy and
    /// program (whose addresses it reads from a model asked for earlier). With a shared
    /// program's memo a layer takes ≈ 30 ns in cache, less than a miss to memory: one and two
    /// siblings on (the distances before) left part of each miss exposed; copy and model 2 and 4
    /// places on, then 4 and 8, measured faster at 100 000 layers (Benchmarks/NOTES.md).
    static let modelPrefetchDistance = 8
    static let copyPrefetchDistance = 4

    /// Prefetches what the fast path reads of this model: every line from its reference count
    /// to the end of `_state`'s timing (`beginTime`, `speed`, `timeOffset`, which ends it; the
    /// stored properties before `_state` are those read every frame). Exactly those lines:
    /// with 100 000 layers the misses in flight are what limits a frame, so a line asked for and
    /// not read (the model's `position`, when the object starts 16 bytes into a line) costs
    /// time (Benchmarks/NOTES.md). Computes addresses only; the object is not read.
    @inline(__always)
    func prefetchModelData() {
        let object = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        withUnsafeState { state in
            // (The offsets fold to constants: a struct's stored properties.)
            let last = UnsafeRawPointer(state) + MemoryLayout<LayerState>.offset(of: \.timeOffset)!
                + MemoryLayout<CFTimeInterval>.size - 1
            var line = object + 8
            while line < last {
                citrine_prefetch(line)
                line += 64
            }
            citrine_prefetch(last)
        }
    }

    /// Prefetches this model's presentation copy — the lines of its reference count and
    /// `modelVersion` (bytes 8–23, `modelVersion` being declared first: the fast path reads the
    /// version, the caller retains the copy) and of `_state`'s `opacity` and `position` (which
    /// the program writes and the caller reads) — and compiled program (its first four lines).
    @inline(__always)
    func prefetchPresentationData() {
        if let owned = ownedPresentation {
            let copy = UnsafeRawPointer(owned.toOpaque())
            citrine_prefetch(copy + 8)
            citrine_prefetch(copy + 23)
            owned._withUnsafeGuaranteedRef { $0.withUnsafeState { state in
                citrine_prefetch(UnsafeRawPointer(state) + MemoryLayout<LayerState>.offset(of: \.opacity)!)
                citrine_prefetch(UnsafeRawPointer(state) + MemoryLayout<LayerState>.offset(of: \.position)!
                    + MemoryLayout<CGPoint>.size - 1)
            } }
        }
        if let program = animationStore.programAddress {
            for line in 0..<4 { citrine_prefetch(program + 64 * line) }
        }
    }

    /// Records each sublayer's index (`indexInSuperlayer`) and where the sublayers are
    /// (`sublayerAddresses`) after the sublayers changed.
    func numberSublayers() {
        for (i, l) in sublayerStorage.enumerated() { l.indexInSuperlayer = i }
        sublayerAddresses = sublayerStorage.withUnsafeBytes { $0 }
        sublayerIndicesAreCurrent = true
    }

    /// The model layer (self for a model layer).
    public func model() -> Self { (modelLayer?.takeUnretainedValue() as? Self) ?? self }

    /// Delivers animationDidStart / animationDidStop events due by media time `now`, in time order,
    /// and removes finished animations with isRemovedOnCompletion.
    func processAnimationEvents(until now: CFTimeInterval) {
        processAnimationEvents(atLocalTime: localTime(fromMediaTime: now))
    }

    func processAnimationEvents(atLocalTime t: CFTimeInterval) {
        for event in animationStore.dueEvents(at: t, turn: CATransaction.deliveryTurn) {
            switch event {
            case let .start(a): a.delegate?.animationDidStart(a)
            case let .stop(a):
                if a.isRemovedOnCompletion { (self as? AnimationRetiring)?.retireAnimation(a, until: a.activeEnd) }
                a.delegate?.animationDidStop(a, finished: true)
            }
        }
    }

    /// Gives animations added with beginTime 0 the layer's local time at commit.
    /// Also forgets the values recorded before this transaction's changes (`previousValues`).
    /// A layer without animations skips the local time (a walk to the root): a commit of n
    /// changed layers in a deep chain would otherwise cost O(n · depth).
    func assignBeginTimes(at mediaTime: CFTimeInterval) {
        if !previousValues.isEmpty { previousValues.removeAll(keepingCapacity: true) }
        guard !animationStore.isEmpty else { return }
        animationStore.assignBeginTimes(localTime(fromMediaTime: mediaTime))
    }
}

/// A model layer's `presentationStamp`: the layer's serial (a layer made where a freed one was
/// has the same `ObjectIdentifier`, not the same serial), its `modelVersion` and its
/// animations' generation.
package struct PresentationStamp: Equatable {
    package let layer: UInt64
    package let model: Int
    package let animations: Int
}
