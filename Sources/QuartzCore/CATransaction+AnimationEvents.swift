import Foundation

extension CATransaction {
    /// Citrine plumbing for scene drivers: the earliest media time after `now` at which an
    /// animation of the calling thread's layers starts or stops — when a run-loop turn would
    /// deliver its `animationDidStart` or `animationDidStop(_:finished:)` (and UIKit's
    /// completion blocks, which those events drive). `now` when one is due already or waits
    /// for its commit, or a layer's time runs backwards; ∞ when none will start or stop (an
    /// animation that repeats for ever never stops). A driver may skip the run-loop turns before
    /// it when nothing else needs one.
    package static func nextAnimationEventTime(afterMediaTime now: CFTimeInterval) -> CFTimeInterval {
        AnimatedLayerRegistry.withLayersWithAnimations { layers in
            var next = CFTimeInterval.infinity
            for layer in layers {
                next = min(next, layer.nextAnimationEventTime(afterMediaTime: now))
                if next <= now { return now }
            }
            return next
        }
    }
}

extension CALayer {
    /// The earliest media time after `now` at which one of this layer's own animations starts
    /// or stops (see `CATransaction.nextAnimationEventTime(afterMediaTime:)`).
    func nextAnimationEventTime(afterMediaTime now: CFTimeInterval) -> CFTimeInterval {
        guard !animationStore.isEmpty else { return .infinity }
        let (t, rate) = localTimeAndRate(fromMediaTime: now)
        var next = CFTimeInterval.infinity
        for entry in animationStore.entries where !entry.stopped {
            if entry.pendingBegin || rate < 0 || rate.isNaN { return now }
            guard rate > 0 else { continue }   // time stands still here: nothing starts or stops
            let event = entry.started ? entry.animation.activeEnd : entry.animation.beginTime
            if t >= event { return now }
            next = min(next, mediaTime(fromLocal: event))
        }
        return next.isNaN ? now : max(next, now)
    }
}
