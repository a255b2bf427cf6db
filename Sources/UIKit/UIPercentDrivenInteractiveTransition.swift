import Foundation

/// An interaction controller that scrubs a transition's animator by a fraction (Apple's
/// `UIPercentDrivenInteractiveTransition`).
///
/// As on iOS it drives the animator's Core Animation animations through the container view's
/// layer: `startInteractiveTransition(_:)` pauses that layer (`speed` 0, `timeOffset` 0), lets the
/// animator add its animations (they begin at the layer's local time 0), and `update(_:)` sets
/// `timeOffset` to `percentComplete × duration`, so the presentation tree shows the transition at
/// that fraction. `finish()` resumes the layer at `completionSpeed` from there: the animations
/// run to their end and the animator's completion calls `completeTransition(true)`. `cancel()`
/// plays the fraction back to 0 at `completionSpeed`, frame by frame (the layer's time runs
/// backwards), then lets the animations end so the animator's completion calls
/// `completeTransition(false)`. `completionCurve` is accepted; the rest of the transition keeps the
/// animator's own curves.
open class UIPercentDrivenInteractiveTransition: NSObject, UIViewControllerInteractiveTransitioning {
    /// The animator's `transitionDuration(using:)`, seconds (0 before the transition starts, and
    /// for a duration that is negative, NaN or infinite).
    open private(set) var duration: CGFloat = 0
    /// The fraction set by the last `update(_:)`, 0…1.
    open private(set) var percentComplete: CGFloat = 0
    /// Speed of the rest of the transition after `finish()` or `cancel()`. Default 1; values that
    /// are not positive count as 1.
    open var completionSpeed: CGFloat = 1
    /// Accepted (see the type's notes). Default `.easeInOut`.
    open var completionCurve: UIView.AnimationCurve = .easeInOut
    /// Default true.
    open var wantsInteractiveStart = true

    private var context: UITransitionContext?
    private var cancelLink: CADisplayLink?

    public override init() { super.init() }

    open func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
        guard let context = transitionContext as? UITransitionContext else { return }
        self.context = context
        let layer = context.containerView.layer
        layer.speed = 0
        layer.timeOffset = 0
        let seconds = context.animator.transitionDuration(using: context)
        duration = seconds.isFinite && seconds > 0 ? CGFloat(seconds) : 0
        context.animator.animateTransition(using: context)
        // Commit now, while the layer's time is 0, so that the animations begin at its local 0.
        CATransaction.flush()
        layer.timeOffset = CFTimeInterval(percentComplete * duration)
        if !wantsInteractiveStart { finish() }
    }

    /// Shows the transition at `percentComplete` (clamped to 0…1).
    open func update(_ percentComplete: CGFloat) {
        guard percentComplete.isFinite else { return }
        self.percentComplete = min(max(percentComplete, 0), 1)
        guard let context, context.containerView.layer.speed == 0, cancelLink == nil else { return }
        context.containerView.layer.timeOffset = CFTimeInterval(self.percentComplete * duration)
        context.updateInteractiveTransition(self.percentComplete)
    }

    /// Pauses the transition where it is (it is paused until `finish()` or `cancel()` anyway).
    open func pause() { context?.pauseInteractiveTransition() }

    /// Runs the rest of the transition to its end.
    open func finish() {
        guard let context, cancelLink == nil else { return }
        context.finishInteractiveTransition()
        resume(context.containerView.layer, atLocalTime: CFTimeInterval(percentComplete * duration), speed: speed)
        self.context = nil
    }

    /// Plays the transition back to its start, then ends it as cancelled.
    open func cancel() {
        guard let context, cancelLink == nil else { return }
        context.cancelInteractiveTransition()
        let layer = context.containerView.layer
        let from = CFTimeInterval(percentComplete * duration), start = CACurrentMediaTime(), speed = Double(self.speed)
        let link = CADisplayLink { [weak self] link in
            let t = max(0, from - (link.timestamp - start) * speed)
            layer.timeOffset = t
            guard t == 0, let self else { return }
            // Back at the start: let the animations end now so that their completions run.
            self.resume(layer, atLocalTime: CFTimeInterval(self.duration), speed: 1)
            self.cancelLink?.invalidate()
            self.cancelLink = nil
            self.context = nil
        }
        cancelLink = link
        link.add(to: .main, forMode: .common)
    }

    private var speed: CGFloat { completionSpeed.isFinite && completionSpeed > 0 ? completionSpeed : 1 }

    /// Makes `layer` run at `speed` from local time `local` now.
    private func resume(_ layer: CALayer, atLocalTime local: CFTimeInterval, speed: CGFloat) {
        let parentNow = layer.superlayer?.convertTime(CACurrentMediaTime(), from: nil) ?? CACurrentMediaTime()
        layer.speed = Float(speed)
        layer.timeOffset = local
        layer.beginTime = parentNow
    }
}
