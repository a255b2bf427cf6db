/// A view that turns touches into actions (Apple's `UIControl`), with the closure-based
/// `UIAction` API Apple added in iOS 14 (`addAction(_:for:)`), which needs no selector.
///
/// Touch tracking follows Apple's documented events: `.touchDown` when a touch begins in the
/// control (which becomes highlighted), `.touchDragInside` / `.touchDragOutside` while it moves
/// (highlighted while inside the bounds), `.touchUpInside` / `.touchUpOutside` when it lifts, and
/// `.touchCancel` when the system cancels it. Deviation: `addTarget(_:action:for:)` with a
/// selector is not available (no Objective-C runtime); the "inside" test is the bounds, not
/// UIKit's undocumented slop margin around them. A disabled control (`isEnabled == false`) takes
/// no touches (`hitTest` skips it) and sends nothing.
open class UIControl: UIView {
    /// Control events (Apple's raw values).
    public struct Event: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let touchDown = Event(rawValue: 1 << 0)
        public static let touchDownRepeat = Event(rawValue: 1 << 1)
        public static let touchDragInside = Event(rawValue: 1 << 2)
        public static let touchDragOutside = Event(rawValue: 1 << 3)
        public static let touchDragEnter = Event(rawValue: 1 << 4)
        public static let touchDragExit = Event(rawValue: 1 << 5)
        public static let touchUpInside = Event(rawValue: 1 << 6)
        public static let touchUpOutside = Event(rawValue: 1 << 7)
        public static let touchCancel = Event(rawValue: 1 << 8)
        public static let valueChanged = Event(rawValue: 1 << 12)
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        public static let allTouchEvents = Event(rawValue: 0x0FFF)
        public static let allEvents = Event(rawValue: 0xFFFF_FFFF)
    }

    /// Control states (Apple's raw values).
    public struct State: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let normal = State([])
        public static let highlighted = State(rawValue: 1 << 0)
        public static let disabled = State(rawValue: 1 << 1)
        public static let selected = State(rawValue: 1 << 2)
    }

    private var actions: [(action: UIAction, events: Event)] = []

    /// Whether the control responds to touches (default true).
    open var isEnabled = true { didSet { stateDidChange() } }
    /// Whether a touch is down inside the control.
    open var isHighlighted = false { didSet { if isHighlighted != oldValue { stateDidChange() } } }
    /// Whether the control is selected (default false).
    open var isSelected = false { didSet { stateDidChange() } }
    /// Whether a touch is being tracked.
    public private(set) var isTracking = false

    /// The control's state from `isEnabled`, `isHighlighted` and `isSelected`.
    open var state: State {
        var s: State = .normal
        if isHighlighted { s.insert(.highlighted) }
        if !isEnabled { s.insert(.disabled) }
        if isSelected { s.insert(.selected) }
        return s
    }

    /// Called when `state` may have changed (subclasses update their look). Default: nothing.
    open func stateDidChange() {}

    /// Runs `action` on each of `controlEvents`.
    open func addAction(_ action: UIAction, for controlEvents: Event) {
        actions.append((action, controlEvents))
    }

    /// Stops running `action` on `controlEvents` (the action stays for other events).
    open func removeAction(_ action: UIAction, for controlEvents: Event) {
        actions = actions.compactMap { entry in
            guard entry.action === action else { return entry }
            let rest = entry.events.subtracting(controlEvents)
            return rest.isEmpty ? nil : (entry.action, rest)
        }
    }

    /// Runs the actions registered for any of `controlEvents`, in the order they were added.
    open func sendActions(for controlEvents: Event) {
        for entry in actions where !entry.events.isDisjoint(with: controlEvents) { entry.action.handler(entry.action) }
    }

    open override func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
        isEnabled ? super.hitTest(point, with: event) : nil
    }

    // MARK: Tracking

    /// Whether the touch being tracked is inside the bounds (Apple's `isTouchInside`).
    public private(set) var isTouchInside = false
    /// A touch is down on the control (it began here and has not ended or been cancelled);
    /// the control events follow it whether or not the tracking hooks keep `isTracking` true.
    private var touchIsDown = false

    private func isInside(_ touch: UITouch) -> Bool { bounds.contains(touch.location(in: self)) }

    /// Called when a touch begins in the control; returns whether to keep tracking it
    /// (`isTracking` takes the result). Default: true (Apple). Custom controls (sliders,
    /// knobs) override it and the three below, and call `sendActions(for: .valueChanged)`.
    open func beginTracking(_ touch: UITouch, with event: UIEvent?) -> Bool { true }

    /// Called each time the tracked touch moves; returns whether to keep tracking it. Default:
    /// true (Apple). After `false` the control calls neither this nor `endTracking` again for
    /// the touch.
    open func continueTracking(_ touch: UITouch, with event: UIEvent?) -> Bool { true }

    /// Called when the tracked touch lifts (Apple: `touch` may be nil). Default: nothing.
    open func endTracking(_ touch: UITouch?, with event: UIEvent?) {}

    /// Called when the system cancels the touch; the default ends tracking and clears the
    /// highlight (Apple: "cancels any ongoing tracking and updates the control's state" — call
    /// `super` when overriding).
    open func cancelTracking(with event: UIEvent?) {
        isTracking = false
        isHighlighted = false
    }

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard isEnabled, let touch = touches.first else { return }
        touchIsDown = true
        isTouchInside = true
        isHighlighted = true
        isTracking = beginTracking(touch, with: event)
        sendActions(for: touch.tapCount > 1 ? [.touchDown, .touchDownRepeat] : .touchDown)
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard touchIsDown, let touch = touches.first else { return }
        let inside = isInside(touch)
        let entered = inside && !isTouchInside, exited = !inside && isTouchInside
        isTouchInside = inside
        isHighlighted = inside
        if isTracking { isTracking = continueTracking(touch, with: event) }
        var events: Event = inside ? .touchDragInside : .touchDragOutside
        if entered { events.insert(.touchDragEnter) }
        if exited { events.insert(.touchDragExit) }
        sendActions(for: events)
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard touchIsDown, let touch = touches.first else { return }
        touchIsDown = false
        let inside = isInside(touch)
        if isTracking { endTracking(touch, with: event) }
        isTracking = false
        isTouchInside = false
        isHighlighted = false
        sendActions(for: inside ? [.touchUpInside, .primaryActionTriggered] : .touchUpOutside)
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard touchIsDown else { return }
        touchIsDown = false
        isTouchInside = false
        cancelTracking(with: event)
        isTracking = false
        isHighlighted = false
        sendActions(for: .touchCancel)
    }
}

/// An action with a closure (Apple's `UIAction`, iOS 14): what a control runs for its events.
open class UIAction {
    /// The action's title (default empty).
    public var title: String
    /// The closure, given the action.
    public let handler: (UIAction) -> Void

    public init(title: String = "", handler: @escaping (UIAction) -> Void) {
        self.title = title
        self.handler = handler
    }
}
