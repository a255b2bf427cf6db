// UIView's block animations. Inside `animations`, every animatable property a view's layer
// changes (frame → bounds and position, center, transform, alpha, backgroundColor, and layer
// properties such as cornerRadius or transform set through `view.layer`) gets an animation from
// its current presentation value to the new value, under the property's key ("position",
// "bounds", "opacity", …), with the block's duration, curve, delay and options. The model
// takes the new value at once. Layers that belong to no view are not affected by the block: they
// keep Core Animation's own implicit animation (0.25 s), as on iOS.

extension UIView {
    /// Options of block animations and transitions (Apple's `UIView.AnimationOptions`, raw values
    /// Apple's).
    public struct AnimationOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Lay out the changed views before the block closes, so that their subviews' layout
        /// animates with them.
        public static let layoutSubviews = AnimationOptions(rawValue: 1 << 0)
        /// Animated views keep receiving touches (by default a view ignores touches while an
        /// animation of the block runs on it).
        public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
        /// Always the case here: every block animation starts from the property's current
        /// presentation value (what Apple's option asks for; without it UIKit starts from the
        /// in-flight animation's model value, a jump this engine does not reproduce).
        public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
        /// Repeat forever.
        public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
        /// Play forwards, then backwards (then the model value shows).
        public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
        /// A nested block keeps its own duration instead of its outer block's.
        public static let overrideInheritedDuration = AnimationOptions(rawValue: 1 << 5)
        /// A nested block keeps its own curve instead of its outer block's.
        public static let overrideInheritedCurve = AnimationOptions(rawValue: 1 << 6)
        /// In a transition, animate the block's changes instead of showing them only through the
        /// transition.
        public static let allowAnimatedContent = AnimationOptions(rawValue: 1 << 7)
        /// In `transition(from:to:…)`, hide the old view and show the new one instead of removing
        /// and adding them.
        public static let showHideTransitionViews = AnimationOptions(rawValue: 1 << 8)
        /// Apple: "not inherit the animation type or any options". A nested block here inherits
        /// only the duration and curve (see the two options above), never the other options, so
        /// this option changes nothing.
        public static let overrideInheritedOptions = AnimationOptions(rawValue: 1 << 9)

        public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
        public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
        public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
        public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

        public static let transitionFlipFromLeft = AnimationOptions(rawValue: 1 << 20)
        public static let transitionFlipFromRight = AnimationOptions(rawValue: 2 << 20)
        public static let transitionCurlUp = AnimationOptions(rawValue: 3 << 20)
        public static let transitionCurlDown = AnimationOptions(rawValue: 4 << 20)
        public static let transitionCrossDissolve = AnimationOptions(rawValue: 5 << 20)
        public static let transitionFlipFromTop = AnimationOptions(rawValue: 6 << 20)
        public static let transitionFlipFromBottom = AnimationOptions(rawValue: 7 << 20)

        /// Frame-rate hints (iOS 10). Citrine renders every frame its host asks for (the window's
        /// display rate, the exporter's `--fps`), so they change nothing.
        public static let preferredFramesPerSecondDefault = AnimationOptions(rawValue: 0 << 24)
        public static let preferredFramesPerSecond60 = AnimationOptions(rawValue: 3 << 24)
        public static let preferredFramesPerSecond30 = AnimationOptions(rawValue: 7 << 24)

        /// The curve bits (16…19) as a timing function: ease-in-ease-out (the default), ease-in,
        /// ease-out or linear.
        var timingFunction: CAMediaTimingFunction {
            switch (rawValue >> 16) & 0xF {
            case 1: CAMediaTimingFunction(name: .easeIn)
            case 2: CAMediaTimingFunction(name: .easeOut)
            case 3: CAMediaTimingFunction(name: .linear)
            default: CAMediaTimingFunction(name: .easeInEaseOut)
            }
        }

