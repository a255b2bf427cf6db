/// Corners of a rectangle (Apple's `UIRectCorner`, raw values Apple's).
public struct UIRectCorner: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let topLeft = UIRectCorner(rawValue: 1 << 0)
    public static let topRight = UIRectCorner(rawValue: 1 << 1)
    public static let bottomLeft = UIRectCorner(rawValue: 1 << 2)
    public static let bottomRight = UIRectCorner(rawValue: 1 << 3)
    public static let allCorners: UIRectCorner = [.topLeft, .topRight, .bottomLeft, .bottomRight]
}

/// A path with its stroke attributes (Apple's `UIBezierPath`), in UIKit's y-down coordinates.
///
/// * `clockwise` means clockwise *on screen* (y down): increasing angle from +x towards +y. The
///   underlying `CGMutablePath.addArc` counts clockwise in y-up space, so the flag is inverted
///   when passed on, as UIKit does.
/// * The shapes' start points and directions follow what the seed tutorial states for
///   keyframe paths: a rectangle starts at its top-left corner and an oval at 3 o'clock, both
///   running clockwise on screen. A rounded rectangle (circular corners; iOS 7+ draws
///   "continuous" corners, whose exact curve Apple does not document) starts where the top edge
///   leaves the top-left corner and runs clockwise.
/// * `stroke()`/`fill()` draw into the current UIGraphics context (`UIGraphicsGetCurrentContext()`)
///   with the context's current colours (`UIColor.setStroke()`/`setFill()`), and leave the
///   context's state as they found it.
open class UIBezierPath {
    private var path = CGMutablePath()

    /// Stroke width in points. Default 1.
    public var lineWidth: CGFloat = 1
    /// Default `.butt`.
    public var lineCapStyle: CGLineCap = .butt
    /// Default `.miter`.
    public var lineJoinStyle: CGLineJoin = .miter
    /// Default 10.
    public var miterLimit: CGFloat = 10
    /// Accepted for source compatibility (curves are flattened by the rasterizer). Default 0.6.
    public var flatness: CGFloat = 0.6
    /// Fill with the even-odd rule instead of non-zero. Default false.
    public var usesEvenOddFillRule = false
    private var dashPattern: [CGFloat] = []
    private var dashPhase: CGFloat = 0

    public init() {}

    /// The path's elements (a copy: later changes to the Bézier path do not change it). Setting it
    /// replaces the elements.
    public var cgPath: CGPath {
        get { path.copy() ?? CGPath() }
        set { path = newValue.mutableCopy() ?? CGMutablePath() }
    }

    /// A closed rectangle: top-left, top-right, bottom-right, bottom-left, close.
    public convenience init(rect: CGRect) {
        self.init()
        path.addRect(rect)
    }

    /// The oval inscribed in `rect`: four cubic Béziers from (maxX, midY) through (midX, maxY),
    /// (minX, midY), (midX, minY), closed.
    public convenience init(ovalIn rect: CGRect) {
        self.init()
        path.addEllipse(in: rect)
    }

