/// One finger on the screen (Apple's `UITouch`); here each pointer (the mouse, a scripted input
/// timeline's pointer, a second finger a host or script makes) makes one touch at a time.
///
/// A touch is created when the pointer goes down and lives until it goes up or is cancelled;
/// the same object is updated for every move, as on iOS. Locations are kept in window
/// coordinates and converted on request.
public final class UITouch: Hashable {
    /// The touch's phase (Apple's raw values).
    public enum Phase: Int, Sendable {
        case began = 0, moved, stationary, ended, cancelled
    }

    /// The kind of touch (Apple's `UITouch.TouchType`). Pointer input is reported as `.direct`
    /// (a finger), so that code written for iOS sees the touches it expects.
    public enum TouchType: Int, Sendable {
        case direct = 0, indirect, pencil, indirectPointer
    }

    public internal(set) var phase: Phase
    /// Media time of the last change, seconds.
    public internal(set) var timestamp: TimeInterval
    /// The view the touch began in (the hit-tested view); it keeps receiving the touch.
    public internal(set) weak var view: UIView?
    /// The window the touch began in.
    public internal(set) weak var window: UIWindow?
    /// Number of taps in a row at this place (a touch that begins within 0.35 s of the previous
    /// one's end and 10 points of its location counts one more; Apple documents no thresholds).
    public internal(set) var tapCount: Int
    public var type: TouchType { .direct }
    /// The gesture recognizers receiving this touch. Held weakly: a recognizer keeps the touches
    /// it receives (`activeTouches`), so a strong list here would keep both alive for ever when
    /// a window goes away while a finger is down (valgrind memcheck found a recognizer lost so
    /// after an export that ends mid-drag).
    public internal(set) var gestureRecognizers: [UIGestureRecognizer]? {
        get { receivers?.compactMap(\.recognizer) }
        set { receivers = newValue?.map(WeakRecognizer.init) }
    }
    private struct WeakRecognizer {
        weak var recognizer: UIGestureRecognizer?
    }
    private var receivers: [WeakRecognizer]?
    /// Pressure as a fraction of `maximumPossibleForce` (pointer input has none: 0).
    public var force: CGFloat { 0 }
    public var maximumPossibleForce: CGFloat { 0 }
    public var majorRadius: CGFloat { 20 }

    /// Locations in window coordinates.
    var windowLocation: CGPoint
    var previousWindowLocation: CGPoint

    init(phase: Phase, location: CGPoint, timestamp: TimeInterval, view: UIView?, window: UIWindow?, tapCount: Int) {
        self.phase = phase
        self.windowLocation = location
        self.previousWindowLocation = location
        self.timestamp = timestamp
        self.view = view
        self.window = window
        self.tapCount = tapCount
    }

    /// The location in `view`'s coordinates (nil: the window's).
    public func location(in view: UIView?) -> CGPoint { convert(windowLocation, to: view) }

    /// The location before the last move, in `view`'s coordinates (nil: the window's).
    public func previousLocation(in view: UIView?) -> CGPoint { convert(previousWindowLocation, to: view) }

    /// The precise location (the same as `location(in:)` for pointer input).
    public func preciseLocation(in view: UIView?) -> CGPoint { location(in: view) }

    private func convert(_ p: CGPoint, to view: UIView?) -> CGPoint {
        guard let view else { return p }
        if let window, view.window === window { return view.convert(p, from: window) }
        return view.convert(p, from: nil)
    }

    public static func == (l: UITouch, r: UITouch) -> Bool { l === r }
    public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(self)) }
}
