import Raster

/// Arc-length measurement of a `CGPath` (project API; Apple has none, but Core Animation needs
/// it for `CAKeyframeAnimation` paced mode and path keyframes, and for `CAShapeLayer`'s
/// `strokeStart`/`strokeEnd`).
///
/// Lengths are in path units, along the path's drawing elements in order: lines, curves and
/// the closing line of each `closeSubpath` (even when it has zero length); moves add nothing
/// and start a new subpath. Arcs, ellipses and rounded corners are measured on the exact
/// circle/ellipse they approximate (the path remembers them), lines exactly, and Bézier curves
/// by adaptive Gauss–Legendre quadrature, all to about 10⁻¹⁰ relative. The work per look-up is
/// bounded whatever the curve (`GaussLegendre`'s panel budget and Newton's 50 steps): a curve
/// that stops and turns back along a line — its speed has a kink where it is zero — costs
/// about as much as any other (`CGPathMeasureTests`, `outAndBackAlongALine…`).
///
/// Build one once per path and query it many times; queries do not allocate.
public struct CGPathMeasure: Sendable {
    /// One drawing element of the path with its place along it.
    public struct Segment: Equatable, Sendable {
        /// Index of the element in the path's element sequence (as `applyWithBlock` counts).
        public var elementIndex: Int
        /// `.addLineToPoint`, `.addQuadCurveToPoint`, `.addCurveToPoint` or `.closeSubpath`.
        public var type: CGPathElementType
        /// Which subpath (0-based, counting move elements) the element belongs to.
        public var subpathIndex: Int
        /// Distance along the whole path at which the element starts.
        public var startLength: CGFloat
        /// The element's own length.
        public var length: CGFloat
        public var startPoint: CGPoint
        public var endPoint: CGPoint
    }

    /// The drawing elements in path order.
    public let segments: [Segment]
    /// The total length of the path.
    public let length: CGFloat
    let curves: [Curve]

    /// Measures `path`.
    public init(_ path: CGPath) {
        var segments: [Segment] = [], curves: [Curve] = []
        var total: CGFloat = 0, subpath = -1
        var arcIterator = path.arcs.makeIterator()
        var nextArc = arcIterator.next()
        path.forEachIndexedSegment { index, segment in
            let curve: Curve
            let type: CGPathElementType
            switch segment {
            case .move:
                subpath += 1
                return
            case .line(let a, let b):
                curve = .line(a, b)
                type = path.path.verbs[index] == .close ? .closeSubpath : .addLineToPoint
            case .quad(let a, let c, let b):
                curve = .quad(a, c, b); type = .addQuadCurveToPoint
            case .cubic(let a, let c1, let c2, let b):
                while let arc = nextArc, arc.elementIndex < index { nextArc = arcIterator.next() }
                if let arc = nextArc, arc.elementIndex == index { curve = .arc(arc) } else { curve = .cubic(a, c1, c2, b) }
                type = .addCurveToPoint
            }
            let l = curve.length(from: curve.parameterStart, to: curve.parameterEnd)
            segments.append(Segment(elementIndex: index, type: type, subpathIndex: max(subpath, 0),
                                    startLength: total, length: l,
                                    startPoint: segment.start, endPoint: segment.end))
            curves.append(curve)
            total += l
        }
        self.segments = segments
        self.curves = curves
        self.length = total
    }

    /// The point at `distance` along the path (clamped to 0…length); nil for a path without
    /// drawing elements.
    public func point(atLength distance: CGFloat) -> CGPoint? { position(atLength: distance)?.point }

    /// The direction of travel at `distance` (clamped), as an angle in radians from +x towards
    /// +y (`atan2(dy, dx)`), the angle `CAKeyframeAnimation`'s `rotationMode = .rotateAuto`
    /// applies; nil for a path without drawing elements. At a zero-length element it is 0.
    public func tangentAngle(atLength distance: CGFloat) -> CGFloat? { position(atLength: distance)?.tangentAngle }

