import Foundation

/// A continuous two-finger rotation (Apple's `UIRotationGestureRecognizer`).
///
/// With two touches down it follows the angle of the line from the first to the second;
/// `rotation` is how far that line has turned (radians, clockwise positive on screen as UIKit's
/// y-down angles are, unwrapped past ±π) since the second touch went down (absolute, as Apple
/// documents; setting it — usually back to 0 — measures the next changes from there). It begins
/// once the line has turned `hysteresis` (0.05 rad, about 3°; Apple documents no threshold),
/// reports `.changed` after that and `.ended` when a touch lifts. `velocity` is radians per
/// second over the last move.
open class UIRotationGestureRecognizer: UIGestureRecognizer {
    /// Turn (radians) before the rotation begins.
    public static let hysteresis: CGFloat = 0.05

    /// Radians turned since the reference. Default 0.
    open var rotation: CGFloat {
        get { turned - reference }
        set { if newValue.isFinite { reference = turned - newValue } }
    }
    /// Radians per second over the last move (0 before one).
    open var velocity: CGFloat { sampler.velocity.x }

    /// Total turn since the second touch went down (unwrapped), and the part `rotation` leaves out.
    private var turned: CGFloat = 0
    private var reference: CGFloat = 0
    private var lastAngle: CGFloat?
    private var sampler = GestureVelocity()

    public required init() { super.init() }

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        guard state == .possible else { return }
        if numberOfTouches > 2 { state = .failed; return }
        guard let v = twoTouchVector else { return }
        lastAngle = atan2(v.y, v.x)
        turned = 0
        reference = 0
        sampler.start(.zero, at: touches.first?.timestamp ?? 0)
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        guard numberOfTouches == 2, let v = twoTouchVector, let last = lastAngle, let time = touches.first?.timestamp else { return }
        let angle = atan2(v.y, v.x)
        var step = angle - last
        if step > .pi { step -= 2 * .pi } else if step < -.pi { step += 2 * .pi }
        turned += step
        lastAngle = angle
        sampler.add(CGPoint(x: turned, y: 0), at: time)
        switch state {
        case .possible: if abs(turned) >= Self.hysteresis { state = .began }
        case .began, .changed: state = .changed
        default: break
        }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) { twoTouchGestureLifted() }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) { twoTouchGestureCancelled() }

    open override func reset() {
        super.reset()
        turned = 0
        reference = 0
        lastAngle = nil
        sampler = GestureVelocity()
    }
}
