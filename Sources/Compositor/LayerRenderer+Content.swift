import QuartzCore
import Raster

/// What a layer draws of its own (contents, shape, gradient, border, shadow), and the offscreen
/// groups, clips and masks it is composited through.
extension LayerRenderer {
    // MARK: - Content

    func drawContent(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, into canvas: Pixmap) {
        let bounds = p.bounds
        guard bounds.width > 0 || bounds.height > 0 || p is CAShapeLayer else { return }
        if let affine = LayerGeometry.affine(matrix) {
            drawFlatContent(model, p, transform: affine, into: canvas)
        } else if let warp = LayerGeometry.projective(matrix) {
            // Perspective: draw the layer's own content into a layer-space bitmap, then warp it.
            let w = Int((bounds.width * scale).rounded(.up)), h = Int((bounds.height * scale).rounded(.up))
            guard w > 0, h > 0, let flat = try? Pixmap(width: w, height: h) else { return }
            let toBitmap = Transform(a: Double(scale), b: 0, c: 0, d: Double(scale),
                                     tx: -Double(bounds.minX * scale), ty: -Double(bounds.minY * scale))
            drawFlatContent(model, p, transform: toBitmap, into: flat)
            // bitmap pixel → layer point → device.
            let bitmapToLayer = Projective(1 / Double(scale), 0, Double(bounds.minX), 0, 1 / Double(scale), Double(bounds.minY), 0, 0, 1)
            let pattern = ImagePattern(image: flat, transform: bitmapToLayer.concatenating(warp), filter: .bilinear, spread: .decal)
            if let quad = LayerGeometry.projectedQuad(bounds, warp) {
                canvas.fill(quad, paint: Paint(shader: .image(pattern)))
            }
        }
    }

    func drawFlatContent(_ model: CALayer, _ p: CALayer, transform: Transform, into canvas: Pixmap) {
        let outline = LayerGeometry.roundedRect(p.bounds, radius: p.cornerRadius, corners: p.maskedCorners)
        if let bg = p.backgroundColor, bg.alpha > 0 {
            canvas.fill(outline, paint: Self.paint(bg, in: p, transform: transform), transform: transform)
        }
        let clip = p.masksToBounds && p.cornerRadius > 0 ? outline : nil
        if let image = p.contents as? CGImage {
            drawImage(image, p, transform: transform, clip: clip, into: canvas)
        } else if let drawn = backingStore(for: model, p) {
            let pattern = ImagePattern(image: drawn, transform: Transform(a: 1 / Double(scale), b: 0, c: 0, d: 1 / Double(scale),
                                                                            tx: Double(p.bounds.minX), ty: Double(p.bounds.minY)).concatenating(transform),
                                       filter: .bilinear, spread: .decal)
            canvas.fill(clip ?? Path(rect: Rect(p.bounds)), paint: Paint(shader: .image(pattern)), transform: transform)
        }
        if let shape = p as? CAShapeLayer { drawShape(shape, transform: transform, into: canvas) }
        if let gradient = p as? CAGradientLayer { drawGradient(gradient, outline: clip ?? Path(rect: Rect(p.bounds)), transform: transform, into: canvas) }
        if let text = p as? CATextLayer { TextRenderer.draw(text, transform: transform, into: canvas) }
    }

    /// The image pixels `p` shows (`contentsRect` of `image`, in image pixels) and the layer-space
    /// rectangle (points) they are stretched onto (`contentsGravity`, `contentsScale`); nil when
    /// no pixel is shown.
    static func contentsPlacement(_ image: CGImage, _ p: CALayer) -> (source: CGRect, dest: CGRect)? {
        let cr = p.contentsRect
        let source = CGRect(x: cr.minX * CGFloat(image.width), y: cr.minY * CGFloat(image.height),
                            width: cr.width * CGFloat(image.width), height: cr.height * CGFloat(image.height))
        guard source.width > 0, source.height > 0 else { return nil }
        let contentSize = CGSize(width: source.width / p.contentsScale, height: source.height / p.contentsScale)
        return (source, ContentsGravity.rect(for: p.contentsGravity, contentSize: contentSize, in: p.bounds))
    }

    func drawImage(_ image: CGImage, _ p: CALayer, transform: Transform, clip: Path?, into canvas: Pixmap) {
        guard let (source, dest) = Self.contentsPlacement(image, p) else { return }
        if p.contentsCenter != CGRect(x: 0, y: 0, width: 1, height: 1) {
            for (src, dst) in NineSlice.cells(source: source, center: p.contentsCenter, dest: dest, scale: p.contentsScale) {
                drawImageCell(image, source: src, dest: dst, transform: transform, area: Path(rect: Rect(dst)), into: canvas)
            }
            return
        }
        var area = Path(rect: Rect(dest.intersection(p.masksToBounds ? p.bounds : dest)))
        if let clip, p.masksToBounds { area = clip }
        drawImageCell(image, source: source, dest: dest, transform: transform, area: area, into: canvas)
    }

