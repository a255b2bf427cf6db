import Foundation

/// Change tracking and implicit actions: every model change is recorded in the current
/// transaction and looked up through `action(forKey:)` (Apple's search order).
extension CALayer {
    // MARK: - Change tracking and actions

    func changed<T>(_ key: String, _ old: T) { propertyChanged(key, old) }

    /// Records a change of property `key` (old value `old`) for the transaction, redisplay and
    /// the implicit action. Subclasses call it from their properties' observers; it counts the
    /// write in `modelVersion` (QuartzCore's subclasses keep their properties outside `state`,
    /// and their presentation is reused while the version holds: `presentationFollowsModelVersion`).
    func propertyChanged<T>(_ key: String, _ old: T) {
        modelVersion &+= 1
        guard !applyingPresentation, modelLayer == nil, !isShadowCopy else { return }
        if type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
        CATransaction.layerDidChange(self)
        runAction(forKey: key, oldValue: old)
    }

    /// Looks up and runs the implicit action for a changed property. A committed layer looks
    /// through Apple's whole search (`action(forKey:)`); a layer made in the current transaction
    /// asks its delegate only — Core Animation gives a layer that has not been committed no
    /// implicit animation of its own, while UIKit animates a view added in the same run-loop
    /// turn as its `UIView.animate` block (the view, the layer's delegate, answers with the
    /// block's animation; the common fade-in: `alpha = 0`, `addSubview`, animate to 1).
    /// Also records the property's value before its first change in the transaction
    /// (`previousValues`), for animations added without any value (`CABasicAnimation`'s
    /// "previous value → current value" case).
    func runAction(forKey key: String, oldValue: Any) {
        let committed = createdBeforeCommit < CATransaction.commitCount
        guard committed || delegate != nil,
              type(of: self).propertyRegistry[key]?.isAnimatable ?? isAnimatableCustomKey(key) else { return }
        if previousValues[key] == nil { previousValues[key] = oldValue }
        guard !CATransaction.disableActions(), let action = withModelValue(oldValue, forKey: key, {
            committed ? action(forKey: key) : delegate?.action(for: self, forKey: key)
        }) else { return }
        if let basic = action as? CABasicAnimation, basic.fromValue == nil, basic.toValue == nil,
           basic.byValue == nil, basic.keyPath == key {
            // The built-in action animates from the old presentation value.
            let fresh = basic.copy() as! CABasicAnimation
            fresh.fromValue = presentationValue(forKey: key, fallback: oldValue)
            fresh.run(forKey: key, object: self, arguments: nil)
            return
        }
        action.run(forKey: key, object: self, arguments: nil)
    }

    /// Runs `body` with the model's `key` holding `value` for a moment, unobserved. Apple looks
    /// an action up before it stores the new value ("willChange"), so `action(forKey:)` code —
    /// an override, the delegate — that reads `presentation()` or the layer sees the old value
    /// (the common `animation.fromValue = presentation()?.progress` idiom).
    func withModelValue<T>(_ value: Any, forKey key: String, _ body: () -> T) -> T {
        let property = type(of: self).propertyRegistry[key]
        let current: Any? = property.map { $0.get(self) } ?? extraValues[key]
        func store(_ v: Any?) {
            let wasApplying = applyingPresentation
            applyingPresentation = true
            if let property { property.set(self, v) } else { extraValues[key] = v }
            applyingPresentation = wasApplying
        }
        store(value)
        defer { store(current) }
        return body()
    }

    /// The presentation value at `keyPath` (default: `key`) with `fallback` as the model value
    /// of property `key`: what the layer showed before `key` changed to its current value.
    func presentationValue(forKey key: String, fallback: Any, keyPath: String? = nil) -> Any? {
        guard animationStore.isEmpty == false else {
            guard let keyPath, keyPath != key else { return fallback }
            return ParsedKeyPath(keyPath).get(AnimatableValue(fallback))?.value
        }
        // The presentation value before this change: evaluate with the old model value.
        let p = CALayer.copy(of: self)
        p.modelLayer = Unmanaged.passUnretained(self)
        if let property = type(of: self).propertyRegistry[key] { property.set(p, fallback) } else { p.extraValues[key] = fallback }
        animationStore.apply(to: &p.state, of: p, at: localTime(fromMediaTime: CACurrentMediaTime()), restoringFrom: nil)
        return p.value(forKeyPath: keyPath ?? key)
    }

    /// Gives a `CABasicAnimation` added with no from, to or by value the property's value before
    /// its change in this transaction as `fromValue` (Apple's table: "interpolates between the
    /// previous value of keyPath in the target layer's presentation layer and the current value
    /// of keyPath in the target layer's presentation layer"). Without such a change it is left
    /// as is (it then shows the current value throughout).
    func fillInPreviousValue(of animation: CAAnimation) {
        guard let basic = animation as? CABasicAnimation, basic.fromValue == nil, basic.toValue == nil,
              basic.byValue == nil, let keyPath = basic.keyPath else { return }
        let key = ParsedKeyPath(keyPath).head
        guard let previous = previousValues[key] else { return }
        basic.fromValue = presentationValue(forKey: key, fallback: previous, keyPath: keyPath)
    }
}
