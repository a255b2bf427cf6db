// The layer delegate methods of a view: drawing, layout and the implicit-animation rule.

extension UIView {
    // MARK: CALayerDelegate

    /// Draws the layer's content: makes `ctx` the current UIGraphics context and calls
    /// `draw(_:)` with the layer's bounds.
    public func draw(_ layer: CALayer, in ctx: CGContext) {
        UIGraphicsPushContext(ctx)
        draw(layer.bounds)
        UIGraphicsPopContext()
    }

    /// The layer's sublayers need layout: `layoutSubviews()`.
    public func layoutSublayers(of layer: CALayer) {
        guard layer === self.layer else { return }
        layoutSubviews()
    }

    /// The implicit-animation rule of views: outside an animation block, `NSNull()` (no
    /// animation, and the search stops, so the layer's own default does not apply); inside
    /// `UIView.animate`, an animation of `event` with the block's timing (see
    /// `UIView.animate(withDuration:delay:options:animations:completion:)`).
    public func action(for layer: CALayer, forKey event: String) -> CAAction? {
        UIViewAnimationContext.action(for: self, layer: layer, key: event)
    }
}
