import Testing

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
