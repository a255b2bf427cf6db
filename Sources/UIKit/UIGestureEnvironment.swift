/// A window's touch delivery (UIKit has a private class of this name): turns pointer events into
/// a `UITouch` and `UIEvent`s (sent through `UIApplication.sendEvent` → `UIWindow.sendEvent`, as
/// on iOS), and hands each event to the touch's gesture recognizers, then to the touch's view — unless a recognizer that cancels touches in its view has recognized, in
/// which case the view gets `touchesCancelled` once and nothing more of that sequence.
///
/// One pointer makes one touch: a `began` while a touch is down first cancels that touch.
final class UIGestureEnvironment {
    /// The touch currently down, if any.
    private(set) var touch: UITouch?
    /// Whether the current touch's view has been sent `touchesCancelled`.
    private var viewTouchesCancelled = false
    /// A recognizer recognized during the current event and cancels touches in its view.
    private var pendingViewCancel = false
    /// Recognizers that have received touches and are not yet reset (some wait across touch
    /// sequences: a double tap's recognizer waits for the second tap).
    private var engaged: [UIGestureRecognizer] = []
    /// Where and when the last touch ended (for `tapCount`).
    private var lastTouchEnd: (location: CGPoint, time: TimeInterval, tapCount: Int)?

    /// Taps in a row: a touch beginning within this time of the last one's end (seconds)…
    static let multiTapInterval: TimeInterval = 0.35
    /// …and within this distance of where it ended (points) counts one more tap.
    static let multiTapDistance: CGFloat = 10

    /// A pointer event at `location` (window coordinates) and media time `timestamp`.
    func handlePointer(_ phase: UITouch.Phase, at location: CGPoint, timestamp: TimeInterval, in window: UIWindow) {
        switch phase {
        case .began:
            if let current = touch, current.phase != .ended, current.phase != .cancelled {
                handlePointer(.cancelled, at: current.windowLocation, timestamp: timestamp, in: window)
            }
            resetFinishedRecognizers()
            begin(at: location, timestamp: timestamp, in: window)
        case .moved, .stationary, .ended, .cancelled:
            guard let touch, touch.phase != .ended, touch.phase != .cancelled else { return }
            touch.previousWindowLocation = touch.windowLocation
            touch.windowLocation = location
            touch.phase = phase
            touch.timestamp = timestamp
            UIApplication.shared.sendEvent(UIEvent(touches: [touch], timestamp: timestamp))
            if phase == .ended || phase == .cancelled {
                lastTouchEnd = (location, timestamp, touch.tapCount)
                self.touch = nil
            }
        }
    }

    private func begin(at location: CGPoint, timestamp: TimeInterval, in window: UIWindow) {
        let hit = window.hitTest(location, with: nil)
        var taps = 1
        if let last = lastTouchEnd, timestamp - last.time <= Self.multiTapInterval,
           hypot(location.x - last.location.x, location.y - last.location.y) <= Self.multiTapDistance {
            taps = last.tapCount + 1
        }
        let touch = UITouch(phase: .began, location: location, timestamp: timestamp, view: hit, window: window, tapCount: taps)
        var recognizers: [UIGestureRecognizer] = []
        var v: UIView? = hit
        while let view = v {
            for r in view.gestureRecognizers ?? [] where r.isEnabled && (r.delegate?.gestureRecognizer(r, shouldReceive: touch) ?? true) {
                recognizers.append(r)
            }
            v = view.superview
        }
        touch.gestureRecognizers = recognizers
        var alreadyEngaged = Set(engaged.map(ObjectIdentifier.init))   // O(1) each: a deep chain may hold many
        for r in recognizers {
            r.environment = self
            if alreadyEngaged.insert(ObjectIdentifier(r)).inserted { engaged.append(r) }
        }
        self.touch = touch
        viewTouchesCancelled = false
        UIApplication.shared.sendEvent(UIEvent(touches: [touch], timestamp: timestamp))
    }

    /// Delivers `event` (built by `handlePointer`) — the body of `UIWindow.sendEvent`.
    func deliver(_ event: UIEvent) {
        for touch in event.touchSet {
            let phase = touch.phase
            pendingViewCancel = false
            for r in touch.gestureRecognizers ?? [] where r.isEnabled {
                guard r.state == .possible || r.state == .began || r.state == .changed else { continue }
                r.deliver(touch, phase: phase, event: event)
            }
            guard let view = touch.view, !viewTouchesCancelled else { continue }
            if pendingViewCancel {
                viewTouchesCancelled = true
                view.touchesCancelled([touch], with: event)
                continue
            }
            switch phase {
            case .began: view.touchesBegan([touch], with: event)
            case .moved, .stationary: view.touchesMoved([touch], with: event)
            case .ended: view.touchesEnded([touch], with: event)
            case .cancelled: view.touchesCancelled([touch], with: event)
            }
        }
    }

    /// `recognizer` left `.possible` for `.began` or `.ended`: the other recognizers of its touch
    /// still in `.possible` fail unless either may recognize simultaneously, and the view's
    /// touches are cancelled if the recognizer says so.
    func recognizerDidRecognize(_ recognizer: UIGestureRecognizer) {
        guard let touch, touch.gestureRecognizers?.contains(where: { $0 === recognizer }) == true else {
            if recognizer.cancelsTouchesInView { pendingViewCancel = true }
            return
        }
        for other in touch.gestureRecognizers ?? [] where other !== recognizer && other.state == .possible {
            let simultaneous = (recognizer.delegate?.gestureRecognizer(recognizer, shouldRecognizeSimultaneouslyWith: other) ?? false)
                || (other.delegate?.gestureRecognizer(other, shouldRecognizeSimultaneouslyWith: recognizer) ?? false)
            if !simultaneous, recognizer.canPrevent(other), other.canBePrevented(by: recognizer) { other.fail() }
        }
        if recognizer.cancelsTouchesInView { pendingViewCancel = true }
    }

    /// Whether a touch is down or a recognizer is still engaged (waiting for time to pass or to
    /// be reset).
    var isEngaged: Bool { touch != nil || !engaged.isEmpty }

    /// Media time passed: recognizers waiting for a later touch may time out; finished ones are
    /// reset once no touch is down.
    func timeDidPass(to time: TimeInterval) {
        for r in engaged { r.timeDidPass(to: time) }
        if touch == nil { resetFinishedRecognizers() }
    }

    /// Resets the recognizers that ended, were cancelled or failed.
    private func resetFinishedRecognizers() {
        engaged.removeAll { r in
            guard r.isFinished else { return false }
            r.resetToPossible()
            return true
        }
    }
}
