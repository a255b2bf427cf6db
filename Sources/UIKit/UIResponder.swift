import QuartzCore

/// An object that can handle events (Apple's `UIResponder`).
///
/// The touch methods' default implementations forward the message to `next`, as Apple
/// documents: a view that does not override `touchesBegan(_:with:)` passes its touches up the
/// responder chain (superview or view controller → … → window → application). Override them
/// without calling `super` to handle touches yourself.
open class UIResponder {
    public init() {}

    /// Called on objects loaded from a storyboard or nib after their outlets are connected.
    /// Citrine loads no nibs, so UIKit never calls it; it is here so that views and view
    /// controllers written for iOS, which override it and call `super`, compile unchanged.
    open func awakeFromNib() {}

    /// Called by Interface Builder before drawing a designable view; never called by Citrine
    /// (present for source compatibility).
    open func prepareForInterfaceBuilder() {}

    /// The next responder in the chain (nil here; views, view controllers and windows override it).
    open var next: UIResponder? { nil }

    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        forward { $0.touchesBegan(touches, with: event) }
    }
    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        forward { $0.touchesMoved(touches, with: event) }
    }
    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        forward { $0.touchesEnded(touches, with: event) }
    }
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        forward { $0.touchesCancelled(touches, with: event) }
    }

    /// Sends a touch message to `next`, one level of a recursion kept off the end of the stack
    /// (`_DeepRecursion`: past what the calling thread's stack holds, the responders further up
    /// are called on a fresh one), so a chain of any length passes it up as on Apple.
    private func forward(_ send: (UIResponder) -> Void) {
        guard let next else { return }
        _ = _DeepRecursion.level(bytesPerLevel: Self.levelStackBytes, what: "passing touches up the responder chain") { send(next) }
    }

    /// Stack bytes allowed per level of the recursions through overridable UIKit methods (touch
    /// forwarding, `UIView.hitTest(_:with:)`): 4 KiB, five times the 801 bytes a level of the
    /// base hit test takes in a debug build, leaving room for an override's own frame.
    static let levelStackBytes = 4 << 10

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
