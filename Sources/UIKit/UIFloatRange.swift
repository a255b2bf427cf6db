import QuartzCore

/// A range of values from `minimum` to `maximum` (Apple's `UIFloatRange`).
public struct UIFloatRange: Hashable, Sendable {
    public var minimum: CGFloat
    public var maximum: CGFloat
    /// 0 … 0.
    public init() { minimum = 0; maximum = 0 }
    public init(minimum: CGFloat, maximum: CGFloat) { self.minimum = minimum; self.maximum = maximum }
    /// 0 … 0.
    public static let zero = UIFloatRange()
    /// −∞ … +∞.
    public static let infinite = UIFloatRange(minimum: -.infinity, maximum: .infinity)
    /// Whether both ends are infinite (Apple's `isInfinite`).
    public var isInfinite: Bool { minimum == -.infinity && maximum == .infinity }
}
