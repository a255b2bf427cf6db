// The timing of UIKit's animator objects (Apple's `UITimingCurveProvider`, iOS 10): a provider
// names a curve type and hands out cubic parameters, spring parameters or both. Citrine's two
// concrete providers are `UICubicTimingParameters` and `UISpringTimingParameters`; a custom
// provider works when it returns one of them. Apple does not document how `.composed` combines
// the two: Citrine takes the spring when a provider returns one, the cubic curve otherwise, and
// UIKit's default curve (`UICubicTimingParameters()`) when it returns neither.

/// The kind of timing a `UITimingCurveProvider` describes (Apple's raw values).
public enum UITimingCurveType: Int, Sendable {
    /// One of UIKit's built-in curves (`UIView.AnimationCurve`), from `cubicTimingParameters`.
    case builtin = 0
    /// A custom cubic Bézier curve, from `cubicTimingParameters`.
    case cubic = 1
    /// A spring, from `springTimingParameters`.
    case spring = 2
    /// Cubic and spring parameters together.
    case composed = 3
}

/// A source of timing information for an animator (Apple's `UITimingCurveProvider`). Apple's
/// protocol inherits `NSCoding` and `NSCopying`; the providers here are immutable, so sharing one
/// is as good as a copy.
public protocol UITimingCurveProvider: AnyObject {
    /// Which of the parameter objects below describes the timing.
    var timingCurveType: UITimingCurveType { get }
    /// The cubic (or built-in) curve, for `.builtin`, `.cubic` and `.composed`.
    var cubicTimingParameters: UICubicTimingParameters? { get }
    /// The spring, for `.spring` and `.composed`.
    var springTimingParameters: UISpringTimingParameters? { get }
}
