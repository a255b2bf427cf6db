// The protocols of UIKit's animator objects (Apple's `UIViewAnimating` and
// `UIViewImplicitlyAnimating`, iOS 10). `UIViewPropertyAnimator` adopts both; custom animators can
// too. Apple's `UIViewImplicitlyAnimating` methods are Objective-C `optional`; Swift on Linux has
// no optional requirements, so they are requirements with default implementations that do
// nothing (an animator that does not implement one behaves as if UIKit skipped the call).

/// The flow control of an animator: start, pause, stop, reverse, scrub.
public protocol UIViewAnimating: AnyObject {
    /// The animator's state (see `UIViewAnimatingState`).
    var state: UIViewAnimatingState { get }
    /// Whether the animations are running (active and not paused).
    var isRunning: Bool { get }
    /// Whether the animations run from their end back to their start.
    var isReversed: Bool { get set }
    /// Progress, 0 at the start and 1 at the end; settable while paused.
    var fractionComplete: CGFloat { get set }
    func startAnimation()
    func startAnimation(afterDelay delay: TimeInterval)
    func pauseAnimation()
    func stopAnimation(_ withoutFinishing: Bool)
    func finishAnimation(at finalPosition: UIViewAnimatingPosition)
}

/// An animator that builds its animations from blocks of view changes.
public protocol UIViewImplicitlyAnimating: UIViewAnimating {
    func addAnimations(_ animation: @escaping () -> Void)
    func addAnimations(_ animation: @escaping () -> Void, delayFactor: CGFloat)
    func addCompletion(_ completion: @escaping (UIViewAnimatingPosition) -> Void)
    func continueAnimation(withTimingParameters parameters: (any UITimingCurveProvider)?, durationFactor: CGFloat)
}

extension UIViewImplicitlyAnimating {
    public func addAnimations(_ animation: @escaping () -> Void) {}
    public func addAnimations(_ animation: @escaping () -> Void, delayFactor: CGFloat) {}
    public func addCompletion(_ completion: @escaping (UIViewAnimatingPosition) -> Void) {}
    public func continueAnimation(withTimingParameters parameters: (any UITimingCurveProvider)?, durationFactor: CGFloat) {}
}
