// How a property animator shows its position: one Core Animation animation per animated
// property, rebuilt whenever the animator's clock changes rate (start, pause, scrub, reverse,
// continue), so that the presentation tree — not per-frame code — moves the views.
//
// For an entry that starts at τ0 and ends with the animator (span = runDuration − τ0), with
// elapsed = τ − τ0 at the anchor (the moment the rate changed, `anchorTime`):
//
//     running forwards   from → to, the animator's curve, speed 1, timeOffset = elapsed
//                        (a delayed entry: beginTime later by −elapsed, timeOffset 0)
//     paused             the same animation with speed 0 (it holds timeOffset); once
//                        fractionComplete has been set, on a linear curve while `scrubsLinearly`
//                        (Apple: "a linear timing function during scrubbing"). Resumed after
//                        such a scrub, the animation continues on its curve from the same τ
//                        (Apple may blend the two; it documents nothing about it).
//     running reversed   to → from over the time-reflected cubic, control points
//                        (1 − c2x, 1 − c2y), (1 − c1x, 1 − c1y), timeOffset = span − elapsed:
//                        the value at every τ is the forward curve's, played backwards
//                        (r(u) = 1 − c(1 − u)). A spring has no such reflection: reversed, it
//                        springs from where it is back to the start over the remaining time.
//
// Every animation has fill mode `.both` and stays after its end; the animator removes them when
// it settles the model values.

extension UIViewPropertyAnimator {
    /// One animated property: its layer and key, its value before and after the blocks, the
    /// animator time τ at which it starts, and whether it holds its view's touches.
    struct Entry {
        let layer: CALayer
        weak var view: UIView?
        let key: String
        let from: Any
        var to: Any
        var start: TimeInterval
        var blocksInteraction: Bool
    }

    /// Runs `animations` in a recording block: each property a view's layer changes becomes an
    /// entry starting at τ = `start` (see `UIViewPropertyAnimatorAction`).
    func record(_ animations: () -> Void, startingAt start: TimeInterval) {
        UIViewAnimationContext.run(.recording(self, start: min(max(start, 0), runDuration)), tracker: nil, animations)
    }

    /// A recorded change of `key` on `layer` from `from` to the layer's current model value. A
    /// property the animator already animates keeps its start value and takes the new end value.
    func addEntry(layer: CALayer, view: UIView, key: String, from: Any, start: TimeInterval) {
        guard let to = layer.value(forKey: key) else { return }
        if let i = entries.firstIndex(where: { $0.layer === layer && $0.key == key }) {
            entries[i].to = to
            return
        }
        let blocks = !isUserInteractionEnabled
        if blocks { view.runningNonInteractiveAnimations += 1 }
        entries.append(Entry(layer: layer, view: view, key: key, from: from, to: to, start: start, blocksInteraction: blocks))
    }

    /// Puts on each entry's layer the animation that shows the animator's clock (table above).
    func showAnimations() {
        reanchor()
        let mediaNow = CACurrentMediaTime()
        let tau = anchorTau
        for entry in entries {
            let span = runDuration - entry.start
            let elapsed = tau - entry.start
            let layer = entry.layer
            if !isRunning || span <= 0 {
                // Paused: hold the position (at the end, the model value shows by itself).
                guard elapsed < span else { removeAnimation(of: entry); continue }
                let animation = scrubsLinearly && isScrubbed ? linearAnimation(entry) : curveAnimation(entry, duration: span)
                animation.duration = span
                animation.speed = 0
                animation.timeOffset = max(elapsed, 0)
                add(animation, to: entry, beginTime: layer.convertTime(mediaNow, from: nil))
            } else if !isReversed {
                guard elapsed < span else { removeAnimation(of: entry); continue }
                let animation = curveAnimation(entry, duration: span)
                animation.timeOffset = max(elapsed, 0)
                add(animation, to: entry, beginTime: layer.convertTime(anchorTime, from: nil) + max(-elapsed, 0))
            } else if elapsed <= 0 {
                // Reversed and already back at its start: hold the start value.
                let animation = linearAnimation(entry)
                animation.duration = span
                animation.speed = 0
                add(animation, to: entry, beginTime: layer.convertTime(mediaNow, from: nil))
            } else {
                add(reversedAnimation(entry, span: span, elapsed: elapsed), to: entry,
                    beginTime: layer.convertTime(anchorTime, from: nil))
            }
        }
    }

