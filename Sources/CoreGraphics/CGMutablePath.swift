import Raster

/// A path under construction (Apple's `CGMutablePath`). Every method takes an optional
/// `transform` (default identity) applied to the points it adds, as on Apple.
///
/// Segments (lines, curves, arcs from `addArc(tangent1End:…)`) need a current point: without
/// one they are ignored, as Core Graphics does (it logs "no current point"). After
/// `closeSubpath`, a new segment starts a new subpath at the closed subpath's start point.
/// Elements with NaN or infinite coordinates are ignored.
public final class CGMutablePath: CGPath, @unchecked Sendable {
    public override init() { super.init() }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        let p = point.applying(transform)
        guard p.isFinite else { return }
        appendMove(p)
    }
    /// A straight line from the current point to `point`.
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        let p = point.applying(transform)
        guard p.isFinite else { return }
        appendLine(p)
    }
    /// A move to the first point, then lines through the others (Apple's `addLines(between:)`).
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        move(to: first, transform: transform)
        for p in points.dropFirst() { addLine(to: p, transform: transform) }
    }
    /// A quadratic Bézier curve from the current point to `end`.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        let e = end.applying(transform), c = control.applying(transform)
        guard e.isFinite, c.isFinite else { return }
        appendQuad(to: e, control: c)
    }
    /// A cubic Bézier curve from the current point to `end`.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint,
                         transform: CGAffineTransform = .identity) {
        let e = end.applying(transform), c1 = control1.applying(transform), c2 = control2.applying(transform)
        guard e.isFinite, c1.isFinite, c2.isFinite else { return }
        appendCubic(to: e, control1: c1, control2: c2)
    }
    /// Closes the current subpath with a straight line back to its start.
    public func closeSubpath() { appendClose() }

    /// A rectangle as a closed subpath: move to (minX, minY), lines to (maxX, minY),
    /// (maxX, maxY), (minX, maxY), close — the order Apple documents for `CGPathAddRect`.
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        guard !rect.isNull, rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite
        else { return }
        move(to: CGPoint(x: rect.minX, y: rect.minY), transform: transform)
        addLine(to: CGPoint(x: rect.maxX, y: rect.minY), transform: transform)
        addLine(to: CGPoint(x: rect.maxX, y: rect.maxY), transform: transform)
        addLine(to: CGPoint(x: rect.minX, y: rect.maxY), transform: transform)
        closeSubpath()
    }
    /// Each rectangle as its own closed subpath (`addRect`).
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for r in rects { addRect(r, transform: transform) }
    }

    /// The ellipse inscribed in `rect` as a closed subpath of four cubic Béziers: it starts at
    /// (maxX, midY) and runs through (midX, maxY), (minX, midY), (midX, minY) — increasing
    /// angle, which Apple's documentation calls clockwise (it is, on a y-down screen); this is
    /// why a `strokeEnd` animation on an oval starts at 3 o'clock and runs clockwise on iOS.
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        guard !rect.isNull, rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite
        else { return }
        let r = rect.standardized
        let center = CGPoint(x: r.midX, y: r.midY)
        let u = CGPoint(x: r.width / 2, y: 0), v = CGPoint(x: 0, y: r.height / 2)
        move(to: CGPoint(x: r.maxX, y: r.midY), transform: transform)
        appendArc(center: center, u: u, v: v, startAngle: 0, sweep: 2 * .pi, transform: transform)
        closeSubpath()
    }

    /// A rectangle with elliptical corners of radii `cornerWidth` × `cornerHeight` (each
    /// clamped to 0…half the side; Apple traps on larger values) as a closed subpath. With
    /// a zero radius it is `addRect`. Apple does not document the start point; Citrine starts
    /// at (maxX, minY + cornerHeight) and runs in the ellipse's direction (increasing angle):
    /// right edge, top-right corner, top edge, …, bottom-right corner, close.
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                               transform: CGAffineTransform = .identity) {
        guard cornerWidth.isFinite, cornerHeight.isFinite else { return }
        let r = rect.standardized
        let cw = min(max(cornerWidth, 0), r.width / 2), ch = min(max(cornerHeight, 0), r.height / 2)
        guard cw > 0, ch > 0 else { return addRect(rect, transform: transform) }
        guard r.minX.isFinite, r.minY.isFinite, r.width.isFinite, r.height.isFinite else { return }
        let u = CGPoint(x: cw, y: 0), v = CGPoint(x: 0, y: ch)
        let corners: [(CGPoint, CGFloat)] = [
            (CGPoint(x: r.maxX - cw, y: r.maxY - ch), 0),
            (CGPoint(x: r.minX + cw, y: r.maxY - ch), .pi / 2),
            (CGPoint(x: r.minX + cw, y: r.minY + ch), .pi),
            (CGPoint(x: r.maxX - cw, y: r.minY + ch), 3 * .pi / 2),
        ]
        move(to: CGPoint(x: r.maxX, y: r.minY + ch), transform: transform)
        for (center, start) in corners {
            appendArc(center: center, u: u, v: v, startAngle: start, sweep: .pi / 2, transform: transform)
        }
        closeSubpath()
    }

    /// A circular arc of `radius` around `center` from `startAngle` to `endAngle` (radians,
    /// measured from +x towards +y), as cubic Béziers of at most 90° each.
    ///
    /// `clockwise` refers to Core Graphics' default y-up space: `false` runs with increasing
    /// angle, `true` with decreasing angle. In a flipped (y-down) space such as a UIKit view or
    /// `CALayer.draw(in:)`, a "clockwise" arc therefore *looks* counter-clockwise (Apple's
    /// `addArc` documentation; UIBezierPath passes `!clockwise` for that reason).
    ///
    /// The sweep:
    /// - When |`endAngle` − `startAngle`| ≥ 2π, one full circle starting at `startAngle` and
    ///   running in the requested direction, whichever way the angles are ordered (0 → 2π and
    ///   2π → 0 alike, `clockwise` true or false). Apple's pages for `CGPath.addArc`,
    ///   `CGContext.addArc` and `UIBezierPath` do not state this case; the evidence is iOS
    ///   itself: NVActivityIndicatorView, a widely used open-source indicator library, draws
    ///   every dot and ring as `UIBezierPath(arcCenter:radius:startAngle: 0, endAngle: 2 * .pi,
    ///   clockwise: false)` (which reaches Core Graphics as 0 → 2π `clockwise: true`), and its
    ///   recordings made on iOS show every circle.
    /// - Otherwise, as Apple documents, the arc runs from `startAngle` to `endAngle` in the
    ///   requested direction: an arc "against" that direction goes the long way round (sweep
    ///   wrapped by 2π; 0 → π/2 `clockwise: true` turns 3π/2), and equal angles add only the
    ///   start point.
    ///
    /// With a current point, a line joins it to the arc's start; otherwise the arc starts a
    /// new subpath.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
                       clockwise: Bool, transform: CGAffineTransform = .identity) {
        guard startAngle.isFinite, endAngle.isFinite else { return }
        addArc(center: center, radius: radius, startAngle: startAngle,
               sweep: Self.arcSweep(from: startAngle, to: endAngle, clockwise: clockwise),
               transform: transform)
    }

    /// An arc of `radius` around `center` starting at `startAngle` and turning by `delta`
    /// radians (positive = increasing angle, counter-clockwise in y-up space). `delta` is
    /// clamped to ±2π (one turn).
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
                               transform: CGAffineTransform = .identity) {
        guard startAngle.isFinite, delta.isFinite else { return }
        addArc(center: center, radius: radius, startAngle: startAngle,
               sweep: min(max(delta, -2 * .pi), 2 * .pi), transform: transform)
    }

    /// A line from the current point towards `tangent1End`, then the arc of `radius` tangent to
    /// the lines current point → `tangent1End` and `tangent1End` → `tangent2End` (Apple's
    /// `addArc(tangent1End:tangent2End:radius:)`, PostScript's `arct`). The path ends at the
    /// arc's second tangent point. When the three points are collinear or `radius` is 0, only
    /// the line to `tangent1End` is added. Ignored without a current point.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat,
                       transform: CGAffineTransform = .identity) {
        guard !isEmpty, tangent1End.isFinite, tangent2End.isFinite, radius.isFinite else { return }
        let determinant = transform.a * transform.d - transform.b * transform.c
        guard determinant != 0, determinant.isFinite else { return }
        let inverse = transform.inverted()
        let p0 = currentPoint.applying(inverse), p1 = tangent1End, p2 = tangent2End
        let d1 = (p0 - p1).normalized, d2 = (p2 - p1).normalized
        let cosTheta = d1.x * d2.x + d1.y * d2.y
        let cross = d1.x * d2.y - d1.y * d2.x
        guard radius > 0, d1.isFinite, d2.isFinite, abs(cross) > 1e-12 else {
            return addLine(to: p1, transform: transform)
        }
        let halfAngle = acos(min(max(cosTheta, -1), 1)) / 2
        let tangentDistance = radius / tan(halfAngle)
        let bisector = (d1 + d2).normalized
        let center = p1 + bisector * (radius / sin(halfAngle))
        let start = p1 + d1 * tangentDistance, end = p1 + d2 * tangentDistance
        let a0 = atan2(start.y - center.y, start.x - center.x)
        var sweep = atan2(end.y - center.y, end.x - center.x) - a0
        if sweep > .pi { sweep -= 2 * .pi } else if sweep < -.pi { sweep += 2 * .pi }
        addArc(center: center, radius: radius, startAngle: a0, sweep: sweep, transform: transform)
    }

    /// Appends `path`'s elements with `transform` applied.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        append(path, transform: transform)
    }

    // MARK: Arc helpers

    /// The signed sweep for `addArc(center:…clockwise:)` (see its documentation).
    static func arcSweep(from start: CGFloat, to end: CGFloat, clockwise: Bool) -> CGFloat {
        let turn = 2 * CGFloat.pi
        let sweep = end - start
        if abs(sweep) >= turn { return clockwise ? -turn : turn }
        // |sweep| < 2π: against the direction, the long way round.
        if clockwise { return sweep <= 0 ? sweep : sweep - turn }
        return sweep >= 0 ? sweep : sweep + turn
    }

    private func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, sweep: CGFloat,
                        transform: CGAffineTransform) {
        guard center.isFinite, radius.isFinite, radius >= 0 else { return }
        let u = CGPoint(x: radius, y: 0), v = CGPoint(x: 0, y: radius)
        let start = CGPoint(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
        if isEmpty {
            move(to: start, transform: transform)
        } else {
            let p = start.applying(transform)
            let gap = hypot(p.x - currentPoint.x, p.y - currentPoint.y)
            if gap > 1e-12 * max(1, abs(p.x) + abs(p.y)) || subpathClosed { addLine(to: start, transform: transform) }
        }
        appendArc(center: center, u: u, v: v, startAngle: startAngle, sweep: sweep, transform: transform)
    }

    /// Appends the elliptical arc `center + u·cos θ + v·sin θ`, θ from `startAngle` by `sweep`,
    /// as cubics of at most 90° each (control arms 4/3·tan(h/4) of the tangent for a piece of
    /// angle h), recording the exact arc behind each cubic. Assumes the current point is the
    /// arc's start.
    func appendArc(center: CGPoint, u: CGPoint, v: CGPoint, startAngle: CGFloat, sweep: CGFloat,
                   transform: CGAffineTransform) {
        guard sweep != 0, !isEmpty else { return }
        let pieceCount = max(1, Int((abs(sweep) / (.pi / 2) - 1e-9).rounded(.up)))
        let step = sweep / CGFloat(pieceCount)
        let k = 4 / 3 * tan(step / 4)
        var arc = ArcPiece(elementIndex: 0, center: center, u: u, v: v, startAngle: 0, endAngle: 0)
            .applying(transform, shiftedBy: 0)
        for i in 0..<pieceCount {
            arc.startAngle = startAngle + step * CGFloat(i)
            arc.endAngle = i == pieceCount - 1 ? startAngle + sweep : arc.startAngle + step
            let p0 = arc.point(at: arc.startAngle), p3 = arc.point(at: arc.endAngle)
            let c1 = p0 + arc.derivative(at: arc.startAngle) * k
            let c2 = p3 - arc.derivative(at: arc.endAngle) * k
            guard prepareSegment() else { return }
            arc.elementIndex = path.verbs.count
            path.cubic(to: Point(p3), control1: Point(c1), control2: Point(c2))
            arcs.append(arc)
        }
    }
}

