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