    /// Gives every entry's property it still owns its value at `position` (`.current`: its
    /// presentation value now), removes the animations and lets the views take touches again. With `keepingEntries`
    /// (a stopped animator) the entries stay, for `finishAnimation(at:)` to settle again.
    func settle(at position: UIViewAnimatingPosition, keepingEntries: Bool = false) {
        UIViewAnimationContext.run(.suppressed, tracker: nil) {
            for i in entries.indices {
                let entry = entries[i]
                if entry.blocksInteraction { entry.view?.runningNonInteractiveAnimations -= 1 }
                entries[i].blocksInteraction = false
                // A property another block has animated since belongs to that block now.
                guard owns(entry) else { continue }
                let value: Any? = switch position {
                case .end: entry.to
                case .start: entry.from
                case .current: entry.layer.presentation()?.value(forKey: entry.key)
                }
                entry.layer.removeAnimation(forKey: entry.key)
                if let value { entry.layer.setValue(value, forKey: entry.key) }
            }
        }
        if !keepingEntries { entries.removeAll() }
    }

    // MARK: Animations

    /// The extra key that tags an animation with the animator that added it.
    private static let ownerKey = "UIViewPropertyAnimator"

    private func add(_ animation: CABasicAnimation, to entry: Entry, beginTime: CFTimeInterval) {
        animation.beginTime = beginTime
        animation.fillMode = .both
        animation.isRemovedOnCompletion = false
        animation.setValue(ObjectIdentifier(self), forKey: Self.ownerKey)
        entry.layer.add(animation, forKey: entry.key)
    }

    /// Whether the entry's property is still this animator's: its animation under the key is the
    /// one the animator added, or there is none (a stopped animator). A `UIView.animate` block may
    /// have replaced it since; that animation and the block's model value then stay.
    private func owns(_ entry: Entry) -> Bool {
        guard let current = entry.layer.animation(forKey: entry.key) else { return true }
        return current.value(forKey: Self.ownerKey) as? ObjectIdentifier == ObjectIdentifier(self)
    }

    /// Removes the entry's animation if it is still this animator's.
    private func removeAnimation(of entry: Entry) {
        if owns(entry) { entry.layer.removeAnimation(forKey: entry.key) }
    }

    /// from → to on a straight line in time.
    private func linearAnimation(_ entry: Entry) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: entry.key)
        animation.fromValue = entry.from
        animation.toValue = entry.to
        animation.timingFunction = CAMediaTimingFunction(name: .linear)
        return animation
    }

    /// from → to over `duration` seconds on the animator's curve: a `CASpringAnimation` for a
    /// spring, else a basic animation with the cubic curve.
    private func curveAnimation(_ entry: Entry, duration: TimeInterval) -> CABasicAnimation {
        let animation: CABasicAnimation
        if let spring = timingParameters?.springTimingParameters {
            animation = spring.makeAnimation(keyPath: entry.key, duration: duration)
        } else {
            animation = CABasicAnimation(keyPath: entry.key)
            animation.timingFunction = cubicFunction
        }
        animation.fromValue = entry.from
        animation.toValue = entry.to
        animation.duration = duration
        return animation
    }

    /// Back to the start from `elapsed` seconds into an entry of `span` seconds (table above).
    private func reversedAnimation(_ entry: Entry, span: TimeInterval, elapsed: TimeInterval) -> CABasicAnimation {
        if let spring = timingParameters?.springTimingParameters {
            let animation = spring.makeAnimation(keyPath: entry.key, duration: elapsed)
            animation.fromValue = entry.layer.presentation()?.value(forKey: entry.key) ?? entry.to
            animation.toValue = entry.from
            animation.duration = elapsed
            return animation
        }
        let animation = CABasicAnimation(keyPath: entry.key)
        var c1: [Float] = [0, 0], c2: [Float] = [0, 0]
        cubicFunction.getControlPoint(at: 1, values: &c1)
        cubicFunction.getControlPoint(at: 2, values: &c2)
        animation.timingFunction = CAMediaTimingFunction(controlPoints: 1 - c2[0], 1 - c2[1], 1 - c1[0], 1 - c1[1])
        animation.fromValue = entry.to
        animation.toValue = entry.from
        animation.duration = span
        animation.timeOffset = span - elapsed
        return animation
    }

    /// The cubic curve in force (UIKit's default curve when the timing names none).
    private var cubicFunction: CAMediaTimingFunction {
        timingParameters?.cubicTimingParameters?.timingFunction ?? UICubicTimingParameters().timingFunction
    }
}

/// The action a view answers inside a property animator's block: it remembers the property's
/// presentation value before the change and, when the layer runs it (after the change), records
/// the change as an entry of the animator.
final class UIViewPropertyAnimatorAction: CAAction {
    private let animator: UIViewPropertyAnimator
    private weak var view: UIView?
    private let from: Any
    private let start: TimeInterval

    init(animator: UIViewPropertyAnimator, view: UIView, from: Any, start: TimeInterval) {
        self.animator = animator
        self.view = view
        self.from = from
        self.start = start
    }

    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        guard let layer = anObject as? CALayer, let view else { return }
        animator.addEntry(layer: layer, view: view, key: event, from: from, start: start)
    }
}