    /// Point and tangent angle at `distance` along the path (see `point(atLength:)`).
    public func position(atLength distance: CGFloat) -> (point: CGPoint, tangentAngle: CGFloat)? {
        guard let index = segmentIndex(atLength: distance) else { return nil }
        return position(inSegment: index, atLength: distance - segments[index].startLength)
    }

    /// Point and tangent angle at `distance` from the start of segment `index` (clamped to the
    /// segment), e.g. for keyframes that run element by element.
    public func position(inSegment index: Int, atLength distance: CGFloat) -> (point: CGPoint, tangentAngle: CGFloat) {
        let curve = curves[index]
        let u = curve.parameter(atLength: min(max(distance, 0), segments[index].length))
        let d = curve.derivative(at: u)
        return (curve.point(at: u), d == .zero ? 0 : atan2(d.y, d.x))
    }

    /// The index of the segment holding `distance` (clamped to 0…length): the first
    /// segment of positive length whose span contains it (end points belong to the next
    /// segment, the very end to the last); nil for a path without drawing elements.
    public func segmentIndex(atLength distance: CGFloat) -> Int? {
        guard !segments.isEmpty else { return nil }
        let s = distance.isNaN ? 0 : min(max(distance, 0), length)
        var low = 0, high = segments.count - 1
        while low < high {  // last segment whose start ≤ s
            let mid = (low + high + 1) / 2
            if segments[mid].startLength <= s { low = mid } else { high = mid - 1 }
        }
        while low > 0 && segments[low].length == 0 && segments[low].startLength >= s { low -= 1 }
        while low + 1 < segments.count && segments[low].length == 0 { low += 1 }
        return low
    }

    /// The part of the path between `start` and `end` (lengths, clamped; empty when
    /// `start >= end`). Whole elements are kept as they are; cut lines, curves and arcs are
    /// cut exactly. A subpath that is kept whole keeps its `closeSubpath`.
    public func trimmedPath(fromLength start: CGFloat, toLength end: CGFloat) -> CGPath {
        let result = CGMutablePath()
        let a = start.isNaN ? 0 : max(start, 0), b = end.isNaN ? 0 : min(end, length)
        guard a < b else { return result }
        var previousSubpath = -1, subpathWhole = false
        for (index, segment) in segments.enumerated() {
            let s0 = segment.startLength, s1 = s0 + segment.length
            let outside = segment.length > 0 ? min(s1, b) <= max(s0, a) : (s0 < a || s0 > b)
            if outside { continue }
            let from = max(a - s0, 0), to = min(b - s0, segment.length)
            let startsSubpath = segment.subpathIndex != previousSubpath
            if startsSubpath {
                previousSubpath = segment.subpathIndex
                subpathWhole = from == 0 && isFirstOfSubpath(index)
                result.move(to: curves[index].point(at: curves[index].parameter(atLength: from)))
            }
            let whole = from == 0 && to == segment.length
            if segment.type == .closeSubpath && whole && subpathWhole {
                result.closeSubpath()
            } else {
                subpathWhole = subpathWhole && whole
                curves[index].appendPiece(of: segment, from: from, to: to, to: result)
            }
        }
        return result
    }

    private func isFirstOfSubpath(_ index: Int) -> Bool {
        index == 0 || segments[index - 1].subpathIndex != segments[index].subpathIndex
    }
}

extension CGPath {
    /// The total length of the path (project API; see `CGPathMeasure`).
    public var length: CGFloat { measure.length }

    /// `CGPathMeasure(self)`, kept with the path (`measured`) while it does not grow: a shape
    /// layer whose strokeStart or strokeEnd animates trims the same path at every frame
    /// (trim-offset.json of scripts/lottie-testfiles, callgrind: the curve-length quadrature of
    /// a 658 K-instruction frame fell from about 77 K to 59 K; the rest finds the cut points).
    /// Safe to ask from several threads at once.
    var measure: CGPathMeasure {
        let counts = (path.verbs.count, path.points.count, arcs.count)
        if let kept = measured.withLock({ $0 }), kept.counts == counts { return kept.measure }
        let fresh = CGPathMeasure(self)
        measured.withLock { $0 = (counts, fresh) }
        return fresh
    }

