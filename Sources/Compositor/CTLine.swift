import Foundation
import CFreeType
import QuartzCore
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
    /// `runs` laid out in `bounds` (`TextLayout`, y-down, natural alignment, no truncation) as
    /// Core Text lines, each with its baseline origin in `bounds`' y-down space.
    static func typesetLines(_ runs: [Run], bounds: CGRect, isWrapped: Bool) -> [(line: CTLine, origin: CGPoint)] {
        guard !runs.isEmpty else { return [] }
        FontLibrary.shared.faceUseLock.lock()
        defer { FontLibrary.shared.faceUseLock.unlock() }
        guard let layout = TextLayout(runs: runs, bounds: bounds, alignment: .natural, isWrapped: isWrapped,
                                      truncationMode: .none) else { return [] }
        var placedByLine = [[(char: Character, style: Int, line: Int, origin: Point)]](repeating: [], count: layout.lines.count)
        for placed in layout.placedGlyphs() { placedByLine[placed.line].append(placed) }
        let yUp = CGAffineTransform(scaleX: 1, y: -1)
        return zip(layout.linePlacements(), zip(layout.lines, placedByLine)).map { placement, content in
            let (line, placed) = content
            var paths: [(Path, CGColor)] = []
            for glyph in placed {
                let relative = Point(x: glyph.origin.x - placement.origin.x, y: 0)
                appendGlyph(glyph.char, style: layout.styles[glyph.style], at: relative, into: &paths)
            }
            let outlines = paths.map { path, color -> (CGPath, CGColor) in
                let flipped = CGMutablePath()
                flipped.addPath(CGPath(rasterPath: path), transform: yUp)
                return (flipped, color)
            }
            let styles = (line.glyphs.isEmpty ? [0] : line.glyphs.map(\.style)).map { layout.styles[$0] }
            let ascent = styles.map(\.ascender).max() ?? 0
            let descent = styles.map { -Double($0.face.pointee.descender) * $0.scale }.max() ?? 0
            let height = styles.map(\.lineHeight).max() ?? 0
            let width = placed.last.map { $0.origin.x - placement.origin.x + line.glyphs[line.glyphs.count - 1].advance } ?? 0
            let ctLine = CTLine(outlines: outlines, width: width, ascent: ascent, descent: descent,
                                leading: max(0, height - ascent - descent), glyphCount: line.glyphs.count)
            return (ctLine, CGPoint(x: placement.origin.x, y: placement.origin.y))
        }
    }
}
