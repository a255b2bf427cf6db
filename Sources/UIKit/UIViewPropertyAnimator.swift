// UIKit's interruptible animator (Apple's `UIViewPropertyAnimator`, iOS 10–17).
//
// Design note
// -----------
// The animator has its own clock, τ seconds into its run, 0…runDuration:
//
//     τ(t) = anchorTau ± max(0, t − anchorTime)     (+ running forwards, − reversed, frozen paused)
//
// Its animation blocks run when it first becomes active (start, pause or a fractionComplete
// assignment), inside a recording block: every property a view's layer changes becomes an
// *entry* (layer, key, value before, value after, τ at which it starts) and the model takes the
// new value, as in `UIView.animate`. Each entry is shown by one Core Animation animation on its
// layer, under the property's key, rebuilt whenever the clock's rate changes (see
// `UIViewPropertyAnimator+Layers.swift`): running, it plays with speed 1 from `timeOffset` = the
// entry's elapsed time; paused, the same animation has speed 0 and holds its `timeOffset` (on a
// linear curve once fractionComplete is set, while `scrubsLinearly`); reversed, it plays the
// time-reflected curve from the end value back. So the presentation tree — what is rendered and
// what `presentation()` reads — shows the animator's position at every time, and nothing is
// evaluated per frame here. The animations carry an owner tag: a property that a later
// `UIView.animate` block has taken over keeps that block's animation and model value.
//
// A running animator is checked once per run-loop turn (`UIApplication.advance(to:)`): when τ
// reaches the end (or 0 reversed) it sets the model to the end (or start) values, removes its
// animations and calls its completions with the position — at the first turn after the end, as
// `UIView.animate`'s completions.
//
// Programmer errors: Apple raises an `NSInternalInconsistencyException` when a method is called in
// a state its documentation forbids (finishAnimation(at:) outside `.stopped`, starting a stopped
// animator, setting fractionComplete while running, pausing or reversing an animator that is not
// interruptible, changing isInterruptible or isUserInteractionEnabled while active). As the
// rest of Citrine does with Apple's exceptions (adding a view to its own subview, a layer to
// itself), the call is ignored and the animator stays as it was; the first such call in a
// process is named on standard error.

/// An animator whose animations can be started, paused, scrubbed, reversed and stopped.
open class UIViewPropertyAnimator: UIViewImplicitlyAnimating {
    /// The duration given at initialization, seconds (Apple: "you set the duration value when
    /// creating the animator and cannot change it later").
    public let duration: TimeInterval
    /// The delay given to `startAnimation(afterDelay:)` or `runningPropertyAnimator`; default 0.
    public private(set) var delay: TimeInterval = 0
    /// The timing curve given at initialization (a cubic curve or a spring).
    public private(set) var timingParameters: (any UITimingCurveProvider)?
    /// Whether the animator can be paused, scrubbed, reversed and stopped. Default true. With
    /// false the animations run to their end (Apple: a non-interruptible animator runs its
    /// animations to completion). Apple raises if it is set while active; ignored then.
    public var isInterruptible = true {
        didSet { if state != .inactive, oldValue != isInterruptible { isInterruptible = oldValue; misuse("isInterruptible set on an active animator") } }
    }
    /// Whether animated views receive touches. Default true (unlike `UIView.animate`, whose views
    /// ignore touches unless `.allowUserInteraction`). Apple raises if set while active; ignored.
    public var isUserInteractionEnabled = true {
        didSet { if state != .inactive, oldValue != isUserInteractionEnabled { isUserInteractionEnabled = oldValue; misuse("isUserInteractionEnabled set on an active animator") } }
    }
    /// Default false. With true, Apple leaves hit-testing of animating views to the app; Citrine
    /// hit-tests views at their model geometry in both cases, so the flag changes nothing.
    public var isManualHitTestingEnabled = false
    /// Whether a paused animator shows the `fractionComplete` it is given on a linear curve (true,
    /// the default, Apple's) or on its own timing curve. Pausing alone keeps the curve's position.
    public var scrubsLinearly = true {
        didSet { if state == .active, !isRunning, isScrubbed, oldValue != scrubsLinearly { showAnimations() } }
    }
    /// When true, the animator does not finish at its end: it pauses there, stays active (so it
    /// can be reversed) and runs no completion. Default false (Apple).
    public var pausesOnCompletion = false
    /// The animator's state (see `UIViewAnimatingState`).
    public private(set) var state: UIViewAnimatingState = .inactive
    /// Whether the animations are running: active and not paused.
    public private(set) var isRunning = false

