import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The media clock behind `CACurrentMediaTime()` (Citrine extension, see README "Deterministic
/// time"). By default it follows the monotonic system clock; tests and exporters set it by hand,
/// so the same scene at the same time always gives the same presentation.
public enum CAMediaClock {
    /// The manual time's bit pattern, or `systemTime` (a NaN payload no arithmetic produces) when
    /// the system clock rules. One lock-free load per `CACurrentMediaTime()`: presentation
    /// evaluation reads the clock once per layer.
    private static let manualBits = Atomic<UInt64>(systemTime)
    private static let systemTime = UInt64.max

    /// From now on `CACurrentMediaTime()` returns `time` until the next call. A calling thread
    /// with its own time (`_setManualTimeForCurrentThread`, as a scene's driver gives it) follows
    /// the shared clock again.
    public static func setManualTime(_ time: CFTimeInterval) {
        _useSharedTime()
        let bits = time.bitPattern == systemTime ? CFTimeInterval.nan.bitPattern : time.bitPattern
        manualBits.store(bits, ordering: .sequentiallyConsistent)
    }

    /// Back to the monotonic system clock (for a calling thread with its own time too).
    public static func useSystemTime() {
        _useSharedTime()
        manualBits.store(systemTime, ordering: .sequentiallyConsistent)
    }

    /// Citrine extension for exporters that render one layer tree per thread: from now on
    /// `CACurrentMediaTime()` returns `time` on the calling thread only, whatever the shared
    /// clock says, until `_useSharedTime()` on this thread.
    public static func _setManualTimeForCurrentThread(_ time: CFTimeInterval) {
        if let slot = pthread_getspecific(threadTimeKey) {
            slot.storeBytes(of: time, as: CFTimeInterval.self)
            return
        }
        let slot = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
        slot.storeBytes(of: time, as: CFTimeInterval.self)
        pthread_setspecific(threadTimeKey, slot)
        threadOverrides.add(1, ordering: .sequentiallyConsistent)
    }

    /// The calling thread follows the shared clock again.
    public static func _useSharedTime() {
        guard let slot = pthread_getspecific(threadTimeKey) else { return }
        pthread_setspecific(threadTimeKey, nil)
        slot.deallocate()
        threadOverrides.subtract(1, ordering: .sequentiallyConsistent)
    }

    /// Runs `body`, then puts the calling thread's clock back as it was: its own time, or the
    /// shared clock. For code that drives a scene on a caller's thread and must leave the
    /// caller's clock alone (an exporter given a tree).
    package static func restoringCurrentThreadTime<R>(_ body: () throws -> R) rethrows -> R {
        let own = currentThreadManualTime
        defer {
            if let own { _setManualTimeForCurrentThread(own) } else { _useSharedTime() }
        }
        return try body()
    }

    /// The calling thread's own time, nil when it follows the shared clock.
    static var currentThreadManualTime: CFTimeInterval? {
        guard threadOverrides.load(ordering: .relaxed) > 0, let slot = pthread_getspecific(threadTimeKey) else { return nil }
        return slot.load(as: CFTimeInterval.self)
    }

    /// Threads with their own time (a thread that ends without `_useSharedTime()` leaves its
    /// count here; that only costs the other threads one thread-local lookup per reading).
    private static let threadOverrides = Atomic<Int>(0)
    private static let threadTimeKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { $0?.deallocate() }
        return key
    }()

    static var now: CFTimeInterval {
        if let own = currentThreadManualTime { return own }
        let bits = manualBits.load(ordering: .sequentiallyConsistent)
        if bits != systemTime { return CFTimeInterval(bitPattern: bits) }
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return CFTimeInterval(ts.tv_sec) + CFTimeInterval(ts.tv_nsec) * 1e-9
    }
}

/// The current absolute time, in seconds, of the media clock (Apple: mach_absolute_time converted
/// to seconds; here `CAMediaClock`).
public func CACurrentMediaTime() -> CFTimeInterval { CAMediaClock.now }
