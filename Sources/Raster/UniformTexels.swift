/// A rectangle of an image (image pixels) whose texels all hold `color` (premultiplied), for
/// `Pixmap.drawTexture(_:inside:imageToDevice:…:uniformInside:)`: the pixels mapping well inside
/// it blend `color` instead of sampling the image.
public struct UniformTexels: Sendable, Equatable {
    /// Image pixels: texel (i, j) covers [i, i + 1) × [j, j + 1).
    public var rect: Rect
    public var color: UInt32

    public init(rect: Rect, color: UInt32) {
        self.rect = rect
        self.color = color
    }

    /// The texels of `image` in columns `columns` and rows `rows` (clamped to the image), when
    /// they are not empty and all hold one colour; nil otherwise. Reads each texel at most once,
    /// stopping at the first that differs.
    public init?(of image: Pixmap, columns: Range<Int>, rows: Range<Int>) {
        let columns = columns.clamped(to: 0..<image.width), rows = rows.clamped(to: 0..<image.height)
        guard !columns.isEmpty, !rows.isEmpty else { return nil }
        let words = image.words, width = image.width
        let color = words[rows.lowerBound * width + columns.lowerBound]
        for y in rows {
            let row = words + y * width
            for x in columns where row[x] != color { return nil }
        }
        self.init(rect: Rect(x: Double(columns.lowerBound), y: Double(rows.lowerBound), width: Double(columns.count),
                             height: Double(rows.count)), color: color)
    }
}
