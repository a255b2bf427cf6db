#if canImport(Glibc)
import Glibc
#endif
import QuartzCore

/// Host time → scene time, with pause and single-frame steps.
///
/// Host time is the system's monotonic clock (seconds), which paces frames; scene time is the
/// media time the scene sees. While running, scene = host − offset; paused, the scene time stays
/// where it was (and `step` moves it by whole display frames); resuming picks the offset that
/// continues from the paused scene time:
///
///     host   ──────────●══════════════●──────────▶
///                    pause          resume
///     scene  ─────────╱‾‾‾‾‾‾‾‾‾‾‾‾‾‾‾╱─────────▶   (flat while paused, then the same slope)
public struct HostClock: Sendable, Equatable {
    /// Scene time = host time − offset while running.
    private var offset: CFTimeInterval
    /// The frozen scene time, when paused.
    private var frozen: CFTimeInterval?
    /// Seconds per display frame, for `step`.
    public let frameInterval: CFTimeInterval

    /// A running clock at scene time `sceneTime` when the host clock reads `hostTime`.
    public init(sceneTime: CFTimeInterval, atHostTime hostTime: CFTimeInterval,
                frameInterval: CFTimeInterval = 1 / CADisplayLink.displayRate) {
        offset = hostTime - sceneTime
        self.frameInterval = frameInterval
    }

    public var isPaused: Bool { frozen != nil }

    /// The scene time at host time `hostTime`.
    public func sceneTime(atHostTime hostTime: CFTimeInterval) -> CFTimeInterval {
        frozen ?? hostTime - offset
    }

    /// The host time at which the scene reaches `sceneTime`; ∞ while paused (it never does).
    public func hostTime(forSceneTime sceneTime: CFTimeInterval) -> CFTimeInterval {
        frozen == nil ? sceneTime + offset : .infinity
    }

    /// Freezes or unfreezes the scene time at host time `hostTime`.
    public mutating func togglePause(atHostTime hostTime: CFTimeInterval) {
        if let t = frozen {
            offset = hostTime - t
            frozen = nil
        } else {
            frozen = hostTime - offset
        }
    }

    /// While paused, moves the scene time by `frames` display frames (negative: back). Returns
    /// false (and does nothing) while running.
    @discardableResult
    public mutating func step(frames: Int) -> Bool {
        guard let t = frozen else { return false }
        frozen = t + Double(frames) * frameInterval
        return true
    }

    /// The system's monotonic clock, in seconds (the host time).
    public static func monotonicNow() -> CFTimeInterval {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return CFTimeInterval(ts.tv_sec) + CFTimeInterval(ts.tv_nsec) * 1e-9
    }
}

/// The display's frame boundaries: host times `origin + k · interval` for whole k.
public struct FrameGrid: Sendable, Equatable {
    public let origin: CFTimeInterval
    public let interval: CFTimeInterval
    /// Host times this close to a tick count as on it (clock readings and sums are not exact).
    private static let tolerance = 1e-7

    public init(origin: CFTimeInterval, interval: CFTimeInterval = 1 / CADisplayLink.displayRate) {
        self.origin = origin
        self.interval = interval
    }

    public func tick(_ k: Double) -> CFTimeInterval { origin + k * interval }

    /// The latest tick at or before `t` (the frame a late wake-up draws: older ones are dropped).
    public func latestTick(atOrBefore t: CFTimeInterval) -> CFTimeInterval {
        tick(((t - origin) / interval + Self.tolerance).rounded(.down))
    }

    /// The first tick strictly after `t`.
    public func firstTick(after t: CFTimeInterval) -> CFTimeInterval {
        tick(((t - origin) / interval + Self.tolerance).rounded(.down) + 1)
    }

    /// The first tick at or after `t` (∞ for ∞).
    public func firstTick(atOrAfter t: CFTimeInterval) -> CFTimeInterval {
        guard t.isFinite else { return t }
        return tick(((t - origin) / interval - Self.tolerance).rounded(.up))
    }
}