    /// The animations' duration in force: the given duration, a duration factor's multiple of it
    /// (`continueAnimation`), or a spring's settling duration when the spring sets it.
    var runDuration: TimeInterval
    /// The animator's clock (see the design note).
    var anchorTau: TimeInterval = 0
    var anchorTime: CFTimeInterval = 0
    private var reversed = false
    /// Whether fractionComplete was set since the animator last ran (paused positions then
    /// follow `scrubsLinearly`).
    var isScrubbed = false
    /// Animation blocks not yet run (the animator is inactive) and their delay factors.
    private var pendingBlocks: [(animations: () -> Void, delayFactor: CGFloat)] = []
    private var completions: [(UIViewAnimatingPosition) -> Void] = []
    /// The properties the animator animates (see `UIViewPropertyAnimator+Layers.swift`).
    var entries: [Entry] = []
    private static let misuseDiagnostic = _OnceDiagnostic()

    // MARK: Initializers

    /// An animator of `duration` seconds with the given timing (Apple's designated initializer).
    /// A duration that is negative or not finite counts as 0 (the changes are made at the
    /// start, as `UIView.animate` with duration 0).
    public required init(duration: TimeInterval, timingParameters parameters: any UITimingCurveProvider) {
        let d = duration.isFinite ? max(duration, 0) : 0
        self.duration = d
        timingParameters = parameters
        runDuration = Self.runDuration(d, parameters)
    }

