/// A damped spring between fromValue and toValue (Apple's `CASpringAnimation`).
///
/// The progress is that of a damped harmonic oscillator of mass m, stiffness k and damping c,
/// released at displacement 1 from its rest position with velocity `initialVelocity` (in whole
/// distances per second, positive towards the end): with ω0 = √(k/m) and ζ = c / (2√(km)),
///
///     ζ < 1:  x(t) = e^(−ζω0t) · (cos ωd t + (ζω0 − v0)/ωd · sin ωd t),   ωd = ω0√(1 − ζ²)
///     ζ = 1:  x(t) = e^(−ω0t) · (1 + (ω0 − v0) t)
///     ζ > 1:  the sum of two decaying exponentials
///
/// and progress(t) = 1 − x(t), with t the animation's local time in seconds (so the spring, not
/// the timing function, shapes the motion; Apple ignores `timingFunction` for springs too).
/// Defaults are Apple's: mass 1, stiffness 100, damping 10, initialVelocity 0.
open class CASpringAnimation: CABasicAnimation {
    override class func makeCoreAnimationAnimation() -> CAAnimation { CASpringAnimation() }
    public var mass: CGFloat = 1
    public var stiffness: CGFloat = 100
    public var damping: CGFloat = 10
    public var initialVelocity: CGFloat = 0
    /// iOS 17: allow ζ > 1 (otherwise damping is clamped to critical). Default false.
    public var allowsOverdamping = false

    /// iOS 17's perceptual initializer: `duration` is the perceptual duration, `bounce` in −1…1.
    /// Apple documents no formula for it; Citrine uses the model of SwiftUI's
    /// `Spring(duration:bounce:)` (same iOS 17 vocabulary): mass 1, stiffness = (2π / duration)²,
    /// damping ratio 1 − bounce for bounce ≥ 0 and 1/(1 + bounce) below, i.e.
    /// damping = 4π(1 − bounce)/duration or 4π/(duration·(1 + bounce)). Apple's `Spring`
    /// documentation gives duration 0.5, bounce 0.3 → stiffness 157.9, damping 17.6, which
    /// this reproduces (see SpringParameterTests). A bounce outside −1…1 is clamped to it (the
    /// range SwiftUI documents); −1 is infinite damping.
    public convenience init(perceptualDuration duration: CFTimeInterval, bounce requestedBounce: CGFloat) {
        self.init()
        let d = max(duration, 1e-3), bounce = min(max(requestedBounce, -1), 1)
        mass = 1
        stiffness = CGFloat((2 * Double.pi / d) * (2 * Double.pi / d))
        damping = bounce >= 0 ? CGFloat(4 * Double.pi * (1 - Double(bounce)) / d)
                              : CGFloat(4 * Double.pi / (d * (1 + Double(bounce))))
        allowsOverdamping = bounce < 0
        self.duration = settlingDuration
    }

    /// The perceptual duration (Apple, iOS 17): the period of the undamped spring, 2π·√(m/k)
    /// seconds — the inverse of `init(perceptualDuration:bounce:)`'s stiffness = (2π / duration)²
    /// (at mass 1).
    public var perceptualDuration: CFTimeInterval {
        let (w0, _) = parameters
        return w0 > 0 ? 2 * Double.pi / w0 : .infinity
    }

    /// How bouncy the spring is (Apple, iOS 17), −1…1: 1 − ζ for a damping ratio ζ ≤ 1 (0 is
    /// critically damped, 1 undamped) and 1/ζ − 1 above (overdamped springs have a negative
    /// bounce) — the inverse of `init(perceptualDuration:bounce:)`. Without
    /// `allowsOverdamping`, ζ is clamped to 1 as the animation is, so the bounce is at least 0.
    public var bounce: CGFloat {
        let (_, zeta) = parameters
        return CGFloat(zeta <= 1 ? 1 - zeta : 1 / zeta - 1)
    }

    /// The displacement (a fraction of the distance) below which Core Animation counts the
    /// spring as at rest: 0.001 (see `settlingDuration`).
    static let settleEpsilon = 0.001

