import Raster

// Shadows (Apple's setShadow). While a shadow is set, every draw first paints a blurred,
// offset copy of its shape in the shadow colour, then the shape itself.

extension CGContext {
    /// Turns shadows on (Apple's `setShadow(offset:blur:color:)`); a nil `color` turns them
    /// off.
    ///
    /// - `offset`: in base space, i.e. the bitmap's default user space (y up), unaffected by
    ///   the CTM (Apple: "a translation in base-space"): `CGSize(width: 0, height: 5)` moves
    ///   the shadow 5 pixels towards the top of the image.
    /// - `blur`: Core Graphics' blur amount, non-negative. Citrine blurs with a Gaussian of
    ///   standard deviation σ = blur / 2. Apple does not document the kernel. σ = blur/2 is
    ///   the HTML canvas definition of `shadowBlur`, and WebKit, whose graphics layer is
    ///   modelled on Core Graphics (the same blur value its CG port hands to
    ///   `CGContextSetShadowWithColor`), turns it into σ = blur/2 in its Skia port
    ///   (WebCore `GraphicsContext::setPlatformShadow`), which also uses Apple's default
    ///   shadow colour, black at 1/3 alpha. Apple documents `blur` only as "a non-negative
    ///   number specifying the amount of blur", not as a standard deviation, so this stays at
    ///   blur / 2 — unlike `CALayer.shadowRadius`, which is the Gaussian's σ itself (the
    ///   compositor's `shadowSigma`: WebKit hands a CSS standard deviation to Core Animation's
    ///   `shadowRadius` unchanged, but a CSS `box-shadow` blur radius b, whose σ is b / 2, to
    ///   `CGContextSetShadowWithColor` as b).
    /// - `color`: multiplied by the coverage and alpha of what is drawn.
    public func setShadow(offset: CGSize, blur: CGFloat, color: CGColor?) {
        guard let color, offset.width.isFinite, offset.height.isFinite, blur.isFinite else {
            state.shadow = nil
            return
        }
        state.shadow = Shadow(offset: offset, blur: max(blur, 0), color: color.rasterColor)
    }

    /// A shadow in black with alpha 1/3, Apple's default shadow colour.
    public func setShadow(offset: CGSize, blur: CGFloat) {
        setShadow(offset: offset, blur: blur, color: CGColor(gray: 0, alpha: 1.0 / 3.0))
    }

    /// Paints the shadow of device-space `path` filled with `shader` under the current
    /// alpha, clip and blend mode.
    func drawShadow(_ shadow: Shadow, of path: CGPath, rule: FillRule, shader: Shader) {
        drawShadow(shadow, shader: shader) { scratch, shift, paint in
            CGContext.fill(path, movedBy: shift, rule: rule, paint: paint, clip: nil, into: scratch)
        }
    }

    /// Paints the shadow of what `draw` paints with `shader` under the current alpha, clip and
    /// blend mode: `draw` paints it into a transparent scratch bitmap (`scratch`) with the
    /// device → scratch translation (`shift`: the shadow's offset and the blur's margin) and the
    /// paint to use; the result is tinted with the shadow colour, blurred and composited.
    func drawShadow(_ shadow: Shadow, shader: Shader,
                    draw: (_ scratch: Pixmap, _ shift: CGAffineTransform, _ paint: Paint) -> Void) {
        let sigma = Double(shadow.blur) / 2
        let margin = RasterBackend.blurMargin(sigma: sigma)
        guard let scratch = try? Pixmap(width: target.width + 2 * margin, height: target.height + 2 * margin)
        else { return }
        let dx = shadow.offset.width, dy = -shadow.offset.height  // base space is y-up
        let shape = Paint(shader: shader.translated(x: Double(dx) + Double(margin), y: Double(dy) + Double(margin)),
                          blendMode: .sourceOver, opacity: Float(state.alpha),
                          antiAlias: state.shouldAntialias)
        draw(scratch, CGAffineTransform(translationX: dx + CGFloat(margin), y: dy + CGFloat(margin)), shape)
        CGContext.tint(scratch, with: shadow.color)
        if sigma > 0 { RasterBackend.blur(scratch, sigma: sigma) }
        composite(scratch, at: -margin, -margin, opacity: 1, blendMode: state.blendMode, clip: state.clip)
    }

    /// Replaces every pixel by `color` scaled by the pixel's alpha (premultiplied).
    static func tint(_ pixmap: Pixmap, with color: Color) {
        let c = color.premultiplied
        let count = pixmap.width * pixmap.height
        let p = pixmap.pixels
        for i in 0..<count {
            let a = UInt32(p[i * 4 + 3])
            func scale(_ v: UInt8) -> UInt8 { UInt8((UInt32(v) * a + 127) / 255) }
            p[i * 4] = scale(c.r); p[i * 4 + 1] = scale(c.g); p[i * 4 + 2] = scale(c.b); p[i * 4 + 3] = scale(c.a)
        }
    }

    /// Draws `source` with its top-left pixel at device (`x`, `y`) onto the target.
    func composite(_ source: Pixmap, at x: Int, _ y: Int, opacity: CGFloat, blendMode: CGBlendMode, clip: Mask?) {
        copyInFromCaller()
        RasterBackend.composite(source, at: x, y, opacity: Float(opacity), blendMode: blendMode.rasterBlendMode,
                                clip: clip, onto: target)
        copyOutToCaller()
    }
}

extension Shader {
    /// The same paint moved by (`x`, `y`) device pixels.
    func translated(x: Double, y: Double) -> Shader {
        let move = Transform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
        switch self {
        case .solid: return self
        case .linearGradient(var g): g.transform = g.transform.concatenating(move); return .linearGradient(g)
        case .radialGradient(var g): g.transform = g.transform.concatenating(move); return .radialGradient(g)
        case .conicGradient(var g): g.transform = g.transform.concatenating(move); return .conicGradient(g)
        case .image(var pattern):
            let m = pattern.transform.m
            pattern.transform = Projective(m.0 + x * m.6, m.1 + x * m.7, m.2 + x * m.8,
                                           m.3 + y * m.6, m.4 + y * m.7, m.5 + y * m.8,
                                           m.6, m.7, m.8)
            return .image(pattern)
        }
    }
}
