/// A window's touch delivery (UIKit has a private class of this name): turns pointer events into
/// `UITouch`es and `UIEvent`s (sent through `UIApplication.sendEvent` → `UIWindow.sendEvent`, as
/// on iOS), and hands each event to the changed touch's gesture recognizers, then to the touch's
/// view — unless a recognizer that cancels touches in its view has recognized, in which case the
/// views of that recognizer's touches get `touchesCancelled` once and nothing more of their
/// sequences.
///
/// Each pointer (identified by a number: 0 the mouse or the script's pointer, 1 a second finger)
/// makes one touch; a `began` for a pointer whose touch is down first cancels that touch. An
/// event carries the one touch that changed (`allTouches` holds every touch down, the others
/// `.stationary`), so a two-finger move arrives as two events.
final class UIGestureEnvironment {
    /// The touches down, with their pointers, in the order they went down.
    private var down: [(pointer: Int, touch: UITouch)] = []
    /// Touches whose view has been sent `touchesCancelled`.
    private var viewTouchesCancelled: Set<ObjectIdentifier> = []
    /// Recognizers that recognized during the current event and cancel touches in their view.
    private var cancellingRecognizers: [UIGestureRecognizer] = []
    /// Whether an event is being delivered (else a recognizer recognized as time passed).
    private var delivering = false
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
    func handlePointer(_ phase: UITouch.Phase, at location: CGPoint, timestamp: TimeInterval, pointer: Int, in window: UIWindow) {
        switch phase {
        case .began:
            if let current = down.first(where: { $0.pointer == pointer })?.touch {
                handlePointer(.cancelled, at: current.windowLocation, timestamp: timestamp, pointer: pointer, in: window)
            }
            if down.isEmpty { resetFinishedRecognizers() }
            begin(pointer: pointer, at: location, timestamp: timestamp, in: window)
        case .moved, .stationary, .ended, .cancelled:
            guard let i = down.firstIndex(where: { $0.pointer == pointer }) else { return }
            let touch = down[i].touch
            touch.previousWindowLocation = touch.windowLocation
            touch.windowLocation = location
            touch.phase = phase
            touch.timestamp = timestamp
            send(touch, timestamp: timestamp)
            if phase == .ended || phase == .cancelled {
                lastTouchEnd = (location, timestamp, touch.tapCount)
                down.removeAll { $0.touch === touch }
                viewTouchesCancelled.remove(ObjectIdentifier(touch))
            }
        }
    }

    /// Sends the event of `touch`'s change, the other touches down marked stationary.
    private func send(_ touch: UITouch, timestamp: TimeInterval) {
        var all: Set<UITouch> = []
        for entry in down {
            if entry.touch !== touch { entry.touch.phase = .stationary }
            all.insert(entry.touch)
        }
        UIApplication.shared.sendEvent(UIEvent(changed: touch, all: all, timestamp: timestamp))
    }

    private func begin(pointer: Int, at location: CGPoint, timestamp: TimeInterval, in window: UIWindow) {
        let hit = window.hitTest(location, with: nil)
        var taps = 1
        if down.isEmpty, let last = lastTouchEnd, timestamp - last.time <= Self.multiTapInterval,
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
        down.append((pointer, touch))
        send(touch, timestamp: timestamp)
    }

    /// Delivers `event` (built by `handlePointer`) — the body of `UIWindow.sendEvent`.
    func deliver(_ event: UIEvent) {
        let touch = event.changedTouch
        let phase = touch.phase
        cancellingRecognizers = []
        delivering = true
        for r in touch.gestureRecognizers ?? [] where r.isEnabled {
            guard r.state == .possible || r.state == .began || r.state == .changed else { continue }
            r.deliver(touch, phase: phase, event: event)
        }
        delivering = false
        // A recognizer that recognized cancels the view's touches: this one's and its other touches'.
        if !cancellingRecognizers.isEmpty {
            for other in event.touchSet where other !== touch
                && other.gestureRecognizers?.contains(where: { r in cancellingRecognizers.contains { $0 === r } }) == true {
                cancelView(of: other, event: event)
            }
            cancelView(of: touch, event: event)
            return
        }
        guard let view = touch.view, !viewTouchesCancelled.contains(ObjectIdentifier(touch)) else { return }
        switch phase {
        case .began: view.touchesBegan([touch], with: event)
        case .moved, .stationary: view.touchesMoved([touch], with: event)
        case .ended: view.touchesEnded([touch], with: event)
        case .cancelled: view.touchesCancelled([touch], with: event)
        }
    }

    private func cancelView(of touch: UITouch, event: UIEvent) {
        guard let view = touch.view, viewTouchesCancelled.insert(ObjectIdentifier(touch)).inserted else { return }
        view.touchesCancelled([touch], with: event)
    }

    /// `recognizer` left `.possible` for `.began` or `.ended`: the other recognizers of its
    /// touches still in `.possible` fail unless either may recognize simultaneously, and the
    /// views' touches are cancelled if the recognizer says so.
    func recognizerDidRecognize(_ recognizer: UIGestureRecognizer) {
        let touches = down.map(\.touch).filter { $0.gestureRecognizers?.contains { $0 === recognizer } == true }
        for touch in touches {
            for other in touch.gestureRecognizers ?? [] where other !== recognizer && other.state == .possible {
                let simultaneous = (recognizer.delegate?.gestureRecognizer(recognizer, shouldRecognizeSimultaneouslyWith: other) ?? false)
                    || (other.delegate?.gestureRecognizer(other, shouldRecognizeSimultaneouslyWith: recognizer) ?? false)
                if !simultaneous, recognizer.canPrevent(other), other.canBePrevented(by: recognizer) { other.fail() }
            }
        }
        guard recognizer.cancelsTouchesInView else { return }
        if delivering {
            cancellingRecognizers.append(recognizer)
        } else {
            // Recognized as time passed (a long press): its touches' views are cancelled now.
            let all = Set(down.map(\.touch))
            for touch in touches { cancelView(of: touch, event: UIEvent(changed: touch, all: all, timestamp: touch.timestamp)) }
        }
    }

    /// Whether a touch is down or a recognizer is still engaged (waiting for time to pass or to
    /// be reset).
    var isEngaged: Bool { !down.isEmpty || !engaged.isEmpty }

    /// Media time passed: recognizers waiting for a later touch (or a long press) may change
    /// state; finished ones are reset once no touch is down.
    func timeDidPass(to time: TimeInterval) {
        for r in engaged { r.timeDidPass(to: time) }
        if down.isEmpty { resetFinishedRecognizers() }
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
