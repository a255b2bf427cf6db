/// A discrete swipe (Apple's `UISwipeGestureRecognizer`): recognized (`.ended`) during the move
/// at which the touch has gone `minimumDistance` (50 points) in one of the permitted
/// `direction`s, with at most half that far sideways (≈ 27°), within `maximumDuration` (0.5 s)
/// of going down. It fails when the touch moves that far some other way, takes longer, or lifts
/// first. Apple documents none of these thresholds; they are Citrine's.
open class UISwipeGestureRecognizer: UIGestureRecognizer {
    /// Swipe directions (Apple's raw values), in screen terms: up is towards smaller y.
    public struct Direction: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let right = Direction(rawValue: 1 << 0)
        public static let left = Direction(rawValue: 1 << 1)
        public static let up = Direction(rawValue: 1 << 2)
        public static let down = Direction(rawValue: 1 << 3)
    }

    /// Distance along the direction to recognize (points).
    public static let minimumDistance: CGFloat = 50
    /// Longest a swipe may take to cover `minimumDistance` (seconds).
    public static let maximumDuration: TimeInterval = 0.5

    /// Permitted directions. Default `.right`.
    open var direction: Direction = .right
    /// Default 1 (this recognizer follows one touch: other values fail it).
    open var numberOfTouchesRequired = 1

    private var start: (location: CGPoint, time: TimeInterval)?

    public required init() { super.init() }

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        guard let touch = touches.first else { return }
        guard numberOfTouchesRequired <= 1 else { state = .failed; return }
        start = (touch.windowLocation, touch.timestamp)
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        guard let touch = touches.first, let start, state == .possible else { return }
        let dx = touch.windowLocation.x - start.location.x, dy = touch.windowLocation.y - start.location.y
        let candidates: [(Direction, CGFloat, CGFloat)] = [(.right, dx, dy), (.left, -dx, dy), (.down, dy, dx), (.up, -dy, dx)]
        for (d, along, across) in candidates where direction.contains(d) {
            if along >= Self.minimumDistance, abs(across) <= along / 2 {
                state = touch.timestamp - start.time <= Self.maximumDuration ? .ended : .failed
                return
            }
        }
        if touch.timestamp - start.time > Self.maximumDuration || hypot(dx, dy) >= Self.minimumDistance { state = .failed }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        if state == .possible { state = .failed }
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
        if state == .possible { state = .failed }
    }

    open override func reset() {
        super.reset()
        start = nil
    }
}
