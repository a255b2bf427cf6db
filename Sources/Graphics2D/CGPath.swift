/// The kind of one element of a path (Apple's `CGPathElementType`).
public enum CGPathElementType: Int32, Sendable {
    case moveToPoint = 0, addLineToPoint, addQuadCurveToPoint, addCurveToPoint, closeSubpath
}

/// One element handed to `CGPath.applyWithBlock`: its type and its points (1 for move/line,
/// 2 for quad, 3 for cubic, 0 for close), as on Apple.
public struct CGPathElement {
    public var type: CGPathElementType
    public var points: UnsafeMutablePointer<CGPoint>
}

/// An immutable vector path (Apple's `CGPath`); `CGMutablePath` builds one. Coordinates are in
/// the user space of whoever draws it.
open class CGPath: Equatable, Hashable, @unchecked Sendable {
    /// The elements as (type, points) pairs, in order.
    public internal(set) var storage: [(CGPathElementType, [CGPoint])] = []

    public init() {}

    /// True when the path has no elements.
    public var isEmpty: Bool { storage.isEmpty }

    /// Calls `block` once per element, in order.
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        var pts = [CGPoint](repeating: .zero, count: 3)
        for (type, points) in storage {
            for (i, p) in points.enumerated() { pts[i] = p }
            pts.withUnsafeMutableBufferPointer { buf in
                var e = CGPathElement(type: type, points: buf.baseAddress!)
                block(&e)
            }
        }
    }

    public static func == (l: CGPath, r: CGPath) -> Bool {
        l.storage.count == r.storage.count
            && zip(l.storage, r.storage).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }
    public func hash(into h: inout Hasher) { h.combine(storage.count) }
}

/// A path under construction (Apple's `CGMutablePath`).
public final class CGMutablePath: CGPath, @unchecked Sendable {
    public override init() { super.init() }

    public func move(to point: CGPoint) { storage.append((.moveToPoint, [point])) }
    public func addLine(to point: CGPoint) { storage.append((.addLineToPoint, [point])) }
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        storage.append((.addQuadCurveToPoint, [control, end]))
    }
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        storage.append((.addCurveToPoint, [control1, control2, end]))
    }
    public func closeSubpath() { storage.append((.closeSubpath, [])) }
}
