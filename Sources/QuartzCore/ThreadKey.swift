#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation

/// The identity of the calling thread, for the per-thread state of `CATransaction` and
/// `AnimatedLayerRegistry` (Apple keeps transactions per thread: "implicit transactions are
/// created automatically when the layer tree is modified by a thread without an active
/// transaction", and each thread commits its own). `pthread_self()` costs no allocation,
/// unlike `Thread.current` on threads Foundation did not start.
///
/// The main thread and the main dispatch queue are one context, `main`, as on iOS: after
/// `dispatchMain()` (and in an `async` main) Linux runs the main queue's blocks — `@MainActor`
/// code, the main run loop's timers — on pool threads, which must still find the main
/// thread's transactions and animated layers.
enum ThreadKey {
    static var current: UInt {
        if let adopted = pthread_getspecific(adoptedSlot) { return UInt(bitPattern: Int(bitPattern: adopted)) }
        if isMainThread || isOnMainQueue { return main }
        return UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self()))))
    }

    /// `Thread.isMainThread` (≈ 2 µs on Linux) asked once per thread, then read from a
    /// thread-specific slot (1: main, 2: not).
    private static var isMainThread: Bool {
        if let known = pthread_getspecific(isMainThreadSlot) { return Int(bitPattern: known) == 1 }
        let isMain = Thread.isMainThread
        pthread_setspecific(isMainThreadSlot, UnsafeRawPointer(bitPattern: isMain ? 1 : 2))
        return isMain
    }

    private static let isMainThreadSlot: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The key of the thread the calling thread works for (`_ThreadContext.adopt`), if any.
    private static let adoptedSlot: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body` with `key` as the calling thread's key.
    static func acting<R>(as key: UInt, _ body: () -> R) -> R {
        let before = pthread_getspecific(adoptedSlot)
        pthread_setspecific(adoptedSlot, UnsafeRawPointer(bitPattern: key))
        defer { pthread_setspecific(adoptedSlot, before) }
        return body()
    }

    /// The main context's key (no thread's `pthread_self()` is 1: it is an address).
    static let main: UInt = 1

    /// Whether the caller runs a block of the main dispatch queue (≈ 70 ns).
    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueMarker) != nil }

    /// Set on the main queue once, before the first check.
    private static let mainQueueMarker: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
}

/// Citrine extension: the calling thread's Core Animation context — the key its transactions
/// and animated layers are kept under (`ThreadKey`) and its own media time, if it has one
/// (`CAMediaClock._setManualTimeForCurrentThread`) — taken to a thread that works for it while
/// it waits (the renderer draws a deep subtree on a thread with a larger stack). Whatever the
/// work reads or changes then behaves as on the waiting thread: `CACurrentMediaTime()`, an
/// implicit transaction a drawing delegate opens.
package struct _ThreadContext: @unchecked Sendable {
    let key: UInt
    let manualTime: CFTimeInterval?

    /// The calling thread's context.
    package static var current: _ThreadContext {
        _ThreadContext(key: ThreadKey.current, manualTime: CAMediaClock.currentThreadManualTime)
    }

    /// Runs `body` on the calling thread as the thread this context was taken on.
    package func adopt<R>(_ body: () -> R) -> R {
        ThreadKey.acting(as: key) {
            guard let manualTime else { return body() }
            CAMediaClock._setManualTimeForCurrentThread(manualTime)
            defer { CAMediaClock._useSharedTime() }
            return body()
        }
    }
}
