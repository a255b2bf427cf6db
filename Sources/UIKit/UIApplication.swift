import Foundation

/// The application object (Apple's `UIApplication`): the entry point of input and the run loop.
///
/// Two methods make the run loop, the same for live and scripted input:
///
/// * `sendPointerEvent(_:at:timestamp:pointer:in:)` — a raw pointer event (phase, location in window
///   points with the origin at the top-left and y down, media time). The window hit-tests the
///   location, makes a `UITouch` and a `UIEvent`, runs the gesture recognizers and delivers the
///   touch to the view and up the responder chain, synchronously.
/// * `advance(to:)` — one turn of the run loop at media time `time`, once per frame.
///
/// A window host calls them with real mouse events; headless code (the Scene module's
/// `SceneDriver`) sets the media clock of the calling thread to each call's time first.
///
/// Deviation: there is no application delegate, main function or `UIApplicationMain`; the
/// shared object exists from its first use. The windows are held weakly.
open class UIApplication: UIResponder, @unchecked Sendable {
    /// The application.
    public static let shared = UIApplication()

    private struct WeakWindow { weak var window: UIWindow? }
    private struct State {
        var windows: [WeakWindow] = []
        weak var keyWindow: UIWindow?
        weak var firstResponder: UIResponder?
        var nextTurn: [() -> Void] = []
        var lastAdvance: CFTimeInterval?
    }
    private let lock = NSLock()
    private var stateStorage = State()

    /// Runs `body` on the state under the lock (no other code runs inside).
    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        return body(&stateStorage)
    }

    override init() { super.init() }

    /// The windows, in the order they were created.
    public var windows: [UIWindow] { withState { $0.windows.compactMap(\.window) } }

    /// The window pointer events go to by default.
    public internal(set) var keyWindow: UIWindow? {
        get { withState { $0.keyWindow } }
        set { withState { $0.keyWindow = newValue } }
    }

    var firstResponder: UIResponder? {
        get { withState { $0.firstResponder } }
        set { withState { $0.firstResponder = newValue } }
    }

    /// The media time of the last `advance(to:)` (Citrine extension), nil before the first.
    package var _lastAdvanceTime: CFTimeInterval? { withState { $0.lastAdvance } }

    func register(_ window: UIWindow) {
        withState { s in
            s.windows.removeAll { $0.window == nil }
            s.windows.append(WeakWindow(window: window))
        }
    }

    /// Runs `block` at the start of the next run-loop turn (`advance(to:)`).
    func enqueueForNextTurn(_ block: @escaping () -> Void) {
        withState { $0.nextTurn.append(block) }
    }

    // MARK: Input

    /// A raw pointer event: `phase` (`.began` when the button goes down, `.moved` while it is
    /// held and moves, `.ended` when it is released, `.cancelled` when the system takes it away),
    /// `location` in `window`'s coordinates (points, origin top-left, y down) and `timestamp`
    /// (media time, seconds). `window` nil means the key window, else the last window created.
    /// Moves without a touch down (hovering) are ignored. `pointer` tells the fingers apart: 0
    /// (the default) is the mouse or a script's pointer, 1 a second finger (a host's second
    /// touch, a script's two-finger step); each pointer makes its own `UITouch`.
    public func sendPointerEvent(_ phase: UITouch.Phase, at location: CGPoint, timestamp: TimeInterval,
                                 pointer: Int = 0, in window: UIWindow? = nil) {
        guard location.x.isFinite, location.y.isFinite, timestamp.isFinite,
              let target = window ?? keyWindow ?? windows.last else { return }
        target.handlePointer(phase, at: location, timestamp: timestamp, pointer: pointer)
    }

    /// Hands an event to the windows whose touches it holds (Apple's dispatch point; override to
    /// observe events).
    open func sendEvent(_ event: UIEvent) {
        var seen: [UIWindow] = []
        for touch in event.touchSet {
            guard let w = touch.window, !seen.contains(where: { $0 === w }) else { continue }
            seen.append(w)
            w.sendEvent(event)
        }
    }

    // MARK: Run loop

    /// One turn of the run loop at media time `time`, which the caller has made current (a window
    /// host: the system clock's reading; headless: `CAMediaClock.setManualTime(time)` first):
    ///
    /// 1. gesture recognizers see the time pass (a double tap's wait times out) and finished
    ///    ones are reset;
    /// 2. blocks due at this turn run (completions of animation blocks that animated nothing),
    ///    then running property animators that have reached their end finish;
    /// 3. `CADisplayLink.pump()` delivers the display-link frames due by now;
    /// 4. every window lays out (`layoutIfNeeded()`), then `CATransaction.flush()` commits the
    ///    changes (new animations begin now) and delivers the animation events due by now —
    ///    which runs the completion blocks of finished animation blocks;
    /// 5. step 4 again, so what those completions changed is committed in this turn too.
    ///
    /// After it, render the windows' layers (`CARenderer`) at `time`.
    public func advance(to time: CFTimeInterval) {
        let (due, windows) = withState { s -> ([() -> Void], [UIWindow]) in
            s.lastAdvance = time
            let blocks = s.nextTurn
            s.nextTurn = []
            return (blocks, s.windows.compactMap(\.window))
        }
        for window in windows { window.gestureEnvironment.timeDidPass(to: time) }
        for block in due { block() }
        UIViewPropertyAnimator.advanceRunning()
        CADisplayLink.pump()
        for _ in 0..<2 {
            for window in windows { window.layoutIfNeeded() }
            CATransaction.flush()
        }
    }

    /// Citrine: whether the next run-loop turn has work besides the layer tree's animations (which
    /// a host sees in the tree itself): blocks queued for it, a running display link, or a
    /// gesture recognizer or touch still in progress (a double tap's wait times out by the
    /// clock). A host renders frames only while this or an animation says so: an idle window
    /// then costs nothing.
    package var _needsNextTurn: Bool {
        let (queued, windows) = withState { s in (!s.nextTurn.isEmpty, s.windows.compactMap(\.window)) }
        return queued || !PerThread.current.runningAnimators.isEmpty || CADisplayLink._hasRunningLinks || windows.contains { $0.gestureEnvironment.isEngaged }
    }

    /// The application's next responder: none (there is no application delegate).
    open override var next: UIResponder? { nil }
}
