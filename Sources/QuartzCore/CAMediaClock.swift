import Synchronization

/// The media clock behind `CACurrentMediaTime()` (Citrine extension, see README "Deterministic
/// time"). By default it follows the monotonic system clock; tests and exporters set it by hand,
/// so the same scene at the same time always gives the same presentation.
public enum CAMediaClock {
    private static let manual = Mutex<CFTimeInterval?>(nil)

    /// From now on `CACurrentMediaTime()` returns `time` until the next call.
    public static func setManualTime(_ time: CFTimeInterval) {
        manual.withLock { $0 = time }
    }

    /// Back to the monotonic system clock.
    public static func useSystemTime() {
        manual.withLock { $0 = nil }
    }

    static var now: CFTimeInterval {
        if let t = manual.withLock({ $0 }) { return t }
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return CFTimeInterval(ts.tv_sec) + CFTimeInterval(ts.tv_nsec) * 1e-9
    }
}

/// The current absolute time, in seconds, of the media clock (Apple: mach_absolute_time converted
/// to seconds; here `CAMediaClock`).
public func CACurrentMediaTime() -> CFTimeInterval { CAMediaClock.now }
