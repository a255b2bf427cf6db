import QuartzCore
import Raster

/// Layer filters (`CALayer.filters`, `backgroundFilters`, `compositingFilter`; the filter types
/// and their sources are documented on `CAFilter`).
///
/// A layer with filters in effect is drawn as a group, in this order:
///
///     backgroundFilters: the canvas behind the layer's rounded bounds is filtered in place
///     the layer and its sublayers → an offscreen surface (without their shadow)
///     filters, in array order, on that surface
///     the shadow beneath the filtered surface (from its alpha; shadowPath's shape when set)
///     mask, replicator tint
///     composited with opacity and compositingFilter's blend mode (source-over without one)
///
/// Lengths: a blur's `inputRadius` is a standard deviation in points, times the renderer's
/// scale in pixels (as `shadowRadius`), applied in device space. A filtered layer is neither
/// retained as a bitmap nor damage-tracked (the frame is redrawn whole): its pixels depend on
/// what its blur gathers from around it.
extension LayerRenderer {
    func drawFiltered(_ model: CALayer, _ p: CALayer, _ effects: _LayerEffects, matrix: CATransform3D,
                      time: CFTimeInterval, into canvas: Pixmap, depth: Int,
                      tint: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)?) {
        if !effects.backgroundFilters.isEmpty {
            guard filterBackdrop(model, p, effects.backgroundFilters, matrix: matrix, canvas: canvas) else { return }
        }
        compositeGroup(model, p, matrix: matrix, time: time, canvas: canvas, spread: CGFloat(blurSpread(effects.filters)),
                       blendMode: effects.blendMode?.rasterBlendMode ?? .sourceOver) {
            drawGroup(model, p, matrix: $1, time: time, into: $0, depth: depth, tint: tint, filters: effects.filters)
        }
    }

    /// Applies `filters` in order to `surface`.
    func apply(_ filters: [_FilterEffect], to surface: Pixmap) {
        for filter in filters {
            switch filter {
            case let .blur(radius): surface.boundedGaussianBlur(sigma: radius * Double(scale))
            case let .colorMatrix(m): surface.applyColorMatrix(m.values)
            case .composite: break
            }
        }
    }

    /// How far (pixels) `filters` can move content: the blurs' spreads, added up.
    func blurSpread(_ filters: [_FilterEffect]) -> Int {
        filters.reduce(0) { total, filter in
            guard case let .blur(radius) = filter else { return total }
            return min(Pixmap.maxDimension, total + Pixmap.blurMargin(sigma: radius * Double(scale)))
        }
    }

    /// The filtered `body` over the layer's shadow: cast from the filtered alpha, or from
    /// shadowPath when set (then not filtered). A new surface counted in the caller's offscreen
    /// scope when there is a shadow; nil past the budget.
    func withFilteredShadow(_ model: CALayer, _ p: CALayer, _ body: Pixmap, matrix: CATransform3D) -> Pixmap? {
        guard p.shadowOpacity > 0, p.shadowColor != nil else { return body }
        guard p.shadowPath != nil else { return withShadowBeneath(model, p, body, matrix: matrix) }
        guard let group = offscreenPixmap(width: body.width, height: body.height, for: model) else { return nil }
        drawShadow(model, p, matrix: matrix, into: group)
        group.draw(body, atX: 0, y: 0)
        return group
    }

    /// Filters the canvas behind `p`'s rounded bounds in place: the pixels around them (as far
    /// as the filters spread) are copied out, filtered, and written back inside the outline
    /// only, anti-aliased at its edge. False when its offscreen surfaces are past the budget:
    /// the layer is then not drawn.
    private func filterBackdrop(_ model: CALayer, _ p: CALayer, _ filters: [_FilterEffect], matrix: CATransform3D,
                                canvas: Pixmap) -> Bool {
        let spread = CGFloat(blurSpread(filters)) + 1
        guard let box = LayerGeometry.deviceBox(p.bounds, matrix, margin: spread)?.clamped(width: canvas.width, height: canvas.height),
              !box.isEmpty else { return true }
        return withOffscreenScope {
            // The outline in the canvas's pixels (it lies within the box, which only the canvas clips).
            guard let backdrop = offscreenPixmap(width: box.x1 - box.x0, height: box.y1 - box.y0, for: model),
                  let outline = makeClip(p, of: model, matrix: matrix, size: canvas) else { return false }
            backdrop.draw(canvas, atX: -box.x0, y: -box.y0)
            apply(filters, to: backdrop)
            canvas.draw(backdrop, atX: box.x0, y: box.y0, blendMode: .copy, clip: outline)
            return true
        }
    }
}