    /// Seconds until the spring counts as at rest (Apple: "the estimated duration required for
    /// the spring system to be considered at rest"). Apple documents no formula; Apple's private
    /// header (CASpringAnimation's `durationForEpsilon:`) says it is a duration for an epsilon.
    /// The rule here reproduces, to 1e-12, the values measured on QuartzCore that
    /// OpenCoreAnimation publishes in its tests (CASpringAnimationPerceptualTests: default spring
    /// 1.4727003346780927 s, damping 1 13.91321015404625 s, critically damped ω0 = 10 exactly 1 s,
    /// and bounce 0.5 at perceptual duration 1 s 2.3438753795710707 s), and Apple's own two
    /// statements (damping 5: "approximately 2.85 seconds" → 2.855; damping 15: "just over 1
    /// second" → 1.022):
    ///
    /// - underdamped (ζ < 1): x(t) = e^(−ζω0t)(cos ωd t + b sin ωd t) with b = (ζω0 − v0)/ωd is
    ///   bounded by (1 + |b|)·e^(−ζω0t); the settling duration is when that bound reaches ε =
    ///   0.001: t = ln((1 + |b|)/ε) / (ζω0).
    /// - overdamped (ζ > 1, with `allowsOverdamping`): the same rule. x(t) = A·e^(r₁t) + B·e^(r₂t)
    ///   with r₁,₂ = −ω0(ζ ∓ √(ζ² − 1)), A = (−v0 − r₂)/(r₁ − r₂), B = 1 − A, is bounded by
    ///   (|A| + |B|)·e^(r₁t) (r₁ is the slower decay), so t = ln((|A| + |B|)/ε) / |r₁|; at rest
    ///   (v0 = 0) |A| + |B| = ζ/√(ζ² − 1). No measurement of an overdamped spring is published
    ///   (OpenCoreAnimation fits 2.6 s to perceptual duration 1, bounce −0.5 without naming a
    ///   measurement; this rule gives 4.19 s there, when the spring is within 0.1 % of rest).
    ///   Infinite damping (bounce −1) settles at once (0 s) and the spring jumps to its end, the
    ///   boundary OpenCoreAnimation's tests give for QuartzCore.
    /// - critically damped (and damping clamped to critical without `allowsOverdamping`): the
    ///   envelope rule has no bound of that form (x = e^(−ω0t)(1 + (ω0 − v0)t)); the duration is
    ///   the first multiple of 0.1 s at which |x| < ε and the motion heads to rest (x·x' ≤ 0,
    ///   after which |x| only shrinks), which reproduces the one published critically-damped
    ///   measurement (1 s; the displacement crosses ε at 0.92 s).
    public var settlingDuration: CFTimeInterval {
        let (w0, zeta) = parameters
        guard w0 > 0, w0.isFinite else { return 0 }
        let v0 = Double(initialVelocity)
        if zeta < 1 {
            guard zeta > 0 else { return .infinity }
            let b = (zeta * w0 - v0) / (w0 * (1 - zeta * zeta).squareRoot())
            return max(0, log((1 + abs(b)) / Self.settleEpsilon) / (zeta * w0))
        }
        if zeta.isInfinite { return 0 }
        if zeta > 1 {
            let (a, b, slow, _) = overdampedModes(w0: w0, zeta: zeta, v0: v0)
            return max(0, log((abs(a) + abs(b)) / Self.settleEpsilon) / -slow)
        }
        // 0.1 s steps for at most 10 minutes (a spring slower than that counts as settled then).
        for tenth in 0...6000 {
            let t = Double(tenth) * 0.1, x = displacement(t)
            if abs(x) < Self.settleEpsilon && x * (displacement(t + 1e-6) - x) <= 0 { return t }
        }
        return 600
    }

    /// An overdamped spring's two decaying modes: x(t) = a·e^(slow·t) + b·e^(fast·t), with
    /// x(0) = 1 and x'(0) = −v0 (slow and fast are the characteristic roots, both negative).
    private func overdampedModes(w0: Double, zeta: Double, v0: Double) -> (a: Double, b: Double, slow: Double, fast: Double) {
        let s = w0 * (zeta * zeta - 1).squareRoot()
        let slow = -zeta * w0 + s, fast = -zeta * w0 - s
        let a = (-v0 - fast) / (slow - fast)
        return (a, 1 - a, slow, fast)
    }

    open override class var animationProperties: [String: AnimationProperty] { Self.springProperties }

    private static let springProperties = CABasicAnimation.animationProperties.merging([
        "mass": .init(\CASpringAnimation.mass, .number),
        "stiffness": .init(\CASpringAnimation.stiffness, .number),
        "damping": .init(\CASpringAnimation.damping, .number),
        "initialVelocity": .init(\CASpringAnimation.initialVelocity, .number),
        "allowsOverdamping": .init(\CASpringAnimation.allowsOverdamping, .bool),
        "settlingDuration": .init(readOnly: \CASpringAnimation.settlingDuration, .number),
        "perceptualDuration": .init(readOnly: \CASpringAnimation.perceptualDuration, .number),
        "bounce": .init(readOnly: \CASpringAnimation.bounce, .number),
    ]) { $1 }

    open override func copyProperties(from other: CAAnimation) {
        super.copyProperties(from: other)
        guard let o = other as? CASpringAnimation else { return }
        mass = o.mass; stiffness = o.stiffness; damping = o.damping
        initialVelocity = o.initialVelocity; allowsOverdamping = o.allowsOverdamping
    }

    private var parameters: (w0: Double, zeta: Double) {
        let m = max(Double(mass), 1e-9), k = max(Double(stiffness), 0), c = max(Double(damping), 0)
        let w0 = (k / m).squareRoot()
        var zeta = k > 0 ? c / (2 * (k * m).squareRoot()) : 1
        if !allowsOverdamping { zeta = min(zeta, 1) }
        return (w0, zeta)
    }

    /// x(t): remaining displacement at t seconds.
    func displacement(_ t: Double) -> Double {
        let (w0, zeta) = parameters
        let v0 = Double(initialVelocity)
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            return exp(-zeta * w0 * t) * (cos(wd * t) + (zeta * w0 - v0) / wd * sin(wd * t))
        }
        if zeta == 1 { return exp(-w0 * t) * (1 + (w0 - v0) * t) }
        if zeta.isInfinite { return t > 0 ? 0 : 1 }
        let (a, b, slow, fast) = overdampedModes(w0: w0, zeta: zeta, v0: v0)
        return a * exp(slow * t) + b * exp(fast * t)
    }

    /// The spring's own clock: the un-eased local time within the play, in seconds.
    override func value(at state: TimingModel.State, current: AnimatableValue) -> AnimatableValue? {
        let (a, b) = endpoints(current: current)
        return AnimatableValue.interpolate(a, b, 1 - displacement(state.fraction * duration))
    }
}
