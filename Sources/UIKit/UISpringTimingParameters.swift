/// Spring timing for animators (Apple's `UISpringTimingParameters`): the property moves as a
/// damped spring released towards its new value (see `CASpringAnimation` for the closed form).
///
/// Three ways to describe the spring, as Apple's initializers:
/// * a damping ratio (and initial velocity): the spring runs for the animator's duration —
///   mass 1 and the stiffness at which it has settled when the duration ends, as
///   `UIView.animate(withDuration:delay:usingSpringWithDamping:…)` (see
///   `UIViewAnimationContext.springParameters`);
/// * mass, stiffness and damping: Apple, "using this method ignores the duration specified by the
///   property animator. Instead, the animator computes the duration based on the spring's
///   configuration" — here the spring's `CASpringAnimation.settlingDuration`;
/// * iOS 17's perceptual duration and bounce: mass 1, stiffness (2π/duration)², damping
///   4π(1 − bounce)/duration (`CASpringAnimation(perceptualDuration:bounce:)`); the spring also
///   sets its own duration (its settling duration).
///
/// Velocity: Apple's is a vector "in units of the total animation distance per second" with a
/// component per axis. Core Animation's spring has one velocity per animation, so Citrine gives
/// every animated property `dx` (and `dy` when `dx` is 0): the velocity of a gesture that moves a
/// view along one axis, the common case.
public final class UISpringTimingParameters: UITimingCurveProvider {
    /// The spring as given to an initializer.
    enum Spring {
        case dampingRatio(CGFloat)
        case physical(mass: CGFloat, stiffness: CGFloat, damping: CGFloat)
        case perceptual(duration: TimeInterval, bounce: CGFloat)
    }

    /// The initial velocity (total distances per second per axis).
    public let initialVelocity: CGVector
    let spring: Spring

    /// Apple: "sets the initial velocity of any animated properties to 0.0 and sets the damping
    /// ratio to 4.56" (the ratio of UIKit's default spring, mass 3, stiffness 1000, damping 500:
    /// 500 / (2√3000) = 4.56). As a damping ratio it follows the animator's duration; UIKit's
    /// duration-based springs are at most critically damped, so it moves as a critically damped
    /// spring.
    public init() {
        initialVelocity = .zero
        spring = .dampingRatio(4.56)
    }

    /// A spring of damping ratio `ratio` (1 = no oscillation, towards 0 more oscillation), at rest.
    public convenience init(dampingRatio ratio: CGFloat) {
        self.init(dampingRatio: ratio, initialVelocity: .zero)
    }

    /// A spring of damping ratio `ratio` with initial velocity `velocity`.
    public init(dampingRatio ratio: CGFloat, initialVelocity velocity: CGVector) {
        initialVelocity = velocity
        spring = .dampingRatio(ratio)
    }

    /// A spring of the given mass (> 0), stiffness and damping coefficient with initial velocity
    /// `velocity`; the animator runs for the time the spring takes to settle. Values that are not
    /// positive and finite are replaced by CASpringAnimation's defaults (mass 1, stiffness 100,
    /// damping 10) — Apple requires mass > 0 and documents no other range.
    public init(mass: CGFloat, stiffness: CGFloat, damping: CGFloat, initialVelocity velocity: CGVector) {
        func positive(_ v: CGFloat, or fallback: CGFloat) -> CGFloat { v.isFinite && v > 0 ? v : fallback }
        initialVelocity = velocity
        spring = .physical(mass: positive(mass, or: 1), stiffness: positive(stiffness, or: 100),
                           damping: damping.isFinite && damping >= 0 ? damping : 10)
    }

    /// iOS 17: a spring of perceptual `duration` (seconds) and `bounce` (−1…1; 0 no bounce,
    /// negative overdamped), with initial velocity `velocity`.
    public init(duration: TimeInterval, bounce: CGFloat, initialVelocity velocity: CGVector = .zero) {
        initialVelocity = velocity
        spring = .perceptual(duration: duration.isFinite && duration > 0 ? duration : 0.5,
                             bounce: bounce.isFinite ? bounce : 0)
    }

    public var timingCurveType: UITimingCurveType { .spring }
    public var cubicTimingParameters: UICubicTimingParameters? { nil }
    public var springTimingParameters: UISpringTimingParameters? { self }

    /// The one velocity Core Animation's spring takes (see the type's note).
    var scalarVelocity: CGFloat {
        let v = initialVelocity.dx != 0 ? initialVelocity.dx : initialVelocity.dy
        return v.isFinite ? v : 0
    }

    /// Whether the spring sets the animator's duration instead of following it.
    var setsItsOwnDuration: Bool {
        if case .dampingRatio = spring { return false }
        return true
    }

    /// A `CASpringAnimation` of this spring over `duration` seconds (used only by the damping
    /// ratio form: the others run for their settling duration, which the caller reads from it).
    func makeAnimation(keyPath: String, duration: TimeInterval) -> CASpringAnimation {
        let animation: CASpringAnimation
        switch spring {
        case let .dampingRatio(ratio):
            animation = CASpringAnimation(keyPath: keyPath)
            let p = UIViewAnimationContext.springParameters(dampingRatio: ratio, velocity: scalarVelocity,
                                                            duration: duration)
            animation.mass = 1
            animation.stiffness = p.stiffness
            animation.damping = p.damping
            animation.duration = duration
        case let .physical(mass, stiffness, damping):
            animation = CASpringAnimation(keyPath: keyPath)
            animation.mass = mass
            animation.stiffness = stiffness
            animation.damping = damping
            animation.allowsOverdamping = true
        case let .perceptual(perceptual, bounce):
            animation = CASpringAnimation(perceptualDuration: perceptual, bounce: bounce)
            animation.keyPath = keyPath
        }
        animation.initialVelocity = scalarVelocity
        if setsItsOwnDuration { animation.duration = animation.settlingDuration }
        return animation
    }
}