    /// An animator of `duration` seconds with one of UIKit's curves.
    public convenience init(duration: TimeInterval, curve: UIView.AnimationCurve, animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: UICubicTimingParameters(animationCurve: curve))
        if let animations { addAnimations(animations) }
    }

    /// An animator of `duration` seconds with a cubic Bézier curve through (0, 0), `point1`,
    /// `point2`, (1, 1).
    public convenience init(duration: TimeInterval, controlPoint1 point1: CGPoint, controlPoint2 point2: CGPoint,
                            animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: UICubicTimingParameters(controlPoint1: point1, controlPoint2: point2))
        if let animations { addAnimations(animations) }
    }

    /// An animator of `duration` seconds whose properties move as a spring of damping ratio
    /// `ratio`, settled when the duration ends.
    public convenience init(duration: TimeInterval, dampingRatio ratio: CGFloat, animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: UISpringTimingParameters(dampingRatio: ratio))
        if let animations { addAnimations(animations) }
    }

    /// A started animator: the `UIView.animate(withDuration:delay:options:…)` of animators. The
    /// curve comes from `options` (default ease-in-ease-out), the animations start after `delay`
    /// seconds, and `completion` runs with the final position.
    open class func runningPropertyAnimator(withDuration duration: TimeInterval, delay: TimeInterval,
                                            options: UIView.AnimationOptions = [], animations: @escaping () -> Void,
                                            completion: ((UIViewAnimatingPosition) -> Void)? = nil) -> Self {
        let animator = Self(duration: duration, timingParameters: UICubicTimingParameters(animationCurve: options.animationCurve))
        animator.isUserInteractionEnabled = options.contains(.allowUserInteraction)
        animator.addAnimations(animations)
        if let completion { animator.addCompletion(completion) }
        animator.startAnimation(afterDelay: delay)
        return animator
    }

    private static func runDuration(_ duration: TimeInterval, _ parameters: (any UITimingCurveProvider)?) -> TimeInterval {
        guard let spring = parameters?.springTimingParameters, spring.setsItsOwnDuration else { return duration }
        return spring.makeAnimation(keyPath: "", duration: duration).duration
    }

    // MARK: Adding animations and completions

    /// Adds a block of view changes. Inactive: it runs when the animator starts and animates over
    /// the whole duration. Active: it runs now and animates over the remaining time (Apple:
    /// "(1.0 − fractionComplete) · duration").
    open func addAnimations(_ animation: @escaping () -> Void) {
        addAnimations(animation, delayFactor: 0)
    }

    /// Adds a block of view changes that starts `delayFactor` (0…1, clamped) of the remaining
    /// duration later and ends with the animator.
    open func addAnimations(_ animation: @escaping () -> Void, delayFactor: CGFloat) {
        let factor = delayFactor.isFinite ? min(max(delayFactor, 0), 1) : 0
        switch state {
        case .inactive: pendingBlocks.append((animation, factor))
        case .active:
            let tau = currentTau
            record(animation, startingAt: tau + Double(factor) * (runDuration - tau))
            showAnimations()
        case .stopped: misuse("addAnimations on a stopped animator")
        }
    }

    /// Adds a block to run when the animations end (naturally or by `finishAnimation(at:)`), with
    /// the position they ended at. Not run after `stopAnimation(true)`.
    open func addCompletion(_ completion: @escaping (UIViewAnimatingPosition) -> Void) {
        completions.append(completion)
    }

    // MARK: UIViewAnimating

    /// Progress through the animations: τ / duration, 0…1 — the fraction of the time elapsed
    /// (reversed, it falls back towards 0). Apple: can be set only while paused; setting it on an
    /// inactive animator makes it active (and paused). Values are clamped to 0…1.
    open var fractionComplete: CGFloat {
        get { runDuration > 0 ? CGFloat(min(max(currentTau / runDuration, 0), 1)) : (state == .inactive ? 0 : 1) }
        set {
            guard state != .stopped, !isRunning else { return misuse("fractionComplete set on a running or stopped animator") }
            guard isInterruptible else { return misuse("fractionComplete set on a non-interruptible animator") }
            activateIfNeeded()
            let f = newValue.isFinite ? min(max(Double(newValue), 0), 1) : 0
            anchorTau = f * runDuration
            isScrubbed = true
            showAnimations()
        }
    }

    /// Whether the animations run backwards to their start. Changing it while running turns them
    /// around where they are; an animator that finishes reversed ends at `.start`.
    open var isReversed: Bool {
        get { reversed }
        set {
            guard newValue != reversed else { return }
            guard state != .stopped, isInterruptible else { return misuse("isReversed set on a stopped or non-interruptible animator") }
            reanchor()
            reversed = newValue
            if state == .active { showAnimations() }
        }
    }

    /// Starts (or resumes) the animations now.
    open func startAnimation() { startAnimation(afterDelay: 0) }

    /// Starts (or resumes) the animations after `delay` seconds (negative or non-finite: 0); until
    /// then the properties show where the animator is.
    open func startAnimation(afterDelay delay: TimeInterval) {
        guard state != .stopped else { return misuse("startAnimation on a stopped animator") }
        guard !isRunning else { return }
        let wait = delay.isFinite ? max(delay, 0) : 0
        if state == .inactive { self.delay = wait }
        activateIfNeeded()
        anchorTau = currentTau
        anchorTime = CACurrentMediaTime() + wait
        isRunning = true
        isScrubbed = false
        showAnimations()
        let running = PerThread.current
        if !running.runningAnimators.contains(where: { $0 === self }) { running.runningAnimators.append(self) }
    }

    /// Pauses the animations where they are (an inactive animator becomes active, paused at 0).
    open func pauseAnimation() {
        guard state != .stopped, isInterruptible else { return misuse("pauseAnimation on a stopped or non-interruptible animator") }
        if state == .inactive {
            activateIfNeeded()
            return showAnimations()
        }
        guard isRunning else { return }
        anchorTau = currentTau
        isRunning = false
        showAnimations()
    }

    /// Stops the animations where they are: each property takes its current presentation value
    /// as its model value and the animations are removed. `withoutFinishing` true: back to
    /// `.inactive`, no completion runs. False: `.stopped`, until `finishAnimation(at:)`.
    open func stopAnimation(_ withoutFinishing: Bool) {
        guard state == .active, isInterruptible else { return misuse("stopAnimation on an inactive, stopped or non-interruptible animator") }
        anchorTau = currentTau
        isRunning = false
        settle(at: .current, keepingEntries: !withoutFinishing)
        state = withoutFinishing ? .inactive : .stopped
        if withoutFinishing { completions.removeAll() }
    }

    /// Ends a stopped animator: the properties take their end values, their start values or stay
    /// where they stopped (`.current`), the animator becomes inactive and the completions run
    /// with `finalPosition`. Apple allows it only after `stopAnimation(false)`.
    open func finishAnimation(at finalPosition: UIViewAnimatingPosition) {
        guard state == .stopped else { return misuse("finishAnimation(at:) on an animator that is not stopped") }
        finish(at: finalPosition)
    }

    /// Resumes a paused animator with new timing (nil keeps the current one) and a duration of
    /// `durationFactor` × the original duration for the whole animation (a factor that is not
    /// positive and finite keeps the duration in force), continuing from the same
    /// fractionComplete.
    open func continueAnimation(withTimingParameters parameters: (any UITimingCurveProvider)?, durationFactor: CGFloat) {
        guard state != .stopped, !isRunning else { return misuse("continueAnimation on a running or stopped animator") }
        activateIfNeeded()
        let fraction = runDuration > 0 ? currentTau / runDuration : 0
        if let parameters { timingParameters = parameters }
        let base = durationFactor.isFinite && durationFactor > 0 ? duration * Double(durationFactor) : runDuration
        let old = runDuration
        runDuration = Self.runDuration(base, timingParameters)
        anchorTau = fraction * runDuration
        // Delayed blocks keep their place in the whole: their start scales with the duration.
        if old > 0 { for i in entries.indices { entries[i].start *= runDuration / old } }
        startAnimation()
    }

    // MARK: Clock and life cycle

    /// τ now (see the design note).
    var currentTau: TimeInterval {
        guard isRunning else { return anchorTau }
        let elapsed = max(0, CACurrentMediaTime() - anchorTime)
        return min(max(anchorTau + (reversed ? -elapsed : elapsed), 0), runDuration)
    }

    /// Moves the clock's anchor to now (or keeps a start still in the future): same τ, new origin.
    func reanchor() {
        let tau = currentTau
        anchorTime = max(anchorTime, CACurrentMediaTime())
        anchorTau = tau
    }

    /// Runs the pending animation blocks and becomes active.
    private func activateIfNeeded() {
        guard state == .inactive else { return }
        state = .active
        anchorTau = reversed ? runDuration : 0
        let blocks = pendingBlocks
        pendingBlocks.removeAll()
        for block in blocks { record(block.animations, startingAt: Double(block.delayFactor) * runDuration) }
    }

    /// Called once per run-loop turn for each running animator: ends it when its clock has
    /// reached the end (the start, reversed). Returns whether it is still running.
    func advance() -> Bool {
        guard state == .active, isRunning else { return false }
        let tau = currentTau
        guard reversed ? tau <= 0 : tau >= runDuration else { return true }
        if pausesOnCompletion {
            anchorTau = tau
            isRunning = false
            showAnimations()
            return false
        }
        finish(at: reversed ? .start : .end)
        return false
    }

    /// Settles the properties at `position`, becomes inactive and runs the completions.
    private func finish(at position: UIViewAnimatingPosition) {
        isRunning = false
        settle(at: position)
        state = .inactive
        let blocks = completions
        completions.removeAll()
        for completion in blocks { completion(position) }
    }

    /// A call Apple answers with an exception: ignored (see the design note).
    private func misuse(_ what: String) {
        Self.misuseDiagnostic.say("UIViewPropertyAnimator: \(what) is a programmer error (UIKit raises NSInternalInconsistencyException); Citrine ignores the call")
    }

    /// Runs the running animators of this thread's run loop (`UIApplication.advance(to:)`).
    static func advanceRunning() {
        let state = PerThread.current
        var i = 0
        while i < state.runningAnimators.count {
            let animator = state.runningAnimators[i]
            // A completion may have started the same animator again: it stays in the list.
            if animator.advance() || animator.isRunning { i += 1 } else { state.runningAnimators.remove(at: i) }
        }
    }
}

extension UIView.AnimationOptions {
    /// The curve bits as a UIKit curve.
    var animationCurve: UIView.AnimationCurve {
        UIView.AnimationCurve(rawValue: Int((rawValue >> 16) & 0xF)) ?? .easeInOut
    }
}
