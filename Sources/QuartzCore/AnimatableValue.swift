/// An animation value converted once from `Any` to a typed form that can be interpolated, added
/// and measured per frame without re-inspecting `Any`.
///
/// Accepted inputs (Apple's KVC boxes and native Swift values alike): numbers (CGFloat, Double,
/// Float, Int, NSNumber), CGPoint, CGSize, CGRect, CGAffineTransform, CATransform3D, CGColor,
/// CGPath (interpolated point by point when both paths have the same element structure), arrays
/// of those (element-wise, e.g. `CAGradientLayer.colors`), and anything else (images, booleans,
/// strings), which switches at the midpoint like Apple's discrete values.
enum AnimatableValue {
    case number(Double)
    case point(CGPoint)
    case size(CGSize)
    case rect(CGRect)
    case affine(CGAffineTransform)
    case transform(CATransform3D)
    case color(CGColor)
    case path(CGPath)
    case array([AnimatableValue])
    case discrete(Any?)

    init(_ value: Any?) {
        switch value {
        case let v as CGFloat: self = .number(Double(v))
        case let v as Double: self = .number(v)
        case let v as Float: self = .number(Double(v))
        case let v as Int: self = .number(Double(v))
        case let v as NSNumber where !(v is Bool): self = .number(v.doubleValue)
        case let v as CGPoint: self = .point(v)
        case let v as CGSize: self = .size(v)
        case let v as CGRect: self = .rect(v)
        case let v as CGAffineTransform: self = .affine(v)
        case let v as CATransform3D: self = .transform(v)
        case let v as CGColor: self = .color(v)
        case let v as CGPath: self = .path(v)
        case let v as [Any]: self = .array(v.map(AnimatableValue.init))
        case let v as NSValue: self = AnimatableValue.unbox(v)
        default: self = .discrete(value)
        }
    }

    private static func unbox(_ v: NSValue) -> AnimatableValue {
        let type = String(cString: v.objCType)
        if type.contains("CGPoint") || type.contains("NSPoint") { return .point(v.pointValue) }
        if type.contains("CGSize") || type.contains("NSSize") { return .size(v.sizeValue) }
        if type.contains("CGRect") || type.contains("NSRect") { return .rect(v.rectValue) }
        if let t = v.boxedTransform { return .transform(t) }
        return .discrete(v)
    }

    /// Back to a Swift value (numbers as CGFloat).
    var value: Any? {
        switch self {
        case let .number(v): return CGFloat(v)
        case let .point(v): return v
        case let .size(v): return v
        case let .rect(v): return v
        case let .affine(v): return v
        case let .transform(v): return v
        case let .color(v): return v
        case let .path(v): return v
        case let .array(v): return v.map(\.value)
        case let .discrete(v): return v
        }
    }

    /// Linear interpolation a + (b − a)·t; transforms decompose and slerp; discrete values switch
    /// at t = 0.5. Mismatched kinds behave as discrete.
    static func interpolate(_ a: AnimatableValue, _ b: AnimatableValue, _ t: Double) -> AnimatableValue {
        switch (a, b) {
        case let (.number(x), .number(y)): return .number(x + (y - x) * t)
        case let (.point(x), .point(y)): return .point(lerp(x, y, t))
        case let (.size(x), .size(y)):
            return .size(CGSize(width: lerp(x.width, y.width, t), height: lerp(x.height, y.height, t)))
        case let (.rect(x), .rect(y)):
            return .rect(CGRect(x: lerp(x.minX, y.minX, t), y: lerp(x.minY, y.minY, t),
                                width: lerp(x.width, y.width, t), height: lerp(x.height, y.height, t)))
        case let (.affine(x), .affine(y)):
            return .affine(CGAffineTransform(a: lerp(x.a, y.a, t), b: lerp(x.b, y.b, t), c: lerp(x.c, y.c, t),
                                             d: lerp(x.d, y.d, t), tx: lerp(x.tx, y.tx, t), ty: lerp(x.ty, y.ty, t)))
        case let (.transform(x), .transform(y)):
            return .transform(TransformDecomposition.interpolate(x, y, t))
        case let (.color(x), .color(y)):
            let p = x.rgba, q = y.rgba
            return .color(CGColor(red: lerp(p.r, q.r, t), green: lerp(p.g, q.g, t), blue: lerp(p.b, q.b, t),
                                  alpha: lerp(p.a, q.a, t)))
        case let (.path(x), .path(y)):
            return x.interpolated(to: y, fraction: t).map { .path($0) } ?? (t < 0.5 ? a : b)
        case let (.array(x), .array(y)) where x.count == y.count:
            return .array(zip(x, y).map { interpolate($0, $1, t) })
        default:
            return t < 0.5 ? a : b
        }
    }

