import CoreText
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
        } else if let area = LayerContent.rect(p) {
            drawProjected(area: area, of: p, matrix: matrix, into: canvas, kept: (.content, model)) {
                drawFlatContent(model, p, transform: $0, into: $1)
            }
        }
    }

    /// How every part of a layer whose matrix has perspective is drawn (background, contents,
    /// shape / gradient / text, border, shadow, the rounded masksToBounds clip): `body` draws it
    /// flat, under the affine layer → bitmap map it is handed, into a layer-space bitmap covering
    /// `area` (layer points) at the renderer's scale with one pixel of margin; the bitmap is then
    /// warped onto `canvas` by the projective `matrix` (bilinear, the part in front of the eye)
    /// with the perspective-span texture path (`Pixmap.drawTexture(_:inside:imageToDevice:)`).
    /// That path covers by pixel centre, not by area; the transparent margin, reached by the
    /// bilinear filter at the quad's outline, antialiases the layer's edges instead — except
    /// where the layer is shrunk to less than a pixel per texel (seen nearly edge-on), whose
    /// edges are then by pixel centre. (The general
    /// image shader it replaces cost ≈ half of a frame of 200 cut planes: planes-bench.)
    /// The bitmap is an offscreen surface made for `layer`: past the budget, or beyond
    /// `Pixmap`'s limits, the part is not drawn. `clear`: a layer rectangle that `body` leaves
    /// transparent (a border's inside), whose pixels the warp then need not sample
    /// (`Pixmap.drawTexture`'s `clearInside`; the same words).
    /// `kept`: the part of `model` (`layer` its presentation) whose flat bitmap is kept across
    /// frames when its pixels allow (`keptProjection`).
    func drawProjected(area: CGRect, of layer: CALayer, matrix: CATransform3D, into canvas: Pixmap, clear: CGRect? = nil,
                       kept: (part: ProjectedPart.Part, model: CALayer)? = nil, _ body: (Transform, Pixmap) -> Void) {
        guard let warp = LayerGeometry.projective(matrix), area.width > 0, area.height > 0 else { return }
        let s = Double(scale)
        let w = (Double(area.width) * s).rounded(.up) + 2, h = (Double(area.height) * s).rounded(.up) + 2
        let side = 0...Pixmap.maxDimension + 1
        let width = Int(clamping: w, to: side), height = Int(clamping: h, to: side)
        let x0 = Double(area.minX) - 1 / s, y0 = Double(area.minY) - 1 / s
        let layerToBitmap = Transform(a: s, b: 0, c: 0, d: s, tx: -x0 * s, ty: -y0 * s)
        func warpOnto(_ flat: Pixmap, uniform: UniformTexels? = nil) {
            // The clear rectangle in bitmap pixels (layer point p is bitmap pixel (p − origin)·s).
            let clearTexels = clear.map { Rect(x: (Double($0.minX) - x0) * s, y: (Double($0.minY) - y0) * s,
                                               width: Double($0.width) * s, height: Double($0.height) * s) }
            self.warp(flat, bitmapToLayer: Transform(a: 1 / s, b: 0, c: 0, d: 1 / s, tx: x0, ty: y0),
                      covering: CGRect(x: x0, y: y0, width: w / s, height: h / s), by: warp, into: canvas, clear: clearTexels,
                      uniform: uniform)
        }
        if let kept, let part = keptProjection(kept.part, of: kept.model, layer, area: area, width: width, height: height,
                                               draw: { body(layerToBitmap, $0) }) {
            warpOnto(part.pixmap, uniform: part.uniform)
            return
        }
        withOffscreen(width: width, height: height, for: layer) { flat in
            body(layerToBitmap, flat)
            warpOnto(flat)
        }
    }

    /// Composites a layer-space bitmap (`bitmapToLayer`: bitmap pixel → layer point; it covers
    /// the layer rectangle `covered`) onto `canvas` through the projective layer → device
    /// homography `warp`: bilinear, the part in front of the eye, at `opacity`, with the
    /// perspective-span texture path (`Pixmap.drawTexture(_:inside:imageToDevice:)`).
    /// `clear`: bitmap pixels known transparent (`Pixmap.drawTexture`'s `clearInside`); `uniform`:
    /// bitmap pixels of one colour (its `uniformInside`).
    func warp(_ bitmap: Pixmap, bitmapToLayer: Transform, covering covered: CGRect, by warp: Projective, into canvas: Pixmap,
              opacity: Float = 1, clear: Rect? = nil, uniform: UniformTexels? = nil) {
        if LayerGeometry.projectedQuad(covered, warp, into: &quadScratch) {
            canvas.drawTexture(bitmap, inside: quadScratch, imageToDevice: Projective(bitmapToLayer).concatenating(warp),
                               opacity: opacity, clearInside: clear, uniformInside: uniform)
        }
    }

    /// The layer's own content under the affine layer → device `transform`. `style` sets the
    /// background's and a shape's paints (a leaf drawn directly, `drawDirectly`); contents,
    /// drawn content, gradients and text are drawn only in the plain style.
    func drawFlatContent(_ model: CALayer, _ p: CALayer, transform: Transform, into canvas: Pixmap, style: PaintStyle = .plain) {
        let outline = LayerGeometry.outline(of: p)
        if let bg = p.backgroundColor, bg.alpha > 0 {
            canvas.fill(outline, paint: Self.paint(bg, in: p, transform: transform, style: style), transform: transform)
        }
        let clip = p.masksToBounds && p.cornerRadius > 0 ? outline : nil
        if let image = p.contents as? CGImage {
            drawImage(image, p, transform: transform, clip: clip, into: canvas)
        } else if let tiled = model as? CATiledLayer {
            drawTiles(tiled, p, transform: transform, clip: clip, into: canvas)
        } else if let drawn = backingStore(for: model, p) {
            let pattern = ImagePattern(image: drawn, transform: Self.backingStoreToLayer(model, p, scale: scale).concatenating(transform),
                                       filter: .bilinear, spread: .decal)
            canvas.fill(clip ?? Path(rect: Rect(p.bounds)), paint: Paint(shader: .image(pattern)), transform: transform)
        }
        // CAGradientLayer.h: the gradient fills "the shape of the layer (i.e. including rounded
        // corners)" — rounded with or without masksToBounds.
        if let gradient = p as? CAGradientLayer { drawGradient(gradient, outline: outline, transform: transform, into: canvas) }
        if let shape = p as? CAShapeLayer {
            // A shape's path may reach beyond the bounds; it is clipped to the rounded bounds only
            // with masksToBounds (Apple, masksToBounds: "an implicit clipping mask that matches
            // the bounds of the layer and includes any corner radius effects").
            guard p.masksToBounds, Self.contentMayLeaveOutline(p) else {
                return drawShape(shape, transform: transform, clip: nil, into: canvas, style: style)
            }
            clipped(to: outline, of: p, transform: transform, canvas: canvas) {
                drawShape(shape, transform: transform, clip: $0, into: canvas, style: style)
            }
        }
        if let text = p as? CATextLayer {
            // Text stays within the bounds (`TextRenderer.draw`), and the rounded outline with
            // masksToBounds.
            let glyphs = TextRenderer.glyphs(of: text)
            let inset = p.masksToBounds ? 0.3 * max(0, p.cornerRadius) : 0
            guard TextRenderer.leave(glyphs, p.bounds.insetBy(dx: inset, dy: inset)) else {
                return TextRenderer.draw(glyphs, transform: transform, clip: nil, into: canvas)
            }
            let area = p.masksToBounds ? outline : Path(rect: Rect(p.bounds))
            clipped(to: area, of: p, transform: transform, canvas: canvas) { TextRenderer.draw(glyphs, transform: transform, clip: $0, into: canvas) }
        }
    }

    /// How the paints of a layer drawn straight into its target are applied: at an opacity and
    /// with a blend mode, as its group would be composited (`drawDirectly`).
    struct PaintStyle {
        var opacity: Float = 1
        var blendMode: BlendMode = .sourceOver
        /// Full opacity, source-over: how a layer's paints draw into its own group.
        static let plain = PaintStyle()
    }

    /// Runs `draw` with a clip of `area` (`p`'s layer space, through `transform`), a mask the
    /// size of the canvas: without it (past the offscreen budget) nothing is drawn.
    private func clipped(to area: Path, of p: CALayer, transform: Transform, canvas: Pixmap, _ draw: (Mask) -> Void) {
        withOffscreenScope {
            guard let mask = offscreenMask(width: canvas.width, height: canvas.height, for: p) else { return }
            mask.fill(area, transform: transform, scratchOf: canvas)
            draw(mask)
        }
    }

    /// Whether a shape or text layer's content may reach outside its rounded outline: not when
    /// it lies inside the bounds inset by 0.3·cornerRadius (a rounded rectangle holds its bounds
    /// inset by (1 − 1/√2)·radius < 0.3·radius on every side).
    static func contentMayLeaveOutline(_ p: CALayer) -> Bool {
        let safe = p.bounds.insetBy(dx: 0.3 * max(0, p.cornerRadius), dy: 0.3 * max(0, p.cornerRadius))
        guard let area = LayerContent.rect(p) else { return true }
        return !safe.contains(area)
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
                drawImageCell(image, of: p, source: src, dest: dst, transform: transform, area: Path(rect: Rect(dst)), into: canvas)
            }
            return
        }
        var area = Path(rect: Rect(dest.intersection(p.masksToBounds ? p.bounds : dest)))
        if let clip, p.masksToBounds { area = clip }
        drawImageCell(image, of: p, source: source, dest: dest, transform: transform, area: area, into: canvas)
    }

    /// Draws the `source` pixels of `image` (the contents of `p`) stretched onto `dest` (layer
    /// points), inside `area`.
    func drawImageCell(_ image: CGImage, of p: CALayer, source: CGRect, dest: CGRect, transform: Transform, area: Path,
                               into canvas: Pixmap) {
        guard source.width > 0, source.height > 0, dest.width > 0, dest.height > 0 else { return }
        let sx = Double(dest.width / source.width), sy = Double(dest.height / source.height)
        let imageToLayer = Transform(a: sx, b: 0, c: 0, d: sy, tx: Double(dest.minX) - Double(source.minX) * sx,
                                     ty: Double(dest.minY) - Double(source.minY) * sy)
        let imageToDevice = imageToLayer.concatenating(transform)
        var pattern = ImagePattern(image: image.pixmap, transform: imageToDevice,
                                   filter: Self.contentsFilter(p, imageToDevice: imageToDevice), spread: .pad)
        if pattern.filter == .smooth { pattern.levelOfDetailBias = Double(p.minificationFilterBias) }
        canvas.fill(area, paint: Paint(shader: .image(pattern)), transform: transform)
    }

    /// The sampling of a contents image (Apple: minificationFilter is "the filter used when
    /// reducing the size of the content", magnificationFilter "when increasing the size", both
    /// `linear` by default): `nearest` samples the nearest texel, `linear` filters bilinearly
    /// (no mipmaps, so a large image drawn small aliases, as linear filtering does on the GPU),
    /// and `trilinear` when minifying ("Enables mipmap generation") picks the mipmap level
    /// ⌊log₂(texels per pixel) + minificationFilterBias⌋ (Apple, minificationFilterBias: "The bias
    /// factor added when determining which levels of detail to use when minifying using
    /// trilinear filtering", default 0) and filters bilinearly in it. Citrine samples that one
    /// level rather than blending the two nearest (GPU trilinear filtering blends them).
    static func contentsFilter(_ p: CALayer, imageToDevice t: Transform) -> ImageFilter {
        let pixelsPerTexel = abs(t.a * t.d - t.b * t.c).squareRoot()
        let filter = pixelsPerTexel < 1 ? p.minificationFilter : p.magnificationFilter
        switch filter {
        case .nearest: return .nearest
        case .trilinear where pixelsPerTexel < 1: return .smooth
        default: return .bilinear
        }
    }

    /// `color`'s paint for a part of `layer` drawn under `transform` (layer → device): solid, or
    /// for a pattern colour (`UIColor(patternImage:)`) its tiles repeated from the layer's bounds
    /// origin — a view's pattern background starts at its top-left corner, as on iOS.
    /// `style`: the paint's opacity (multiplying the colour's alpha) and blend mode (default plain).
    static func paint(_ color: CGColor, in layer: CALayer, transform: Transform, style: PaintStyle = .plain) -> Paint {
        let origin = layer.bounds.origin
        let tileToLayer = Transform(a: 1, b: 0, c: 0, d: 1, tx: Double(origin.x), ty: Double(origin.y))
        return Paint(shader: color._shader(tileToDevice: tileToLayer.concatenating(transform)), blendMode: style.blendMode,
                     opacity: style.opacity)
    }

    /// A shape layer's fill and stroke, their paints in `style` (default plain).
    func drawShape(_ s: CAShapeLayer, transform: Transform, clip: Mask?, into canvas: Pixmap, style: PaintStyle = .plain) {
        guard let path = s.path, !path.isEmpty else { return }
        if let fill = s.fillColor, fill.alpha > 0 {
            canvas.fill(path.rasterPath, rule: s.fillRule == .evenOdd ? .evenOdd : .nonZero,
                        paint: Self.paint(fill, in: s, transform: transform, style: style), transform: transform, clip: clip)
        }
        guard let stroke = s.strokeColor, stroke.alpha > 0, s.lineWidth > 0 else { return }
        let start = max(0, min(1, s.strokeStart)), end = max(0, min(1, s.strokeEnd))
        guard end > start else { return }
        let trimmed = start == 0 && end == 1 ? path : path.trimmed(from: start, to: end)
        let stroking = StrokeStyle(width: Double(s.lineWidth),
                                   cap: s.lineCap == .round ? .round : s.lineCap == .square ? .square : .butt,
                                   join: s.lineJoin == .round ? .round : s.lineJoin == .bevel ? .bevel : .miter,
                                   miterLimit: Double(s.miterLimit),
                                   dash: s.lineDashPattern?.map(\.doubleValue) ?? [], dashPhase: Double(s.lineDashPhase))
        canvas.stroke(trimmed.rasterPath, style: stroking, paint: Self.paint(stroke, in: s, transform: transform, style: style),
                      transform: transform, clip: clip)
    }

    /// A gradient layer's gradient, laid out in the unit square and then stretched onto the bounds
    /// (CAGradientLayer.h: startPoint and endPoint are "defined in a unit coordinate space that is
    /// then mapped to the layer's bounds rectangle when drawn"): on a non-square layer a diagonal
    /// gradient's isolines are perpendicular in unit space, not in points. Unit (0, 0) is the
    /// bounds' minimum corner, the top left in iOS's y-down layer space.
    func drawGradient(_ g: CAGradientLayer, outline: Path, transform: Transform, into canvas: Pixmap) {
        let colors = (g.colors ?? []).compactMap { $0 as? CGColor }
        let b = g.bounds
        guard !colors.isEmpty, b.width > 0, b.height > 0 else { return }
        let locations = g.locations?.map { Float($0.doubleValue) }
        let stops = colors.enumerated().map { i, c in
            GradientStop(offset: locations.flatMap { i < $0.count ? $0[i] : nil }
                            ?? (colors.count == 1 ? 0 : Float(i) / Float(colors.count - 1)),
                         color: c.rasterColor)
        }
        let start = Point(x: Double(g.startPoint.x), y: Double(g.startPoint.y))
        let end = Point(x: Double(g.endPoint.x), y: Double(g.endPoint.y))
        let unitToDevice = Transform(a: Double(b.width), b: 0, c: 0, d: Double(b.height),
                                     tx: Double(b.minX), ty: Double(b.minY)).concatenating(transform)
        let shader: Shader
        switch g.type {
        case .radial:
            // Apple: an ellipse centred on startPoint reaching endPoint on each axis.
            let rx = abs(end.x - start.x), ry = abs(end.y - start.y)
            let r = max(rx, 1e-9)
            let squash = Transform(a: 1, b: 0, c: 0, d: ry > 0 ? ry / r : 1, tx: 0, ty: start.y - start.y * (ry > 0 ? ry / r : 1))
            shader = .radialGradient(RadialGradient(startCenter: start, startRadius: 0, endCenter: start, endRadius: r,
                                                    stops: stops, transform: squash.concatenating(unitToDevice)))
        case .conic:
            let angle = atan2(end.y - start.y, end.x - start.x)
            shader = .conicGradient(ConicGradient(center: start, startAngle: angle, stops: stops, transform: unitToDevice))
        default:
            shader = .linearGradient(LinearGradient(start: start, end: end, stops: stops, transform: unitToDevice))
        }
        canvas.fill(outline, paint: Paint(shader: shader), transform: transform)
    }

    /// The border, inside the bounds and rounded like them, on top of the sublayers: circular
    /// corners as the bounds inset by half the width stroked (its outer edge is the outline),
    /// continuous ones as the band between the outline and the outline inset by the width. Its
    /// paint in `style` (default plain). `model`: the layer `p` presents, when the border's flat
    /// bitmap under perspective may be kept across frames (in the plain style, `drawProjected`).
    func drawBorder(_ p: CALayer, matrix: CATransform3D, into canvas: Pixmap, style: PaintStyle = .plain, model: CALayer? = nil) {
        guard p.borderWidth > 0, let color = p.borderColor, color.alpha > 0 else { return }
        let w = min(p.borderWidth, min(p.bounds.width, p.bounds.height) / 2)
        let inset = p.bounds.insetBy(dx: w / 2, dy: w / 2)
        let ring = LayerGeometry.roundedRect(inset, radius: max(0, p.cornerRadius - w / 2), corners: p.maskedCorners)
        let continuous = p._renderingOptions.contains(.continuousCorners)
        let paint = Paint(shader: .solid(color.rasterColor), blendMode: style.blendMode, opacity: style.opacity)
        func stroke(_ transform: Transform, _ target: Pixmap) {
            if continuous {
                // The outline minus the outline inset by the width (radius − width): the outer
                // edge is the background's edge (an offset continuous curve is not one).
                var band = LayerGeometry.outline(of: p)
                let inner = LayerGeometry.roundedRect(p.bounds.insetBy(dx: w, dy: w), radius: max(0, p.cornerRadius - w),
                                                      corners: p.maskedCorners, continuous: true)
                band.verbs += inner.verbs
                band.points += inner.points
                target.fill(band, rule: .evenOdd, paint: paint, transform: transform)
            } else {
                target.stroke(ring, style: StrokeStyle(width: Double(w), join: .round), paint: paint, transform: transform)
            }
        }
        if let transform = LayerGeometry.affine(matrix) {
            stroke(transform, canvas)
        } else {
            let plain = style.opacity == 1 && style.blendMode == .sourceOver
            drawProjected(area: p.bounds, of: p, matrix: matrix, into: canvas,
                          clear: Self.borderClearInside(p, width: w, pixelsPerPoint: scale),
                          kept: plain ? model.map { (.border, $0) } : nil, stroke)
        }
    }

    /// The rectangle (layer points) inside a border of width `w` that its drawing leaves
    /// transparent; nil when none is left. The ring's inner edge is the bounds inset by `w` with
    /// corners of radius cornerRadius − w at most; the bounds inset by `w` plus that radius lie
    /// inside it, circular or continuous corners (checked by drawing: BorderClearInsideTests).
    /// Less the edge's antialiasing (one bitmap pixel at `pixelsPerPoint`) and a pixel to spare.
    static func borderClearInside(_ p: CALayer, width w: CGFloat, pixelsPerPoint: CGFloat) -> CGRect? {
        let aside = w + max(0, p.cornerRadius - w) + 2 / pixelsPerPoint
        let clear = p.bounds.insetBy(dx: aside, dy: aside)
        return clear.width > 0 && clear.height > 0 ? clear : nil
    }

    /// Whether `p`'s shadow must be cast from the layer's rendered alpha, after drawing it offscreen
    /// (`withShadowBeneath`). Apple, shadowPath: without it the shadow is created "using the
    /// layer's composited alpha channel" — a shape layer's fill and stroke, a text layer's glyphs,
    /// sublayers, contents with transparent pixels. Not needed when there is no shadow, when
    /// shadowPath is set, or when that alpha is known to be the rounded bounds (an opaque
    /// background under content that stays inside it, and no sublayers): `drawShadow` then draws
    /// the shape directly.
    static func castsShadowFromAlpha(_ model: CALayer, _ p: CALayer) -> Bool {
        guard p.shadowOpacity > 0, p.shadowColor != nil, p.shadowPath == nil, !(p is CATransformLayer) else { return false }
        return !alphaIsRoundedBounds(model, p)
    }

    /// Whether everything `p` draws of its own and below covers exactly its rounded bounds.
    private static func alphaIsRoundedBounds(_ model: CALayer, _ p: CALayer) -> Bool {
        guard let bg = p.backgroundColor, bg.alpha >= 1, model.sublayers?.isEmpty ?? true else { return false }
        return !(p is CAShapeLayer) && !(p is CATextLayer) && (p.contents == nil || p.masksToBounds)
    }

    /// Core Animation's shadow: the layer's shape (shadowPath, else its rounded bounds when that
    /// is its alpha — otherwise the alpha shadow of `withShadowBeneath`), offset by shadowOffset,
    /// blurred with a Gaussian of σ = shadowRadius (`shadowSigma`), in shadowColor at
    /// shadowOpacity, clipped to the rounded bounds with masksToBounds (`shadowClip`). Drawn
    /// through a surface covering only what it can reach; under perspective in the layer's plane
    /// (`drawProjected`).
    func drawShadow(_ model: CALayer, _ p: CALayer, matrix: CATransform3D, into canvas: Pixmap) {
        guard p.shadowOpacity > 0, let color = p.shadowColor else { return }
        let shape: Path
        if let sp = p.shadowPath { shape = sp.rasterPath } else if Self.alphaIsRoundedBounds(model, p) {
            shape = LayerGeometry.outline(of: p)
        } else { return }
        let shapeBounds = p.shadowPath?.boundingBoxOfPath ?? p.bounds
        if let transform = LayerGeometry.affine(matrix) {
            drawShadow(p, shape: shape, shapeBounds: shapeBounds, color: color, transform: transform, into: canvas)
        } else {
            let reach = Self.shadowReach(p, pixelsPerPoint: scale) / scale
            let area = shapeBounds.offsetBy(dx: p.shadowOffset.width, dy: p.shadowOffset.height).insetBy(dx: -reach, dy: -reach)
            drawProjected(area: area, of: p, matrix: matrix, into: canvas) {
                drawShadow(p, shape: shape, shapeBounds: shapeBounds, color: color, transform: $0, into: $1)
            }
        }
    }

    /// How far (pixels, at `pixelsPerPoint`) `p`'s blurred shadow reaches beyond its offset
    /// shape: the blur's three standard deviations (σ = shadowRadius · pixelsPerPoint),
    /// rounded up (`Pixmap.blurMargin`, the kernel's radius), and two pixels for antialiasing
    /// and resampling. Every box that must hold a shadow grows by this.
    static func shadowReach(_ p: CALayer, pixelsPerPoint: CGFloat) -> CGFloat {
        CGFloat(Pixmap.blurMargin(sigma: shadowSigma(p, pixelsPerPoint: pixelsPerPoint)) + 2)
    }

    /// The standard deviation (pixels, at `pixelsPerPoint`) of `p`'s shadow blur: shadowRadius
    /// points — Core Animation's `shadowRadius` is the Gaussian's σ itself, not a CSS-style blur
    /// radius of 2σ. Apple does not document the kernel; the evidence:
    /// - WebKit hands a CSS `drop-shadow()` filter's standard deviation to Core Animation
    ///   unchanged as the layer's `shadowRadius` (WebCore `PlatformCAFiltersCocoa.mm`,
    ///   `setShadowRadius:dropShadowOperation.stdDeviation()`), and a CSS `blur()`'s standard
    ///   deviation as the Gaussian blur filter's `inputRadius`;
    /// - the design-tool conversions in wide use set `shadowRadius` = blur / 2 for a Sketch /
    ///   Figma shadow of blur b, whose Gaussian (CSS `box-shadow` convention) has σ = b / 2.
    /// `CGContext.setShadow(offset:blur:)` keeps σ = blur / 2: its `blur` is Core Graphics' blur
    /// amount, a different parameter (see there). Closed-form check: CompositorTests
    /// `ShadowProfileTests`.
    static func shadowSigma(_ p: CALayer, pixelsPerPoint: CGFloat) -> Double {
        Double(p.shadowRadius * pixelsPerPoint)
    }

    private func drawShadow(_ p: CALayer, shape: Path, shapeBounds: CGRect, color: CGColor, transform: Transform,
                            into canvas: Pixmap) {
        var c = color.rasterColor
        c.a *= p.shadowOpacity
        let sigma = Self.shadowSigma(p, pixelsPerPoint: scale)
        // The offset is in layer space: the shadow turns with the layer, as it does on iOS (the
        // shadow is part of the layer's rendering; community-verified, not documented by Apple).
        let offset = Transform(a: 1, b: 0, c: 0, d: 1, tx: Double(p.shadowOffset.width), ty: Double(p.shadowOffset.height))
            .concatenating(transform)
        // Only the device box the blurred shape can reach (the shape's box grown by the blur's
        // spread), not the whole canvas: outside it the shadow is transparent either way.
        let reach = Self.shadowReach(p, pixelsPerPoint: scale)
        guard let box = LayerGeometry.deviceBox(shapeBounds, CATransform3D(offset),
                                                margin: reach)?.clamped(width: canvas.width, height: canvas.height),
              box.x1 > box.x0, box.y1 > box.y0 else { return }
        withOffscreen(width: box.x1 - box.x0, height: box.y1 - box.y0, for: p) { shadow in
            let toShadow = Transform(a: 1, b: 0, c: 0, d: 1, tx: -Double(box.x0), ty: -Double(box.y0))
            shadow.fill(shape, paint: Paint(color: c), transform: offset.concatenating(toShadow))
            shadow.gaussianBlur(sigma: sigma)
            if Self.shadowClip(p) {
                // Blurred first over the whole box (the clip must not cut the shape the blur
                // spreads), then kept inside the rounded bounds; without the mask (past the
                // offscreen budget) the shadow is not drawn.
                guard let clip = offscreenMask(width: shadow.width, height: shadow.height, for: p) else { return }
                clip.fill(LayerGeometry.outline(of: p), transform: transform.concatenating(toShadow), scratchOf: shadow)
                Self.keep(shadow, inside: clip)
            }
            canvas.draw(shadow, atX: box.x0, y: box.y0)
        }
    }

    /// Whether `p`'s shadow is clipped to its rounded bounds: with masksToBounds. Apple,
    /// `shadowPath`: "If the path extends outside the layer bounds it will not automatically be
    /// clipped to the layer, only if the normal layer masking rules cause that" — masksToBounds
    /// is such a rule, and on iOS a masksToBounds layer shows no shadow outside its bounds (the
    /// reason for the "container view for the shadow, inner view for the clip" idiom: Nick
    /// Lockwood, *iOS Core Animation: Advanced Techniques*, ch. 4, "Shadow Clipping"). Inside
    /// the bounds the shadow stays beneath the layer's content. Tested by CompositorTests
    /// `ShadowProfileTests`.
    static func shadowClip(_ p: CALayer) -> Bool { p.masksToBounds }

    /// Multiplies every pixel of `surface` (premultiplied) by `mask`'s coverage there (same size).
    static func keep(_ surface: Pixmap, inside mask: Mask) {
        let px = surface.pixels, m = mask.data
        for i in 0..<(surface.width * surface.height) {
            let a = UInt32(m[i])
            if a == 255 { continue }
            for k in 0..<4 { px[4 * i + k] = UInt8((UInt32(px[4 * i + k]) * a + 127) / 255) }
        }
    }

    /// The group `surface` (the layer and its subtree, drawn offscreen under the layer → surface
    /// `matrix`) over its shadow: the surface's alpha in shadowColor at shadowOpacity, moved by
    /// shadowOffset (layer space, mapped at the bounds' centre) and blurred with
    /// σ = shadowRadius·scale (as `drawShadow`), clipped to the rounded bounds with
    /// masksToBounds (`shadowClip`). The result is a new surface, counted in the
    /// caller's offscreen scope; nil when it or the shadow's is past the budget.
    func withShadowBeneath(_ model: CALayer, _ p: CALayer, _ surface: Pixmap, matrix: CATransform3D) -> Pixmap? {
        guard let color = p.shadowColor else { return surface }
        guard let group = offscreenPixmap(width: surface.width, height: surface.height, for: model) else { return nil }
        var clip: Mask?
        if Self.shadowClip(p) {
            guard let mask = makeClip(p, of: model, matrix: matrix, size: group) else { return nil }
            clip = mask
        }
        let drawn: Void? = withOffscreen(width: surface.width, height: surface.height, for: model) { alpha in
            drawAlphaShadow(of: surface, in: color, p, matrix: matrix, into: group, alpha: alpha, clip: clip)
        }
        guard drawn != nil else { return nil }
        group.draw(surface, atX: 0, y: 0)
        return group
    }

    /// The blurred, offset shadow of `surface`'s alpha (see `withShadowBeneath`) into `group`,
    /// through the transparent scratch `alpha` of the same size, and through `clip` (the
    /// masksToBounds clip, `group`'s size) when given.
    private func drawAlphaShadow(of surface: Pixmap, in color: CGColor, _ p: CALayer, matrix: CATransform3D, into group: Pixmap,
                                 alpha: Pixmap, clip: Mask?) {
        var c = color.rasterColor
        c.a *= p.shadowOpacity
        let shade = c.premultiplied
        let (src, dst) = (surface.pixels, alpha.pixels)
        for i in 0..<(surface.width * surface.height) {
            let a = UInt32(src[4 * i + 3])
            guard a != 0 else { continue }
            dst[4 * i] = UInt8((UInt32(shade.r) * a + 127) / 255)
            dst[4 * i + 1] = UInt8((UInt32(shade.g) * a + 127) / 255)
            dst[4 * i + 2] = UInt8((UInt32(shade.b) * a + 127) / 255)
            dst[4 * i + 3] = UInt8((UInt32(shade.a) * a + 127) / 255)
        }
        alpha.gaussianBlur(sigma: Self.shadowSigma(p, pixelsPerPoint: scale))
        let (mx, my) = (p.bounds.midX, p.bounds.midY)
        let from = matrix._project(x: mx, y: my), to = matrix._project(x: mx + p.shadowOffset.width, y: my + p.shadowOffset.height)
        let offset = Transform(a: 1, b: 0, c: 0, d: 1, tx: Double(to.x - from.x).finiteOrZero, ty: Double(to.y - from.y).finiteOrZero)
        group.fill(Rect(x: 0, y: 0, width: Double(group.width), height: Double(group.height)),
                   paint: Paint(shader: .image(ImagePattern(image: alpha, transform: offset, filter: .bilinear, spread: .decal))),
                   clip: clip)
    }

    // MARK: - Groups, clips, masks

    /// The masksToBounds clip of `p` (presenting `model`): the rounded bounds as a mask the size
    /// of `size`; under perspective the projected outline's coverage (`drawProjected`). Counted
    /// in the caller's offscreen scope; nil past the budget.
    func makeClip(_ p: CALayer, of model: CALayer, matrix: CATransform3D, size: Pixmap) -> Mask? {
        guard let mask = offscreenMask(width: size.width, height: size.height, for: model) else { return nil }
        let outline = LayerGeometry.outline(of: p)
        if let transform = LayerGeometry.affine(matrix) {
            mask.fill(outline, transform: transform, scratchOf: size)
            return mask
        }
        let covered: Void? = withOffscreen(width: size.width, height: size.height, for: model) { coverage in
            drawProjected(area: p.bounds, of: model, matrix: matrix, into: coverage) {
                $1.fill(outline, paint: Paint(color: Color(r: 0, g: 0, b: 0, a: 1)), transform: $0)
            }
            for i in 0..<(size.width * size.height) { mask.data[i] = coverage.pixels[4 * i + 3] }
        }
        return covered == nil ? nil : mask
    }

    /// Keeps the group of `owner` only where the mask layer's subtree has alpha; false (the
    /// group is then not drawn) when the mask's surface is past the offscreen budget.
    func applyMask(_ maskLayer: CALayer, of owner: CALayer, layerMatrix: CATransform3D, time: CFTimeInterval, to surface: Pixmap,
                   depth: Int) -> Bool {
        let masked: Void? = withOffscreen(width: surface.width, height: surface.height, for: owner) { m in
            draw(maskLayer, parentMatrix: layerMatrix, parentPresentation: nil, time: time, into: m, depth: depth + Self.maskDepthCost)
            // Each channel times the mask's alpha / 255, rounded to nearest (destination-in).
            surface.draw(m, atX: 0, y: 0, blendMode: .destinationIn)
        }
        return masked != nil
    }

    /// Multiplies the group's colours and alpha by an un-premultiplied `tint` (a replicator's
    /// instance colour, a transform layer's opacity): the un-premultiplied pixel (c, α) becomes
    /// (c·tint.rgb, α·tint.a), so the premultiplied one (c·α, α) is multiplied by
    /// (r·a, g·a, b·a, a). Every channel then stays ≤ alpha (valid premultiplied data).
    func multiply(_ surface: Pixmap, by tint: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)) {
        let f = [tint.r * tint.a, tint.g * tint.a, tint.b * tint.a, tint.a].map { UInt32(($0 * 255).rounded()) }
        let px = surface.pixels
        for i in 0..<(surface.width * surface.height) {
            for k in 0..<4 where f[k] != 255 {
                px[4 * i + k] = UInt8((UInt32(px[4 * i + k]) * f[k] + 127) / 255)
            }
        }
    }

}

private extension Double {
    /// The value, or 0 when it is NaN or infinite (a point projected behind the eye).
    var finiteOrZero: Double { isFinite ? self : 0 }
}
