/// Drawing entry points: geometry → coverage (`Rasterizer`) → paint (`PaintBlitter`).
extension Pixmap {
    /// Fills `path` (user space, mapped to device pixels by `transform`) with `paint`,
    /// using `rule`, optionally multiplied by the clip mask `clip` (same size as the pixmap).
    public func fill(_ path: Path, rule: FillRule = .nonZero, paint: Paint,
                     transform: Transform = .identity, clip: Mask? = nil) {
        var blitter = PaintBlitter(target: self, paint: paint, clip: clip)
        rasterizer.fill(path, transform: transform, rule: rule, antiAlias: paint.antiAlias,
                        clip: IntRect(x0: 0, y0: 0, x1: width, y1: height), rows: drawableRows, into: &blitter)
    }

    /// Fills a rectangle (user space) with `paint`.
    public func fill(_ rect: Rect, paint: Paint, transform: Transform = .identity, clip: Mask? = nil) {
        guard !rect.isEmpty else { return }
        fill(Path(rect: rect), paint: paint, transform: transform, clip: clip)
    }
}

extension Path {
    /// A closed rectangle, clockwise on screen (y down) from its top-left corner.
    /// (The two arrays are made at their size, not grown element by element as they fill:
    /// rectangles are filled every frame.)
    public init(rect: Rect) {
        self.init()
        verbs = [.move, .line, .line, .line, .close]
        points = [Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
                  Point(x: rect.maxX, y: rect.maxY), Point(x: rect.minX, y: rect.maxY)]
    }
}
