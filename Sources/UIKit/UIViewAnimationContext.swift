import Synchronization

/// An open animation block (`UIView.animate`, `UIView.transition`, `performWithoutAnimation`, a
/// property animator's block) on
/// the calling thread: what a view answers when its layer asks for the action of a changed
/// property. The innermost block decides (a nested `UIView.animate` takes its duration and curve
/// from its parent unless told otherwise, see `UIView.runBlock`).
final class UIViewAnimationContext {
    struct Timing {
        var duration: TimeInterval
        var delay: TimeInterval
        var options: UIView.AnimationOptions
        /// UIKit's spring parameters: damping ratio and initial velocity (distances per second).
        var spring: (dampingRatio: CGFloat, velocity: CGFloat)?
        /// iOS 17's perceptual spring: `duration` is the perceptual duration, the spring has this
        /// bounce and initial velocity, and each animation lasts until the spring settles.
        var perceptualSpring: (bounce: CGFloat, velocity: CGFloat)? = nil

        /// This block's timing inside `outer`: the outer duration unless
        /// `.overrideInheritedDuration`, the outer curve (and spring) unless
        /// `.overrideInheritedCurve`.
        func inheriting(from outer: Timing) -> Timing {
            var t = self
            if !options.contains(.overrideInheritedDuration) { t.duration = outer.duration }
            if !options.contains(.overrideInheritedCurve) {
                let curveBits: UInt = 0xF << 16
                t.options = UIView.AnimationOptions(rawValue: (options.rawValue & ~curveBits) | (outer.options.rawValue & curveBits))
                t.spring = outer.spring
                t.perceptualSpring = outer.perceptualSpring
            }
            return t
        }
    }

    enum Kind {
        /// Changed properties animate with this timing.
        case animating(Timing)
        /// Changes are not animated (a zero duration, `performWithoutAnimation`, the snapshot
        /// part of a transition).
        case suppressed
        /// Changes become entries of a property animator, starting at its time `start`.
        case recording(UIViewPropertyAnimator, start: TimeInterval)
        /// Changes become keyframes of a keyframe block, at relative `start` for `duration`.
        case keyframes(UIViewKeyframeRecorder, start: Double, duration: Double)
    }

    let kind: Kind
    let tracker: UIViewAnimationTracker?

    private init(kind: Kind, tracker: UIViewAnimationTracker?) {
        self.kind = kind
        self.tracker = tracker
    }

    /// Runs `body` inside a block of `kind` on the calling thread.
    static func run(_ kind: Kind, tracker: UIViewAnimationTracker?, _ body: () -> Void) {
        let state = PerThread.current
        state.animationContexts.append(UIViewAnimationContext(kind: kind, tracker: tracker))
        body()
        state.animationContexts.removeLast()
    }

    /// `UIView.setAnimationsEnabled(_:)` (process-wide, as UIKit's switch).
    static let animationsEnabled = Atomic<Bool>(true)

    /// Keys of discrete layer properties that UIKit does not animate in a block.
    private static let discreteKeys: Set<String> = ["hidden", "masksToBounds", "doubleSided", "contents"]

    /// What a view answers for a change of `key` on its layer: `NSNull()` outside an animation
    /// block (and for discrete properties), else an animation with the block's timing.
    /// In a property animator's or keyframe block, an action that records the change for it.
    static func action(for view: UIView, layer: CALayer, key: String) -> CAAction? {
        guard let context = PerThread.current.animationContexts.last, animationsEnabled.load(ordering: .relaxed),
              !discreteKeys.contains(key) else { return NSNull() }
        switch context.kind {
        case let .animating(timing):
            return context.makeAnimation(timing, layer: layer, key: key, view: view)
        case let .recording(animator, start):
            guard let from = layer.presentation()?.value(forKey: key) ?? layer.value(forKey: key) else { return NSNull() }
            return UIViewPropertyAnimatorAction(animator: animator, view: view, from: from, start: start)
        case let .keyframes(recorder, start, duration):
            guard let from = layer.presentation()?.value(forKey: key) ?? layer.value(forKey: key) else { return NSNull() }
            return UIViewKeyframeAction(recorder: recorder, view: view, initial: from, start: start, duration: duration)
        case .suppressed:
            return NSNull()
        }
    }

