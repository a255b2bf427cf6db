import Foundation

// Presentations of one frame read by several threads.
//
// A renderer that draws one frame on several threads at once (Compositor's bands) first
// evaluates, on one thread, the presentation of every layer the frame shows
// (`_presentation(atMediaTime:)`, which writes: the copy, its animated fields, `presentedAt`, the
// time caches, delegate events) and then lets the threads only read what that pass left:
// `_evaluatedPresentation(atMediaTime:)` reads the copy and writes nothing.
//
// That pass may itself run on several threads for the subtrees of one layer's sublayers, each
// layer evaluated by one thread: `_prepareSublayersForConcurrentPresentation` first writes, on
// the tree's thread, what evaluating the sublayers would otherwise write in their superlayer
// (its sublayers' numbering, its entry in the time caches), and a layer whose evaluation would
// write anything beyond itself and its own copy is left to the tree's thread
// (`_presentsConcurrently`).
extension CALayer {
    /// Citrine plumbing for renderers: whether `_presentation(atMediaTime:)` of this layer may
    /// run on a thread other than its tree's, while other threads evaluate other layers of the
    /// same tree — once its superlayer is ready (`_prepareSublayersForConcurrentPresentation`)
    /// and no event is due (`_hasDueAnimationEvents`). It then writes only the layer and its
    /// copy: a model layer whose presentation copy is kept from frame to frame (not made anew,
    /// as an app's subclass is, by its `init(layer:)`: app code; nor made at this evaluation,
    /// which registers it process-wide) and whose compiled animations are built.
    package var _presentsConcurrently: Bool {
        modelLayer == nil && ownedPresentation != nil && !makesFreshPresentationCopies && animationStore.programIsBuilt
    }

    /// Citrine plumbing for renderers: writes, on the tree's thread, what evaluating this
    /// layer's sublayers at media time `now` writes in it — their numbering (read by each one's
    /// sibling prefetch) and its time-cache entry (read by each one's local time) — so that
    /// several threads may then evaluate them (`_presentsConcurrently`).
    package func _prepareSublayersForConcurrentPresentation(atMediaTime now: CFTimeInterval) {
        if !sublayerIndicesAreCurrent { numberSublayers() }
        makeTimeCacheEntryCurrent(atMediaTime: now)
    }

    /// Citrine extension for renderers: whether evaluating the presentation at media time `now`
    /// first delivers animation events (starts, stops, removals of finished animations), which
    /// may run delegate code that changes other layers.
    package func _hasDueAnimationEvents(atMediaTime now: CFTimeInterval) -> Bool {
        if let modelLayer { return modelLayer.takeUnretainedValue()._hasDueAnimationEvents(atMediaTime: now) }
        // The time first: with the call in the argument, Swift copied the store (retaining its
        // compiled program, which many layers share) to keep it across the call.
        let t = localTime(fromMediaTime: now)
        return animationStore.hasDueEvents(at: t)
    }

    /// Citrine extension for renderers: the presentation copy that `_presentation(atMediaTime:)`
    /// made at media time `now`, read without evaluating anything, so that several threads may
    /// ask at once; nil when the layer has none. The caller must have evaluated this layer at
    /// `now` since the tree last changed (checked in debug builds: the copy's local time).
    package func _evaluatedPresentation(atMediaTime now: CFTimeInterval) -> CALayer? {
        if let modelLayer { return modelLayer.takeUnretainedValue()._evaluatedPresentation(atMediaTime: now) }
        assert(presentationLayer == nil || Self.sameTime(presentedAt.time, localTime(fromMediaTime: now)),
               "presentation read at a time it was not evaluated at")
        return presentationLayer
    }

    /// Equal local times, a NaN one (a timing a user made non-finite) equal to another NaN:
    /// `_presentation` evaluates such a layer anew at every call, and its copy is still the one
    /// the frame's pass made.
    private static func sameTime(_ a: CFTimeInterval, _ b: CFTimeInterval) -> Bool {
        a == b || (a.isNaN && b.isNaN)
    }
}
