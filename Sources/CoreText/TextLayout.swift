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
/// - Newlines always break. With `isWrapped`, a word that would cross the bounds' width moves to
///   the next line (breaks at spaces; a word longer than the width stays whole).
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
/// Advances are the fonts' unhinted advances; no kerning.
struct TextLayout {
    struct Style {
        let face: FT_Face
        /// Points per font unit.
        let scale: Double
        let color: CGColor?
        /// Points: above the baseline, below it (positive), and baseline to baseline.
        let ascender: Double, descender: Double, lineHeight: Double
    }

    struct Glyph {
        let char: Character
        let style: Int
        let advance: Double
    }

    struct Line {
        var glyphs: [Glyph]
        /// Whether the line ends its paragraph (not justified then).
        var endsParagraph: Bool
        var width: Double { glyphs.reduce(0) { $0 + $1.advance } }
    }

    private(set) var styles: [Style] = []
    /// Each style's index in `styles`: a run finds its style in O(1), whatever the number of
    /// styles (text whose every character has a colour of its own).
    private var styleIndex: [StyleKey: Int] = [:]
    private(set) var lines: [Line] = []
    let bounds: CGRect
    let alignment: TextAlignment
    let isWrapped: Bool

    /// `runs` laid out in `bounds` (a `CATextLayer`'s, a Core Text frame's, a UIKit drawing
    /// rectangle); nil when no run has a usable font and size.
    init?(runs: [TextRenderer.Run], bounds: CGRect, alignment: TextAlignment, isWrapped: Bool,
          truncationMode: TextTruncation) {
        self.bounds = bounds
        self.alignment = alignment
        self.isWrapped = isWrapped
        var glyphs: [Glyph] = []
        for run in runs {
            guard let style = style(for: run) else { continue }
            for c in run.text { glyphs.append(Glyph(char: c, style: style, advance: advance(of: c, style: style))) }
        }
        guard !styles.isEmpty else { return nil }
        let width = Double(bounds.width)
        for paragraph in glyphs.split(omittingEmptySubsequences: false, whereSeparator: { $0.char == "\n" }) {
            var broken = isWrapped ? wrap(Array(paragraph), width: width) : [Line(glyphs: Array(paragraph), endsParagraph: true)]
            broken[broken.count - 1].endsParagraph = true
            lines += broken
        }
        truncate(truncationMode, width: width)
    }

