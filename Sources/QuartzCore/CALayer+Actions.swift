import Foundation

/// Change tracking and implicit actions: every model change is recorded in the current
/// transaction and looked up through `action(forKey:)` (Apple's search order).
extension CALayer {
    // MARK: - Change tracking and actions

    func changed<T>(_ key: String, _ old: T) { propertyChanged(key, old) }

    /// Records a change of property `key` (old value `old`) for the transaction, redisplay and
    /// the implicit action. Subclasses call it from their properties' observers.
    func propertyChanged<T>(_ key: String, _ old: T) {
        guard !applyingPresentation, modelLayer == nil else { return }
        if type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
        CATransaction.layerDidChange(self)
        runAction(forKey: key, oldValue: old)
    }

    /// Looks up and runs the implicit action for a changed property of a committed layer.
    func runAction(forKey key: String, oldValue: Any) {
        guard createdBeforeCommit < CATransaction.commitCount, !CATransaction.disableActions(),
              type(of: self).propertyRegistry[key]?.isAnimatable == true else { return }
        guard let action = action(forKey: key) else { return }
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

    func presentationValue(forKey key: String, fallback: Any) -> Any? {
        guard animationStore.isEmpty == false else { return fallback }
        // The presentation value before this change: evaluate with the old model value.
        let p = type(of: self).init(layer: self)
        p.modelLayer = Unmanaged.passUnretained(self)
        type(of: self).propertyRegistry[key]?.set(p, fallback)
        animationStore.apply(to: &p.state, of: p, at: localTime(fromMediaTime: CACurrentMediaTime()), restoringFrom: nil)
        return p.value(forKeyPath: key)
    }
}
