/// A cubic Bézier timing curve for animators (Apple's `UICubicTimingParameters`): a curve from
/// (0, 0) to (1, 1) shaped by two control points, mapping the fraction of elapsed time x to the
/// fraction of progress y — the same curve as `CAMediaTimingFunction(controlPoints:)`, which is
/// what the animator hands to Core Animation.
public final class UICubicTimingParameters: UITimingCurveProvider {
    /// The UIKit curve given to `init(animationCurve:)`. After `init(controlPoint1:controlPoint2:)`
    /// Apple calls the value undefined; Citrine answers `.easeInOut` then (and after `init()`).
    public let animationCurve: UIView.AnimationCurve
    /// The first control point; `.zero` after `init(animationCurve:)` (Apple documents
    /// `CGPointZero` for that case).
    public let controlPoint1: CGPoint
    /// The second control point; `.zero` after `init(animationCurve:)`.
    public let controlPoint2: CGPoint
    /// The curve Core Animation evaluates.
    let timingFunction: CAMediaTimingFunction
    private let isBuiltin: Bool

    /// The system's default timing curve: Apple, "a timing curve based on the default Core
    /// Animation timing function" — `CAMediaTimingFunctionName.default`, control points
    /// (0.25, 0.1) and (0.25, 1).
    public init() {
        animationCurve = .easeInOut
        controlPoint1 = CGPoint(x: 0.25, y: 0.1)
        controlPoint2 = CGPoint(x: 0.25, y: 1)
        timingFunction = CAMediaTimingFunction(name: .default)
        isBuiltin = false
    }

    /// One of UIKit's curves: ease-in-ease-out (0.42, 0)–(0.58, 1), ease-in (0.42, 0)–(1, 1),
    /// ease-out (0, 0)–(0.58, 1) or linear, the curves of `CAMediaTimingFunction`'s named
    /// functions (Apple's documented control points).
    public init(animationCurve curve: UIView.AnimationCurve) {
        animationCurve = curve
        controlPoint1 = .zero
        controlPoint2 = .zero
        timingFunction = curve.timingFunction
        isBuiltin = true
    }

    /// A custom curve through (0, 0), `point1`, `point2`, (1, 1). Apple requires coordinates in
    /// 0…1; Citrine clamps x to 0…1 (which keeps the curve a function of time) and keeps y as
    /// given (overshooting curves, as Core Animation allows); a non-finite coordinate counts as 0.
    public init(controlPoint1 point1: CGPoint, controlPoint2 point2: CGPoint) {
        func clean(_ v: CGFloat) -> CGFloat { v.isFinite ? v : 0 }
        let p1 = CGPoint(x: min(max(clean(point1.x), 0), 1), y: clean(point1.y))
        let p2 = CGPoint(x: min(max(clean(point2.x), 0), 1), y: clean(point2.y))
        animationCurve = .easeInOut
        controlPoint1 = p1
        controlPoint2 = p2
        timingFunction = CAMediaTimingFunction(controlPoints: Float(p1.x), Float(p1.y), Float(p2.x), Float(p2.y))
        isBuiltin = false
    }

    public var timingCurveType: UITimingCurveType { isBuiltin ? .builtin : .cubic }
    public var cubicTimingParameters: UICubicTimingParameters? { self }
    public var springTimingParameters: UISpringTimingParameters? { nil }
}

extension UIView.AnimationCurve {
    /// The curve as a Core Animation timing function (Apple's named functions' control points).
    var timingFunction: CAMediaTimingFunction {
        switch self {
        case .easeInOut: CAMediaTimingFunction(name: .easeInEaseOut)
        case .easeIn: CAMediaTimingFunction(name: .easeIn)
        case .easeOut: CAMediaTimingFunction(name: .easeOut)
        case .linear: CAMediaTimingFunction(name: .linear)
        }
    }
}
