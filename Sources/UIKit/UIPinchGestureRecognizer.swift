/// A continuous two-finger pinch (Apple's `UIPinchGestureRecognizer`).
///
/// With two touches down it measures their distance; `scale` is that distance over the distance
/// when the second touch went down (an absolute value, as Apple documents, not a delta;
/// setting it — usually back to 1 — measures the next changes from there). It begins once the
/// distance has changed by `hysteresis` (8 points; Apple documents no threshold), reports
/// `.changed` on every move after that, and `.ended` when a touch lifts. `velocity` is the
/// scale's change per second over the last move.
open class UIPinchGestureRecognizer: UIGestureRecognizer {
    /// Change of the touches' distance (points) before the pinch begins.
    public static let hysteresis: CGFloat = 8

    /// Current distance over the reference distance. Default 1.
    open var scale: CGFloat {
        get { referenceDistance > 0 ? distance / referenceDistance : 1 }
        set {
            guard newValue.isFinite, newValue > 0 else { return }
            referenceDistance = distance / newValue
        }
    }
    /// Scale factor per second over the last move (0 before one).
    open var velocity: CGFloat { sampler.velocity.x }

    private var startDistance: CGFloat = 0
    private var referenceDistance: CGFloat = 0
    private var distance: CGFloat = 0
    private var sampler = GestureVelocity()

    public required init() { super.init() }

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        guard state == .possible else { return }
        if numberOfTouches > 2 { state = .failed; return }
        guard let d = twoTouchVector.map({ hypot($0.x, $0.y) }) else { return }
        distance = d
        startDistance = d
        referenceDistance = d
        sampler.start(CGPoint(x: 1, y: 0), at: touches.first?.timestamp ?? 0)
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        guard numberOfTouches == 2, let v = twoTouchVector, let time = touches.first?.timestamp else { return }
        distance = hypot(v.x, v.y)
        sampler.add(CGPoint(x: scale, y: 0), at: time)
        switch state {
        case .possible: if abs(distance - startDistance) >= Self.hysteresis { state = .began }
        case .began, .changed: state = .changed
        default: break
        }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) { twoTouchGestureLifted() }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) { twoTouchGestureCancelled() }

    open override func reset() {
        super.reset()
        startDistance = 0
        referenceDistance = 0
        distance = 0
        sampler = GestureVelocity()
    }
}

extension UIGestureRecognizer {
    /// The vector from the first touch down to the second (window coordinates), when two are down.
    var twoTouchVector: CGPoint? {
        guard activeTouches.count >= 2 else { return nil }
        let a = activeTouches[0].windowLocation, b = activeTouches[1].windowLocation
        return CGPoint(x: b.x - a.x, y: b.y - a.y)
    }

    /// A touch of a two-touch gesture (pinch, rotation) lifted: a recognized gesture ends; one
    /// still possible fails once no touch is down.
    func twoTouchGestureLifted() {
        if state == .began || state == .changed { state = .ended } else if state == .possible, activeTouches.isEmpty { state = .failed }
    }

    /// The system cancelled a two-touch gesture's touches: a recognized gesture is cancelled, a
    /// possible one fails.
    func twoTouchGestureCancelled() {
        if state == .began || state == .changed { state = .cancelled } else if state == .possible { state = .failed }
    }
}
