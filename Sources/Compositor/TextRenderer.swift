import CFontconfig
import Foundation
import CFreeType
import QuartzCore
import Raster

/// Glyph outlines from FreeType, fonts found by name through fontconfig (the installed DejaVu
/// fonts answer for "Helvetica" and friends). Glyphs become `Raster.Path`s, so text gets the same
/// exact-area anti-aliasing and transforms as every other shape.
final class FontLibrary: @unchecked Sendable {
    static let shared = FontLibrary()

    private var library: FT_Library?
    /// fontconfig's configuration, loaded once (loading it reads every font file's cache).
    private var config: OpaquePointer?
    /// Faces by font file: as many as the fonts installed, kept for the process (layouts hold them).
    private var facesByFile: [String: FT_Face] = [:]
    /// The font file each name asked for resolves to, forgotten all at once past
    /// `maxRememberedNames` (a caller may ask for any number of distinct names).
    private var fileByName: [String: String] = [:]
    private let lock = NSLock()
    /// Held while a face is used: an `FT_Face` loads one glyph at a time into its own slot, so
    /// threads rendering text at once (the exporter's workers) take turns.
    let faceUseLock = NSLock()

    private init() {
        var lib: FT_Library?
        if FT_Init_FreeType(&lib) == 0 { library = lib }
        config = FcInitLoadConfigAndFonts()
    }

    /// Most font names whose file is remembered at once.
    static let maxRememberedNames = 4_096

    /// The face for a font name (fontconfig's best match), or nil when FreeType or the font is
    /// unavailable. Names that resolve to the same file share one face.
    func face(named name: String) -> FT_Face? {
        lock.lock(); defer { lock.unlock() }
        let file: String
        if let known = fileByName[name] {
            file = known
        } else {
            guard let found = fontFile(for: name) else { return nil }
            if fileByName.count >= Self.maxRememberedNames { fileByName.removeAll(keepingCapacity: true) }
            fileByName[name] = found
            file = found
        }
        if let face = facesByFile[file] { return face }
        guard let library else { return nil }
        var face: FT_Face?
        guard FT_New_Face(library, file, 0, &face) == 0, let face else { return nil }
        facesByFile[file] = face
        return face
    }

    /// fontconfig's file for `name`.
    private func fontFile(for name: String) -> String? {
        guard let config else { return nil }
        guard let pattern = FcNameParse(name) else { return nil }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        return String(cString: file)
    }
}

/// Lays out and draws a `CATextLayer`'s string — a `String`/`NSString` in the layer's `font`,
/// `fontSize` and `foregroundColor`, or an `NSAttributedString` whose runs carry their own font
/// and colour (Apple: the layer's font, size and colour are then unused; a run without a font is
/// Helvetica 12, without a colour black, Core Text's defaults). `TextLayout` breaks and places
/// the lines; the glyph outlines become one `Path` per colour.
enum TextRenderer {
    /// One run of text in one font, size and colour.
    struct Run: Equatable {
        var text: String
        /// fontconfig pattern.
        var font: String
        /// Points.
        var size: CGFloat
        var color: CGColor?
    }

    static func draw(_ layer: CATextLayer, transform: Transform, clip: Mask? = nil, into canvas: Pixmap) {
        for (path, color) in glyphs(of: layer) {
            canvas.fill(path, paint: Paint(color: color.rasterColor), transform: transform, clip: clip)
        }
    }

    /// The runs `layer` draws: its attributed string's, or its plain string in its own font.
    static func runs(of layer: CATextLayer) -> [Run] {
        if let attributed = layer.string as? NSAttributedString { return runs(of: attributed) }
        guard let text = (layer.string as? String) ?? (layer.string as? NSString).map({ $0 as String }) else { return [] }
        return [Run(text: text, font: fontPattern(of: layer.font), size: layer.fontSize, color: layer.foregroundColor)]
    }

    /// The fontconfig pattern for a `CATextLayer.font` value: a name (String/NSString), or a font
    /// object (`CTFont`, `CGFont`, `UIFont`; Apple ignores its size, `fontSize` applies);
    /// Helvetica for anything else (Apple's default).
    static func fontPattern(of font: Any?) -> String {
        if let described = font as? _FontDescribing { return described._fontPattern }
        return (font as? String) ?? (font as? NSString).map { $0 as String } ?? "Helvetica"
    }

