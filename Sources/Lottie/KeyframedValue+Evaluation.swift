import CoreGraphics

// A property's value at any frame, computed here rather than by Core Animation: only for what
// Core Animation's timing cannot express — a precomp's time remapping (`tm`), a non-linear map
// of its time. Inside such a precomp every animation is sampled once per frame of the outer
// time (as lottie-ios's Core Animation engine does), and Core Animation interpolates linearly
// between the samples. The interpolation is Bodymovin's: hold, or the segment's cubic Bézier
// easing (o, i) solved for time, then linear between values (along the spatial tangents' cubic
// for a position, at the eased parameter).

/// A value that interpolates linearly between keyframes.
protocol Interpolatable: Sendable {
    static func mix(_ a: Self, _ b: Self, _ t: Double) -> Self
}

extension Double: Interpolatable {
    static func mix(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }
}

extension CGFloat: Interpolatable {
    static func mix(_ a: CGFloat, _ b: CGFloat, _ t: Double) -> CGFloat { a + (b - a) * t }
}

extension CGPoint: Interpolatable {
    static func mix(_ a: CGPoint, _ b: CGPoint, _ t: Double) -> CGPoint {
        CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }
}

extension Array: Interpolatable where Element == Double {
    /// Component by component; values of different lengths do not interpolate (the first holds).
    static func mix(_ a: [Double], _ b: [Double], _ t: Double) -> [Double] {
        a.count == b.count ? zip(a, b).map { $0 + ($1 - $0) * t } : a
    }
}

extension BezierShape: Interpolatable {
    /// Vertex by vertex; shapes of different vertex or contour counts do not interpolate (the first holds).
    static func mix(_ a: BezierShape, _ b: BezierShape, _ t: Double) -> BezierShape {
        guard a.vertices.count == b.vertices.count, a.otherContours.count == b.otherContours.count,
              zip(a.otherContours, b.otherContours).allSatisfy({ $0.vertices.count == $1.vertices.count }) else { return a }
        func m(_ p: [CGPoint], _ q: [CGPoint]) -> [CGPoint] { zip(p, q).map { CGPoint.mix($0, $1, t) } }
        return BezierShape(vertices: m(a.vertices, b.vertices), inTangents: m(a.inTangents, b.inTangents),
                           outTangents: m(a.outTangents, b.outTangents), closed: a.closed,
                           otherContours: zip(a.otherContours, b.otherContours).map { mix($0, $1, t) })
    }
}

extension GradientStops: Interpolatable {
    /// Stop by stop; stops of different counts do not interpolate (the first holds).
    static func mix(_ a: GradientStops, _ b: GradientStops, _ t: Double) -> GradientStops {
        guard a.colors.count == b.colors.count, a.alphas.count == b.alphas.count else { return a }
        return GradientStops(
            colors: zip(a.colors, b.colors).map { (Double.mix($0.offset, $1.offset, t), $0.rgb + ($1.rgb - $0.rgb) * t) },
            alphas: zip(a.alphas, b.alphas).map { (Double.mix($0.offset, $1.offset, t), Double.mix($0.alpha, $1.alpha, t)) })
    }
}

/// The progress (0…1) at time fraction `x` of the cubic Bézier easing from (0, 0) to (1, 1) with
/// control points `c1`, `c2` (x clamped to 0…1, as CAMediaTimingFunction's): x solved by
/// bisection, which cannot fail to converge, to 2⁻⁴⁰.
func easedProgress(_ x: Double, _ c1: CGPoint, _ c2: CGPoint) -> Double {
    let x1 = min(max(c1.x, 0), 1), x2 = min(max(c2.x, 0), 1)
    func bezier(_ u: Double, _ p1: Double, _ p2: Double) -> Double {
        let v = 1 - u
        return 3 * v * v * u * p1 + 3 * v * u * u * p2 + u * u * u
    }
    var (lo, hi) = (0.0, 1.0)
    for _ in 0..<40 {
        let mid = (lo + hi) / 2
        if bezier(mid, x1, x2) < x { lo = mid } else { hi = mid }
    }
    return bezier((lo + hi) / 2, c1.y, c2.y)
}

extension KeyframedValue where Value: Interpolatable {
    /// The value at `frame`: the first keyframe's before it, the last's after.
    func value(at frame: Double) -> Value {
        guard case let .keyframed(k) = self else { return initial }
        guard frame > k[0].time else { return k[0].value }
        guard let j = k.firstIndex(where: { $0.time > frame }) else { return k[k.count - 1].value }
        let (a, b) = (k[j - 1], k[j])
        if a.hold || b.time <= a.time { return a.value }
        var t = (frame - a.time) / (b.time - a.time)
        if let o = a.easeOut, let i = a.easeIn { t = easedProgress(t, o, i) }
        if let point = a.value as? CGPoint, let end = b.value as? CGPoint, let to = a.spatialOut, let ti = a.spatialIn,
           to != .zero || ti != .zero {
            let c1 = CGPoint(x: point.x + to.x, y: point.y + to.y), c2 = CGPoint(x: end.x + ti.x, y: end.y + ti.y)
            let v = 1 - t
            let x = v * v * v * point.x + 3 * v * v * t * c1.x + 3 * v * t * t * c2.x + t * t * t * end.x
            let y = v * v * v * point.y + 3 * v * v * t * c1.y + 3 * v * t * t * c2.y + t * t * t * end.y
            if let result = CGPoint(x: x, y: y) as? Value { return result }
        }
        return Value.mix(a.value, b.value, t)
    }
}
