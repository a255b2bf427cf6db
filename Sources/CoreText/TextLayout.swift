import CFreeType
import CoreGraphics
import Raster

/// Where `TextLayout` puts each line across its bounds (`CATextLayer`'s alignment modes, which the
/// compositor maps to these; Core Text's lines and UIKit's string drawing use `.natural`).
package enum TextAlignment: Sendable {
    case natural, left, right, center, justified
}

/// Where `TextLayout` shortens a line that does not fit for "…" (`CATextLayer`'s truncation modes).
package enum TextTruncation: Sendable {
    case none, start, end, middle
}

/// Lines of styled glyphs placed in a `CATextLayer`'s, a Core Text frame's or a UIKit drawing
/// rectangle's bounds (layer space, y-down):
///
/// - A line break character (`Character.isNewline`: LF, CR, CRLF, U+2028, U+2029, …) always
///   breaks. With `isWrapped`, a word that would cross the bounds' width moves to the next line
///   (breaks at spaces); a word wider than the width starts a line of its own and is broken
///   between characters (Apple's `NSLineBreakMode.byWordWrapping`: "wrapping occurs at word
///   boundaries, unless the word itself doesn't fit on a single line").
/// - Truncation (`truncationMode` other than `.none`), Core Text's rule of one truncated line:
///   without wrapping, every line wider than the bounds loses glyphs at its start, middle or end
///   for "…"; with wrapping, the lines that fit the bounds' height are kept and the last of
///   them takes the rest of the text and is truncated the same way.
/// - Alignment: natural and left at the left edge, right, center; `.justified` widens the spaces
///   of every wrapped line except the last of its paragraph so that it fills the width (Core
///   Text does not justify a paragraph's last line).
/// - The first baseline lies its line's ascent below the top of the bounds; each next one the
///   previous line's height (the font's line spacing, the largest on the line) further down.
///
/// Only what can be seen is laid out (`TextLayout+Visible.swift`): lines are laid out down to
/// the bottom of the `visible` rectangle and no further, a line wider than it keeps only the
/// glyphs that can reach it (its width is still the whole line's), and a truncated line reads
/// only as much of its start and end as can fit. So a megabyte of text in a small layer costs
/// what the layer shows, plus one pass of advances over an unwrapped line.
///
/// Lines are broken on the fonts' unhinted advances, then shaped by HarfBuzz when it is
/// installed (`TextLayout+Shaping.swift`: kerning, ligatures, marks, right-to-left runs).
struct TextLayout {
    /// Most glyphs one layout keeps (`maxGlyphs`, 2¹⁸: more than a 4K screen of 8-point text
    /// shows); the lines past it are not laid out, and a line keeps at most as many.
    static let maxGlyphs = 1 << 18

    struct Style {
        let face: FT_Face
        /// The run's font pattern and size (points), to give a line's text back as runs.
        let font: String, size: CGFloat
        /// The face's font file and index in it (for HarfBuzz).
        let file: String, faceIndex: Int
        /// How the run's font was resolved (`FontUsage` records it when the text is drawn).
        let resolution: FontResolution
        /// Points per font unit.
        let scale: Double
        let color: CGColor?
        /// Its face's slot in `AdvanceCache`.
        let faceSlot: Int
        /// Points added after each character (`kCTKernAttributeName`; 0 without it), whether
        /// the font's kerning applies (without it), and the ligatures asked (0, 1, 2).
        let extra: Double, fontKerning: Bool, ligatures: Int
        /// Points: above the baseline, below it (positive), and baseline to baseline.
        let ascender: Double, descender: Double, lineHeight: Double
    }

    struct Glyph {
        let char: Character
        let style: Int
        let advance: Double
        /// Whether `char` is a space (U+0020: where lines wrap and justification stretches) or
        /// a line break character (`Character.isNewline`).
        let isSpace: Bool, isNewline: Bool

        init(char: Character, style: Int, advance: Double) {
            self.init(char: char, style: style, advance: advance, isSpace: char == " ", isNewline: char.isNewline)
        }

        init(char: Character, style: Int, advance: Double, isSpace: Bool, isNewline: Bool) {
            self.char = char
            self.style = style
            self.advance = advance
            self.isSpace = isSpace
            self.isNewline = isNewline
        }
    }