        /// The transition bits (20…23) as a Core Animation transition type and subtype: the flips
        /// are "oglFlip" with the side as subtype, curl up / down are "pageCurl" / "pageUnCurl"
        /// (no subtype), cross dissolve is a fade; nil for none.
        var transition: (type: CATransitionType, subtype: CATransitionSubtype?)? {
            switch (rawValue >> 20) & 0xF {
            case 1: (CATransitionType(rawValue: "oglFlip"), .fromLeft)
            case 2: (CATransitionType(rawValue: "oglFlip"), .fromRight)
            case 3: (CATransitionType(rawValue: "pageCurl"), nil)
            case 4: (CATransitionType(rawValue: "pageUnCurl"), nil)
            case 5: (.fade, nil)
            case 6: (CATransitionType(rawValue: "oglFlip"), .fromTop)
            case 7: (CATransitionType(rawValue: "oglFlip"), .fromBottom)
            default: nil
            }
        }
    }

    /// Animation curves (Apple's `UIView.AnimationCurve`, raw values Apple's).
    public enum AnimationCurve: Int, Sendable {
        case easeInOut = 0, easeIn, easeOut, linear
    }

    /// Animates the changes made in `animations` over `duration` seconds (ease-in-ease-out).
    public class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: nil)
    }

    /// Animates the changes made in `animations` over `duration` seconds (ease-in-ease-out);
    /// `completion` runs when they have finished.
    public class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void,
                              completion: ((Bool) -> Void)? = nil) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: completion)
    }

    /// Animates the changes made in `animations`: each changed property of a view's layer animates
    /// from its current presentation value to its new value over `duration` seconds, starting
    /// `delay` seconds from now, with the curve and repetition of `options`. The model values
    /// change at once. `completion(finished)` runs when every animation of the block has stopped
    /// (observed at the commit or frame after their end; `finished` false if one was removed or
    /// replaced first), or at the next run-loop turn when the block animated nothing. A duration
    /// of 0 or less makes the changes without animation.
    public class func animate(withDuration duration: TimeInterval, delay: TimeInterval,
                              options: UIView.AnimationOptions = [], animations: @escaping () -> Void,
                              completion: ((Bool) -> Void)? = nil) {
        let timing = UIViewAnimationContext.Timing(duration: duration, delay: max(delay, 0), options: options, spring: nil)
        runBlock(timing, animations: animations, completion: completion)
    }

    /// The spring form: as `animate(withDuration:delay:options:animations:completion:)`, each
    /// change animated by a `CASpringAnimation` of mass 1 whose damping ratio is `dampingRatio`
    /// (damping = 2·ratio·√(stiffness·mass)), whose stiffness lets it settle (within 0.1 % of the
    /// distance) by the end of `duration`, and whose initial velocity is `velocity` in distances
    /// per second (1 = the whole distance in one second, Apple's unit). The curve options are
    /// ignored, as UIKit does for springs.
    public class func animate(withDuration duration: TimeInterval, delay: TimeInterval,
                              usingSpringWithDamping dampingRatio: CGFloat, initialSpringVelocity velocity: CGFloat,
                              options: UIView.AnimationOptions = [], animations: @escaping () -> Void,
                              completion: ((Bool) -> Void)? = nil) {
        let timing = UIViewAnimationContext.Timing(duration: duration, delay: max(delay, 0), options: options,
                                                   spring: (dampingRatio, velocity))
        runBlock(timing, animations: animations, completion: completion)
    }

    /// iOS 17's spring form: each change animated by a spring of perceptual duration `duration`
    /// (seconds; Apple's default 0.5) and `bounce` (−1…1, default 0: no bounce; negative values
    /// are overdamped) with initial velocity `velocity` (distances per second, default 0), starting
    /// `delay` seconds from now. The spring is Apple's WWDC23 mapping ("Animate with springs",
    /// developer.apple.com/videos/play/wwdc2023/10158: mass 1, stiffness (2π/duration)², damping
    /// 4π(1 − bounce)/duration for bounce ≥ 0), the
    /// same as `CASpringAnimation(perceptualDuration:bounce:)`; every animation lasts until its
    /// spring settles (`settlingDuration`), when `completion(finished)` runs. The curve options
    /// are ignored, as for UIKit's other springs. A duration that is not positive makes the
    /// changes without animation.
    public class func animate(springDuration duration: TimeInterval = 0.5, bounce: CGFloat = 0,
                              initialSpringVelocity velocity: CGFloat = 0, delay: TimeInterval = 0,
                              options: UIView.AnimationOptions = [], animations: () -> Void,
                              completion: ((Bool) -> Void)? = nil) {
        var timing = UIViewAnimationContext.Timing(duration: duration.isFinite ? duration : 0, delay: max(delay, 0),
                                                   options: options, spring: nil)
        timing.perceptualSpring = (bounce.isFinite ? bounce : 0, velocity.isFinite ? velocity : 0)
        runBlock(timing, animations: animations, completion: completion)
    }

    /// Makes the changes in `actionsWithoutAnimation` without animating them, even inside an
    /// animation block.
    public class func performWithoutAnimation(_ actionsWithoutAnimation: () -> Void) {
        UIViewAnimationContext.run(.suppressed, tracker: nil, actionsWithoutAnimation)
    }

    /// Turns block animations on or off (process-wide). Default on.
    public class func setAnimationsEnabled(_ enabled: Bool) {
        UIViewAnimationContext.animationsEnabled.store(enabled, ordering: .relaxed)
    }

    /// Whether block animations are on.
    public class var areAnimationsEnabled: Bool { UIViewAnimationContext.animationsEnabled.load(ordering: .relaxed) }

    /// The duration of the innermost animation block running on this thread (a keyframe block's
    /// or a property animator's included; 0 outside one).
    public class var inheritedAnimationDuration: TimeInterval {
        switch PerThread.current.animationContexts.last?.kind {
        case let .animating(timing): return timing.duration
        case let .recording(animator, _): return animator.duration
        case let .keyframes(recorder, _, _): return recorder.duration
        default: return 0
        }
    }

    /// Runs an animation block: animated when the duration is positive and animations are on.
    /// A block nested in another inherits the outer block's duration and curve unless its options
    /// say `.overrideInheritedDuration` / `.overrideInheritedCurve` (Apple, "View Programming Guide
    /// for iOS", Nesting Animation Blocks: "by default, nested animations inherit the parent's
    /// duration and animation curve"). With `.layoutSubviews`, the views the block changed are
    /// laid out before it closes, so that what their `layoutSubviews()` changes animates with
    /// them (Apple: "lay out subviews at commit time so that they are animated along with their
    /// parent").
    static func runBlock(_ requested: UIViewAnimationContext.Timing, animations: () -> Void, completion: ((Bool) -> Void)?) {
        let tracker = UIViewAnimationTracker(completion: completion)
        var timing = requested
        if case let .animating(outer)? = PerThread.current.animationContexts.last?.kind {
            timing = timing.inheriting(from: outer)
        }
        if timing.duration > 0, areAnimationsEnabled {
            UIViewAnimationContext.run(.animating(timing), tracker: tracker) {
                animations()
                if timing.options.contains(.layoutSubviews) { tracker.layOutAnimatedViews() }
            }
        } else {
            UIViewAnimationContext.run(.suppressed, tracker: nil, animations)
        }
        tracker.seal()
    }
}