    /// The part of the path from fraction `start` to fraction `end` of its total length
    /// (clamped to 0…1), the geometry `CAShapeLayer` strokes for `strokeStart`/`strokeEnd`
    /// (project API; see `CGPathMeasure.trimmedPath`). The whole path (same elements) when
    /// `start <= 0` and `end >= 1`.
    public func trimmed(from start: CGFloat, to end: CGFloat) -> CGPath {
        if start <= 0 && end >= 1 { return copy() ?? CGPath() }
        let measure = measure
        return measure.trimmedPath(fromLength: start * measure.length, toLength: end * measure.length)
    }
}

extension CGPath.Segment {
    var start: CGPoint {
        switch self {
        case .move(let p): return p
        case .line(let a, _), .quad(let a, _, _), .cubic(let a, _, _, _): return a
        }
    }
    var end: CGPoint {
        switch self {
        case .move(let p), .line(_, let p), .quad(_, _, let p), .cubic(_, _, _, let p): return p
        }
    }
}

// MARK: - The measured curves

/// One measurable piece of a path, with its own parameter (t for Béziers, the angle for arcs).
enum Curve: Sendable {
    case line(CGPoint, CGPoint)
    case quad(CGPoint, CGPoint, CGPoint)
    case cubic(CGPoint, CGPoint, CGPoint, CGPoint)
    case arc(ArcPiece)

    var parameterStart: CGFloat { if case .arc(let a) = self { return a.startAngle }; return 0 }
    var parameterEnd: CGFloat { if case .arc(let a) = self { return a.endAngle }; return 1 }

    func point(at u: CGFloat) -> CGPoint {
        switch self {
        case .line(let a, let b): return a + (b - a) * u
        case .quad(let a, let c, let b): return CGPath.quadPoint(a, c, b, u)
        case .cubic(let a, let c1, let c2, let b): return CGPath.cubicPoint(a, c1, c2, b, u)
        case .arc(let arc): return arc.point(at: u)
        }
    }

    func derivative(at u: CGFloat) -> CGPoint {
        switch self {
        case .line(let a, let b): return b - a
        case .quad(let a, let c, let b):
            return (c - a) * (2 * (1 - u)) + (b - c) * (2 * u)
        case .cubic(let a, let c1, let c2, let b):
            let mu = 1 - u
            return (c1 - a) * (3 * mu * mu) + (c2 - c1) * (6 * mu * u) + (b - c2) * (3 * u * u)
        case .arc(let arc):
            let d = arc.derivative(at: u)
            return arc.endAngle >= arc.startAngle ? d : d * -1
        }
    }

    /// Length between parameters `u0` and `u1` (never negative, whichever way they are ordered).
    func length(from u0: CGFloat, to u1: CGFloat) -> CGFloat { length(from: u0, to: u1, meanSpeed: meanSpeed) }

    /// `length(from:to:)` with the curve's `meanSpeed` already known: a pass of quadrature is
    /// accepted within 10⁻¹³ × meanSpeed × its width, so the error is about 10⁻¹³ of the curve's
    /// length however short the piece asked for.
    func length(from u0: CGFloat, to u1: CGFloat, meanSpeed: CGFloat) -> CGFloat {
        switch self {
        case .line(let a, let b): return (b - a).length * abs(u1 - u0)
        default:
            return abs(GaussLegendre.integrate(from: u0, to: u1, absoluteTolerance: 1e-13 * meanSpeed) {
                self.derivative(at: $0).length
            })
        }
    }

