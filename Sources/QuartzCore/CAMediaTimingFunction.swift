/// The names of Apple's predefined timing functions (raw values are Apple's strings).
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// (0, 0), (1, 1): constant speed.
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    /// (0.42, 0), (1, 1): slow start.
    public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
    /// (0, 0), (0.58, 1): slow end.
    public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
    /// (0.42, 0), (0.58, 1): slow start and end.
    public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
    /// (0.25, 0.1), (0.25, 1): the curve of implicit animations.
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")
}

/// A timing curve: a cubic Bézier from (0, 0) to (1, 1) with two control points (Apple's
/// `CAMediaTimingFunction`). It maps the fraction of elapsed time x to the fraction of progress y;
/// Citrine solves the curve for x exactly (Newton's method with a bisection fallback to 1e-12),
/// not with a lookup table. Control points per Apple's documentation of the named functions.
public final class CAMediaTimingFunction: Equatable, Hashable, @unchecked Sendable {
    /// The curve as a plain value (what per-frame evaluation keeps).
    let curve: TimingCurve

    public init(name: CAMediaTimingFunctionName) {
        switch name {
        case .easeIn: curve = TimingCurve(c1: (0.42, 0), c2: (1, 1))
        case .easeOut: curve = TimingCurve(c1: (0, 0), c2: (0.58, 1))
        case .easeInEaseOut: curve = TimingCurve(c1: (0.42, 0), c2: (0.58, 1))
        case .default: curve = TimingCurve(c1: (0.25, 0.1), c2: (0.25, 1))
        default: curve = TimingCurve(c1: (0, 0), c2: (1, 1))
        }
    }

    /// A custom curve with control points (c1x, c1y) and (c2x, c2y); x values are clamped to 0…1
    /// as the curve must be a function of time.
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        curve = TimingCurve(c1: (min(max(Double(c1x), 0), 1), Double(c1y)),
                            c2: (min(max(Double(c2x), 0), 1), Double(c2y)))
    }

    /// Control point `idx` (0…3: start, c1, c2, end) written into `ptr[0]`, `ptr[1]`.
    public func getControlPoint(at idx: Int, values ptr: UnsafeMutablePointer<Float>) {
        let p: (Double, Double)
        switch idx {
        case 0: p = (0, 0)
        case 1: p = curve.c1
        case 2: p = curve.c2
        default: p = (1, 1)
        }
        ptr[0] = Float(p.0)
        ptr[1] = Float(p.1)
    }

    /// Citrine extension: the curve's output for input time fraction `x` (clamped to 0…1).
    public func _solve(forInput x: Double) -> Double { curve.solve(x) }

    public static func == (l: CAMediaTimingFunction, r: CAMediaTimingFunction) -> Bool {
        l.curve.c1 == r.curve.c1 && l.curve.c2 == r.curve.c2
    }
    public func hash(into h: inout Hasher) {
        h.combine(curve.c1.0); h.combine(curve.c1.1); h.combine(curve.c2.0); h.combine(curve.c2.1)
    }
}

/// A timing curve's control points and its exact solution: the cubic Bézier from (0, 0) through
/// c1, c2 to (1, 1), solved for x by Newton's method with a bisection fallback to 1e-12.
struct TimingCurve: Sendable {
    let c1: (Double, Double)
    let c2: (Double, Double)

    /// The curve's y at x (clamped to 0…1).
    func solve(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if c1 == (0, 0) && c2 == (1, 1) || (c1.0 == c1.1 && c2.0 == c2.1) { return x }
        let t = parameter(forX: x)
        return bezier(t, c1.1, c2.1)
    }

    private func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    private func derivative(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
    }

    /// The curve parameter t whose x equals `x` (x(t) is monotonic for control x in 0…1).
    private func parameter(forX x: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let err = bezier(t, c1.0, c2.0) - x
            if abs(err) < 1e-12 { return t }
            let d = derivative(t, c1.0, c2.0)
            if abs(d) < 1e-9 { break }
            t -= err / d
        }
        var lo = 0.0, hi = 1.0
        t = x
        for _ in 0..<100 {
            let v = bezier(t, c1.0, c2.0)
            if abs(v - x) < 1e-12 { break }
            if v < x { lo = t } else { hi = t }
            t = (lo + hi) / 2
        }
        return t
    }
}
