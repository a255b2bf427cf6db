import Synchronization

/// The media clock behind `CACurrentMediaTime()` (Citrine extension, see README "Deterministic
/// time"). By default it follows the monotonic system clock; tests and exporters set it by hand,
/// so the same scene at the same time always gives the same presentation.
public enum CAMediaClock {
    /// The manual time's bit pattern, or `systemTime` (a NaN payload no arithmetic produces) when
    /// the system clock rules. One lock-free load per `CACurrentMediaTime()`: presentation
    /// evaluation reads the clock once per layer.
    private static let manualBits = Atomic<UInt64>(systemTime)
    private static let systemTime = UInt64.max

    /// From now on `CACurrentMediaTime()` returns `time` until the next call.
    public static func setManualTime(_ time: CFTimeInterval) {
        let bits = time.bitPattern == systemTime ? CFTimeInterval.nan.bitPattern : time.bitPattern
        manualBits.store(bits, ordering: .sequentiallyConsistent)
    }

    /// Back to the monotonic system clock.
    public static func useSystemTime() {
        manualBits.store(systemTime, ordering: .sequentiallyConsistent)
    }

    static var now: CFTimeInterval {
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