    /// The curve's length over its parameter span, estimated by one Gauss–Legendre panel (0 for
    /// an empty span): the scale of `length`'s absolute tolerance.
    var meanSpeed: CGFloat {
        let span = abs(parameterEnd - parameterStart)
        guard span > 0 else { return 0 }
        return abs(GaussLegendre.panel(parameterStart, parameterEnd) { self.derivative(at: $0).length }) / span
    }

    /// The parameter at distance `s` from the curve's start (0 ≤ s ≤ its length): Newton's
    /// method on the arc-length function, safeguarded by bisection.
    func parameter(atLength s: CGFloat) -> CGFloat {
        let u0 = parameterStart, u1 = parameterEnd
        if case .line = self {
            let l = length(from: u0, to: u1)
            return l > 0 ? s / l : 0
        }
        let meanSpeed = meanSpeed
        let total = length(from: u0, to: u1, meanSpeed: meanSpeed)
        guard total > 0, s > 0 else { return u0 }
        guard s < total else { return u1 }
        var low = min(u0, u1), high = max(u0, u1)
        let forward = u1 >= u0
        var u = u0 + (u1 - u0) * (s / total)
        var travelled = length(from: u0, to: u, meanSpeed: meanSpeed)
        for _ in 0..<50 {
            let error = travelled - s
            if abs(error) <= 1e-13 * total { break }
            // shrink the bracket: travelled grows along the travel direction
            if (error > 0) == forward { high = u } else { low = u }
            let speed = derivative(at: u).length
            var next = speed > 0 ? u - (forward ? error : -error) / speed : (low + high) / 2
            if !(next > low && next < high) { next = (low + high) / 2 }
            let delta = length(from: min(u, next), to: max(u, next), meanSpeed: meanSpeed)
            travelled += (next > u) == forward ? delta : -delta
            u = next
        }
        return u
    }

    /// Appends the piece between distances `from` and `to` (from the curve's start) to `path`,
    /// whose current point is already the piece's start.
    func appendPiece(of segment: CGPathMeasure.Segment, from: CGFloat, to: CGFloat, to path: CGMutablePath) {
        let whole = from == 0 && to == segment.length
        let ua = whole ? parameterStart : parameter(atLength: from)
        let ub = whole ? parameterEnd : parameter(atLength: to)
        switch self {
        case .line:
            path.appendLine(point(at: ub))
        case .quad(let a, let c, let b):
            let (_, qc, qb) = Curve.quadPiece(a, c, b, ua, ub)
            path.appendQuad(to: qb, control: qc)
        case .cubic(let a, let c1, let c2, let b):
            let (q1, q2, q3) = Curve.cubicPiece(a, c1, c2, b, ua, ub)
            path.appendCubic(to: q3, control1: q1, control2: q2)
        case .arc(let arc):
            path.appendArc(center: arc.center, u: arc.u, v: arc.v, startAngle: ua, sweep: ub - ua,
                           transform: .identity)
        }
    }

    /// Control and end point of the quadratic restricted to [t0, t1] (blossoming).
    static func quadPiece(_ a: CGPoint, _ c: CGPoint, _ b: CGPoint, _ t0: CGFloat, _ t1: CGFloat)
        -> (CGPoint, CGPoint, CGPoint) {
        func blossom(_ s: CGFloat, _ t: CGFloat) -> CGPoint {
            a * ((1 - s) * (1 - t)) + c * ((1 - s) * t + s * (1 - t)) + b * (s * t)
        }
        return (blossom(t0, t0), blossom(t0, t1), blossom(t1, t1))
    }

    /// Control points and end point of the cubic restricted to [t0, t1] (blossoming).
    static func cubicPiece(_ a: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ b: CGPoint,
                           _ t0: CGFloat, _ t1: CGFloat) -> (CGPoint, CGPoint, CGPoint) {
        func blossom(_ r: CGFloat, _ s: CGFloat, _ t: CGFloat) -> CGPoint {
            let (mr, ms, mt) = (1 - r, 1 - s, 1 - t)
            return a * (mr * ms * mt) + c1 * (r * ms * mt + mr * s * mt + mr * ms * t)
                + c2 * (r * s * mt + r * ms * t + mr * s * t) + b * (r * s * t)
        }
        return (blossom(t0, t0, t1), blossom(t0, t1, t1), blossom(t1, t1, t1))
    }
}