    struct Line {
        /// The glyphs kept: the whole line's, or for a line wider than what is visible those
        /// that can reach the visible rectangle.
        var glyphs: [Glyph]
        /// The pen position of `glyphs[0]` from the line's start: the advances of the glyphs
        /// before it, which are not kept.
        var offset = 0.0
        /// The whole line's advance (points), and its number of glyphs.
        var width: Double, count: Int
        /// The largest ascent, descent (positive) and line height of the whole line's styles.
        var ascent: Double, descent: Double, height: Double
        /// Whether the line ends its paragraph (not justified then).
        var endsParagraph: Bool
        /// The kept glyphs as drawn, shaped and in visual order (`TextLayout+Shaping.swift`);
        /// nil without HarfBuzz: the glyphs of `glyphs`, in their order.
        var shaped: [ShapedGlyph]? = nil
    }

    private(set) var styles: [Style] = []
    /// Each style's index in `styles`: a run finds its style in O(1), whatever the number of
    /// styles (text whose every character has a colour of its own).
    private var styleIndex: [StyleKey: Int] = [:]
    /// The runs' texts and each one's style (nil: a run without a usable font or size, skipped).
    let texts: [String]
    private(set) var runStyles: [Int?] = []
    let advances = AdvanceCache()
    var lines: [Line] = []
    /// The lines' heights added up (points).
    var usedHeight = 0.0
    let bounds: CGRect
    /// The part of layout space that can be seen (the bounds for a layer, the clip for a
    /// context); `.infinite` lays everything out.
    let visible: CGRect
    let alignment: TextAlignment
    let isWrapped: Bool

    /// `runs` laid out in `bounds` (a `CATextLayer`'s, a Core Text frame's, a UIKit drawing
    /// rectangle), only as far as `visible` shows; nil when no run has a usable font and size.
    init?(runs: [TextRenderer.Run], bounds: CGRect, alignment: TextAlignment, isWrapped: Bool,
          truncationMode: TextTruncation, visible: CGRect = .infinite) {
        self.bounds = bounds
        self.visible = visible.isNull ? .zero : visible
        self.alignment = alignment
        self.isWrapped = isWrapped
        texts = runs.map(\.text)
        for run in runs { runStyles.append(style(for: run)) }
        guard !styles.isEmpty else { return nil }
        layOut(truncationMode)
    }

    /// Where each line starts: its pen origin on its baseline (where its whole text would
    /// start), and the extra width each of its spaces takes (`.justified`).
    func linePlacements() -> [(origin: Point, spaceStretch: Double)] {
        var placements: [(origin: Point, spaceStretch: Double)] = []
        var baseline = Double(bounds.minY)
        var previous: Line?
        for line in lines {
            baseline += previous.map { $0.height - $0.ascent } ?? 0
            baseline += line.ascent
            previous = line
            var spaceStretch = 0.0
            var x: Double
            switch alignment {
            case .center: x = Double(bounds.midX) - line.width / 2
            case .right: x = Double(bounds.maxX) - line.width
            case .justified:
                x = Double(bounds.minX)
                let trimmed = line.glyphs.reversed().drop { $0.isSpace }.count
                let spaces = line.glyphs.prefix(trimmed).filter { $0.isSpace }.count
                let used = line.glyphs.prefix(trimmed).reduce(0) { $0 + $1.advance }
                if isWrapped, !line.endsParagraph, spaces > 0, used < Double(bounds.width) {
                    spaceStretch = (Double(bounds.width) - used) / Double(spaces)
                }
            case .natural, .left: x = Double(bounds.minX)
            }
            placements.append((Point(x: x, y: baseline), spaceStretch))
        }
        return placements
    }

    /// Places the glyphs that can reach the visible rectangle (their advance box, grown by
    /// their font's size for ink beyond it): each with its glyph index (nil: its character's
    /// glyph), character, style and origin (the pen on the baseline, moved by its offset).
    func placedGlyphs() -> [(glyph: UInt32?, char: Character, style: Int, origin: Point)] {
        var placed: [(glyph: UInt32?, char: Character, style: Int, origin: Point)] = []
        let minX = Double(visible.minX), maxX = Double(visible.maxX)
        for (line, placement) in zip(lines, linePlacements()) {
            let y = placement.origin.y
            let reach = line.height   // ink a line's height above its ascent or below its descent is not looked for
            guard y + line.descent + reach > Double(visible.minY), y - line.ascent - reach < Double(visible.maxY) else { continue }
            let shaped = line.shaped ?? Self.unshaped(line.glyphs)
            let start = placement.origin.x + line.offset
            var stretch = 0.0
            for g in shaped {
                let x = start + g.x + stretch
                let em = Double(styles[g.style].size)
                if x + g.advance + em > minX && x - em < maxX {
                    placed.append((g.glyph, g.char, g.style, Point(x: x + g.xOffset, y: y - g.yOffset)))
                }
                if g.isSpace { stretch += placement.spaceStretch }
            }
        }
        return placed
    }

