// The layer delegate methods of a view: drawing, layout and the implicit-animation rule.

import Raster

extension UIView {
    // MARK: CALayerDelegate

    /// Draws the layer's content: makes `ctx` the current UIGraphics context and calls
    /// `draw(_:)` with the layer's bounds. When only `UIView`'s own `draw(_:)` ran (not
    /// overridden, or an override that calls `super` and draws nothing) and `ctx` is still
    /// transparent, the view remembers that it draws nothing (`_drawsContent(of:)`).
    public func draw(_ layer: CALayer, in ctx: CGContext) {
        UIGraphicsPushContext(ctx)
        defaultDrawRan = false
        draw(layer.bounds)
        UIGraphicsPopContext()
        var empty = false
        if defaultDrawRan { ctx._withTargetPixels { empty = $0.isTransparent } }
        if layer === self.layer { drawsNothing = empty }
    }

    /// Whether `layer` needs a backing store: as in UIKit, not for a view that does not override
    /// `draw(_:)`. Swift cannot see an override, so a view's first display finds out (see
    /// `draw(_:in:)`): until then, and whenever the layer needs display, it answers true.
    public func _drawsContent(of layer: CALayer) -> Bool {
        layer !== self.layer || !drawsNothing || layer.needsDisplay()
    }

    /// The layer's sublayers need layout: `layoutSubviews()`, between the owning view
    /// controller's `viewWillLayoutSubviews()` and `viewDidLayoutSubviews()` for its root view.
    public func layoutSublayers(of layer: CALayer) {
        guard layer === self.layer else { return }
        let controller = viewController
        controller?.viewWillLayoutSubviews()
        layoutSubviews()
        controller?.viewDidLayoutSubviews()
    }

    /// The implicit-animation rule of views: outside an animation block, `NSNull()` (no
    /// animation, and the search stops, so the layer's own default does not apply); inside
    /// `UIView.animate`, an animation of `event` with the block's timing (see
    /// `UIView.animate(withDuration:delay:options:animations:completion:)`).
    public func action(for layer: CALayer, forKey event: String) -> CAAction? {
        UIViewAnimationContext.action(for: self, layer: layer, key: event)
    }
}
