/// A range of frame rates (Apple's `CAFrameRateRange`).
public struct CAFrameRateRange: Hashable, Sendable {
    public var minimum: Float
    public var maximum: Float
    public var preferred: Float?
    public init(minimum: Float, maximum: Float, preferred: Float? = nil) {
        self.minimum = minimum; self.maximum = maximum; self.preferred = preferred
    }
    /// Let the system choose (0, 0, nil).
    public static let `default` = CAFrameRateRange(minimum: 0, maximum: 0, preferred: nil)
}

/// A timer synchronised with the display (Apple's `CADisplayLink`), driven here by the media
/// clock. Deviation (no Objective-C runtime): the target/selector initializer is replaced by
/// `init(handler:)`. Frames are delivered by `CADisplayLink.pump()` (Citrine extension), which a
/// run loop, the renderer or a test calls: every frame boundary of the link's rate between its
/// last tick and `CACurrentMediaTime()` calls the handler once, with `timestamp` = that frame's
/// time and `targetTimestamp` = the next one. The display rate is 60 Hz. The list of active links
/// is locked; a link's own properties are for the thread that pumps (Apple: the main thread).
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
    private var isValid = true

    nonisolated(unsafe) private static var active: [CADisplayLink] = []
    private static let lock = NSLock()

    public init(handler: @escaping (CADisplayLink) -> Void) { self.handler = handler }

    /// Starts delivering frames (the run loop and mode are accepted for source compatibility).
    public func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {
        Self.lock.lock(); defer { Self.lock.unlock() }
        if !Self.active.contains(where: { $0 === self }) { Self.active.append(self) }
        lastFrame = nil
    }

    public func remove(from runloop: RunLoop, forMode mode: RunLoop.Mode) { invalidate() }

    /// Stops the link for good.
    public func invalidate() {
        Self.lock.lock(); defer { Self.lock.unlock() }
        isValid = false
        Self.active.removeAll { $0 === self }
    }

    /// Frames per second the link fires at: the preferred rate, capped by the display.
    private var rate: Double {
        let preferred = preferredFrameRateRange.preferred.map(Double.init) ?? Double(preferredFramesPerSecond)
        return preferred > 0 ? min(preferred, Self.displayRate) : Self.displayRate
    }

    /// Whether any link added to a run loop is valid and not paused (Citrine extension: a host
    /// asks it to know whether frames are needed besides the layer tree's animations).
    public static var _hasRunningLinks: Bool {
        lock.lock(); defer { lock.unlock() }
        return active.contains { $0.isValid && !$0.isPaused }
    }

    /// Delivers the frames due by now to every active link (Citrine extension).
    public static func pump() {
        lock.lock()
        let links = active
        lock.unlock()
        let now = CACurrentMediaTime()
        for link in links where link.isValid { link.deliver(until: now) }
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