    /// Glyphs drawn as they are laid out: each character's own glyph at its advance.
    static func unshaped(_ glyphs: [Glyph]) -> [ShapedGlyph] {
        var x = 0.0
        return glyphs.map { g in
            defer { x += g.advance }
            return ShapedGlyph(glyph: nil, char: g.char, style: g.style, x: x, advance: g.advance, xOffset: 0, yOffset: 0,
                               isSpace: g.isSpace)
        }
    }

    // MARK: - Styles and advances

    private mutating func style(for run: TextRenderer.Run) -> Int? {
        let size = Double(run.size)
        guard size > 0, size.isFinite, let face = FontLibrary.shared.face(named: run.font),
              let resolution = FontLibrary.shared.resolution(for: run.font) else { return nil }
        let unitsPerEm = Double(face.pointee.units_per_EM)
        guard unitsPerEm > 0 else { return nil }
        let scale = size / unitsPerEm
        let key = StyleKey(face: face, scale: scale, color: run.color, kern: run.kern, ligatures: run.ligatures)
        if let i = styleIndex[key] { return i }
        styles.append(Style(face: face, font: run.font, size: run.size, file: resolution.file, faceIndex: resolution.index,
                            resolution: resolution,
                            scale: scale, color: run.color,
                            faceSlot: advances.slot(of: face), extra: run.kern ?? 0, fontKerning: run.kern == nil,
                            ligatures: run.ligatures,
                            ascender: Double(face.pointee.ascender) * scale,
                            descender: -Double(face.pointee.descender) * scale, lineHeight: Double(face.pointee.height) * scale))
        styleIndex[key] = styles.count - 1
        return styles.count - 1
    }

    /// What makes a style: its face, scale, colour, kerning and ligatures.
    private struct StyleKey: Hashable {
        let face: FT_Face
        let scale: Double
        let color: CGColor?
        let kern: Double?
        let ligatures: Int
    }

    /// A character's advance in `style` (points), its kerning value added.
    func advance(of c: Character, style: Int) -> Double {
        let s = styles[style]
        return advances.advance(of: c.unicodeScalars.first?.value ?? 0, slot: s.faceSlot) * s.scale + s.extra
    }

    /// The advance (points) of an ASCII character in `style`, its kerning value added.
    func advance(ascii byte: UInt8, style: Int) -> Double {
        let s = styles[style]
        return advances.advance(ascii: byte, slot: s.faceSlot) * s.scale + s.extra
    }

    /// Each face's advances (font units) by character, looked up in the font once: a megabyte
    /// of text costs a megabyte of table look-ups, not of glyph loads; ASCII's, loaded with the
    /// face, in a flat table.
    /// A reference, so that a layout's reading functions need not be mutating.
    final class AdvanceCache {
        private var faces: [FT_Face] = []
        /// By slot: ASCII advances (NaN until looked up), and the others'.
        private var ascii: [[Double]] = []
        private var other: [[UInt32: Double]] = []

        /// The slot of `face`'s advances (a layout has a few faces).
        func slot(of face: FT_Face) -> Int {
            if let known = faces.firstIndex(of: face) { return known }
            faces.append(face)
            ascii.append((0..<128).map { load($0, face: face) })
            other.append([:])
            return faces.count - 1
        }

        /// The ASCII advances (font units) of a slot, by code.
        func asciiTable(_ slot: Int) -> [Double] { ascii[slot] }

        func advance(ascii byte: UInt8, slot: Int) -> Double { ascii[slot][Int(byte)] }

        func advance(of scalar: UInt32, slot: Int) -> Double {
            if scalar < 128 { return advance(ascii: UInt8(scalar), slot: slot) }
            if let known = other[slot][scalar] { return known }
            let units = load(scalar, face: faces[slot])
            other[slot][scalar] = units
            return units
        }

        /// The unhinted advance of `scalar`'s glyph in font units (0 when it cannot be loaded).
        private func load(_ scalar: UInt32, face: FT_Face) -> Double {
            guard FT_Load_Char(face, FT_ULong(scalar), FT_Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING)) == 0 else { return 0 }
            return Double(face.pointee.glyph.pointee.advance.x)
        }
    }
}
