import Raster
import Synchronization

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

/// The exact curve that one cubic element of a path approximates: the elliptical arc
/// `center + u·cos θ + v·sin θ` for θ from `startAngle` to `endAngle` (path space). Paths
/// remember it for arcs, ellipses and rounded corners so that length measurement is exact
/// (a 90° cubic is 1.4·10⁻⁴ longer than its circle) while drawing uses the cubics.
struct ArcPiece: Equatable, Sendable {
    var elementIndex: Int
    var center: CGPoint
    var u: CGPoint
    var v: CGPoint
    var startAngle: CGFloat
    var endAngle: CGFloat

    func point(at angle: CGFloat) -> CGPoint {
        let c = cos(angle), s = sin(angle)
        return CGPoint(x: center.x + u.x * c + v.x * s, y: center.y + u.y * c + v.y * s)
    }
    /// d/dθ of `point(at:)`.
    func derivative(at angle: CGFloat) -> CGPoint {
        let c = cos(angle), s = sin(angle)
        return CGPoint(x: -u.x * s + v.x * c, y: -u.y * s + v.y * c)
    }
    func applying(_ t: CGAffineTransform, shiftedBy offset: Int) -> ArcPiece {
        ArcPiece(elementIndex: elementIndex + offset, center: center.applying(t),
                 u: CGPoint(x: t.a * u.x + t.c * u.y, y: t.b * u.x + t.d * u.y),
                 v: CGPoint(x: t.a * v.x + t.c * v.y, y: t.b * v.x + t.d * v.y),
                 startAngle: startAngle, endAngle: endAngle)
    }
}

/// An immutable vector path (Apple's `CGPath`); `CGMutablePath` builds one. Coordinates are in
/// the user space of whoever draws it.
///
/// Storage is the pixel engine's `Path` (verbs + points), so drawing needs no conversion,
/// plus the exact arcs behind arc/ellipse cubics (for measurement, see `CGPathMeasure`).
/// Like Apple's, a `CGPath` is safe to share between threads once built; a `CGMutablePath`
/// must not be mutated while another thread reads it.
open class CGPath: Equatable, Hashable, @unchecked Sendable {
    /// The geometry, in path space.
    var path: Path
    /// Exact arcs behind some cubic elements, sorted by element index.
    var arcs: [ArcPiece]
    /// Start of the current subpath (where `closeSubpath` returns to).
    var subpathStart: CGPoint = .zero
    /// True after `closeSubpath`: the next segment starts a new subpath at `subpathStart`.
    var subpathClosed = false
    /// The last measurement of the path (`measure`) with the element, point and arc counts it
    /// was made at. A path only grows (Core Graphics has no call that changes or removes an
    /// element), so the same counts mean the same geometry.
    let measured = Mutex<(counts: (Int, Int, Int), measure: CGPathMeasure)?>(nil)

    public init() { path = Path(); arcs = [] }

    /// A path with the given geometry and no arc information (project API, e.g. for results
    /// of the pixel engine's stroker).
    public convenience init(rasterPath: Path) {
        self.init()
        path = rasterPath
        restoreSubpathState()
    }

    /// The geometry as the pixel engine's path (project API; no copy of the element storage).
    public var rasterPath: Path { path }

    /// True when the path has no elements.
    public var isEmpty: Bool { path.isEmpty }

    /// The end point of the last element; after `closeSubpath` the start of that subpath, and
    /// `.zero` for an empty path (Apple).
    public var currentPoint: CGPoint {
        guard let last = path.verbs.last else { return .zero }
        if last == .close { return subpathStart }
        return CGPoint(path.points[path.points.count - 1])
    }

