/// What an object shows outside its active duration (Apple's `CAMediaTimingFillMode`;
/// raw values are Apple's strings).
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Shows the animated value after the active duration ends.
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    /// Shows the first animated value before the animation begins.
    public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
    /// Both `forwards` and `backwards`.
    public static let both = CAMediaTimingFillMode(rawValue: "both")
    /// Neither (the default): the animation has no effect outside its active duration.
    public static let removed = CAMediaTimingFillMode(rawValue: "removed")
}

/// Apple's hierarchical timing model, adopted by layers and animations.
/// Local time = (parent time − beginTime) × speed + timeOffset.
public protocol CAMediaTiming: AnyObject {
    /// Start in the parent's time space, seconds. Default 0.
    var beginTime: CFTimeInterval { get set }
    /// One repeat's length, seconds. Default 0 for animations (added with 0: the transaction's
    /// duration, 0.25 s); +∞ for layers (`CALayer.duration`, Apple's value).
    var duration: CFTimeInterval { get set }
    /// Rate of local time relative to the parent. Default 1.
    var speed: Float { get set }
    /// Added to local time, seconds. Default 0.
    var timeOffset: CFTimeInterval { get set }
    /// Number of repeats, fractional allowed; `.infinity` repeats forever. Default 0 (= once).
    var repeatCount: Float { get set }
    /// Total time to repeat, seconds. Default 0.
    var repeatDuration: CFTimeInterval { get set }
    /// Play backwards after each forward play. Default false.
    var autoreverses: Bool { get set }
    /// Default `.removed`.
    var fillMode: CAMediaTimingFillMode { get set }
}