    /// Draws the `source` pixels of `image` stretched onto `dest` (layer points), inside `area`.
    func drawImageCell(_ image: CGImage, source: CGRect, dest: CGRect, transform: Transform, area: Path,
                               into canvas: Pixmap) {
        guard source.width > 0, source.height > 0, dest.width > 0, dest.height > 0 else { return }
        let sx = Double(dest.width / source.width), sy = Double(dest.height / source.height)
        let imageToLayer = Transform(a: sx, b: 0, c: 0, d: sy, tx: Double(dest.minX) - Double(source.minX) * sx,
                                     ty: Double(dest.minY) - Double(source.minY) * sy)
        let pattern = ImagePattern(image: image.pixmap, transform: imageToLayer.concatenating(transform),
                                   filter: .smooth, spread: .pad)
        canvas.fill(area, paint: Paint(shader: .image(pattern)), transform: transform)
    }

    /// `color`'s paint for a part of `layer` drawn under `transform` (layer → device): solid, or
    /// for a pattern colour (`UIColor(patternImage:)`) its tiles repeated from the layer's bounds
    /// origin — a view's pattern background starts at its top-left corner, as on iOS.
    static func paint(_ color: CGColor, in layer: CALayer, transform: Transform) -> Paint {
        let origin = layer.bounds.origin
        let tileToLayer = Transform(a: 1, b: 0, c: 0, d: 1, tx: Double(origin.x), ty: Double(origin.y))
        return Paint(shader: color._shader(tileToDevice: tileToLayer.concatenating(transform)))
    }

    func drawShape(_ s: CAShapeLayer, transform: Transform, into canvas: Pixmap) {
        guard let path = s.path, !path.isEmpty else { return }
        if let fill = s.fillColor, fill.alpha > 0 {
            canvas.fill(path.rasterPath, rule: s.fillRule == .evenOdd ? .evenOdd : .nonZero,
                        paint: Self.paint(fill, in: s, transform: transform), transform: transform)
        }
        guard let stroke = s.strokeColor, stroke.alpha > 0, s.lineWidth > 0 else { return }
        let start = max(0, min(1, s.strokeStart)), end = max(0, min(1, s.strokeEnd))
        guard end > start else { return }
        let trimmed = start == 0 && end == 1 ? path : path.trimmed(from: start, to: end)
        let style = StrokeStyle(width: Double(s.lineWidth),
                                cap: s.lineCap == .round ? .round : s.lineCap == .square ? .square : .butt,
                                join: s.lineJoin == .round ? .round : s.lineJoin == .bevel ? .bevel : .miter,
                                miterLimit: Double(s.miterLimit),
                                dash: s.lineDashPattern?.map(\.doubleValue) ?? [], dashPhase: Double(s.lineDashPhase))
        canvas.stroke(trimmed.rasterPath, style: style, paint: Self.paint(stroke, in: s, transform: transform), transform: transform)
    }

    func drawGradient(_ g: CAGradientLayer, outline: Path, transform: Transform, into canvas: Pixmap) {
        let colors = (g.colors ?? []).compactMap { $0 as? CGColor }
        guard !colors.isEmpty else { return }
        let locations = g.locations?.map { Float($0.doubleValue) }
        let stops = colors.enumerated().map { i, c in
            GradientStop(offset: locations.flatMap { i < $0.count ? $0[i] : nil }
                            ?? (colors.count == 1 ? 0 : Float(i) / Float(colors.count - 1)),
                         color: c.rasterColor)
        }
        let b = g.bounds
        func unit(_ u: CGPoint) -> Point { Point(x: Double(b.minX + u.x * b.width), y: Double(b.minY + u.y * b.height)) }
        let start = unit(g.startPoint), end = unit(g.endPoint)
        let shader: Shader
        switch g.type {
        case .radial:
            // Apple: an ellipse centred on startPoint reaching endPoint on each axis.
            let rx = abs(end.x - start.x), ry = abs(end.y - start.y)
            let r = max(rx, 1e-9)
            let squash = Transform(a: 1, b: 0, c: 0, d: ry > 0 ? ry / r : 1, tx: 0, ty: start.y - start.y * (ry > 0 ? ry / r : 1))
            shader = .radialGradient(RadialGradient(startCenter: start, startRadius: 0, endCenter: start, endRadius: r,
                                                    stops: stops, transform: squash.concatenating(transform)))
        case .conic:
            let angle = atan2(end.y - start.y, end.x - start.x)
            shader = .conicGradient(ConicGradient(center: start, startAngle: angle, stops: stops, transform: transform))
        default:
            shader = .linearGradient(LinearGradient(start: start, end: end, stops: stops, transform: transform))
        }
        canvas.fill(outline, paint: Paint(shader: shader), transform: transform)
    }

