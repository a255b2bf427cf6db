import Raster

// Transparency layers (Apple's beginTransparencyLayer / endTransparencyLayer).

extension CGContext {
    /// Starts a transparency layer: until the matching `endTransparencyLayer`, drawing goes
    /// into a fresh transparent buffer the size of the bitmap, with alpha 1, blend mode
    /// `.normal` and no shadow; the end composites that buffer as one image with the alpha,
    /// blend mode, shadow and clip that were current here (Apple's documented behaviour).
    /// Inside the layer drawing starts unclipped (the clip is applied once, at the end); clips set
    /// inside the layer apply to drawing inside it.
    /// The graphics state is saved and restored around the layer. `auxiliaryInfo` is ignored.
    public func beginTransparencyLayer(auxiliaryInfo: CFDictionary?) {
        guard let buffer = try? Pixmap(width: target.width, height: target.height) else { return }
        layers.append(TransparencyLayer(target: target, alpha: state.alpha, blendMode: state.blendMode,
                                        shadow: state.shadow, clip: state.clip))
        saveGState()
        target = buffer
        state.alpha = 1
        state.blendMode = .normal
        state.shadow = nil
        state.clip = nil  // applied once, when the layer is composited
    }

    /// Like `beginTransparencyLayer(auxiliaryInfo:)`; Citrine's layers always cover the whole
    /// bitmap, so `rect` only documents intent.
    public func beginTransparencyLayer(in rect: CGRect, auxiliaryInfo: CFDictionary?) {
        beginTransparencyLayer(auxiliaryInfo: auxiliaryInfo)
    }

    /// Ends the innermost transparency layer and composites it (ignored without one).
    public func endTransparencyLayer() {
        guard let layer = layers.popLast() else { return }
        let buffer = target
        restoreGState()
        target = layer.target
        if let shadow = layer.shadow {
            let saved = state
            state.alpha = layer.alpha
            state.blendMode = layer.blendMode
            state.clip = layer.clip
            drawShadow(shadow, ofImage: buffer)
            state = saved
        }
        composite(buffer, at: 0, 0, opacity: layer.alpha, blendMode: layer.blendMode, clip: layer.clip)
    }

    /// The shadow of a whole device-aligned buffer (a transparency layer).
    private func drawShadow(_ shadow: Shadow, ofImage buffer: Pixmap) {
        let area = CGPath(rect: CGRect(x: 0, y: 0, width: buffer.width, height: buffer.height), transform: nil)
        let pattern = ImagePattern(image: buffer, transform: Transform.identity, filter: .nearest, spread: .decal)
        drawShadow(shadow, of: area, rule: .nonZero, shader: .image(pattern))
    }
}
