import QuartzCore

/// The module's state that UIKit keeps per thread: the stack of open animation blocks (an
/// animation block affects the changes made on its own thread only) and the stack of current
/// graphics contexts (`UIGraphicsPushContext`, image contexts), and the running property animators. Held in a thread-specific slot
/// (one `pthread_getspecific` per lookup: views ask for it on every property change of their
/// layer) and released when the thread ends.
final class PerThread {
    var animationContexts: [UIViewAnimationContext] = []
    var graphicsContexts: [UIGraphicsContextEntry] = []
    /// Property animators running on this thread, checked once per run-loop turn.
    var runningAnimators: [UIViewPropertyAnimator] = []

    private static let perThread = _ThreadLocal { PerThread() }

    /// The calling thread's state (created on first use).
    static var current: PerThread { perThread.current }
}

/// One entry of the graphics context stack: a pushed context, or an image context (which
/// `UIGraphicsGetImageFromCurrentImageContext` turns into an image of `imageScale`). The context
/// is nil for an image context that could not be made (zero or huge size), so that
/// `UIGraphicsEndImageContext` still pops the right entry.
struct UIGraphicsContextEntry {
    var context: CGContext?
    var imageScale: CGFloat?
}