// MARK: - Convenience initializers (Apple's CGPath(rect:…), CGPath(ellipseIn:…), …)

extension CGPath {
    /// A path holding `rect` as one closed subpath (`CGMutablePath.addRect`).
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init()
        let built = CGMutablePath()
        built.addRect(rect, transform: transform?.pointee ?? .identity)
        append(built, transform: .identity)
    }
    /// A path holding the ellipse inscribed in `rect` (`CGMutablePath.addEllipse(in:)`).
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init()
        let built = CGMutablePath()
        built.addEllipse(in: rect, transform: transform?.pointee ?? .identity)
        append(built, transform: .identity)
    }
    /// A path holding a rounded rectangle (`CGMutablePath.addRoundedRect`).
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                            transform: UnsafePointer<CGAffineTransform>?) {
        self.init()
        let built = CGMutablePath()
        built.addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight,
                             transform: transform?.pointee ?? .identity)
        append(built, transform: .identity)
    }
}

// MARK: - Small vector helpers (internal)

extension CGPoint {
    var isFinite: Bool { x.isFinite && y.isFinite }
    var length: CGFloat { hypot(x, y) }
    var normalized: CGPoint { let l = length; return CGPoint(x: x / l, y: y / l) }
    static func + (l: CGPoint, r: CGPoint) -> CGPoint { CGPoint(x: l.x + r.x, y: l.y + r.y) }
    static func - (l: CGPoint, r: CGPoint) -> CGPoint { CGPoint(x: l.x - r.x, y: l.y - r.y) }
    static func * (l: CGPoint, s: CGFloat) -> CGPoint { CGPoint(x: l.x * s, y: l.y * s) }
}
