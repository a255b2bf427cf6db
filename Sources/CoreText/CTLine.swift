import Foundation
import CoreGraphics
import Raster

/// One line of laid-out text (Core Text's `CTLine`): an attributed string on one baseline, made
/// by `CTLineCreateWithAttributedString` (or taken from a `CTFrame`) and drawn into a
/// `CGContext` by `CTLineDraw`.
///
/// Layout is `CATextLayer`'s (`TextLayout`, `TextRenderer.runs(of:)`): the same fonts (names
/// through fontconfig), shaping (HarfBuzz when installed: kerned, standard ligatures, as Core
/// Text's defaults), and the same attributes — the font
/// (`kCTFontAttributeName` / UIKit's `.font`, a `CTFont`, `CGFont` or `UIFont`; Core Text's
/// default Helvetica 12) and the colour (`kCTForegroundColorAttributeName` / `.foregroundColor`;
/// default black). A line break character does not break a `CTLine` and draws nothing.
///
/// As on Apple, the whole line is measured when it is made (`CTLineGetTypographicBounds` is the
/// whole string's), but the glyph outlines are made when it is drawn, and only for the glyphs
/// that can reach the context's clip: a line of megabytes costs one pass of advances to make
/// and to draw, plus what the clip shows.
///
/// Coordinates (Apple's): the line lives in *text space*, y up, its origin the start of its
/// baseline; `CTLineDraw` maps a text-space point p to `p.applying(context.textMatrix) +
/// context.textPosition` in the context's user space and then through the CTM.
public final class CTLine: @unchecked Sendable {
    /// The line's text, line break characters removed.
    let runs: [TextRenderer.Run]
    /// Typographic width (points, trailing spaces included), ascent and descent (positive,
    /// above and below the baseline) and leading (the font's line gap), the largest of its fonts'.
    let width: Double, ascent: Double, descent: Double, leading: Double
    let glyphCount: Int

    init(runs: [TextRenderer.Run], measure: TextRenderer.LineMeasure) {
        self.runs = runs
        width = measure.width
        ascent = measure.ascent
        descent = measure.descent
        leading = measure.leading
        glyphCount = measure.glyphCount
    }

    /// A line without text.
    static let empty = CTLine(runs: [], measure: TextRenderer.LineMeasure(width: 0, ascent: 0, descent: 0, leading: 0,
                                                                        glyphCount: 0, origin: .zero))
}

/// Core Text: `attrString` laid out as one line (no wrapping, no truncation).
public func CTLineCreateWithAttributedString(_ attrString: CFAttributedString) -> CTLine {
    let runs = TextRenderer.runs(of: attrString).map { run in
        // Every line break character is encoded with a byte in 0x0A…0x0D or 0x85, 0xA8, 0xA9
        // (NEL, U+2028, U+2029): text without one is kept as it is, not read character by character.
        let mayBreak = run.text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.contains { ($0 >= 0x0A && $0 <= 0x0D) || $0 == 0x85 || $0 == 0xA8 || $0 == 0xA9 }
        } ?? true
        var kept = run
        if mayBreak { kept.text = run.text.filter { !$0.isNewline } }
        return kept
    }
    guard let measure = TextRenderer.measureLines(runs, bounds: .zero, isWrapped: false).first else {
        return .empty
    }
    return CTLine(runs: runs, measure: measure)
}

/// Core Text: draws `line` with its baseline origin at the context's `textPosition`, through
/// its `textMatrix` (see `CTLine`), each colour of glyphs filled with that colour (the context's
/// fill colour is left as it was). The text position does not move. Only the glyphs that can
/// reach the context's clip are outlined.
public func CTLineDraw(_ line: CTLine, _ context: CGContext) {
    let position = context.textPosition
    let toUser = context.textMatrix.concatenating(CGAffineTransform(translationX: position.x, y: position.y))
    // The clip's box in text space, then in the line's y-down layout space (baseline at y = 0).
    let clip = context.boundingBoxOfClipPath
    guard !line.runs.isEmpty, !clip.isNull, toUser.a * toUser.d - toUser.b * toUser.c != 0 else { return }
    let inText = clip.applying(toUser.inverted())
    let visible = CGRect(x: inText.minX, y: -inText.maxY, width: inText.width, height: inText.height)
    let outlines = TextRenderer.glyphs(of: line.runs, bounds: CGRect(x: 0, y: -line.ascent, width: 0, height: 0),
                                       alignment: .natural, isWrapped: false, truncationMode: .none, visible: visible)
    let toDevice = CGAffineTransform(scaleX: 1, y: -1).concatenating(toUser)
    context.saveGState()
    for (outline, color) in outlines {
        let placed = CGMutablePath()
        placed.addPath(CGPath(rasterPath: outline), transform: toDevice)
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

/// Core Text: the number of glyphs the line draws (after shaping: a ligature is one glyph).
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
    /// every line measured (shaped, as far as `TextLayout.maxGlyphs` of it); no glyph outline
    /// is made.
    static func measureLines(_ runs: [Run], bounds: CGRect, isWrapped: Bool) -> [LineMeasure] {
        withLayout(of: runs, bounds: bounds, isWrapped: isWrapped, visible: .infinite) { layout in
            zip(layout.lines, layout.linePlacements()).map { measure($0, origin: $1.origin) }
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
    /// Core Text lines down to `bounds`' bottom, each with its baseline origin in `bounds`'
    /// y-down space.
    static func typesetLines(_ runs: [Run], bounds: CGRect, isWrapped: Bool) -> [(line: CTLine, origin: CGPoint)] {
        withLayout(of: runs, bounds: bounds, isWrapped: isWrapped, visible: bounds) { layout in
            zip(layout.lines, layout.linePlacements()).map { line, placement in
                let m = measure(line, origin: placement.origin)
                return (CTLine(runs: layout.runs(of: line), measure: m), m.origin)
            }
        } ?? []
    }

    /// `body` with `runs`' layout, holding the font lock; nil when nothing is laid out.
    private static func withLayout<T>(of runs: [Run], bounds: CGRect, isWrapped: Bool, visible: CGRect,
                                      _ body: (TextLayout) -> T) -> T? {
        guard !runs.isEmpty else { return nil }
        FontLibrary.shared.faceUseLock.lock()
        defer { FontLibrary.shared.faceUseLock.unlock() }
        guard let layout = TextLayout(runs: runs, bounds: bounds, alignment: .natural, isWrapped: isWrapped,
                                      truncationMode: .none, visible: visible) else { return nil }
        return body(layout)
    }

    /// `line`'s measures, its baseline origin at `origin`; its width is its glyphs' advances
    /// (natural alignment: spaces unstretched).
    private static func measure(_ line: TextLayout.Line, origin: Point) -> LineMeasure {
        LineMeasure(width: line.width, ascent: line.ascent, descent: line.descent,
                    leading: max(0, line.height - line.ascent - line.descent),
                    glyphCount: line.count, origin: CGPoint(x: origin.x, y: origin.y))
    }
}

extension TextLayout {
    /// The text of a line that keeps all its glyphs, as runs of one style each.
    func runs(of line: Line) -> [TextRenderer.Run] {
        var runs: [TextRenderer.Run] = []
        var lastStyle = -1
        for g in line.glyphs {
            if g.style == lastStyle {
                runs[runs.count - 1].text.append(g.char)
            } else {
                let s = styles[g.style]
                runs.append(TextRenderer.Run(text: String(g.char), font: s.font, size: s.size, color: s.color,
                                             kern: s.fontKerning ? nil : s.extra, ligatures: s.ligatures))
                lastStyle = g.style
            }
        }
        return runs
    }
}