    /// The animation of `key` for a change inside this block. It names no from or to value: the
    /// layer animates it from the property's current presentation value to the new model value.
    ///
    /// * Curve: the options' curve (default ease-in-ease-out); the spring forms make a
    ///   `CASpringAnimation` instead (see `springParameters`, and
    ///   `CASpringAnimation(perceptualDuration:bounce:)` for iOS 17's, which lasts until the
    ///   spring settles).
    /// * Delay: `beginTime` = the layer's current time + delay, with fill mode `.backwards` so
    ///   the old value shows until it starts (UIKit sets the model value at once).
    /// * `.repeat`: repeats forever; `.autoreverse`: plays back after each play.
    /// * Its delegate reports to the block's tracker (completion, interaction blocking).
    private func makeAnimation(_ timing: Timing, layer: CALayer, key: String, view: UIView) -> CABasicAnimation {
        let animation: CABasicAnimation
        var duration = timing.duration
        if let spring = timing.perceptualSpring {
            let s = CASpringAnimation(perceptualDuration: timing.duration, bounce: spring.bounce)
            s.keyPath = key
            s.initialVelocity = spring.velocity
            duration = s.settlingDuration
            animation = s
        } else if let spring = timing.spring {
            let s = CASpringAnimation(keyPath: key)
            let p = Self.springParameters(dampingRatio: spring.dampingRatio, velocity: spring.velocity,
                                          duration: timing.duration)
            s.mass = 1
            s.stiffness = p.stiffness
            s.damping = p.damping
            s.initialVelocity = spring.velocity
            animation = s
        } else {
            animation = CABasicAnimation(keyPath: key)
            animation.timingFunction = timing.options.timingFunction
        }
        animation.duration = duration
        if timing.delay > 0 {
            animation.beginTime = layer.convertTime(CACurrentMediaTime(), from: nil) + timing.delay
            animation.fillMode = .backwards
        }
        if timing.options.contains(.repeat) { animation.repeatCount = .infinity }
        if timing.options.contains(.autoreverse) { animation.autoreverses = true }
        animation.delegate = tracker?.token(view: view, key: key,
                                            blocksInteraction: !timing.options.contains(.allowUserInteraction))
        return animation
    }

    /// The spring of UIKit's `animate(withDuration:delay:usingSpringWithDamping:…)`: mass 1,
    /// damping = 2·ratio·√(stiffness·mass) (the definition of the damping ratio, Apple's
    /// `UISpringTimingParameters` documentation: ratio = damping / (2√(stiffness·mass))), and the
    /// stiffness for which the spring has settled when the given duration ends — UIKit's duration
    /// is "the duration until a small enough amplitude is reached" (C. Schnorr, "Demystifying
    /// UIKit Spring Animations", 2018). Settled means the displacement's envelope is below 0.1 %
    /// of the distance, the threshold of Framer's duration-based springs and of the UIView ↔
    /// CASpringAnimation correspondence in guillianbalisi/ios-spring-animations (which also
    /// takes mass 1, "always 1 on iOS"). With ω0 = √k, ζ = ratio, ωd = ω0√(1 − ζ²):
    ///
    ///     ζ < 1:  √(1 + ((ζω0 − v0)/ωd)²) · e^(−ζω0·T) = 0.001
    ///     ζ = 1:  (1 + |ω0 − v0|·T) · e^(−ω0·T) = 0.001
    ///
    /// solved for ω0 by bisection (the first form bounds |x(t)| for every t ≥ T). The ratio is
    /// clamped to 0.001…1 (UIKit's springs are at most critically damped).
    static func springParameters(dampingRatio: CGFloat, velocity: CGFloat, duration: TimeInterval)
        -> (stiffness: CGFloat, damping: CGFloat) {
        let zeta = min(max(Double(dampingRatio.isFinite ? dampingRatio : 1), 0.001), 1)
        let v0 = Double(velocity.isFinite ? velocity : 0)
        let T = max(duration.isFinite ? duration : 0, 1e-3)
        let epsilon = 0.001
        func envelope(_ w0: Double) -> Double {
            if zeta < 1 {
                let wd = w0 * (1 - zeta * zeta).squareRoot()
                let b = (zeta * w0 - v0) / wd
                return (1 + b * b).squareRoot() * exp(-zeta * w0 * T)
            }
            return (1 + abs(w0 - v0) * T) * exp(-w0 * T)
        }
        var hi = 1.0
        while envelope(hi) > epsilon, hi < 1e12 { hi *= 2 }
        var lo = hi > 1 ? hi / 2 : 0
        for _ in 0..<200 where hi - lo > hi * 1e-14 {
            let mid = (lo + hi) / 2
            if envelope(mid) > epsilon { lo = mid } else { hi = mid }
        }
        let stiffness = hi * hi
        return (CGFloat(stiffness), CGFloat(2 * zeta * stiffness.squareRoot()))
    }
}

