/// A discrete tap (Apple's `UITapGestureRecognizer`): recognized (`.ended`) when the touch lifts
/// for the `numberOfTapsRequired`-th time, each tap within `allowableMovement` (10 points) of
/// where it went down and each next tap beginning within `maximumTapInterval` (0.35 s) of the
/// previous one's end. Apple documents neither threshold; these are Citrine's.
open class UITapGestureRecognizer: UIGestureRecognizer {
    /// Farthest a tapping touch may move (points).
    public static let allowableMovement: CGFloat = 10
    /// Longest pause between the taps of a multiple tap (seconds).
    public static let maximumTapInterval: TimeInterval = 0.35

    /// Default 1.
    open var numberOfTapsRequired = 1
    /// Default 1 (this recognizer follows one touch: other values fail it).
    open var numberOfTouchesRequired = 1

    private var tapsSoFar = 0
    private var downLocation: CGPoint = .zero
    private var lastTapEnd: TimeInterval?

    public required init() { super.init() }

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        guard let touch = touches.first else { return }
        if let end = lastTapEnd, touch.timestamp - end > Self.maximumTapInterval {
            state = .failed
            return
        }
        downLocation = touch.windowLocation
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        guard let touch = touches.first, state == .possible else { return }
        let p = touch.windowLocation
        if hypot(p.x - downLocation.x, p.y - downLocation.y) > Self.allowableMovement { state = .failed }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        guard let touch = touches.first, state == .possible else { return }
        guard numberOfTouchesRequired <= 1 else { state = .failed; return }
        tapsSoFar += 1
        if tapsSoFar >= numberOfTapsRequired {
            state = .ended
        } else {
            lastTapEnd = touch.timestamp
        }
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
        if state == .possible { state = .failed }
    }

    override func timeDidPass(to time: TimeInterval) {
        if state == .possible, let end = lastTapEnd, activeTouches.isEmpty, time - end > Self.maximumTapInterval {
            state = .failed
        }
    }

    open override func reset() {
        super.reset()
        tapsSoFar = 0
        lastTapEnd = nil
    }
}
