// UIView's keyframe blocks (Apple's `animateKeyframes(withDuration:delay:options:animations:
// completion:)` and `addKeyframe(withRelativeStartTime:relativeDuration:animations:)`, iOS 7).
// Every property changed in the block becomes one `CAKeyframeAnimation` on its layer, under the
// property's key: its values are the property's value before the block and its value after each
// keyframe that changed it, placed at the keyframes' relative end times (a keyframe holds the
// previous value until its relative start time):
//
//     addKeyframe(0, 0.25) { x = 100 }            values   50   100   100   200
//     addKeyframe(0.5, 0.5) { x = 200 }           keyTimes  0   0.25  0.5    1
//
// A change made in the block outside any keyframe spans the whole duration (start 0, duration 1).
// The calculation mode comes from the options' `calculationMode*` bits; the whole animation's
// curve is the `UIView.AnimationOptions` curve in bits 16…19 — ease-in-ease-out unless the caller
// passes one of those bits: UIKit's keyframe animations ease the whole timeline by default, and
// `UIView.KeyframeAnimationOptions(rawValue: UIView.AnimationOptions.curveLinear.rawValue)` is
// the well-known way to make it linear (it works because the raw bits are shared).

extension UIView {
    /// Options of keyframe blocks (Apple's `UIView.KeyframeAnimationOptions`, raw values Apple's:
    /// bits 0–9 as `UIView.AnimationOptions`, the calculation mode in bits 10–12).
    public struct KeyframeAnimationOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Accepted for source compatibility (as `UIView.AnimationOptions.layoutSubviews`).
        public static let layoutSubviews = KeyframeAnimationOptions(rawValue: 1 << 0)
        /// Animated views keep receiving touches.
        public static let allowUserInteraction = KeyframeAnimationOptions(rawValue: 1 << 1)
        /// Always the case here: animations start from the current presentation value.
        public static let beginFromCurrentState = KeyframeAnimationOptions(rawValue: 1 << 2)
        /// Repeat forever.
        public static let `repeat` = KeyframeAnimationOptions(rawValue: 1 << 3)
        /// Play forwards, then backwards.
        public static let autoreverse = KeyframeAnimationOptions(rawValue: 1 << 4)
        /// Use this block's duration even when nested in another block (always the case here).
        public static let overrideInheritedDuration = KeyframeAnimationOptions(rawValue: 1 << 5)
        /// Use this block's options even when nested in another block (always the case here).
        public static let overrideInheritedOptions = KeyframeAnimationOptions(rawValue: 1 << 9)

        /// Straight lines between values (`CAAnimationCalculationMode.linear`). The default.
        public static let calculationModeLinear = KeyframeAnimationOptions(rawValue: 0 << 10)
        /// Each value held until the next keyframe time (`.discrete`).
        public static let calculationModeDiscrete = KeyframeAnimationOptions(rawValue: 1 << 10)
        /// Constant speed, keyframe times ignored (`.paced`).
        public static let calculationModePaced = KeyframeAnimationOptions(rawValue: 2 << 10)
        /// A smooth spline through the values (`.cubic`).
        public static let calculationModeCubic = KeyframeAnimationOptions(rawValue: 3 << 10)
        /// The spline at constant speed (`.cubicPaced`).
        public static let calculationModeCubicPaced = KeyframeAnimationOptions(rawValue: 4 << 10)

        /// The calculation-mode bits (10…12) as Core Animation's mode; unknown values are linear.
        var calculationMode: CAAnimationCalculationMode {
            switch (rawValue >> 10) & 0x7 {
            case 1: .discrete
            case 2: .paced
            case 3: .cubic
            case 4: .cubicPaced
            default: .linear
            }
        }

        /// The options that keyframe and block animations share (bits 0–9 and the curve bits).
        var animationOptions: UIView.AnimationOptions { UIView.AnimationOptions(rawValue: rawValue & ~(0x7 << 10)) }
    }

    /// Animates the changes made in `animations` and in its `addKeyframe` calls as keyframe
    /// animations of `duration` seconds, starting `delay` seconds from now (see the note above).
    /// The model values change at once. `completion(finished)` runs as for
    /// `animate(withDuration:delay:options:animations:completion:)`. A duration of 0 or less
    /// makes the changes without animation.
    public class func animateKeyframes(withDuration duration: TimeInterval, delay: TimeInterval,
                                       options: UIView.KeyframeAnimationOptions = [], animations: @escaping () -> Void,
                                       completion: ((Bool) -> Void)? = nil) {
        let tracker = UIViewAnimationTracker(completion: completion)
        let wait = delay.isFinite ? max(delay, 0) : 0
        if duration.isFinite, duration > 0, areAnimationsEnabled {
            let recorder = UIViewKeyframeRecorder(duration: duration)
            UIViewAnimationContext.run(.keyframes(recorder, start: 0, duration: 1), tracker: nil, animations)
            recorder.addAnimations(delay: wait, options: options, tracker: tracker)
        } else {
            UIViewAnimationContext.run(.suppressed, tracker: nil, animations)
        }
        tracker.seal()
    }

    /// A keyframe inside `animateKeyframes`: the changes made in `animations` arrive at relative
    /// time `frameStartTime + frameDuration` (both fractions of the block's duration, clamped to
    /// 0…1), moving from the previous keyframe's value from `frameStartTime` on. Outside a
    /// keyframe block Apple defines no behaviour; the changes are then made as if the call were
    /// not there (in whatever block is open).
    public class func addKeyframe(withRelativeStartTime frameStartTime: Double, relativeDuration frameDuration: Double,
                                  animations: @escaping () -> Void) {
        guard case let .keyframes(recorder, _, _) = PerThread.current.animationContexts.last?.kind else {
            return animations()
        }
        let start = frameStartTime.isFinite ? min(max(frameStartTime, 0), 1) : 0
        let length = frameDuration.isFinite ? min(max(frameDuration, 0), 1 - start) : 0
        UIViewAnimationContext.run(.keyframes(recorder, start: start, duration: length), tracker: nil, animations)
    }
}
