// Path construction on a context. Points are mapped to device space with the CTM current when
// each is added (Apple: changing the CTM afterwards does not move them); queries answer in
// the current user space.

extension CGContext {
    /// Discards the current path.
    public func beginPath() { currentPath = CGMutablePath() }
    public func move(to point: CGPoint) { currentPath.move(to: point, transform: deviceTransform) }
    public func addLine(to point: CGPoint) { currentPath.addLine(to: point, transform: deviceTransform) }
    public func addLines(between points: [CGPoint]) {
        currentPath.addLines(between: points, transform: deviceTransform)
    }
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        currentPath.addCurve(to: end, control1: control1, control2: control2, transform: deviceTransform)
    }
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        currentPath.addQuadCurve(to: end, control: control, transform: deviceTransform)
    }
    /// Adds an arc to the current path, as `CGMutablePath.addArc(center:…)` does (see it for
    /// the rules): `clockwise` refers to the y-up default space, so in a context flipped to
    /// y-down it looks counter-clockwise; when |`endAngle` − `startAngle`| ≥ 2π it adds one full
    /// circle from `startAngle` in the requested direction, as iOS draws it.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        currentPath.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
                           clockwise: clockwise, transform: deviceTransform)
    }
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        currentPath.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius,
                           transform: deviceTransform)
    }
    public func addRect(_ rect: CGRect) { currentPath.addRect(rect, transform: deviceTransform) }
    public func addRects(_ rects: [CGRect]) { currentPath.addRects(rects, transform: deviceTransform) }
    public func addEllipse(in rect: CGRect) { currentPath.addEllipse(in: rect, transform: deviceTransform) }
    public func addPath(_ path: CGPath) { currentPath.addPath(path, transform: deviceTransform) }
    public func closePath() { currentPath.closeSubpath() }

    /// True when there is no current path.
    public var isPathEmpty: Bool { currentPath.isEmpty }
    /// The current point in current user space (`.zero` without a path).
    public var currentPointOfPath: CGPoint {
        currentPath.isEmpty ? .zero : currentPath.currentPoint.applying(deviceTransform.inverted())
    }
    /// Control-point bounding box of the current path in current user space (`.null` when empty).
    public var boundingBoxOfPath: CGRect {
        currentPath.isEmpty ? .null : currentPath.boundingBox.applying(deviceTransform.inverted())
    }
    /// A copy of the current path in current user space (Apple's `path`), nil when empty.
    public var path: CGPath? {
        guard !currentPath.isEmpty else { return nil }
        var toUser = deviceTransform.inverted()
        return currentPath.copy(using: &toUser)
    }
    /// True when `point` (user space) is painted by drawing the current path with `mode`:
    /// inside the fill under the mode's rule, and/or inside the outline of its stroke under
    /// the current line style.
    public func pathContains(_ point: CGPoint, mode: CGPathDrawingMode) -> Bool {
        let device = point.applying(deviceTransform)
        func inStroke() -> Bool { strokeOutline(of: currentPath)?.contains(device, using: .winding) ?? false }
        switch mode {
        case .fill: return currentPath.contains(device, using: .winding)
        case .eoFill: return currentPath.contains(device, using: .evenOdd)
        case .stroke: return inStroke()
        case .fillStroke: return currentPath.contains(device, using: .winding) || inStroke()
        case .eoFillStroke: return currentPath.contains(device, using: .evenOdd) || inStroke()
        }
    }
}
