/// A continuous drag (Apple's `UIPanGestureRecognizer`).
///
/// It follows the centroid of its touches. It begins once that has moved
/// `UIPanGestureRecognizer.hysteresis` (10 points; Apple does not document its threshold) from
/// where it went down, reports `.changed` on every move
/// after that, and `.ended` when the touch lifts (`.cancelled` when it is cancelled); a touch
/// that lifts before moving that far fails it. The translation is measured from where the touch
/// went down (so at `.ended` it equals the drag's whole displacement), or from where
/// `setTranslation(_:in:)` last put its origin.
open class UIPanGestureRecognizer: UIGestureRecognizer {
    /// Movement (points, window coordinates) before the pan begins.
    public static let hysteresis: CGFloat = 10

    /// Fewest touches to pan with. Default 1.
    open var minimumNumberOfTouches = 1
    /// Most touches to pan with. Default `Int.max`.
    open var maximumNumberOfTouches = Int.max

    /// Window coordinates of where the touch went down, of the translation's origin and of the
    /// touch now.
    private var downLocation: CGPoint = .zero
    private var origin: CGPoint = .zero
    private var current: CGPoint = .zero
    /// The velocity in points per second, window coordinates.
    private var sampler = GestureVelocity()
    private var windowVelocity: CGPoint { sampler.velocity }

    public required init() { super.init() }

    /// The translation since the gesture's start (or the last `setTranslation`) in `view`'s
    /// coordinate space (nil: the window's): both ends converted into it, then subtracted.
    open func translation(in view: UIView?) -> CGPoint {
        let a = convert(origin, to: view), b = convert(current, to: view)
        return CGPoint(x: b.x - a.x, y: b.y - a.y)
    }

    /// Makes the current translation in `view`'s coordinates equal `translation` (usually
    /// `.zero`, to measure the next moves from here).
    open func setTranslation(_ translation: CGPoint, in view: UIView?) {
        let now = convert(current, to: view)
        let start = CGPoint(x: now.x - translation.x, y: now.y - translation.y)
        origin = view.map { $0.convert(start, to: nil) } ?? start
    }

    /// The velocity in points per second in `view`'s coordinate space: the displacement of the
    /// last move divided by the time it took (fingers moving together count as one move).
    open func velocity(in view: UIView?) -> CGPoint {
        let a = convert(current, to: view)
        let b = convert(CGPoint(x: current.x + windowVelocity.x, y: current.y + windowVelocity.y), to: view)
        return CGPoint(x: b.x - a.x, y: b.y - a.y)
    }

    private func convert(_ p: CGPoint, to view: UIView?) -> CGPoint {
        view.map { $0.convert(p, from: nil) } ?? p
    }

    /// The centroid of the touches down (window coordinates).
    private var centroid: CGPoint {
        guard !activeTouches.isEmpty else { return current }
        let n = CGFloat(activeTouches.count)
        return CGPoint(x: activeTouches.reduce(0) { $0 + $1.windowLocation.x } / n,
                       y: activeTouches.reduce(0) { $0 + $1.windowLocation.y } / n)
    }

    /// A finger went down or lifted with others still down: the centroid jumps, and the origin
    /// and the last sample jump with it, so the translation and velocity go on smoothly (as
    /// iOS's pan does).
    private func rebase() {
        let c = centroid, dx = c.x - current.x, dy = c.y - current.y
        origin = CGPoint(x: origin.x + dx, y: origin.y + dy)
        downLocation = CGPoint(x: downLocation.x + dx, y: downLocation.y + dy)
        sampler.shift(by: CGPoint(x: dx, y: dy))
        current = c
    }

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        guard let touch = touches.first else { return }
        if numberOfTouches > maximumNumberOfTouches {
            if state == .began || state == .changed { state = .ended } else { state = .failed }
            return
        }
        if numberOfTouches > 1 { return rebase() }
        downLocation = touch.windowLocation
        origin = downLocation
        current = downLocation
        sampler.start(downLocation, at: touch.timestamp)
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        guard let touch = touches.first else { return }
        current = centroid
        sampler.add(current, at: touch.timestamp)
        switch state {
        case .possible:
            let moved = hypot(current.x - downLocation.x, current.y - downLocation.y)
            if moved >= Self.hysteresis, numberOfTouches >= minimumNumberOfTouches { state = .began }
        case .began, .changed:
            state = .changed
        default:
            break
        }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        if !activeTouches.isEmpty { return rebase() }
        if let touch = touches.first { current = touch.windowLocation }
        if state == .began || state == .changed { state = .ended } else { state = .failed }
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
        if state == .began || state == .changed { state = .cancelled } else { state = .failed }
    }

    open override func reset() {
        super.reset()
        sampler = GestureVelocity()
    }
}
