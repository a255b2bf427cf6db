import Testing
import QuartzCore

extension MediaClockSuite {
    @Suite struct DisplayLinkTests {
        final class Ticks: @unchecked Sendable { var stamps: [CFTimeInterval] = [] }

        /// A one-hour jump of the clock delivers at most `maxCatchUpFrames` callbacks, ending at
        /// the last 60 Hz boundary (missed vsyncs are dropped, as on a display); the next frame
        /// follows 1/60 s later.
        @Test func longJumpsDropOldFrames() {
            let ticks = Ticks()
            CAMediaClock.setManualTime(10)
            let link = CADisplayLink { ticks.stamps.append($0.timestamp) }
            link.add(to: .main, forMode: .common)
            CADisplayLink.pump()
            CAMediaClock.setManualTime(3610)
            CADisplayLink.pump()
            #expect(ticks.stamps.count == CADisplayLink.maxCatchUpFrames)
            #expect(abs(ticks.stamps.last! - 3610) < 1e-6)
            CAMediaClock.setManualTime(3610 + 1.0 / 60)
            CADisplayLink.pump()
            #expect(ticks.stamps.count == CADisplayLink.maxCatchUpFrames + 1)
            #expect(abs(ticks.stamps.last! - (3610 + 1.0 / 60)) < 1e-6)
            link.invalidate()
            CAMediaClock.setManualTime(3700)
            CADisplayLink.pump()
            #expect(ticks.stamps.count == CADisplayLink.maxCatchUpFrames + 1)
        }
    }
}
