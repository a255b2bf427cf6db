import Foundation

// Presentations of one frame read by several threads.
//
// A renderer that draws one frame on several threads at once (Compositor's bands) first
// evaluates, on one thread, the presentation of every layer the frame shows
// (`_presentation(atMediaTime:)`, which writes: the copy, its animated fields, `presentedAt`, the
// time caches, delegate events) and then lets the threads only read what that pass left:
// `_evaluatedPresentation(atMediaTime:)` reads the copy and writes nothing.
extension CALayer {
    /// Citrine extension for renderers: whether evaluating the presentation at media time `now`
    /// first delivers animation events (starts, stops, removals of finished animations), which
    /// may run delegate code that changes other layers.
    package func _hasDueAnimationEvents(atMediaTime now: CFTimeInterval) -> Bool {
        if let modelLayer { return modelLayer.takeUnretainedValue()._hasDueAnimationEvents(atMediaTime: now) }
        return animationStore.hasDueEvents(at: localTime(fromMediaTime: now))
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