    /// A rectangle with circular corners of `cornerRadius` (clamped to half the shorter side).
    public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        self.init(roundedRect: rect, byRoundingCorners: .allCorners,
                  cornerRadii: CGSize(width: cornerRadius, height: cornerRadius))
    }

    /// A rectangle whose `corners` are rounded with radius `cornerRadii.width` (Apple uses the
    /// width only), clamped to half the shorter side; the others are square. Starts at the top
    /// edge after the top-left corner and runs clockwise on screen.
    public convenience init(roundedRect rect: CGRect, byRoundingCorners corners: UIRectCorner, cornerRadii: CGSize) {
        self.init()
        let r = rect.standardized
        guard r.minX.isFinite, r.minY.isFinite, r.width.isFinite, r.height.isFinite else { return }
        let radius = min(max(cornerRadii.width.isFinite ? cornerRadii.width : 0, 0), min(r.width, r.height) / 2)
        func rad(_ c: UIRectCorner) -> CGFloat { corners.contains(c) ? radius : 0 }
        let tl = rad(.topLeft), tr = rad(.topRight), br = rad(.bottomRight), bl = rad(.bottomLeft)
        path.move(to: CGPoint(x: r.minX + tl, y: r.minY))
        path.addLine(to: CGPoint(x: r.maxX - tr, y: r.minY))
        if tr > 0 { addCorner(center: CGPoint(x: r.maxX - tr, y: r.minY + tr), radius: tr, from: -.pi / 2) }
        path.addLine(to: CGPoint(x: r.maxX, y: r.maxY - br))
        if br > 0 { addCorner(center: CGPoint(x: r.maxX - br, y: r.maxY - br), radius: br, from: 0) }
        path.addLine(to: CGPoint(x: r.minX + bl, y: r.maxY))
        if bl > 0 { addCorner(center: CGPoint(x: r.minX + bl, y: r.maxY - bl), radius: bl, from: .pi / 2) }
        path.addLine(to: CGPoint(x: r.minX, y: r.minY + tl))
        if tl > 0 { addCorner(center: CGPoint(x: r.minX + tl, y: r.minY + tl), radius: tl, from: .pi) }
        path.closeSubpath()
    }

    /// A quarter circle turning clockwise on screen (increasing angle) from `start`.
    private func addCorner(center: CGPoint, radius: CGFloat, from start: CGFloat) {
        path.addArc(center: center, radius: radius, startAngle: start, endAngle: start + .pi / 2, clockwise: false)
    }

    /// An arc of a circle (see `addArc(withCenter:…)`, including the full-circle rule),
    /// starting a new path at its start point.
    public convenience init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
                            clockwise: Bool) {
        self.init()
        addArc(withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }

    /// A Bézier path with `cgPath`'s elements.
    public convenience init(cgPath: CGPath) {
        self.init()
        self.cgPath = cgPath
    }

    // MARK: Building

    /// Starts a new subpath at `point`.
    open func move(to point: CGPoint) { path.move(to: point) }
    /// A straight line from the current point (ignored without one).
    open func addLine(to point: CGPoint) { path.addLine(to: point) }
    /// A cubic Bézier curve from the current point.
    open func addCurve(to endPoint: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        path.addCurve(to: endPoint, control1: controlPoint1, control2: controlPoint2)
    }
    /// A quadratic Bézier curve from the current point.
    open func addQuadCurve(to endPoint: CGPoint, controlPoint: CGPoint) {
        path.addQuadCurve(to: endPoint, control: controlPoint)
    }
    /// An arc of the circle of `radius` around `center`, from `startAngle` to `endAngle` (radians
    /// from +x, increasing towards +y), clockwise on screen when `clockwise` (increasing angle).
    /// With a current point, a straight line first joins it to the arc's start
    /// (center + radius·(cos startAngle, sin startAngle)); the arc ends at
    /// center + radius·(cos endAngle, sin endAngle). An arc against its direction goes the long
    /// way round; when |`endAngle` − `startAngle`| ≥ 2π it is one full circle from `startAngle`
    /// in the requested direction, as iOS draws `startAngle: 0, endAngle: 2 * .pi` either way
    /// (see `CGMutablePath.addArc(center:…)` for the evidence).
    open func addArc(withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
                     clockwise: Bool) {
        path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: !clockwise)
    }
    /// Closes the current subpath with a straight line to its start.
    open func close() { path.closeSubpath() }
    /// Removes every element.
    open func removeAllPoints() { path = CGMutablePath() }
    /// Appends `bezierPath`'s elements (its stroke attributes are not copied).
    open func append(_ bezierPath: UIBezierPath) { path.addPath(bezierPath.path) }
    /// Transforms every point by `transform`.
    open func apply(_ transform: CGAffineTransform) {
        path = path.mutableCopy(using: [transform]) ?? path
    }

    // MARK: Queries

    /// True when the path has no elements.
    public var isEmpty: Bool { path.isEmpty }
    /// The end point of the last element (`.zero` for an empty path).
    public var currentPoint: CGPoint { path.currentPoint }
    /// The smallest rectangle enclosing every point of the path, control points included
    /// (Apple documents `bounds` so).
    public var bounds: CGRect { path.boundingBox }
    /// Whether the filled path (per `usesEvenOddFillRule`) contains `point`.
    open func contains(_ point: CGPoint) -> Bool {
        path.contains(point, using: usesEvenOddFillRule ? .evenOdd : .winding)
    }

    /// The dash pattern (lengths in points, on/off alternating; nil or count 0: solid) and the
    /// offset into it where stroking starts.
    open func setLineDash(_ pattern: UnsafePointer<CGFloat>?, count: Int, phase: CGFloat) {
        dashPattern = pattern.map { Array(UnsafeBufferPointer(start: $0, count: max(count, 0))) } ?? []
        dashPhase = phase
    }

    // MARK: Drawing into the current context

    /// Fills the path with the current context's fill colour.
    open func fill() { fill(with: .normal, alpha: 1) }

    /// Fills the path with `blendMode` and `alpha`.
    open func fill(with blendMode: CGBlendMode, alpha: CGFloat) {
        guard let ctx = UIGraphicsGetCurrentContext(), !path.isEmpty else { return }
        ctx.saveGState()
        ctx.setBlendMode(blendMode)
        ctx.setAlpha(alpha)
        ctx.beginPath()
        ctx.addPath(path)
        ctx.fillPath(using: usesEvenOddFillRule ? .evenOdd : .winding)
        ctx.restoreGState()
    }

    /// Strokes the path with the current context's stroke colour and this path's line attributes.
    open func stroke() { stroke(with: .normal, alpha: 1) }

    /// Strokes the path with `blendMode` and `alpha`.
    open func stroke(with blendMode: CGBlendMode, alpha: CGFloat) {
        guard let ctx = UIGraphicsGetCurrentContext(), !path.isEmpty else { return }
        ctx.saveGState()
        ctx.setBlendMode(blendMode)
        ctx.setAlpha(alpha)
        ctx.setLineWidth(lineWidth)
        ctx.setLineCap(lineCapStyle)
        ctx.setLineJoin(lineJoinStyle)
        ctx.setMiterLimit(miterLimit)
        if !dashPattern.isEmpty { ctx.setLineDash(phase: dashPhase, lengths: dashPattern) }
        ctx.beginPath()
        ctx.addPath(path)
        ctx.strokePath()
        ctx.restoreGState()
    }

    /// Intersects the current context's clip with the filled path.
    open func addClip() {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        ctx.beginPath()
        ctx.addPath(path)
        ctx.clip(using: usesEvenOddFillRule ? .evenOdd : .winding)
    }
}