    /// Calls `block` once per element, in order, with the element's points (Apple's
    /// `applyWithBlock`; the points are only valid during the call).
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        let scratch = UnsafeMutablePointer<CGPoint>.allocate(capacity: 3)
        defer { scratch.deallocate() }
        scratch.initialize(repeating: .zero, count: 3)
        var pointIndex = 0
        for verb in path.verbs {
            for i in 0..<verb.pointCount { scratch[i] = CGPoint(path.points[pointIndex + i]) }
            pointIndex += verb.pointCount
            var element = CGPathElement(type: CGPathElementType(verb), points: scratch)
            block(&element)
        }
    }

    /// The elements as (type, points) pairs, in order (project API: `applyWithBlock` without
    /// unsafe pointers).
    public var storage: [(CGPathElementType, [CGPoint])] {
        var result: [(CGPathElementType, [CGPoint])] = []
        result.reserveCapacity(path.verbs.count)
        var pointIndex = 0
        for verb in path.verbs {
            let points = path.points[pointIndex..<pointIndex + verb.pointCount].map(CGPoint.init)
            pointIndex += verb.pointCount
            result.append((CGPathElementType(verb), points))
        }
        return result
    }

    /// An immutable copy (Apple's `copy()`).
    public func copy() -> CGPath? { copy(using: nil) }
    /// An immutable copy with `transform` applied to every point (Apple's `copy(using:)`).
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        let result = CGPath()
        result.append(self, transform: transform?.pointee ?? .identity)
        return result
    }
    /// A mutable copy (Apple's `mutableCopy()`).
    public func mutableCopy() -> CGMutablePath? { mutableCopy(using: nil) }
    /// A mutable copy with `transform` applied to every point (Apple's `mutableCopy(using:)`).
    public func mutableCopy(using transform: UnsafePointer<CGAffineTransform>?) -> CGMutablePath? {
        let result = CGMutablePath()
        result.append(self, transform: transform?.pointee ?? .identity)
        return result
    }

    /// Paths are equal when they have the same elements with the same points (Apple's
    /// `CGPathEqualToPath`).
    public static func == (l: CGPath, r: CGPath) -> Bool { l.path == r.path }
    public func hash(into h: inout Hasher) {
        h.combine(path.verbs.count)
        for p in path.points.prefix(8) { h.combine(p) }
    }

    // MARK: Building blocks shared by CGMutablePath and the convenience initializers

    /// Appends `other` with `t` applied, keeping its arc information.
    func append(_ other: CGPath, transform t: CGAffineTransform) {
        let offset = path.verbs.count
        path.verbs.append(contentsOf: other.path.verbs)
        if t.isIdentity {
            path.points.append(contentsOf: other.path.points)
        } else {
            let rt = t.rasterTransform
            // Lazily: a 10 M-point path is not mapped into a temporary array first.
            path.points.append(contentsOf: other.path.points.lazy.map { rt.apply($0) })
        }
        arcs.append(contentsOf: other.arcs.map { $0.applying(t, shiftedBy: offset) })
        restoreSubpathState(from: offset)
    }

    /// Recomputes `subpathStart`/`subpathClosed` after elements were appended from element
    /// `firstNew` on (earlier elements are already accounted for).
    func restoreSubpathState(from firstNew: Int = 0) {
        subpathClosed = path.verbs.last == .close
        var pointIndex = path.points.count
        for verb in path.verbs[firstNew...].reversed() {
            pointIndex -= verb.pointCount
            if verb == .move {
                subpathStart = CGPoint(path.points[pointIndex])
                return
            }
        }
    }

    func appendMove(_ p: CGPoint) {
        path.move(to: Point(p))
        subpathStart = p
        subpathClosed = false
    }

    /// Starts a new subpath at the closed subpath's start when the last element was a close
    /// (Core Graphics continues from there). Returns false when there is no current point,
    /// in which case Core Graphics ignores the segment.
    func prepareSegment() -> Bool {
        guard !path.isEmpty else { return false }
        if subpathClosed { appendMove(subpathStart) }
        return true
    }

    func appendLine(_ p: CGPoint) {
        guard prepareSegment() else { return }
        path.line(to: Point(p))
    }
    func appendQuad(to p: CGPoint, control c: CGPoint) {
        guard prepareSegment() else { return }
        path.quad(to: Point(p), control: Point(c))
    }
    func appendCubic(to p: CGPoint, control1 c1: CGPoint, control2 c2: CGPoint) {
        guard prepareSegment() else { return }
        path.cubic(to: Point(p), control1: Point(c1), control2: Point(c2))
    }
    func appendClose() {
        guard !path.isEmpty, !subpathClosed else { return }
        path.close()
        subpathClosed = true
    }
}

extension CGPathElementType {
    init(_ verb: PathVerb) {
        switch verb {
        case .move: self = .moveToPoint
        case .line: self = .addLineToPoint
        case .quad: self = .addQuadCurveToPoint
        case .cubic: self = .addCurveToPoint
        case .close: self = .closeSubpath
        }
    }
}

extension CGPoint {
    /// The pixel engine's point with the same coordinates (project API).
    @inlinable public init(_ p: Point) { self.init(x: CGFloat(p.x), y: CGFloat(p.y)) }
}

extension Point {
    /// The pixel engine's point for a Core Graphics point (project API).
    @inlinable public init(_ p: CGPoint) { self.init(x: Double(p.x), y: Double(p.y)) }
}
