/// One drawing instruction of a `Path`.
public enum PathVerb: UInt8, Sendable {
    /// Starts a subpath at 1 point.
    case move
    /// Straight line to 1 point.
    case line
    /// Quadratic Bézier: control point, end point (2 points).
    case quad
    /// Cubic Bézier: two control points, end point (3 points).
    case cubic
    /// Closes the current subpath back to its start (0 points).
    case close

    /// How many points of `Path.points` the verb consumes.
    @inlinable public var pointCount: Int {
        switch self {
        case .move, .line: return 1
        case .quad: return 2
        case .cubic: return 3
        case .close: return 0
        }
    }
}

/// A vector path as parallel arrays of verbs and points (the tiny-skia / Skia layout), built
/// once and drawn many times. Coordinates are in the user space of the draw call.
public struct Path: Equatable, Sendable {
    public var verbs: [PathVerb] = []
    public var points: [Point] = []

    @inlinable public init() {}

    @inlinable public var isEmpty: Bool { verbs.isEmpty }

    public mutating func move(to p: Point) { verbs.append(.move); points.append(p) }
    public mutating func line(to p: Point) { verbs.append(.line); points.append(p) }
    public mutating func quad(to p: Point, control c: Point) {
        verbs.append(.quad); points.append(c); points.append(p)
    }
    public mutating func cubic(to p: Point, control1 c1: Point, control2 c2: Point) {
        verbs.append(.cubic); points.append(c1); points.append(c2); points.append(p)
    }
    public mutating func close() { verbs.append(.close) }
    /// Empties the path, keeping its storage for the next use.
    mutating func removeAll() {
        verbs.removeAll(keepingCapacity: true)
        points.removeAll(keepingCapacity: true)
    }
}
