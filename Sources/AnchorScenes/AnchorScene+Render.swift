import Raster

extension S1Circles: AnchorScene {
    public static let name = "S1", title = "circles"
    public func render(frame: Int, into pixmap: Pixmap) {
        pixmap.fill(with: white)
        for circle in circles { pixmap.fill(circle.path, rule: .nonZero, paint: circle.paint, transform: .identity, clip: nil) }
    }
}

extension S2Bubble: AnchorScene {
    public static let name = "S2", title = "bubble"
    public var framesPerCycle: Int { bubbles.count }
    public func render(frame: Int, into pixmap: Pixmap) {
        pixmap.fill(with: white)
        pixmap.fill(bubbles[frame % bubbles.count].path, rule: .nonZero, paint: paint, transform: .identity, clip: nil)
    }
}

extension S4Gradient: AnchorScene {
    public static let name = "S4", title = "gradient"
    public func render(frame: Int, into pixmap: Pixmap) {
        pixmap.fill(with: white)
        pixmap.fill(rectPath, rule: .nonZero, paint: linearPaint, transform: .identity, clip: nil)
        pixmap.fill(circlePath, rule: .nonZero, paint: radialPaint, transform: .identity, clip: nil)
    }
}

extension S5ImageAffine: AnchorScene {
    public static let name = "S5", title = "image-affine"
    public func render(frame: Int, into pixmap: Pixmap) {
        pixmap.fill(with: white)
        for (quad, paint) in zip(quads, paints) {
            pixmap.fill(quad, rule: .nonZero, paint: paint, transform: .identity, clip: nil)
        }
    }
}

extension S6RoundedRects: AnchorScene {
    public static let name = "S6", title = "rrect-clip"
    public func render(frame: Int, into pixmap: Pixmap) {
        pixmap.fill(with: white)
        for item in items { pixmap.fill(item.path, rule: .nonZero, paint: item.paint, transform: .identity, clip: nil) }
    }
}

extension S7ImagePerspective: AnchorScene {
    public static let name = "S7", title = "image-persp"
    public func render(frame: Int, into pixmap: Pixmap) {
        pixmap.fill(with: white)
        for (quad, paint) in zip(quads, paints) {
            pixmap.fill(quad, rule: .nonZero, paint: paint, transform: .identity, clip: nil)
        }
    }
}

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
