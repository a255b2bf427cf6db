import Foundation
import CoreGraphics
import Raster

/// One line of laid-out text (Core Text's `CTLine`): the glyph outlines of an attributed string
/// on one baseline, made by `CTLineCreateWithAttributedString` (or taken from a `CTFrame`) and
/// drawn into a `CGContext` by `CTLineDraw`.
///
/// Layout is `CATextLayer`'s (`TextLayout`, `TextRenderer.runs(of:)`): the same fonts (names
/// through fontconfig), unhinted advances without kerning, and the same attributes — the font
/// (`kCTFontAttributeName` / UIKit's `.font`, a `CTFont`, `CGFont` or `UIFont`; Core Text's
/// default Helvetica 12) and the colour (`kCTForegroundColorAttributeName` / `.foregroundColor`;
/// default black). A line break character does not break a `CTLine` and draws nothing.
///
/// Coordinates (Apple's): the line lives in *text space*, y up, its origin the start of its
/// baseline; `CTLineDraw` maps a text-space point p to `p.applying(context.textMatrix) +
/// context.textPosition` in the context's user space and then through the CTM.
public final class CTLine: @unchecked Sendable {
    /// Glyph outlines in text space (y up, pen origin (0, 0) on the baseline), one per colour.
    let outlines: [(CGPath, CGColor)]
    /// Typographic width (points, trailing spaces included), ascent and descent (positive,
    /// above and below the baseline) and leading (the font's line gap), the largest of its fonts'.
    let width: Double, ascent: Double, descent: Double, leading: Double
    let glyphCount: Int

    init(outlines: [(CGPath, CGColor)], width: Double, ascent: Double, descent: Double, leading: Double, glyphCount: Int) {
        self.outlines = outlines
        self.width = width
        self.ascent = ascent
        self.descent = descent
        self.leading = leading
        self.glyphCount = glyphCount
    }
}

/// Core Text: `attrString` laid out as one line (no wrapping, no truncation).
public func CTLineCreateWithAttributedString(_ attrString: CFAttributedString) -> CTLine {
    let runs = TextRenderer.runs(of: attrString).map { run in
        TextRenderer.Run(text: run.text.filter { !$0.isNewline }, font: run.font, size: run.size, color: run.color)
    }
    let lines = TextRenderer.typesetLines(runs, bounds: CGRect(x: 0, y: 0, width: 0, height: 0), isWrapped: false)
    return lines.first?.line ?? CTLine(outlines: [], width: 0, ascent: 0, descent: 0, leading: 0, glyphCount: 0)
}

/// Core Text: draws `line` with its baseline origin at the context's `textPosition`, through
/// its `textMatrix` (see `CTLine`), each colour of glyphs filled with that colour (the context's
/// fill colour is left as it was). The text position does not move.
public func CTLineDraw(_ line: CTLine, _ context: CGContext) {
    let position = context.textPosition
    let toUser = context.textMatrix.concatenating(CGAffineTransform(translationX: position.x, y: position.y))
    context.saveGState()
    for (outline, color) in line.outlines {
        let placed = CGMutablePath()
        placed.addPath(outline, transform: toUser)
        context.setFillColor(color)
        context.addPath(placed)
        context.fillPath()
    }
    context.restoreGState()
}

/// Core Text: the line's typographic width (points), and its ascent, descent (both positive) and
/// leading through the pointers that are not nil.
public func CTLineGetTypographicBounds(_ line: CTLine, _ ascent: UnsafeMutablePointer<CGFloat>?,
                                      _ descent: UnsafeMutablePointer<CGFloat>?,
                                      _ leading: UnsafeMutablePointer<CGFloat>?) -> Double {
    ascent?.pointee = CGFloat(line.ascent)
    descent?.pointee = CGFloat(line.descent)
    leading?.pointee = CGFloat(line.leading)
    return line.width
}

/// Core Text: the number of glyphs the line draws (one per character here: no ligatures).
public func CTLineGetGlyphCount(_ line: CTLine) -> CFIndex { line.glyphCount }

