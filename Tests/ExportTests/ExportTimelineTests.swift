import Export
import ImageCodecs
import Testing

/// Sampling of export timelines: half-open ranges, N = round((end − start)·fps) frames at
/// start + i/fps, exact fractions for NTSC rates.
struct ExportTimelineTests {
    @Test func halfOpenRangeHasRoundedDurationTimesRateFrames() throws {
        let t = try ExportTimeline(start: 0, end: 2, fps: 30)
        #expect(t.frameCount == 60)
        #expect(t.time(ofFrame: 0) == 0)
        #expect(t.time(ofFrame: 59) == 59.0 / 30)
        #expect(t.end == 2)
        let withEnd = try ExportTimeline(start: 0, end: 2, fps: 30, includeEnd: true)
        #expect(withEnd.frameCount == 61)
        #expect(withEnd.time(ofFrame: 60) == 2)
    }

    @Test func startOffsetsEveryFrame() throws {
        let t = try ExportTimeline(start: 1.5, duration: 1, fps: 4)
        #expect(t.frameCount == 4)
        #expect((0..<4).map(t.time(ofFrame:)) == [1.5, 1.75, 2.0, 2.25])
    }

    /// A slice keeps its frames' times: 1.5 s + i/4 for i = 1, 2 (closed form), the same doubles
    /// as the whole timeline's, and its end is the whole's frame 3. Empty or outside ranges are nil.
    @Test func aSliceKeepsItsFramesTimes() throws {
        let whole = try ExportTimeline(start: 1.5, duration: 1, fps: 4)
        let slice = try #require(whole.frames(1..<3))
        #expect(slice.frameCount == 2 && slice.firstFrame == 1)
        #expect((0..<2).map(slice.time(ofFrame:)) == [1.75, 2.0])
        #expect(slice.end == 2.25)
        let third = try ExportTimeline(start: 0.1, duration: 10, fps: 30)
        let late = try #require(third.frames(100..<300)?.frames(50..<60))
        #expect(late.firstFrame == 150)
        #expect((0..<10).map(late.time(ofFrame:)) == (150..<160).map(third.time(ofFrame:)))
        for range in [2..<2, -1..<2, 3..<5] { #expect(whole.frames(range) == nil, "\(range)") }
    }

    /// round(0.55 × 10) = round(5.5) = 6: a partial last frame counts when it is at least half.
    @Test func partialFramesRoundToNearest() throws {
        #expect(try ExportTimeline(end: 0.55, fps: 10).frameCount == 6)
        #expect(try ExportTimeline(end: 0.54, fps: 10).frameCount == 5)
    }

    /// 29.97 fps is 30000/1001 (SMPTE); 1001 frames last exactly 1000/30 × 1.001 s.
    @Test func ntscRatesAreExactFractions() throws {
        let t = try ExportTimeline(frames: 1001, fps: 29.97)
        #expect(t.rate.frames == 30000 && t.rate.seconds == 1001)
        #expect(abs(t.end - 1001 * 1001 / 30000.0) < 1e-12)
        #expect(try ExportTimeline(frames: 1, fps: 12.5).rate == FrameRate(frames: 25, seconds: 2))
    }

    /// GIF centiseconds at 30 fps: frame i lasts round(100(i+1)/30) − round(100i/30), which sums
    /// to exactly 100 cs per 30 frames (3, 4, 3, 3, 4, 3, …).
    @Test func accumulatedUnitsKeepTheAverageRateExact() throws {
        let rate = try #require(FrameRate(30))
        let delays = (0..<30).map { rate.units(upTo: $0 + 1, unitsPerSecond: 100) - rate.units(upTo: $0, unitsPerSecond: 100) }
        #expect(delays.reduce(0, +) == 100)
        #expect(Set(delays) == [3, 4])
    }

    @Test(arguments: [Double.nan, .infinity, 0, -30, 1e6])
    func badRatesAreRefused(_ fps: Double) {
        #expect(throws: ExportError.self) { try ExportTimeline(end: 1, fps: fps) }
    }

    @Test func badRangesAreRefused() {
        #expect(throws: ExportError.self) { try ExportTimeline(start: 2, end: 1, fps: 30) }
        #expect(throws: ExportError.self) { try ExportTimeline(start: .nan, end: 1, fps: 30) }
        #expect(throws: ExportError.self) { try ExportTimeline(end: 0.001, fps: 30) }
        #expect(throws: ExportError.self) { try ExportTimeline(duration: 1e9, fps: 30) }
        #expect(throws: ExportError.self) { try ExportTimeline(frames: 0, fps: 30) }
    }
}
