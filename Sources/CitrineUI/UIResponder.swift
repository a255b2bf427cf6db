/// An object that can handle events (Apple's `UIResponder`).
///
/// The touch methods' default implementations forward the message to `next`, as Apple
/// documents: a view that does not override `touchesBegan(_:with:)` passes its touches up the
/// responder chain (superview or view controller → … → window → application). Override them
/// without calling `super` to handle touches yourself.
open class UIResponder {
    public init() {}

    /// The next responder in the chain (nil here; views, view controllers and windows override it).
    open var next: UIResponder? { nil }

    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        next?.touchesBegan(touches, with: event)
    }
    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        next?.touchesMoved(touches, with: event)
    }
    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        next?.touchesEnded(touches, with: event)
    }
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        next?.touchesCancelled(touches, with: event)
    }

    // MARK: First responder (kept for source compatibility; there is no keyboard input)

    open var canBecomeFirstResponder: Bool { false }
    open var canResignFirstResponder: Bool { true }
    /// Whether this object is the first responder of the application.
    open var isFirstResponder: Bool { UIApplication.shared.firstResponder === self }
    @discardableResult
    open func becomeFirstResponder() -> Bool {
        guard canBecomeFirstResponder else { return false }
        UIApplication.shared.firstResponder = self
        return true
    }
    @discardableResult
    open func resignFirstResponder() -> Bool {
        guard canResignFirstResponder else { return false }
        if UIApplication.shared.firstResponder === self { UIApplication.shared.firstResponder = nil }
        return true
    }
}
