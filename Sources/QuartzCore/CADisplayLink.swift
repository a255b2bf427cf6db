import Foundation
import Synchronization

/// A range of frame rates (Apple's `CAFrameRateRange`).
public struct CAFrameRateRange: Hashable, Sendable {
    public var minimum: Float
    public var maximum: Float
    public var preferred: Float?
    public init(minimum: Float, maximum: Float, preferred: Float? = nil) {
        self.minimum = minimum; self.maximum = maximum; self.preferred = preferred
    }
    /// All zero, no preferred rate: the same as `.default` (Apple's imported C initializer).
    public init() { self.init(minimum: 0, maximum: 0, preferred: nil) }
    /// Let the system choose (0, 0, nil).
    public static let `default` = CAFrameRateRange(minimum: 0, maximum: 0, preferred: nil)
    /// Whether `range` has the same minimum, maximum and preferred rate (Apple's
    /// `isEqual(to:)`, the method form of `CAFrameRateRangeIsEqualToRange`).
    public func isEqual(to range: CAFrameRateRange) -> Bool { self == range }
}

/// Apple's C constructor: a range from `minimum` to `maximum` frames per second, preferring
/// `preferred`.
public func CAFrameRateRangeMake(_ minimum: Float, _ maximum: Float, _ preferred: Float) -> CAFrameRateRange {
    CAFrameRateRange(minimum: minimum, maximum: maximum, preferred: preferred)
}

/// Whether two ranges have the same minimum, maximum and preferred rate (Apple's C function).
public func CAFrameRateRangeIsEqualToRange(_ range: CAFrameRateRange, _ other: CAFrameRateRange) -> Bool {
    range == other
}

/// The range that lets the system choose (Apple's C constant; the same as `.default`).
public let CAFrameRateRangeDefault = CAFrameRateRange.default

/// A timer synchronised with the display (Apple's `CADisplayLink`), driven by the media clock.
///
/// * `add(to:forMode:)` delivers frames on that run loop, as on iOS: for `RunLoop.main` while the
///   main thread services its run loop or main queue (`RunLoop.main.run(until:)`,
///   `dispatchMain()`, an `async` main), for any other run loop while its thread runs it.
///   Each turn delivers every frame boundary of the link's rate between its last frame and
///   `CACurrentMediaTime()` (so with a manual media clock nothing moves until the clock does).
/// * `CADisplayLink.pump()` (Citrine extension) delivers the frames due by now to the calling
///   thread's links, on its terms — for deterministic time (tests, exporters, scripted runs).
/// * The handler gets `timestamp` = that frame's time and `targetTimestamp` = the next one;
///   `duration` is the display's frame time (1/60 s).
///
/// Deviations: the target/selector initializer is replaced by `init(handler:)` (no Objective-C
/// runtime). A link belongs to the thread that added it — the main thread and the main queue
/// being one, as for `CATransaction` — and fires only there: on its run loop's turns when it was
/// added to that thread's run loop (on iOS, the main thread adds links to the main run loop),
/// and on that thread's `pump()`. Citrine confines a layer tree to its thread, and a handler
/// changes its tree: a link added to the main run loop from another thread (a test's, or an
/// exporter's worker building its own scene) fires on that thread's `pump()` at that thread's
/// media time, never on the main thread's turns nor on another thread's `pump()`. The list of
/// active links is locked; a link's own properties are for the thread it belongs to.
public final class CADisplayLink: @unchecked Sendable {
    /// The rate of the simulated display, frames per second.
    public static let displayRate: Double = 60

    private let handler: (CADisplayLink) -> Void
    public var isPaused = false
    public private(set) var timestamp: CFTimeInterval = 0
    public private(set) var targetTimestamp: CFTimeInterval = 0
    /// Seconds between display frames (1/60).
    public var duration: CFTimeInterval { 1 / Self.displayRate }
    /// 0 means the display's rate.
    public var preferredFramesPerSecond: Int = 0
    public var preferredFrameRateRange: CAFrameRateRange = .default
    private var lastFrame: CFTimeInterval?
    /// Cleared by `invalidate()` (from any thread).
    private let valid = Atomic<Bool>(true)
    private var isValid: Bool { valid.load(ordering: .relaxed) }
    /// The `ThreadKey` of the thread that added the link (0 before `add(to:forMode:)`): the only
    /// one whose `pump()` and run-loop turns deliver it.
    private let owner = Atomic<UInt>(0)
    /// What turns the run loop the link was added to into frames (one per link).
    private var runLoopSource: RunLoopTicker?

    nonisolated(unsafe) private static var active: [CADisplayLink] = []
    private static let lock = NSLock()

