import Dispatch
import Foundation

/// Calls a block at a fixed interval on a run loop, for `CADisplayLink` and for the main
/// thread's Core Animation events (`MainRunLoopEvents`): on the main run loop a timer on the
/// main dispatch queue — which Linux services from `RunLoop.main.run(until:)`, `dispatchMain()`
/// and an `async` main alike (a Foundation `Timer` on `RunLoop.main` would not fire under
/// `dispatchMain()`) — and a Foundation `Timer` on any other run loop, in the given mode.
final class RunLoopTicker: @unchecked Sendable {
    private var mainTimer: DispatchSourceTimer?
    private var timer: Timer?

    init(runLoop: RunLoop, mode: RunLoop.Mode, interval: TimeInterval, _ tick: @escaping @Sendable () -> Void) {
        if runLoop === RunLoop.main {
            let source = DispatchSource.makeTimerSource(queue: .main)
            source.schedule(deadline: .now() + interval, repeating: interval, leeway: .microseconds(500))
            source.setEventHandler(handler: tick)
            source.resume()
            mainTimer = source
        } else {
            let t = Timer(timeInterval: interval, repeats: true) { _ in tick() }
            runLoop.add(t, forMode: mode)
            timer = t
        }
    }

    /// No more ticks (callable from any thread; a tick already under way finishes).
    func stop() {
        mainTimer?.cancel()
        mainTimer = nil
        timer?.invalidate()
        timer = nil
    }

    deinit { stop() }
}

/// The main thread's Core Animation events on the main run loop, as iOS delivers them: while
/// the main thread has animations whose start or stop is still to be reported, or transaction
/// completion blocks waiting, each turn of the main run loop (60 per second) commits its
/// implicit transaction and delivers what is due — `animationDidStart`/`animationDidStop` and
/// completion blocks — without anyone calling `flush()` or `presentation()`. Idle otherwise.
enum MainRunLoopEvents {
    nonisolated(unsafe) private static var ticker: RunLoopTicker?
    private static let lock = NSLock()

    /// Called on the main thread when it adds an animation or a completion block.
    static func arm() {
        lock.lock(); defer { lock.unlock() }
        guard ticker == nil else { return }
        ticker = RunLoopTicker(runLoop: .main, mode: .common, interval: 1 / CADisplayLink.displayRate) { turn() }
    }

    /// One turn (on the main thread): commit, deliver, and stop when nothing is left to report.
    private static func turn() {
        CATransaction.flush()
        guard !CATransaction.mainThreadHasPendingEvents else { return }
        lock.lock(); defer { lock.unlock() }
        ticker?.stop()
        ticker = nil
    }
}