    func drawBorder(_ p: CALayer, matrix: CATransform3D, into canvas: Pixmap) {
        guard p.borderWidth > 0, let color = p.borderColor, color.alpha > 0,
              let transform = LayerGeometry.affine(matrix) else { return }
        let w = min(p.borderWidth, min(p.bounds.width, p.bounds.height) / 2)
        let inset = p.bounds.insetBy(dx: w / 2, dy: w / 2)
        let ring = LayerGeometry.roundedRect(inset, radius: max(0, p.cornerRadius - w / 2), corners: p.maskedCorners)
        canvas.stroke(ring, style: StrokeStyle(width: Double(w), join: .round), paint: Paint(color: color.rasterColor),
                      transform: transform)
    }

    /// Core Animation's shadow: the layer's shape (shadowPath, else its rounded bounds when it has a
    /// background, else nothing), offset by shadowOffset, blurred with σ = shadowRadius / 2 (the
    /// canvas / CSS convention that blur radius = 2σ; Apple does not document the mapping), in
    /// shadowColor at shadowOpacity. Drawn through a surface covering only what it can reach.
    func drawShadow(_ p: CALayer, matrix: CATransform3D, into canvas: Pixmap) {
        guard p.shadowOpacity > 0, let color = p.shadowColor, let transform = LayerGeometry.affine(matrix) else { return }
        let shape: Path
        if let sp = p.shadowPath { shape = sp.rasterPath } else if p.backgroundColor != nil || p.contents != nil {
            shape = LayerGeometry.roundedRect(p.bounds, radius: p.cornerRadius, corners: p.maskedCorners)
        } else { return }
        var c = color.rasterColor
        c.a *= p.shadowOpacity
        let (dx, dy) = (p.shadowOffset.width * scale, p.shadowOffset.height * scale)
        let sigma = Double(p.shadowRadius * scale) / 2
        // Only the device box the blurred shape can reach (the shape's box grown by the blur's
        // spread), not the whole canvas: outside it the shadow is transparent either way.
        let shapeBounds = p.shadowPath?.boundingBoxOfPath ?? p.bounds
        let reach = CGFloat(Pixmap.blurMargin(sigma: sigma) + 2)
        guard let box = LayerGeometry.deviceBox(shapeBounds, CATransform3DConcat(matrix, CATransform3DMakeTranslation(dx, dy, 0)),
                                                margin: reach)?.clamped(width: canvas.width, height: canvas.height),
              box.x1 > box.x0, box.y1 > box.y0,
              let shadow = try? Pixmap(width: box.x1 - box.x0, height: box.y1 - box.y0) else { return }
        let toShadow = Transform(a: 1, b: 0, c: 0, d: 1, tx: Double(dx) - Double(box.x0), ty: Double(dy) - Double(box.y0))
        shadow.fill(shape, paint: Paint(color: c), transform: transform.concatenating(toShadow))
        shadow.gaussianBlur(sigma: sigma)
        canvas.draw(shadow, atX: box.x0, y: box.y0)
    }

    // MARK: - Groups, clips, masks

    /// A transparent surface the size of `canvas`.
    func scratch(like canvas: Pixmap) -> Pixmap {
        (try? Pixmap(width: canvas.width, height: canvas.height)) ?? canvas
    }

    func makeClip(_ p: CALayer, matrix: CATransform3D, size: Pixmap) -> Mask? {
        guard let transform = LayerGeometry.affine(matrix),
              let mask = try? Mask(width: size.width, height: size.height) else { return nil }
        mask.fill(LayerGeometry.roundedRect(p.bounds, radius: p.cornerRadius, corners: p.maskedCorners), transform: transform)
        return mask
    }

    /// Keeps the group only where the mask layer's subtree has alpha.
    func applyMask(_ maskLayer: CALayer, layerMatrix: CATransform3D, time: CFTimeInterval, to surface: Pixmap, depth: Int) {
        let m = scratch(like: surface)
        draw(maskLayer, parentMatrix: layerMatrix, parentPresentation: nil, time: time, into: m, depth: depth + 17)
        for i in 0..<(surface.width * surface.height) {
            let a = UInt32(m.pixels[4 * i + 3])
            if a == 255 { continue }
            for k in 0..<4 {
                surface.pixels[4 * i + k] = UInt8((UInt32(surface.pixels[4 * i + k]) * a + 127) / 255)
            }
        }
    }

    func multiply(_ surface: Pixmap, by tint: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)) {
        let f = [tint.r, tint.g, tint.b, tint.a].map { UInt32(($0 * 255).rounded()) }
        for i in 0..<(surface.width * surface.height) {
            for k in 0..<4 where f[k] != 255 {
                surface.pixels[4 * i + k] = UInt8((UInt32(surface.pixels[4 * i + k]) * f[k] + 127) / 255)
            }
        }
    }

}
