import CFreeType
import CoreGraphics
import Foundation
import Raster

/// Lays out and draws text — runs of a font, size and colour, from an `NSAttributedString`
/// (Core Text's and UIKit's attributes: a run without a font is Helvetica 12, without a colour
/// black, Core Text's defaults) or from a `CATextLayer`'s string and font (the compositor makes
/// those runs). `TextLayout` breaks and places the lines; the glyph outlines become one `Path` per
/// colour.
package enum TextRenderer {
    /// One run of text in one font, size and colour.
    package struct Run: Equatable {
        package var text: String
        /// fontconfig pattern.
        package var font: String
        /// Points.
        package var size: CGFloat
        package var color: CGColor?
        /// `kCTKernAttributeName`: nil for the font's own kerning, else points added after each
        /// character with the font's kerning off.
        package var kern: Double?
        /// `kCTLigatureAttributeName`: 0 essential ligatures only, 1 standard (default), 2 all.
        package var ligatures: Int

        package init(text: String, font: String, size: CGFloat, color: CGColor?, kern: Double? = nil, ligatures: Int = 1) {
            self.text = text
            self.font = font
            self.size = size
            self.color = color
            self.kern = kern
            self.ligatures = ligatures
        }
    }

    /// The fontconfig pattern for a font value (`CATextLayer.font`): a name (String/NSString), or
    /// a font object (`CTFont`, `CGFont`, `UIFont`; Apple ignores its size, `fontSize` applies);
    /// Helvetica for anything else (Apple's default).
    package static func fontPattern(of font: Any?) -> String {
        if let described = font as? _FontDescribing { return described._fontPattern }
        return (font as? String) ?? (font as? NSString).map { $0 as String } ?? "Helvetica"
    }

    /// The runs of an attributed string: each range of equal attributes, with its font
    /// (`kCTFontAttributeName` / `.font`) and colour (`kCTForegroundColorAttributeName` /
    /// `.foregroundColor`).
    package static func runs(of attributed: NSAttributedString) -> [Run] {
        var runs: [Run] = []
        let whole = NSRange(location: 0, length: attributed.length)
        let string = attributed.string, text = string as NSString
        attributed.enumerateAttributes(in: whole, options: []) { attributes, range, _ in
            var font = "Helvetica", size: CGFloat = 12
            var color: CGColor? = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            var kern: Double?, ligatures = 1
            for (key, value) in attributes {
                switch key.rawValue {
                case kCTFontAttributeName:
                    if let f = value as? _FontDescribing { font = f._fontPattern; size = f._fontPointSize ?? 12 }
                case kCTForegroundColorAttributeName, "NSColor":
                    if let c = value as? _CGColorConvertible { color = c._cgColor }
                case kCTKernAttributeName:
                    // A value that is not a finite number is ignored (standard kerning).
                    if let number = Self.number(value), number.isFinite { kern = number }
                case kCTLigatureAttributeName:
                    if let number = Self.number(value), number.isFinite { ligatures = Int(min(2, max(0, number.rounded()))) }
                default: break
                }
            }
            // One run of the whole string shares it (no UTF-16 round trip through NSString).
            runs.append(Run(text: range == whole ? string : text.substring(with: range), font: font, size: size, color: color,
                            kern: kern, ligatures: ligatures))
        }
        return runs
    }

    /// An attribute's numeric value (an `NSNumber` or a Swift number).
    private static func number(_ value: Any) -> Double? {
        if let n = value as? NSNumber { return n.doubleValue }
        if let d = value as? Double { return d }
        if let c = value as? CGFloat { return Double(c) }
        if let i = value as? Int { return Double(i) }
        return nil
    }

    /// The glyph outlines of `runs` laid out in `bounds` (`TextLayout`; y-down, the first baseline
    /// its line's ascent below `bounds.minY`), one path per colour in order of first use: only
    /// the glyphs that can reach `visible` (the same space; a layer's bounds, a context's clip)
    /// are laid out and outlined.
    package static func glyphs(of runs: [Run], bounds: CGRect, alignment: TextAlignment, isWrapped: Bool,
                               truncationMode: TextTruncation, visible: CGRect) -> [(Path, CGColor)] {
        guard !runs.isEmpty, !visible.isNull, !visible.isEmpty else { return [] }
        FontLibrary.shared.faceUseLock.lock()
        defer { FontLibrary.shared.faceUseLock.unlock() }
        guard let layout = TextLayout(runs: runs, bounds: bounds, alignment: alignment, isWrapped: isWrapped,
                                      truncationMode: truncationMode, visible: visible) else { return [] }
        if let usage = FontUsage.active { for style in layout.styles { usage.record(style.resolution) } }
        var paths = GlyphPaths()
        for placed in layout.placedGlyphs() {
            paths.append(placed.glyph, placed.char, style: layout.styles[placed.style], at: placed.origin)
        }
        return paths.paths
    }

    /// Glyph outlines gathered into one path per colour, in order of first use.
    struct GlyphPaths {
        private(set) var paths: [(Path, CGColor)] = []
        private var indexOfColor: [CGColor: Int] = [:]

        /// Appends one glyph's outline (glyph index `glyph`, or `char`'s own glyph), pen origin at
        /// `origin` (baseline, y-down), to the path of its style's colour (a new path for a new
        /// colour); nothing for a clear colour.
        mutating func append(_ glyph: UInt32?, _ char: Character, style: TextLayout.Style, at origin: Point) {
            guard let color = style.color, color.alpha > 0 else { return }
            let index: Int
            if let known = indexOfColor[color] { index = known } else {
                index = paths.count
                paths.append((Path(), color))
                indexOfColor[color] = index
            }
            appendGlyph(glyph, char, face: style.face, scale: style.scale, origin: origin, into: &paths[index].0)
        }
    }

    /// Appends the outline of glyph `glyph` (or `char`'s glyph when nil), its pen origin at
    /// `origin` (baseline, y-down), to `path`.
    static func appendGlyph(_ glyph: UInt32?, _ char: Character, face: FT_Face, scale: Double, origin: Point, into path: inout Path) {
        let flags = FT_Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING)
        if let glyph {
            guard FT_Load_Glyph(face, glyph, flags) == 0 else { return }
        } else {
            guard let scalar = char.unicodeScalars.first, FT_Load_Char(face, FT_ULong(scalar.value), flags) == 0 else { return }
        }
        let slot = face.pointee.glyph!
        // The sink takes the path over (swapped, not copied: a copy would make every glyph copy
        // all the outlines before it) and gives it back.
        var sink = OutlineSink(path: Path(), scale: scale, origin: origin)
        swap(&sink.path, &path)
        withUnsafeMutablePointer(to: &sink) { ptr in
            var funcs = FT_Outline_Funcs(
                move_to: { to, user in OutlineSink.from(user).pointee.move(to!.pointee); return 0 },
                line_to: { to, user in OutlineSink.from(user).pointee.line(to!.pointee); return 0 },
                conic_to: { c, to, user in OutlineSink.from(user).pointee.quad(c!.pointee, to!.pointee); return 0 },
                cubic_to: { c1, c2, to, user in
                    OutlineSink.from(user).pointee.cubic(c1!.pointee, c2!.pointee, to!.pointee); return 0 },
                shift: 0, delta: 0)
            _ = FT_Outline_Decompose(&slot.pointee.outline, &funcs, ptr)
        }
        sink.closeIfOpen()
        swap(&path, &sink.path)
    }

    /// Receives FreeType's outline callbacks (font units, y-up) and builds a y-down Path.
    struct OutlineSink {
        var path: Path
        let scale: Double
        let origin: Point
        var open = false

        static func from(_ user: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<OutlineSink> {
            user!.assumingMemoryBound(to: OutlineSink.self)
        }

        func point(_ v: FT_Vector) -> Point {
            Point(x: origin.x + Double(v.x) * scale, y: origin.y - Double(v.y) * scale)
        }

        mutating func closeIfOpen() {
            if open { path.close() }
            open = false
        }

        mutating func move(_ v: FT_Vector) {
            closeIfOpen()
            path.move(to: point(v))
            open = true
        }
        mutating func line(_ v: FT_Vector) { path.line(to: point(v)) }
        mutating func quad(_ c: FT_Vector, _ v: FT_Vector) { path.quad(to: point(v), control: point(c)) }
        mutating func cubic(_ c1: FT_Vector, _ c2: FT_Vector, _ v: FT_Vector) {
            path.cubic(to: point(v), control1: point(c1), control2: point(c2))
        }
    }
}
