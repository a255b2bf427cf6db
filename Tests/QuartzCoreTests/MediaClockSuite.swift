import Testing
import QuartzCore

/// Every test that sets the media clock (`CAMediaClock.setManualTime`), commits transactions or
/// reads `presentation()` shares process-wide state, so those tests run one at a time: declare
/// their suites inside this one, e.g.
///
///     extension MediaClockSuite {
///         @Suite struct BasicAnimationTests { … }
///     }
///
/// Swift Testing serializes all suites nested in a `.serialized` suite, across files.
@Suite(.serialized) enum MediaClockSuite {}

extension MediaClockSuite {
    /// An animation delegate that records, in order, the `"name"` value of every animation that
    /// reports `animationDidStop` ("?" for an unnamed one).
    final class StopRecorder: CAAnimationDelegate {
        var names: [String] = []
        func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
            names.append(anim.value(forKey: "name") as? String ?? "?")
        }
    }
}
