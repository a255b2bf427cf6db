/// Optional methods a gesture recognizer asks its delegate (Apple's
/// `UIGestureRecognizerDelegate`); Linux has no optional protocol requirements, so each has
/// UIKit's default answer as a default implementation.
public protocol UIGestureRecognizerDelegate: AnyObject {
    /// Whether the recognizer may leave `.possible` (default true).
    func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool
    /// Whether the two may recognize at the same time (default false).
    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                           shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer) -> Bool
    /// Whether the recognizer gets `touch` at all (default true).
    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer, shouldReceive touch: UITouch) -> Bool
}

public extension UIGestureRecognizerDelegate {
    func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool { true }
    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                           shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer) -> Bool { false }
    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer, shouldReceive touch: UITouch) -> Bool { true }
}

/// The base class of gesture recognizers (Apple's `UIGestureRecognizer`).
///
/// A recognizer attached to a view (`view.addGestureRecognizer`) receives the touches that
/// begin in that view or its subviews before the view does. Its `state` goes from `.possible`
/// to `.began` → `.changed`… → `.ended`/`.cancelled` (continuous gestures) or straight to
/// `.ended` = `.recognized` (discrete ones), or to `.failed`; after a touch sequence ends it is
/// reset to `.possible` at the next touch or run-loop turn. Its actions run on every change to
/// `.began`, `.changed`, `.ended` and `.cancelled`. When it recognizes, the other recognizers of
/// the touch still in `.possible` fail (unless a delegate allows simultaneous recognition), and
/// with `cancelsTouchesInView` (default true) the view gets `touchesCancelled` and no more
/// touches of that sequence.
///
/// Deviation (no Objective-C runtime): `init(target:action:)` and `addTarget(_:action:)` take a
/// closure instead of a target and selector: `UIPanGestureRecognizer { pan in … }`,
/// `recognizer.addTarget { (pan: UIPanGestureRecognizer) in … }`. The closure receives the
/// recognizer with its own type. The recognizer keeps its closures (Apple's recognizer does not
/// retain its target): capture the view weakly (`[weak view]`) when the view owns the
/// recognizer, or the two keep each other alive.
///
/// Subclasses (Apple's `UIGestureRecognizerSubclass` API) override `touchesBegan(_:with:)` etc.
/// and `reset()`, and set `state`.
open class UIGestureRecognizer {
    /// Recognizer states (Apple's raw values).
    public enum State: Int, Sendable {
        case possible = 0, began, changed, ended, cancelled, failed
        /// Discrete gestures' recognized state: `.ended`.
        public static var recognized: State { .ended }
    }

    private var actions: [(UIGestureRecognizer) -> Void] = []
    private var storedState: State = .possible
    /// The window's touch delivery this recognizer is taking part in.
    weak var environment: UIGestureEnvironment?
    /// The touches currently down that this recognizer receives.
    var activeTouches: [UITouch] = []
    /// The touches of its last touch event (for locations after they ended).
    private var lastTouches: [UITouch] = []

    /// The view the recognizer is attached to.
    public internal(set) weak var view: UIView?
    public weak var delegate: UIGestureRecognizerDelegate?
    /// A disabled recognizer gets no touches; disabling it mid-gesture cancels it. Default true.
    public var isEnabled = true {
        didSet {
            guard !isEnabled, oldValue else { return }
            if state == .began || state == .changed { state = .cancelled } else if state == .possible, !activeTouches.isEmpty { state = .failed }
        }
    }
    /// Cancel the view's touches once the gesture is recognized. Default true.
    public var cancelsTouchesInView = true
    /// Accepted for source compatibility (touches are never delayed here). Default false.
    public var delaysTouchesBegan = false
    /// Accepted for source compatibility (touches are never delayed here). Default true.
    public var delaysTouchesEnded = true
    /// An identifier for debugging (iOS 11).
    public var name: String?

    public required init() {}

    /// The current state. Setting it (subclasses do) runs the actions for `.began`, `.changed`,
    /// `.ended` and `.cancelled`. Leaving `.possible` for `.began` or `.ended` first asks the
    /// view's and the delegate's `gestureRecognizerShouldBegin`; a refusal makes it `.failed`.
    public var state: State {
        get { storedState }
        set {
            let old = storedState
            if old == .possible, newValue == .began || newValue == .ended, !shouldBegin() {
                storedState = .failed
                return
            }
            storedState = newValue
            if old == .possible, newValue == .began || newValue == .ended { environment?.recognizerDidRecognize(self) }
            switch newValue {
            case .began, .changed, .ended, .cancelled: for action in actions { action(self) }
            case .possible, .failed: break
            }
        }
    }

    private func shouldBegin() -> Bool {
        (view?.gestureRecognizerShouldBegin(self) ?? true) && (delegate?.gestureRecognizerShouldBegin(self) ?? true)
    }

    /// Adds an action, run with the recognizer on each state change that reports (see `state`).
    package func _addAction(_ action: @escaping (UIGestureRecognizer) -> Void) { actions.append(action) }

    /// Removes every action (the closure form of Apple's `removeTarget(nil, action: nil)`).
    public func removeAllActions() { actions.removeAll() }

