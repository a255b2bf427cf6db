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

        /// Apple: the system chooses a frame rate "that's a factor of the display's maximum
        /// refresh rate" (60 Hz here: 60, 30, 20, 15, …). One second of media time, pumped every
        /// 1/120 s: the frames delivered and their spacing.
        @Test func framesComeAtAFactorOfTheDisplayRate() {
            func frames(_ configure: (CADisplayLink) -> Void) -> (count: Int, spacing: CFTimeInterval, target: CFTimeInterval) {
                let ticks = Ticks()
                var lastTarget: CFTimeInterval = 0
                CAMediaClock.setManualTime(100)
                let link = CADisplayLink { ticks.stamps.append($0.timestamp); lastTarget = $0.targetTimestamp - $0.timestamp }
                configure(link)
                link.add(to: .main, forMode: .common)
                for step in 0...120 {
                    CAMediaClock.setManualTime(100 + Double(step) / 120)
                    CADisplayLink.pump()
                }
                link.invalidate()
                let stamps = ticks.stamps.filter { $0 > 100 + 1e-6 }   // frames after the start, up to 101
                let spacing = zip(stamps, stamps.dropFirst()).map { $1 - $0 }.max() ?? 0
                return (stamps.count, spacing, lastTarget)
            }
            let thirty = frames { $0.preferredFramesPerSecond = 30 }
            #expect(thirty.count == 30 && abs(thirty.spacing - 1.0 / 30) < 1e-9 && abs(thirty.target - 1.0 / 30) < 1e-9)
            // No preferred rate: the range's maximum caps it (24 → 20, the next factor down).
            let capped = frames { $0.preferredFrameRateRange = CAFrameRateRange(minimum: 10, maximum: 24, preferred: nil) }
            #expect(capped.count == 20 && abs(capped.spacing - 1.0 / 20) < 1e-9)
            // 50 is not a factor: the nearest one, 60.
            let fifty = frames { $0.preferredFrameRateRange = CAFrameRateRange(minimum: 30, maximum: 60, preferred: 50) }
            #expect(fifty.count == 60 && abs(fifty.spacing - 1.0 / 60) < 1e-9)
            // The default: the display's rate.
            #expect(frames { _ in }.count == 60)
        }
    }
}