    static func runs(of attributed: NSAttributedString) -> [Run] {
        var runs: [Run] = []
        let whole = NSRange(location: 0, length: attributed.length)
        let text = attributed.string as NSString
        attributed.enumerateAttributes(in: whole, options: []) { attributes, range, _ in
            var font = "Helvetica", size: CGFloat = 12
            var color: CGColor? = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            for (key, value) in attributes {
                switch key.rawValue {
                case kCTFontAttributeName:
                    if let f = value as? _FontDescribing { font = f._fontPattern; size = f._fontPointSize ?? 12 }
                case kCTForegroundColorAttributeName, "NSColor":
                    if let c = value as? _CGColorConvertible { color = c._cgColor }
                default: break
                }
            }
            runs.append(Run(text: text.substring(with: range), font: font, size: size, color: color))
        }
        return runs
    }

    /// The laid-out glyph outlines of `layer`'s text in layer space (points, y-down), one path per
    /// colour in order of first use; empty when it draws nothing.
    static func glyphs(of layer: CATextLayer) -> [(Path, CGColor)] {
        glyphs(of: runs(of: layer), bounds: layer.bounds, alignment: layer.alignmentMode, isWrapped: layer.isWrapped,
               truncationMode: layer.truncationMode)
    }

    /// The glyph outlines of `runs` laid out in `bounds` (`TextLayout`; y-down, the first baseline
    /// its line's ascent below `bounds.minY`), one path per colour in order of first use.
    static func glyphs(of runs: [Run], bounds: CGRect, alignment: CATextLayerAlignmentMode, isWrapped: Bool,
                       truncationMode: CATextLayerTruncationMode) -> [(Path, CGColor)] {
        guard !runs.isEmpty else { return [] }
        FontLibrary.shared.faceUseLock.lock()
        defer { FontLibrary.shared.faceUseLock.unlock() }
        guard let layout = TextLayout(runs: runs, bounds: bounds, alignment: alignment, isWrapped: isWrapped,
                                      truncationMode: truncationMode) else { return [] }
        var paths = GlyphPaths()
        for placed in layout.placedGlyphs() {
            paths.append(placed.char, style: layout.styles[placed.style], at: placed.origin)
        }
        return paths.paths
    }

    /// Glyph outlines gathered into one path per colour, in order of first use.
    struct GlyphPaths {
        private(set) var paths: [(Path, CGColor)] = []
        private var indexOfColor: [CGColor: Int] = [:]

        /// Appends one glyph's outline, pen origin at `origin` (baseline, y-down), to the path of
        /// its style's colour (a new path for a new colour); nothing for a clear colour.
        mutating func append(_ char: Character, style: TextLayout.Style, at origin: Point) {
            guard let color = style.color, color.alpha > 0 else { return }
            let index: Int
            if let known = indexOfColor[color] { index = known } else {
                index = paths.count
                paths.append((Path(), color))
                indexOfColor[color] = index
            }
            appendGlyphs([char], face: style.face, scale: style.scale, origin: origin, into: &paths[index].0)
        }
    }

    /// Horizontal advance of `chars` in points (unhinted).
    static func advance(_ chars: [Character], face: FT_Face, scale: Double) -> Double {
        var total = 0.0
        for c in chars {
            guard let scalar = c.unicodeScalars.first,
                  FT_Load_Char(face, FT_ULong(scalar.value), FT_Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING)) == 0 else { continue }
            total += Double(face.pointee.glyph.pointee.advance.x) * scale
        }
        return total
    }

    /// Appends the outlines of `chars`, starting at `origin` (baseline, y-down), to `path`.
    static func appendGlyphs(_ chars: [Character], face: FT_Face, scale: Double, origin: Point, into path: inout Path) {
        var pen = origin.x
        for c in chars {
            guard let scalar = c.unicodeScalars.first,
                  FT_Load_Char(face, FT_ULong(scalar.value), FT_Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING)) == 0 else { continue }
            let glyph = face.pointee.glyph!
            // The sink takes the path over (swapped, not copied: a copy would make every glyph
            // copy all the outlines before it) and gives it back.
            var sink = OutlineSink(path: Path(), scale: scale, origin: Point(x: pen, y: origin.y))
            swap(&sink.path, &path)
            withUnsafeMutablePointer(to: &sink) { ptr in
                var funcs = FT_Outline_Funcs(
                    move_to: { to, user in OutlineSink.from(user).pointee.move(to!.pointee); return 0 },
                    line_to: { to, user in OutlineSink.from(user).pointee.line(to!.pointee); return 0 },
                    conic_to: { c, to, user in OutlineSink.from(user).pointee.quad(c!.pointee, to!.pointee); return 0 },
                    cubic_to: { c1, c2, to, user in
                        OutlineSink.from(user).pointee.cubic(c1!.pointee, c2!.pointee, to!.pointee); return 0 },
                    shift: 0, delta: 0)
                _ = FT_Outline_Decompose(&glyph.pointee.outline, &funcs, ptr)
            }
            sink.closeIfOpen()
            swap(&path, &sink.path)
            pen += Double(glyph.pointee.advance.x) * scale
        }
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
