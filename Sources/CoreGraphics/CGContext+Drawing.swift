import Raster

// Filling, stroking and clearing. Every draw goes through `render(_:rule:shader:)`, which
// applies the graphics state (alpha, blend mode, anti-aliasing, clip, shadow) and draws into
// the current target (the bitmap, or the innermost transparency layer).

extension CGContext {
    /// Fills the current path with the fill colour under `rule` (default non-zero winding) and
    /// clears the path. Open subpaths are closed implicitly.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        let path = takePath()
        render(path, rule: rule.rasterFillRule, shader: fillShader)
    }

    /// Strokes the current path with the stroke colour and line style, and clears the path.
    public func strokePath() {
        let path = takePath()
        strokeDevicePath(path)
    }

    /// Fills and/or strokes the current path (fill first), then clears it.
    public func drawPath(using mode: CGPathDrawingMode) {
        let path = takePath()
        switch mode {
        case .fill: render(path, rule: .nonZero, shader: fillShader)
        case .eoFill: render(path, rule: .evenOdd, shader: fillShader)
        case .stroke: strokeDevicePath(path)
        case .fillStroke:
            render(path, rule: .nonZero, shader: fillShader)
            strokeDevicePath(path)
        case .eoFillStroke:
            render(path, rule: .evenOdd, shader: fillShader)
            strokeDevicePath(path)
        }
    }

    /// Fills `rect` with the fill colour (the current path is left alone).
    public func fill(_ rect: CGRect) { fill([rect]) }
    /// Fills each rectangle, as one non-zero fill.
    public func fill(_ rects: [CGRect]) {
        render(devicePath { $0.addRects(rects, transform: deviceTransform) }, rule: .nonZero,
               shader: fillShader)
    }
    /// Fills the ellipse inscribed in `rect`.
    public func fillEllipse(in rect: CGRect) {
        render(devicePath { $0.addEllipse(in: rect, transform: deviceTransform) }, rule: .nonZero,
               shader: fillShader)
    }
    /// Strokes the outline of `rect` with the current line style.
    public func stroke(_ rect: CGRect) {
        strokeDevicePath(devicePath { $0.addRect(rect, transform: deviceTransform) })
    }
    /// Strokes the outline of `rect` with line width `width` (the state's width is unchanged).
    public func stroke(_ rect: CGRect, width: CGFloat) {
        let saved = state.lineWidth
        setLineWidth(width)
        stroke(rect)
        state.lineWidth = saved
    }
    /// Strokes the ellipse inscribed in `rect`.
    public func strokeEllipse(in rect: CGRect) {
        strokeDevicePath(devicePath { $0.addEllipse(in: rect, transform: deviceTransform) })
    }
    /// Strokes the open polyline through each pair of points (Apple's `strokeLineSegments`).
    public func strokeLineSegments(between points: [CGPoint]) {
        strokeDevicePath(devicePath { path in
            var i = 0
            while i + 1 < points.count {
                path.move(to: points[i], transform: deviceTransform)
                path.addLine(to: points[i + 1], transform: deviceTransform)
                i += 2
            }
        })
    }

    /// Makes the pixels under `rect` (user space) transparent black, within the clip (Apple's
    /// `clear(_:)`: ignores the fill colour, alpha, blend mode and shadow).
    public func clear(_ rect: CGRect) {
        let path = devicePath { $0.addRect(rect, transform: deviceTransform) }
        let paint = Paint(shader: .solid(.black), blendMode: .clear, opacity: 1, antiAlias: state.shouldAntialias)
        drawRaw(path, rule: .nonZero, paint: paint)
    }

    /// Replaces the current path by the outline of its stroke under the current line style
    /// (Apple's `replacePathWithStrokedPath()`), so it can be filled or clipped to.
    public func replacePathWithStrokedPath() {
        let path = takePath()
        if let outline = strokeOutline(of: path) { currentPath.addPath(outline) }
    }

    // MARK: Internals

    /// The current path (device space), clearing it as Apple's painting functions do.
    func takePath() -> CGPath {
        let path = currentPath
        currentPath = CGMutablePath()
        return path
    }

    /// A device-space path built by `build`.
    func devicePath(_ build: (CGMutablePath) -> Void) -> CGPath {
        let path = CGMutablePath()
        build(path)
        return path
    }

    /// The stroke of device-space `path` under the current line style, as a device-space
    /// path to fill non-zero. The style is applied in current user space (so a non-uniform
    /// CTM makes the pen elliptical, as on Apple); nil when the CTM is singular.
    func strokeOutline(of path: CGPath) -> CGPath? {
        guard !path.isEmpty, let pen = userSpacePen else { return nil }
        var toUser = pen.toUser
        guard let user = path.copy(using: &toUser) else { return nil }
        let outline = user.copy(strokingWithWidth: state.lineWidth, lineCap: state.lineCap,
                                lineJoin: state.lineJoin, miterLimit: state.miterLimit,
                                dashPhase: state.dashPhase, dashLengths: state.dashLengths,
                                transform: pen.toDevice)
        return outline
    }

    /// Strokes device-space `path` with the stroke colour, line style and graphics state,
    /// drawn by the pixel engine with the same outline, tolerance and user-space pen as
    /// `strokeOutline(of:)`: it leaves out the parts of the path whose stroke cannot
    /// reach the target (a 10 M-segment path mostly off it was outlined whole) and draws a
    /// dashed stroke dash by dash (the outline of a million dashes built as one path took
    /// gigabytes). A shadow is drawn first, from the same stroke drawn into the shadow's
    /// scratch bitmap (`drawShape`), so a dashed stroke with a shadow stays bounded too.
    func strokeDevicePath(_ path: CGPath) {
        guard !path.isEmpty, let pen = userSpacePen,
              let style = CGPath.rasterStyle(
                width: state.lineWidth, cap: state.lineCap, join: state.lineJoin, miterLimit: state.miterLimit,
                dashPhase: state.dashPhase, dashLengths: state.dashLengths) else { return }
        // The path is mapped into user space as it is flattened (the points `path.copy(using:)`
        // would hold, without holding them).
        let toUser = pen.toUser.rasterTransform
        let tolerance = CGPath.tolerance(for: pen.toDevice)
        drawShape(shader: strokeShader) { pixmap, shift, paint, clip in
            RasterBackend.stroke(path.rasterPath, pathTransform: toUser, style: style, paint: paint,
                                 transform: (shift.isIdentity ? pen.toDevice : pen.toDevice.concatenating(shift)).rasterTransform,
                                 tolerance: tolerance,
                                 clip: clip, into: pixmap)
        }
    }

    /// The current user space as a pen: the CTM (`toDevice`) and its inverse; nil when the
    /// CTM is singular (Apple draws nothing then).
    private var userSpacePen: (toDevice: CGAffineTransform, toUser: CGAffineTransform)? {
        let toDevice = deviceTransform
        let det = toDevice.a * toDevice.d - toDevice.b * toDevice.c
        guard det != 0, det.isFinite else { return nil }
        return (toDevice, toDevice.inverted())
    }

    /// Draws device-space `path` with `shader` and the graphics state: shadow first (when
    /// set), then the shape, both through the clip.
    func render(_ path: CGPath, rule: FillRule, shader: Shader) {
        guard !path.isEmpty else { return }
        drawShape(shader: shader) { pixmap, shift, paint, clip in
            CGContext.fill(path, movedBy: shift, rule: rule, paint: paint, clip: clip, into: pixmap)
        }
    }

    /// Draws a shape with `shader` and the graphics state: its shadow first (when set), then the
    /// shape through the clip, keeping caller memory in sync. `draw` paints the shape into the
    /// pixmap it is given, moved by `shift` (device → that pixmap), with the paint and clip
    /// given: the shadow's scratch bitmap (`drawShadow`), then the target.
    func drawShape(shader: Shader,
                   _ draw: (_ pixmap: Pixmap, _ shift: CGAffineTransform, _ paint: Paint, _ clip: Mask?) -> Void) {
        if let shadow = state.shadow {
            drawShadow(shadow, shader: shader) { scratch, shift, paint in draw(scratch, shift, paint, nil) }
        }
        let paint = Paint(shader: shader, blendMode: state.blendMode.rasterBlendMode,
                          opacity: Float(state.alpha), antiAlias: state.shouldAntialias)
        copyInFromCaller()
        draw(target, .identity, paint, state.clip)
        copyOutToCaller()
    }

    /// Fills device-space `path` moved by `shift` into `pixmap`.
    static func fill(_ path: CGPath, movedBy shift: CGAffineTransform, rule: FillRule, paint: Paint, clip: Mask?,
                     into pixmap: Pixmap) {
        var moved = path
        if !shift.isIdentity {
            let shifted = CGMutablePath()
            shifted.addPath(path, transform: shift)
            moved = shifted
        }
        RasterBackend.fill(moved.rasterPath, rule: rule, paint: paint, clip: clip, into: pixmap)
    }

    /// The fill colour's paint (a pattern colour's tile repeated, `patternTileToDevice`).
    var fillShader: Shader { state.fillColor._shader(tileToDevice: patternTileToDevice) }
    /// The stroke colour's paint.
    var strokeShader: Shader { state.strokeColor._shader(tileToDevice: patternTileToDevice) }

    /// Where pattern colours' tiles lie: upright on the device, one tile point = one unit of the
    /// context's default user space (its initial CTM), tiles starting at that space's origin —
    /// as a `UIColor(patternImage:)` fill starts at the top-left of the view being drawn.
    private var patternTileToDevice: Transform {
        let m = defaultCTM.concatenating(baseTransform)
        let k = Double(hypot(m.a, m.b))
        return Transform(a: k, b: 0, c: 0, d: k, tx: Double(m.tx), ty: Double(m.ty))
    }

    /// Draws into the current target through the clip, keeping caller memory in sync.
    func drawRaw(_ path: CGPath, rule: FillRule, paint: Paint) {
        guard !path.isEmpty else { return }
        copyInFromCaller()
        RasterBackend.fill(path.rasterPath, rule: rule, paint: paint, clip: state.clip, into: target)
        copyOutToCaller()
    }
}