extension TextRenderer {
    /// One laid-out line measured (`TextLayout`, no outlines built): typographic width (trailing
    /// spaces included), ascent, descent and leading (points, the largest of its fonts'), its
    /// glyph count, and its baseline origin in the bounds' y-down space.
    struct LineMeasure {
        let width: Double, ascent: Double, descent: Double, leading: Double
        let glyphCount: Int
        let origin: CGPoint
    }

    /// `runs` laid out in `bounds` (`TextLayout`, y-down, natural alignment, no truncation),
    /// each line measured; no glyph outline is made.
    static func measureLines(_ runs: [Run], bounds: CGRect, isWrapped: Bool) -> [LineMeasure] {
        withLayout(of: runs, bounds: bounds, isWrapped: isWrapped) { layout in
            zip(layout.lines, layout.linePlacements()).map { measure($0, origin: $1.origin, in: layout) }
        } ?? []
    }

    /// The size `runs` take when laid out wrapped to `width` (`isWrapped`) or one line per
    /// paragraph: the widest line's width and the lines' total height, the last line counted to
    /// its descent, plus its leading when `lastLineLeading` (UIKit's string drawing counts it,
    /// Core Text's suggested frame size does not). A `width` that is not finite and positive
    /// sets no limit.
    static func measuredSize(of runs: [Run], width: CGFloat?, isWrapped: Bool, lastLineLeading: Bool) -> CGSize {
        let limit = width.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? .greatestFiniteMagnitude
        let lines = measureLines(runs, bounds: CGRect(x: 0, y: 0, width: limit, height: 0), isWrapped: isWrapped)
        guard let last = lines.last else { return .zero }
        let widest = lines.map(\.width).max() ?? 0
        return CGSize(width: CGFloat(widest), height: last.origin.y + CGFloat(last.descent + (lastLineLeading ? last.leading : 0)))
    }

    /// `runs` laid out in `bounds` (`TextLayout`, y-down, natural alignment, no truncation) as
    /// Core Text lines, each with its baseline origin in `bounds`' y-down space.
    static func typesetLines(_ runs: [Run], bounds: CGRect, isWrapped: Bool) -> [(line: CTLine, origin: CGPoint)] {
        let yUp = CGAffineTransform(scaleX: 1, y: -1)
        return withLayout(of: runs, bounds: bounds, isWrapped: isWrapped) { layout in
            zip(layout.lines, layout.linePlacements()).map { line, placement in
                var paths = GlyphPaths()
                var x = 0.0   // pen position from the line's origin (natural alignment: spaces unstretched)
                for glyph in line.glyphs {
                    paths.append(glyph.char, style: layout.styles[glyph.style], at: Point(x: x, y: 0))
                    x += glyph.advance
                }
                let outlines = paths.paths.map { path, color -> (CGPath, CGColor) in
                    let flipped = CGMutablePath()
                    flipped.addPath(CGPath(rasterPath: path), transform: yUp)
                    return (flipped, color)
                }
                let m = measure(line, origin: placement.origin, in: layout)
                return (CTLine(outlines: outlines, width: m.width, ascent: m.ascent, descent: m.descent, leading: m.leading,
                               glyphCount: m.glyphCount), m.origin)
            }
        } ?? []
    }

    /// `body` with `runs`' layout, holding the font lock; nil when nothing is laid out.
    private static func withLayout<T>(of runs: [Run], bounds: CGRect, isWrapped: Bool, _ body: (TextLayout) -> T) -> T? {
        guard !runs.isEmpty else { return nil }
        FontLibrary.shared.faceUseLock.lock()
        defer { FontLibrary.shared.faceUseLock.unlock() }
        guard let layout = TextLayout(runs: runs, bounds: bounds, alignment: .natural, isWrapped: isWrapped,
                                      truncationMode: .none) else { return nil }
        return body(layout)
    }

    /// `line`'s measures, its baseline origin at `origin`; its width is its glyphs' advances
    /// (natural alignment: spaces unstretched).
    private static func measure(_ line: TextLayout.Line, origin: Point, in layout: TextLayout) -> LineMeasure {
        let vertical = layout.metrics(line)
        return LineMeasure(width: line.width, ascent: vertical.ascent, descent: vertical.descent,
                           leading: max(0, vertical.height - vertical.ascent - vertical.descent),
                           glyphCount: line.glyphs.count, origin: CGPoint(x: origin.x, y: origin.y))
    }
}
