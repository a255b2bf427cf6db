import ImageCodecs
import QuartzCore

/// Which media times an export samples: frames at `start + i/fps` for i = 0 … frameCount − 1.
///
/// Sampling is half-open, as video is: a range [start, end) at `fps` has
/// `round((end − start) × fps)` frames, and the last one is shown until `end`, so a 2-second
/// loop at 30 fps is 60 frames at 0, 1/30, …, 59/30 and plays seamlessly when repeated. With
/// `includeEnd` the frame at `end` itself is added (N + 1 frames), for animations that should
/// come to rest on their final state.
///
///     start                                          end
///       |------|------|------|------|------|------|   (includeEnd: one more frame at end)
///      f0     f1     f2     f3     f4     f5
public struct ExportTimeline: Sendable, Equatable {
    /// Media time of the first frame (seconds).
    public let start: CFTimeInterval
    /// Frames per second, as an exact fraction.
    public let rate: FrameRate
    /// Number of frames.
    public private(set) var frameCount: Int
    /// The number, in the whole timeline, of this one's frame 0: 0 unless this is a slice of a
    /// longer timeline (`frames(_:)`), whose frames keep the times and the file numbers
    /// (`frames/%04d.png`) they have in the whole.
    public private(set) var firstFrame = 0

    /// Most frames one export may have (a day at 30 fps would be 2.6 M): keeps a mistyped
    /// duration from running for days.
    public static let maxFrameCount = 1_000_000

    /// Frames over [start, end) at `fps`, plus the frame at `end` when `includeEnd`.
    public init(start: CFTimeInterval = 0, end: CFTimeInterval, fps: Double, includeEnd: Bool = false) throws(ExportError) {
        guard start.isFinite else { throw .badValue("start", "\(start)", "a finite number of seconds") }
        guard end.isFinite, end >= start else { throw .badValue("end", "\(end)", "a finite time not before the start (\(start) s)") }
        let rate = try Self.rate(fps)
        let count = ((end - start) * rate.perSecond).rounded() + (includeEnd ? 1 : 0)
        try self.init(start: start, frameCount: count, rate: rate)
    }

    /// Frames over [start, start + duration) at `fps`, plus the one at the end when `includeEnd`.
    public init(start: CFTimeInterval = 0, duration: CFTimeInterval, fps: Double, includeEnd: Bool = false) throws(ExportError) {
        guard duration.isFinite, duration >= 0 else { throw .badValue("duration", "\(duration)", "a finite, non-negative number of seconds") }
        guard start.isFinite else { throw .badValue("start", "\(start)", "a finite number of seconds") }
        try Self.checkResolution(at: start, rate: try Self.rate(fps))
        try self.init(start: start, end: start + duration, fps: fps, includeEnd: includeEnd)
    }

    /// `frames` frames from `start` at `fps`.
    public init(start: CFTimeInterval = 0, frames: Int, fps: Double) throws(ExportError) {
        guard start.isFinite else { throw .badValue("start", "\(start)", "a finite number of seconds") }
        try self.init(start: start, frameCount: Double(frames), rate: try Self.rate(fps))
    }

    /// One frame at media time `time` (an export to a still image).
    public static func still(at time: CFTimeInterval) throws(ExportError) -> ExportTimeline {
        try ExportTimeline(start: time, frames: 1, fps: 1)
    }

    private init(start: CFTimeInterval, frameCount: Double, rate: FrameRate) throws(ExportError) {
        if frameCount > 1 { try Self.checkResolution(at: start, rate: rate) }
        guard frameCount >= 1 else {
            throw .badValue("frame count", "\(Int(frameCount))", "at least 1 (the range is shorter than one frame at \(rate))")
        }
        guard frameCount <= Double(Self.maxFrameCount) else {
            throw .badValue("frame count", "\(frameCount)", "at most \(Self.maxFrameCount)")
        }
        self.start = start
        self.rate = rate
        self.frameCount = Int(frameCount)
    }

    /// Refuses a start so far from 0 that frames 1/fps apart are not distinct there in double
    /// precision (their spacing off by more than a thousandth of a frame: past about 10¹¹ s at
    /// 30 fps), naming the start rather than the length or the count it would spoil.
    private static func checkResolution(at start: CFTimeInterval, rate: FrameRate) throws(ExportError) {
        let step = 1 / rate.perSecond
        guard abs(((start + step) - start) - step) <= step / 1000 else {
            throw .badValue("start", "\(start)", "a time near enough to 0 that frames at \(rate) stay distinct "
                            + "in double precision (within about ±10¹¹ s at 30 fps)")
        }
    }

    private static func rate(_ fps: Double) throws(ExportError) -> FrameRate {
        guard let rate = FrameRate(fps) else {
            throw .badValue("fps", "\(fps)", "a frame rate from \(FrameRate.minimum) to \(FrameRate.maximum) frames per second")
        }
        return rate
    }

    /// Media time of frame `index`: start + (firstFrame + index) × seconds / frames, exact for
    /// integer rates.
    public func time(ofFrame index: Int) -> CFTimeInterval { start + rate.time(ofFrame: firstFrame + index) }

    /// Frames `range` of this timeline (numbers counted in it, from 0) as a timeline of their
    /// own: each frame has the time it has here, computed the same way, so a render split into
    /// slices (`citrine render --shard`) draws the same pixels as one run. Nil when `range` is
    /// empty or not within 0..<frameCount.
    public func frames(_ range: Range<Int>) -> ExportTimeline? {
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= frameCount else { return nil }
        var slice = self
        slice.frameCount = range.count
        slice.firstFrame = firstFrame + range.lowerBound
        return slice
    }

    /// Media time at which the last frame stops showing.
    public var end: CFTimeInterval { time(ofFrame: frameCount) }
}
