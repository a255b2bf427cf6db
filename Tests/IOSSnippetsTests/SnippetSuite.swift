import QuartzCore
import Testing

/// The snippets' runtime tests share process-wide state (the media clock, transactions), so
/// they run one at a time: every suite of this target is nested in this one.
@Suite(.serialized) enum SnippetSuite {
    /// Runs `body` at manual media time `t` (and leaves the clock there).
    static func at<T>(_ t: CFTimeInterval, _ body: () throws -> T) rethrows -> T {
        CAMediaClock.setManualTime(t)
        return try body()
    }
}