/// The animations of one block and its completion handler: `completion(finished)` runs once
/// every animation the block created has stopped — `finished` false if any was removed before
/// its end (replaced by a later block, `removeAllAnimations`, …). Being replaced by an animation
/// of the same block (a property set twice) does not count as an interruption. A block that
/// created no animation completes at the next run-loop turn (`UIApplication.advance(to:)`).
final class UIViewAnimationTracker {
    private var outstanding = 0
    private var allFinished = true
    private var sealed = false
    private var completion: ((Bool) -> Void)?

    /// Views that got an animation from the block, while it is open (for `.layoutSubviews`).
    private var animatedViews: [UIView] = []

    init(completion: ((Bool) -> Void)?) { self.completion = completion }

    /// Lays out the views the block animated so far (`.layoutSubviews`), inside the block.
    func layOutAnimatedViews() {
        var seen = Set<ObjectIdentifier>()
        while let view = animatedViews.first {
            animatedViews.removeFirst()
            if seen.insert(ObjectIdentifier(view)).inserted { view.layoutIfNeeded() }
        }
    }

    /// A delegate for one animation of the block, on `view`'s layer under `key`. With
    /// `blocksInteraction`, `view` ignores touches until the animation stops.
    func token(view: UIView, key: String, blocksInteraction: Bool) -> UIViewAnimationToken {
        outstanding += 1
        if !sealed { animatedViews.append(view) }
        if blocksInteraction { view.runningNonInteractiveAnimations += 1 }
        return UIViewAnimationToken(tracker: self, view: view, key: key, blocksInteraction: blocksInteraction)
    }

    /// The block has returned: no more animations will be added.
    func seal() {
        sealed = true
        animatedViews.removeAll()
        if outstanding == 0 {
            guard let completion else { return }
            self.completion = nil
            UIApplication.shared.enqueueForNextTurn { completion(true) }
        }
    }

    func animationStopped(finished: Bool) {
        outstanding -= 1
        if !finished { allFinished = false }
        guard sealed, outstanding == 0, let completion else { return }
        self.completion = nil
        completion(allFinished)
    }
}

/// The delegate of one animation a block created (copies of the animation share it). It keeps
/// the view weakly, not the layer: a weak reference gives its target a side table, which would
/// slow every later retain of the layer (see QuartzCore's `AnimatedLayerRegistry`).
final class UIViewAnimationToken: CAAnimationDelegate {
    let tracker: UIViewAnimationTracker
    private weak var view: UIView?
    private let key: String
    private let blocksInteraction: Bool
    private var stopped = false

    init(tracker: UIViewAnimationTracker, view: UIView, key: String, blocksInteraction: Bool) {
        self.tracker = tracker
        self.view = view
        self.key = key
        self.blocksInteraction = blocksInteraction
    }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        guard !stopped else { return }
        stopped = true
        if blocksInteraction { view?.runningNonInteractiveAnimations -= 1 }
        var finished = flag
        if !flag, let current = view?.layer.animation(forKey: key)?.delegate as? UIViewAnimationToken,
           current !== self, current.tracker === tracker {
            finished = true
        }
        tracker.animationStopped(finished: finished)
    }
}