    /// Where each line starts: its pen origin on its baseline, and the extra width each of its
    /// spaces takes (`.justified`).
    func linePlacements() -> [(origin: Point, spaceStretch: Double)] {
        var placements: [(origin: Point, spaceStretch: Double)] = []
        var baseline = Double(bounds.minY)
        var previous: (ascent: Double, descent: Double, height: Double)?
        for line in lines {
            let metrics = self.metrics(line)
            baseline += previous.map { $0.height - $0.ascent } ?? 0
            baseline += metrics.ascent
            previous = metrics
            let width = line.width
            var spaceStretch = 0.0
            var x: Double
            switch alignment {
            case .center: x = Double(bounds.midX) - width / 2
            case .right: x = Double(bounds.maxX) - width
            case .justified:
                x = Double(bounds.minX)
                let trimmed = line.glyphs.reversed().drop { $0.char == " " }.count
                let spaces = line.glyphs.prefix(trimmed).filter { $0.char == " " }.count
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

    /// Places the glyphs: each with its style, its line's index and its pen origin on the baseline.
    func placedGlyphs() -> [(char: Character, style: Int, line: Int, origin: Point)] {
        var placed: [(char: Character, style: Int, line: Int, origin: Point)] = []
        for (index, (line, placement)) in zip(lines, linePlacements()).enumerated() {
            var x = placement.origin.x
            for g in line.glyphs {
                placed.append((g.char, g.style, index, Point(x: x, y: placement.origin.y)))
                x += g.advance + (g.char == " " ? placement.spaceStretch : 0)
            }
        }
        return placed
    }

    /// The line's ascent, descent and height: the largest of its styles' (its first style's when
    /// empty).
    func metrics(_ line: Line) -> (ascent: Double, descent: Double, height: Double) {
        guard let first = line.glyphs.first else {
            return (styles[0].ascender, styles[0].descender, styles[0].lineHeight)
        }
        var ascent = styles[first.style].ascender, descent = styles[first.style].descender
        var height = styles[first.style].lineHeight
        for g in line.glyphs {
            ascent = max(ascent, styles[g.style].ascender)
            descent = max(descent, styles[g.style].descender)
            height = max(height, styles[g.style].lineHeight)
        }
        return (ascent, descent, height)
    }

    // MARK: - Styles and advances

    private mutating func style(for run: TextRenderer.Run) -> Int? {
        let size = Double(run.size)
        guard size > 0, size.isFinite, let face = FontLibrary.shared.face(named: run.font) else { return nil }
        let unitsPerEm = Double(face.pointee.units_per_EM)
        guard unitsPerEm > 0 else { return nil }
        let scale = size / unitsPerEm
        let key = StyleKey(face: face, scale: scale, color: run.color)
        if let i = styleIndex[key] { return i }
        styles.append(Style(face: face, scale: scale, color: run.color, ascender: Double(face.pointee.ascender) * scale,
                            descender: -Double(face.pointee.descender) * scale, lineHeight: Double(face.pointee.height) * scale))
        styleIndex[key] = styles.count - 1
        return styles.count - 1
    }

    /// What makes a style: its face, scale and colour.
    private struct StyleKey: Hashable {
        let face: FT_Face
        let scale: Double
        let color: CGColor?
    }

    private func advance(of c: Character, style: Int) -> Double {
        TextRenderer.advance([c], face: styles[style].face, scale: styles[style].scale)
    }

    // MARK: - Breaking and truncating

    /// A paragraph broken into lines at spaces so that each fits `width` where it can.
    private func wrap(_ paragraph: [Glyph], width: Double) -> [Line] {
        var lines: [Line] = []
        var current: [Glyph] = [], currentWidth = 0.0
        var word: [Glyph] = [], wordWidth = 0.0
        var space: Glyph?
        func endWord() {
            let joined = (current.isEmpty ? 0 : space?.advance ?? 0) + wordWidth
            if !current.isEmpty && currentWidth + joined > width {
                lines.append(Line(glyphs: current, endsParagraph: false))
                current = word; currentWidth = wordWidth
            } else {
                if !current.isEmpty, let space { current.append(space) }
                current += word; currentWidth += joined
            }
            word = []; wordWidth = 0
        }
        for g in paragraph {
            if g.char == " " {
                endWord()
                space = g
            } else {
                word.append(g); wordWidth += g.advance
            }
        }
        endWord()
        lines.append(Line(glyphs: current, endsParagraph: true))
        return lines
    }

    private mutating func truncate(_ mode: TextTruncation, width: Double) {
        guard mode != .none, !lines.isEmpty else { return }
        guard isWrapped else {
            for i in lines.indices where lines[i].width > width { lines[i].glyphs = truncated(lines[i].glyphs, width: width, mode: mode) }
            return
        }
        // The lines whose whole height fits; the last of them takes the rest of the text.
        var used = 0.0, fitting = 0
        for line in lines {
            used += metrics(line).height
            guard used <= Double(bounds.height) + 1e-9 || fitting == 0 else { break }
            fitting += 1
        }
        guard fitting < lines.count else { return }
        var rest = lines[fitting - 1].glyphs
        for line in lines[fitting...] {
            if let last = rest.last { rest.append(Glyph(char: " ", style: last.style, advance: advance(of: " ", style: last.style))) }
            rest += line.glyphs
        }
        lines.removeSubrange((fitting - 1)...)
        lines.append(Line(glyphs: truncated(rest, width: width, mode: mode), endsParagraph: true))
    }

    /// `glyphs` with glyphs removed at the start, middle or end for an ellipsis (in the style of
    /// the glyph it replaces) until the whole fits `width`: the longest such line, tried from the
    /// whole text down one glyph at a time. Each try costs O(1) through prefix sums of the
    /// advances, so a line of n glyphs is truncated in O(n) (issue 18: re-measuring the whole
    /// candidate per try made a 10 000-character line cost seconds per frame).
    ///
    /// Removing from the middle takes, each time, the glyph at index count / 2 of what is left,
    /// so m kept glyphs are always the first ⌈m/2⌉ and the last ⌊m/2⌋, and the ellipsis goes at
    /// index ⌊m/2⌋.
    private func truncated(_ glyphs: [Glyph], width: Double, mode: TextTruncation) -> [Glyph] {
        guard let first = glyphs.first else { return glyphs }
        let n = glyphs.count
        var prefix = [0.0]
        prefix.reserveCapacity(n + 1)
        for g in glyphs { prefix.append(prefix[prefix.count - 1] + g.advance) }
        /// The kept glyphs' ranges when m are kept, and where the ellipsis goes among them.
        func kept(_ m: Int) -> (head: Range<Int>, tail: Range<Int>, at: Int) {
            switch mode {
            case .start: return (0..<0, (n - m)..<n, 0)
            case .middle: return (0..<((m + 1) / 2), (n - m / 2)..<n, m / 2)
            case .none, .end: return (0..<m, n..<n, m)
            }
        }
        /// The kept glyph at index i of the kept sequence.
        func glyph(_ i: Int, _ k: (head: Range<Int>, tail: Range<Int>, at: Int)) -> Glyph {
            i < k.head.count ? glyphs[k.head.lowerBound + i] : glyphs[k.tail.lowerBound + i - k.head.count]
        }
        var ellipsisAdvance: [Int: Double] = [:]
        func ellipsis(_ m: Int, _ k: (head: Range<Int>, tail: Range<Int>, at: Int)) -> Glyph {
            let style = m == 0 ? first.style : glyph(min(k.at, m - 1), k).style
            if ellipsisAdvance[style] == nil { ellipsisAdvance[style] = advance(of: "…", style: style) }
            return Glyph(char: "…", style: style, advance: ellipsisAdvance[style]!)
        }
        var m = n
        while m > 0 {
            let k = kept(m)
            let used = prefix[k.head.upperBound] - prefix[k.head.lowerBound] + prefix[k.tail.upperBound] - prefix[k.tail.lowerBound]
            if used + ellipsis(m, k).advance <= width { break }
            m -= 1
        }
        let k = kept(m)
        var out = Array(glyphs[k.head]) + Array(glyphs[k.tail])
        out.insert(ellipsis(m, k), at: k.at)
        return out
    }
}
