/// An input event (Apple's `UIEvent`): the touches down at one pointer event (the one that
/// changed and the others, stationary), with the media time it happened at.
open class UIEvent {
    /// The kind of event (Apple's raw values). Pointer input makes `.touches` events.
    public enum EventType: Int, Sendable {
        case touches = 0, motion, remoteControl, presses, scroll = 10, hover, transform
    }

    public let type: EventType
    /// Media time of the event, seconds.
    public let timestamp: TimeInterval
    let touchSet: Set<UITouch>
    /// The touch whose change this event reports.
    let changedTouch: UITouch

    init(changed: UITouch, all: Set<UITouch>, timestamp: TimeInterval) {
        self.type = .touches
        self.timestamp = timestamp
        self.changedTouch = changed
        self.touchSet = all.union([changed])
    }

    /// Every touch of the event.
    open var allTouches: Set<UITouch>? { touchSet }
    /// The touches delivered to `view`.
    open func touches(for view: UIView) -> Set<UITouch>? { touchSet.filter { $0.view === view } }
    /// The touches of `window`.
    open func touches(for window: UIWindow) -> Set<UITouch>? { touchSet.filter { $0.window === window } }
    /// The touches delivered to `gesture`.
    open func touches(for gesture: UIGestureRecognizer) -> Set<UITouch>? {
        touchSet.filter { $0.gestureRecognizers?.contains { $0 === gesture } ?? false }
    }
}
