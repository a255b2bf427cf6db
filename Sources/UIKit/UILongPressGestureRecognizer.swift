/// A continuous press-and-hold (Apple's `UILongPressGestureRecognizer`): it begins once
/// `numberOfTouchesRequired` touches have been down for `minimumPressDuration` without moving
/// more than `allowableMovement` from where they went down, reports `.changed` as they move after
/// that, and `.ended` when one lifts. Moving too far or lifting before it began fails it.
/// Defaults are Apple's: 0.5 s, 10 points, 1 touch, 0 taps before the press.
///
/// The duration is checked at each run-loop turn (`UIApplication.advance(to:)`, once per frame),
/// so the gesture begins at the first frame at or after `minimumPressDuration`.
open class UILongPressGestureRecognizer: UIGestureRecognizer {
    /// Seconds the touches must stay down. Default 0.5.
    open var minimumPressDuration: TimeInterval = 0.5
    /// Points the touches may move before the gesture begins. Default 10.
    open var allowableMovement: CGFloat = 10
    /// Fingers that must be down. Default 1.
    open var numberOfTouchesRequired = 1
    /// Full taps before the press (only 0 is met here: a preceding tap fails it). Default 0.
    open var numberOfTapsRequired = 0

    /// When the required touches were all down, and where each went down (window coordinates).
    private var pressStart: TimeInterval?
    private var downLocations: [ObjectIdentifier: CGPoint] = [:]

    public required init() { super.init() }

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        guard state == .possible else { return }
        if numberOfTapsRequired > 0 || numberOfTouchesRequired < 1 || numberOfTouches > numberOfTouchesRequired {
            state = .failed
            return
        }
        for touch in touches { downLocations[ObjectIdentifier(touch)] = touch.windowLocation }
        if numberOfTouches == numberOfTouchesRequired { pressStart = touches.first?.timestamp }
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        switch state {
        case .possible:
            for touch in touches {
                guard let down = downLocations[ObjectIdentifier(touch)] else { continue }
                let p = touch.windowLocation
                if hypot(p.x - down.x, p.y - down.y) > allowableMovement { state = .failed; return }
            }
        case .began, .changed:
            state = .changed
        default:
            break
        }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        if state == .began || state == .changed { state = .ended } else if state == .possible { state = .failed }
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
        if state == .began || state == .changed { state = .cancelled } else if state == .possible { state = .failed }
    }

    override func timeDidPass(to time: TimeInterval) {
        guard state == .possible, let start = pressStart, numberOfTouches == numberOfTouchesRequired,
              time - start >= minimumPressDuration - 1e-9 else { return }
        state = .began
    }

    open override func reset() {
        super.reset()
        pressStart = nil
        downLocations = [:]
    }
}
