/// Where an animator is in its life (Apple's `UIViewAnimatingState`, raw values Apple's):
///
///     inactive ──start / pause / fractionComplete──▶ active ──animations end──▶ inactive
///                                                     │
///                                stopAnimation(false) ▼        finishAnimation(at:)
///                                                  stopped ─────────────────────▶ inactive
///
/// `stopAnimation(true)` goes from active straight back to inactive.
public enum UIViewAnimatingState: Int, Sendable {
    /// Not started (the initial state), or finished.
    case inactive = 0
    /// Started or paused: animations are running or paused.
    case active = 1
    /// Stopped by `stopAnimation(false)`: properties keep their current values until
    /// `finishAnimation(at:)`; an animator cannot start again from here.
    case stopped = 2
}