    /// a + b (additive and cumulative animations, `byValue`); transforms concatenate b after a.
    static func add(_ a: AnimatableValue, _ b: AnimatableValue) -> AnimatableValue {
        switch (a, b) {
        case let (.number(x), .number(y)): return .number(x + y)
        case let (.point(x), .point(y)): return .point(CGPoint(x: x.x + y.x, y: x.y + y.y))
        case let (.size(x), .size(y)): return .size(CGSize(width: x.width + y.width, height: x.height + y.height))
        case let (.rect(x), .rect(y)):
            return .rect(CGRect(x: x.minX + y.minX, y: x.minY + y.minY, width: x.width + y.width, height: x.height + y.height))
        case let (.transform(x), .transform(y)): return .transform(CATransform3DConcat(y, x))
        case let (.affine(x), .affine(y)): return .affine(y.concatenating(x))
        case let (.color(x), .color(y)):
            let p = x.rgba, q = y.rgba
            return .color(CGColor(red: p.r + q.r, green: p.g + q.g, blue: p.b + q.b, alpha: p.a + q.a))
        case let (.array(x), .array(y)) where x.count == y.count:
            return .array(zip(x, y).map { add($0, $1) })
        default:
            return b
        }
    }

    /// `step` added to itself `count` times (count ≥ 1): a multiplication for vector kinds,
    /// repeated squaring for transforms (so cumulative animations cost O(log n) per frame).
    static func repeated(_ step: AnimatableValue, _ count: Int) -> AnimatableValue {
        let k = Double(count), c = CGFloat(count)
        switch step {
        case let .number(x): return .number(x * k)
        case let .point(p): return .point(CGPoint(x: p.x * c, y: p.y * c))
        case let .size(s): return .size(CGSize(width: s.width * c, height: s.height * c))
        case let .rect(r): return .rect(CGRect(x: r.minX * c, y: r.minY * c, width: r.width * c, height: r.height * c))
        case let .color(col):
            let q = col.rgba
            return .color(CGColor(red: q.r * c, green: q.g * c, blue: q.b * c, alpha: q.a * c))
        case let .array(items): return .array(items.map { repeated($0, count) })
        default:
            guard count > 1 else { return step }
            let half = repeated(step, count / 2)
            let twice = add(half, half)
            return count % 2 == 0 ? twice : add(twice, step)
        }
    }

    /// b − a, so that a + (b − a) = b (used to turn from/to into a `byValue` for cumulation).
    static func difference(_ b: AnimatableValue, _ a: AnimatableValue) -> AnimatableValue {
        switch (a, b) {
        case let (.number(x), .number(y)): return .number(y - x)
        case let (.point(x), .point(y)): return .point(CGPoint(x: y.x - x.x, y: y.y - x.y))
        case let (.size(x), .size(y)): return .size(CGSize(width: y.width - x.width, height: y.height - x.height))
        case let (.rect(x), .rect(y)):
            return .rect(CGRect(x: y.minX - x.minX, y: y.minY - x.minY, width: y.width - x.width, height: y.height - x.height))
        case let (.transform(x), .transform(y)): return .transform(CATransform3DConcat(CATransform3DInvert(x), y))
        case let (.color(x), .color(y)):
            let p = x.rgba, q = y.rgba
            return .color(CGColor(red: q.r - p.r, green: q.g - p.g, blue: q.b - p.b, alpha: q.a - p.a))
        case let (.array(x), .array(y)) where x.count == y.count:
            return .array(zip(y, x).map { difference($0, $1) })
        default:
            return b
        }
    }

    /// Euclidean distance between two values (paced keyframes); 0 when not measurable.
    static func distance(_ a: AnimatableValue, _ b: AnimatableValue) -> Double {
        switch (a, b) {
        case let (.number(x), .number(y)): return abs(y - x)
        case let (.point(x), .point(y)): return Double(hypot(y.x - x.x, y.y - x.y))
        case let (.size(x), .size(y)): return Double(hypot(y.width - x.width, y.height - x.height))
        case let (.rect(x), .rect(y)):
            let d = [y.minX - x.minX, y.minY - x.minY, y.width - x.width, y.height - x.height]
            return Double(d.map { $0 * $0 }.reduce(0, +).squareRoot())
        case let (.color(x), .color(y)):
            let p = x.rgba, q = y.rgba
            let d = [q.r - p.r, q.g - p.g, q.b - p.b, q.a - p.a]
            return Double(d.map { $0 * $0 }.reduce(0, +).squareRoot())
        default:
            return 0
        }
    }

    private static func lerp(_ a: CGFloat, _ b: CGFloat, _ t: Double) -> CGFloat { a + (b - a) * CGFloat(t) }

    /// a + (b − a)·t per coordinate.
    static func lerp(_ a: CGPoint, _ b: CGPoint, _ t: Double) -> CGPoint {
        CGPoint(x: lerp(a.x, b.x, t), y: lerp(a.y, b.y, t))
    }
}
