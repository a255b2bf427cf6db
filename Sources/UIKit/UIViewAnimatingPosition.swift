/// Where an animator's animations ended (Apple's `UIViewAnimatingPosition`, raw values Apple's):
/// what completion handlers receive and `finishAnimation(at:)` takes.
public enum UIViewAnimatingPosition: Int, Sendable {
    /// At the end values (the values the animation blocks set).
    case end = 0
    /// At the start values (the values before the animation blocks ran).
    case start = 1
    /// Wherever the animation was when it was stopped.
    case current = 2
}
