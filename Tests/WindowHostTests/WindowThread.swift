import Foundation
import TestSupport
import WindowHost
#if canImport(Glibc)
import Glibc
#endif

/// A window run on a thread of its own (as an application's main thread would), with the scene
/// built on that thread; the test thread watches it.
final class WindowThread: @unchecked Sendable {
    private let lock = NSLock()
    private var _window: X11Window?
    private var _error: Error?
    private var _finished = false
    private var _thread: pthread_t?
    private var thread: Thread?

    /// Starts the thread: `make` builds the scene and window there; `after` runs there when
    /// `run()` returns (to read the scene).
    init(_ make: @escaping @Sendable () throws -> X11Window, after: @escaping @Sendable () -> Void = {}) {
        let t = Thread { [self] in
            do {
                let window = try make()
                lock.withLock { _window = window; _thread = pthread_self() }
                try window.run()
            } catch {
                lock.withLock { _error = error }
            }
            after()
            lock.withLock { _finished = true }
        }
        t.stackSize = 8 << 20
        thread = t
        t.start()
    }

    var window: X11Window? { lock.withLock { _window } }
    var error: Error? { lock.withLock { _error } }
    var finished: Bool { lock.withLock { _finished } }

    /// Waits (up to `timeout`) for the window to exist.
    func waitForWindow(timeout: Double = 10) throws -> X11Window {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let w = window { return w }
            if let e = error { throw e }
            usleep(2_000)
        }
        throw HarnessError.failed("the window did not open")
    }

    /// Waits (up to `timeout`) for `run()` to return; false on timeout.
    func waitUntilFinished(timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !finished && Date() < deadline { usleep(2_000) }
        return finished
    }

    /// CPU seconds the window's thread has used.
    func cpuTime() -> Double {
        guard let t = lock.withLock({ _thread }) else { return 0 }
        var clock = clockid_t()
        guard pthread_getcpuclockid(t, &clock) == 0 else { return 0 }
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
