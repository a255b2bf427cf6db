import QuartzCore

/// A physical behavior a dynamic animator applies to its items (Apple's `UIDynamicBehavior`):
/// the base class of the concrete behaviors, and of composite behaviors that group child
/// behaviors (subclass it and call `addChildBehavior(_:)`).
open class UIDynamicBehavior {
    /// The behaviors this one groups, in the order added.
    open private(set) var childBehaviors: [UIDynamicBehavior] = []
    /// Called after every step of the animator the behavior is in (Apple: "on every animation
    /// step"; Citrine steps at `UIDynamicAnimator.stepsPerSecond`).
    open var action: (() -> Void)?
    /// The animator the behavior (or the composite it is a child of) is in.
    open var dynamicAnimator: UIDynamicAnimator? { animator ?? parent?.dynamicAnimator }

    weak var animator: UIDynamicAnimator?
    weak var parent: UIDynamicBehavior?

    public init() {}

    /// Adds `behavior` as a child (once). A behavior that contains this one (or is it) is not
    /// added: the tree would be a cycle.
    open func addChildBehavior(_ behavior: UIDynamicBehavior) {
        guard !childBehaviors.contains(where: { $0 === behavior }) else { return }
        var ancestor: UIDynamicBehavior? = self
        while let a = ancestor {
            if a === behavior { return }
            ancestor = a.parent
        }
        childBehaviors.append(behavior)
        behavior.parent = self
        if let animator = dynamicAnimator { behavior.notifyMove(to: animator) }
        structureDidChange()
    }

    open func removeChildBehavior(_ behavior: UIDynamicBehavior) {
        guard let index = childBehaviors.firstIndex(where: { $0 === behavior }) else { return }
        childBehaviors.remove(at: index)
        if dynamicAnimator != nil { behavior.notifyMove(to: nil) }
        behavior.parent = nil
        structureDidChange()
    }

    /// Called when the behavior is added to an animator (`dynamicAnimator` the animator) or
    /// removed from one (nil). Default: nothing.
    open func willMove(to dynamicAnimator: UIDynamicAnimator?) {}

    /// `willMove(to:)` on this behavior and its children.
    func notifyMove(to animator: UIDynamicAnimator?) {
        willMove(to: animator)
        for child in childBehaviors { child.notifyMove(to: animator) }
    }

    // MARK: Hooks for the animator (overridden by the concrete behaviors)

    /// The items this behavior involves (not its children's).
    var involvedItems: [any UIDynamicItem] { [] }

    /// Adds this behavior's forces and constraints for the next step.
    func contribute(to step: DynamicsStep) {}

    /// The animator must rebuild its bodies (items or boundaries changed) and run.
    func structureDidChange() { dynamicAnimator?.invalidateStructure() }

    /// `addItem(_:)` of the behaviors that hold items: appends `item` to `items` unless it is
    /// there already (the same object), and tells the animator.
    func add(_ item: any UIDynamicItem, to items: inout [any UIDynamicItem]) {
        guard !items.contains(where: { $0 === item }) else { return }
        items.append(item)
        structureDidChange()
    }

    /// `removeItem(_:)` of the behaviors that hold items.
    func remove(_ item: any UIDynamicItem, from items: inout [any UIDynamicItem]) {
        items.removeAll { $0 === item }
        structureDidChange()
    }
    /// A parameter changed: the animator runs again if it rested.
    func parameterDidChange() { dynamicAnimator?.resume() }
}

extension CGFloat {
    /// The value as a solver parameter: clamped to `range`, NaN as its lower bound (a behavior
    /// given NaN or ∞ acts as with the nearest sensible value instead of poisoning the world).
    func parameter(in range: ClosedRange<Double>) -> Double {
        guard !isNaN else { return range.lowerBound }
        return Swift.min(Swift.max(Double(self), range.lowerBound), range.upperBound)
    }
}
