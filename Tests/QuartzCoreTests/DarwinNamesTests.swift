import Testing
import QuartzCore

/// Names iOS animation code takes from Darwin and QuartzCore: `repeatCount = HUGE` (Darwin's
/// <math.h>: `#define HUGE MAXFLOAT`, FLT_MAX) and Apple's `CAFrameRateRange.isEqual(to:)`.
extension MediaClockSuite {
    @Suite struct DarwinNamesTests {
        @Test func repeatCountHugeRepeatsForAnyPracticalTime() {
            CAMediaClock.setManualTime(100)
            let layer = CALayer()
            CATransaction.flush()
            let spin = CABasicAnimation(keyPath: "position.x")
            spin.fromValue = 0; spin.toValue = 100; spin.duration = 1
            spin.repeatCount = HUGE
            layer.add(spin, forKey: "spin")
            CATransaction.flush()
            // A million seconds later (a whole number of 1 s cycles + 0.25 s): a quarter of the way.
            CAMediaClock.setManualTime(100 + 1_000_000 + 0.25)
            #expect(abs(layer.presentation()!.position.x - 25) < 1e-6)
            #expect(layer.animation(forKey: "spin") != nil)
        }

        @Test func frameRateRangeIsEqualComparesAllThreeRates() {
            let a = CAFrameRateRange(minimum: 30, maximum: 60, preferred: 60)
            #expect(a.isEqual(to: CAFrameRateRange(minimum: 30, maximum: 60, preferred: 60)))
            #expect(!a.isEqual(to: CAFrameRateRange(minimum: 30, maximum: 60, preferred: nil)))
            #expect(!a.isEqual(to: CAFrameRateRange(minimum: 24, maximum: 60, preferred: 60)))
            #expect(!a.isEqual(to: CAFrameRateRange(minimum: 30, maximum: 120, preferred: 60)))
            // Apple: the default range is all zero with no preferred rate.
            #expect(CAFrameRateRange.default.isEqual(to: CAFrameRateRange(minimum: 0, maximum: 0, preferred: nil)))
            #expect(CAFrameRateRange.default.isEqual(to: CAFrameRateRange()))
        }
    }
}