    /// The number of touches down that the recognizer receives.
    public var numberOfTouches: Int { activeTouches.count }

    /// The centroid of the recognizer's touches in `view`'s coordinates (nil: the window's); after
    /// they ended, where they ended.
    open func location(in view: UIView?) -> CGPoint {
        let touches = activeTouches.isEmpty ? lastTouches : activeTouches
        guard !touches.isEmpty else { return .zero }
        let points = touches.map { $0.location(in: view) }
        let n = CGFloat(points.count)
        return CGPoint(x: points.reduce(0) { $0 + $1.x } / n, y: points.reduce(0) { $0 + $1.y } / n)
    }

    /// The location of touch `touchIndex` in `view`'s coordinates.
    open func location(ofTouch touchIndex: Int, in view: UIView?) -> CGPoint {
        let touches = activeTouches.isEmpty ? lastTouches : activeTouches
        guard touches.indices.contains(touchIndex) else { return .zero }
        return touches[touchIndex].location(in: view)
    }

    // MARK: Subclass API (Apple's UIGestureRecognizerSubclass)

    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {}
    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {}
    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {}
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {}
    /// Back to `.possible` after a gesture ended or failed; subclasses clear their state here and
    /// call super.
    open func reset() {}
    /// Whether this recognizer, recognizing, makes `preventedGestureRecognizer` fail. Default true.
    open func canPrevent(_ preventedGestureRecognizer: UIGestureRecognizer) -> Bool { true }
    /// Whether `preventingGestureRecognizer`, recognizing, makes this one fail. Default true.
    open func canBePrevented(by preventingGestureRecognizer: UIGestureRecognizer) -> Bool { true }

    // MARK: Delivery (UIGestureEnvironment)

    /// Hands one touch event to the recognizer.
    func deliver(_ touch: UITouch, phase: UITouch.Phase, event: UIEvent) {
        let touches: Set<UITouch> = [touch]
        defer { lastTouches = activeTouches.isEmpty ? [touch] : activeTouches }
        switch phase {
        case .began:
            if !activeTouches.contains(touch) { activeTouches.append(touch) }
            touchesBegan(touches, with: event)
        case .moved, .stationary:
            touchesMoved(touches, with: event)
        case .ended:
            activeTouches.removeAll { $0 === touch }
            touchesEnded(touches, with: event)
        case .cancelled:
            activeTouches.removeAll { $0 === touch }
            touchesCancelled(touches, with: event)
        }
    }

    /// Media time passed to `time` (discrete recognizers waiting for a next tap time out here).
    func timeDidPass(to time: TimeInterval) {}

    /// Whether the recognizer has finished its gesture and waits to be reset.
    var isFinished: Bool { state == .ended || state == .cancelled || state == .failed }

    /// Back to `.possible` without running actions.
    func resetToPossible() {
        storedState = .possible
        activeTouches = []
        reset()
    }

    /// Fails the recognizer from outside (another one recognized first).
    func fail() {
        if storedState == .possible { storedState = .failed }
    }
}

/// Closure-based creation and actions with the recognizer's own type (Citrine: the stand-in for
/// target/action, see `UIGestureRecognizer`).
public protocol _UIGestureRecognizerActions: UIGestureRecognizer {}

extension UIGestureRecognizer: _UIGestureRecognizerActions {}

extension _UIGestureRecognizerActions {
    /// A recognizer that runs `action` with itself on each reported state change
    /// (`UIPanGestureRecognizer { pan in … }`).
    public init(_ action: @escaping (Self) -> Void) {
        self.init()
        addTarget(action)
    }

    /// Adds an action run with the recognizer on each reported state change.
    public func addTarget(_ action: @escaping (Self) -> Void) {
        _addAction { recognizer in action(recognizer as! Self) }
    }
}

/// A gesture's velocity from its samples (value, time): the change over the last step between
/// two distinct times. Fingers that move together arrive as one event each at the same time; a
/// sample at the time of the last one replaces it, so the step spans the whole move.
struct GestureVelocity {
    private var last: (value: CGPoint, time: TimeInterval)?
    private var beforeLast: (value: CGPoint, time: TimeInterval)?
    /// Units per second (zero before a step).
    private(set) var velocity: CGPoint = .zero

    /// Starts over from `value` at `time`.
    mutating func start(_ value: CGPoint, at time: TimeInterval) {
        last = (value, time)
        beforeLast = nil
        velocity = .zero
    }

    /// A new sample.
    mutating func add(_ value: CGPoint, at time: TimeInterval) {
        guard let l = last else { return start(value, at: time) }
        if time > l.time { beforeLast = l }
        last = (value, max(time, l.time))
        guard let b = beforeLast, time > b.time else { return }
        let dt = CGFloat(time - b.time)
        velocity = CGPoint(x: (value.x - b.value.x) / dt, y: (value.y - b.value.y) / dt)
    }

    /// Moves the samples by `delta` (the pan's centroid jumped when a finger went down or up).
    mutating func shift(by delta: CGPoint) {
        if let l = last { last = (CGPoint(x: l.value.x + delta.x, y: l.value.y + delta.y), l.time) }
        if let b = beforeLast { beforeLast = (CGPoint(x: b.value.x + delta.x, y: b.value.y + delta.y), b.time) }
    }
}
