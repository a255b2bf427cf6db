import Raster

extension S3Strokes: AnchorScene {
    public static let name = "S3", title = "strokes"
    public func render(frame: Int, into pixmap: Pixmap) {
        pixmap.fill(with: white)
        for curve in curves {
            pixmap.stroke(curve.path, style: curve.style, paint: curve.paint, transform: .identity, clip: nil)
        }
    }
}

extension S8LayerStorm: AnchorScene {
    public static let name = "S8", title = "layer-storm"
    /// Layers with α8 < 255 are drawn into the top-left `groupBox`-sized corner of `group`
    /// (cleared first), which is then composited over the canvas box with opacity α8/255.
    public func render(frame: Int, into pixmap: Pixmap) {
        pixmap.fill(with: white)
        for layer in layers {
            let target = layer.usesGroup ? group : pixmap
            if layer.usesGroup { clearCorner(of: group, width: layer.groupBox.width, height: layer.groupBox.height) }
            target.fill(layer.backgroundPath, rule: .nonZero, paint: layer.backgroundPaint,
                        transform: .identity, clip: nil)
            target.stroke(layer.borderPath, style: layer.borderStyle, paint: layer.borderPaint,
                          transform: .identity, clip: nil)
            if layer.usesGroup {
                pixmap.fill(layer.compositePath, rule: .nonZero, paint: layer.compositePaint, transform: .identity, clip: nil)
            }
        }
    }

    /// Makes [0, width) × [0, height) of `pixmap` transparent.
    private func clearCorner(of pixmap: Pixmap, width: Int, height: Int) {
        guard width > 0 else { return }
        for y in 0..<height {
            (pixmap.pixels + y * pixmap.bytesPerRow).update(repeating: 0, count: width * 4)
        }
    }
}