    public init(handler: @escaping (CADisplayLink) -> Void) { self.handler = handler }

    /// Starts delivering frames to the calling thread: on `runloop`'s turns (in `mode`) when it is
    /// that thread's run loop, and on its `pump()`.
    public func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {
        Self.lock.lock(); defer { Self.lock.unlock() }
        guard isValid else { return }
        let key = ThreadKey.current
        owner.store(key, ordering: .relaxed)
        if !Self.active.contains(where: { $0 === self }) { Self.active.append(self) }
        lastFrame = nil
        let ownRunLoop = runloop === RunLoop.main ? key == ThreadKey.main : runloop === RunLoop.current
        if runLoopSource == nil && ownRunLoop {
            runLoopSource = RunLoopTicker(runLoop: runloop, mode: mode, interval: 1 / Self.displayRate) { [weak self] in
                self?.runLoopTurn()
            }
        }
    }

    public func remove(from runloop: RunLoop, forMode mode: RunLoop.Mode) { invalidate() }

    /// Stops the link for good.
    public func invalidate() {
        Self.lock.lock(); defer { Self.lock.unlock() }
        valid.store(false, ordering: .relaxed)
        runLoopSource?.stop()
        runLoopSource = nil
        Self.active.removeAll { $0 === self }
    }

    /// One turn of the run loop the link was added to: the frames due by now (when it still
    /// belongs to the thread of that run loop: `add` again from another thread moves it).
    private func runLoopTurn() {
        guard isValid, belongs(to: ThreadKey.current) else { return }
        deliver(until: CACurrentMediaTime())
    }

    /// Whether the thread of `key` (a `ThreadKey`) added the link.
    private func belongs(to key: UInt) -> Bool { owner.load(ordering: .relaxed) == key }

    /// Frames per second the link fires at. Apple's documentation of `preferredFrameRateRange`
    /// and `preferredFramesPerSecond`: "The system typically provides a consistent frame rate by
    /// choosing one that's a factor of the display's maximum refresh rate". The rate asked for is
    /// the range's `preferred`, else its `maximum`, else `preferredFramesPerSecond`, else the
    /// display's; the link fires at the factor 60/n nearest to it (n rounded) and not above the
    /// range's maximum when one is set — at least once a second.
    private var rate: Double {
        let range = preferredFrameRateRange
        let asked = range.preferred.map(Double.init)
            ?? (range.maximum > 0 ? Double(range.maximum) : Double(preferredFramesPerSecond))
        guard asked > 0, asked.isFinite else { return Self.displayRate }
        var divisor = min(max(1, (Self.displayRate / asked).rounded()), Self.displayRate)
        if range.maximum > 0 {
            while Self.displayRate / divisor > Double(range.maximum) + 1e-9 && divisor < Self.displayRate { divisor += 1 }
        }
        return Self.displayRate / divisor
    }

    /// Whether a link the calling thread added is valid and not paused (Citrine extension: a
    /// host asks it to know whether frames are needed besides the layer tree's animations).
    package static var _hasRunningLinks: Bool {
        lock.lock(); defer { lock.unlock() }
        let key = ThreadKey.current
        return active.contains { $0.belongs(to: key) && $0.isValid && !$0.isPaused }
    }

    /// Delivers the frames due by now, by the calling thread's clock, to the links the calling
    /// thread added (Citrine extension; see the deviations above).
    public static func pump() {
        lock.lock()
        let links = active
        lock.unlock()
        let now = CACurrentMediaTime(), key = ThreadKey.current
        for link in links where link.isValid && link.belongs(to: key) { link.deliver(until: now) }
    }

    private func deliver(until now: CFTimeInterval) {
        let interval = 1 / rate
        guard let last = lastFrame else {
            lastFrame = (now / interval).rounded(.down) * interval
            return
        }
        guard now.isFinite else { return }
        let due = ((now + 1e-9 - last) / interval).rounded(.down)
        guard due >= 1 else { return }
        // Like a display that missed vsyncs, a long jump drops the older frames: at most
        // `maxCatchUpFrames` callbacks, ending at the latest frame boundary.
        let first = Swift.max(1, due - Double(Self.maxCatchUpFrames) + 1)
        for k in stride(from: first, through: due, by: 1) {
            let frame = last + k * interval
            lastFrame = frame
            if !isPaused && isValid {
                timestamp = frame
                targetTimestamp = frame + interval
                handler(self)
            }
        }
    }

    /// The most frames one `pump()` delivers to a link (one second at the display rate).
    public static let maxCatchUpFrames = 60
}