/// Adaptive Gauss–Legendre quadrature: 10 nodes per panel; a panel is halved until its two
/// halves agree with it to 10⁻¹³ relative, or within the caller's absolute tolerance per unit of
/// width, at most 18 levels deep and at most `maxPanels` panels per integral.
///
/// The absolute tolerance and the budget bound the work where the relative test cannot be met:
/// where the integrand (a curve's speed) nearly vanishes, its values are rounding noise from
/// cancellation, and halves never agree to 10⁻¹³ of their tiny sum — a cubic running out and
/// back along a line took every panel 18 levels deep (2¹⁹ panels per integral, seconds per
/// look-up) before this bound. A kink at the turn still refines the panel holding it at every
/// level, a few dozen panels in all, well within the budget.
enum GaussLegendre {
    /// (node, weight) pairs on [−1, 1], computed once by Newton's method on P₁₀.
    static let rule: [(CGFloat, CGFloat)] = {
        let n = 10
        return (0..<n).map { i in
            var x = cos(CGFloat.pi * (CGFloat(i) + 0.75) / (CGFloat(n) + 0.5))
            var derivative: CGFloat = 0
            for _ in 0..<100 {
                var p0: CGFloat = 1, p1 = x
                for k in 2...n {
                    let p2 = ((2 * CGFloat(k) - 1) * x * p1 - (CGFloat(k) - 1) * p0) / CGFloat(k)
                    p0 = p1; p1 = p2
                }
                derivative = CGFloat(n) * (x * p1 - p0) / (x * x - 1)
                let step = p1 / derivative
                x -= step
                if abs(step) < 1e-16 { break }
            }
            return (x, 2 / ((1 - x * x) * derivative * derivative))
        }
    }()

    static func panel(_ a: CGFloat, _ b: CGFloat, _ f: (CGFloat) -> CGFloat) -> CGFloat {
        let half = (b - a) / 2, mid = (a + b) / 2
        var sum: CGFloat = 0
        for (x, w) in rule { sum += w * f(mid + half * x) }
        return sum * half
    }

    /// The most panels one integral evaluates (each 10 values of the integrand), besides the
    /// few halves already under way when the budget runs out (at most two per level).
    static let maxPanels = 512

    /// ∫ₐᵇ f, for a ≤ b or a > b (then negative). A panel is accepted when its halves agree with
    /// it to 10⁻¹³ relative or to `absoluteTolerance` × its width.
    static func integrate(from a: CGFloat, to b: CGFloat, absoluteTolerance: CGFloat,
                          _ f: (CGFloat) -> CGFloat) -> CGFloat {
        guard a != b, a.isFinite, b.isFinite else { return 0 }
        let whole = panel(a, b, f)
        guard whole.isFinite else { return whole }  // overflowing coordinates: no refinement
        var budget = maxPanels - 1
        return refine(a, b, whole, depth: 0, absoluteTolerance, &budget, f)
    }

    private static func refine(_ a: CGFloat, _ b: CGFloat, _ whole: CGFloat, depth: Int,
                               _ absoluteTolerance: CGFloat, _ budget: inout Int,
                               _ f: (CGFloat) -> CGFloat) -> CGFloat {
        let mid = (a + b) / 2
        let left = panel(a, mid, f), right = panel(mid, b, f)
        budget -= 2
        let sum = left + right, error = abs(sum - whole)
        if depth >= 18 || budget <= 0 || error <= 1e-13 * abs(sum) + 1e-300 || error <= absoluteTolerance * abs(b - a) {
            return sum
        }
        return refine(a, mid, left, depth: depth + 1, absoluteTolerance, &budget, f)
            + refine(mid, b, right, depth: depth + 1, absoluteTolerance, &budget, f)
    }
}
