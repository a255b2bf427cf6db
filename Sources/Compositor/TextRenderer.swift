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
    private var faces: [String: FT_Face] = [:]
    private let lock = NSLock()
    /// Held while a face is used: an `FT_Face` loads one glyph at a time into its own slot, so
    /// threads rendering text at once (the exporter's workers) take turns.
    let faceUseLock = NSLock()

    private init() {
        var lib: FT_Library?
        if FT_Init_FreeType(&lib) == 0 { library = lib }
    }

    /// The face for a font name (fontconfig's best match), or nil when FreeType or the font is
    /// unavailable.
    func face(named name: String) -> FT_Face? {
        lock.lock(); defer { lock.unlock() }
        if let f = faces[name] { return f }
        guard let library, let path = FontLibrary.fontFile(for: name) else { return nil }
        var face: FT_Face?
        guard FT_New_Face(library, path, 0, &face) == 0, let face else { return nil }
        faces[name] = face
        return face
    }

    /// fontconfig's file for `name`.
    static func fontFile(for name: String) -> String? {
        guard let config = FcInitLoadConfigAndFonts() else { return nil }
        defer { FcConfigDestroy(config) }
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

/// Lays out and draws a `CATextLayer`'s string: lines broken at spaces when `isWrapped`, each line
/// aligned per `alignmentMode` (natural = left), truncated with "…" per `truncationMode` when it
/// does not fit and is not wrapped; the first baseline sits one ascender below the top of the
/// bounds (layer space is y-down, as on iOS).
enum TextRenderer {
    struct Line {
        var text: [Character]
        var width: Double
    }

    static func draw(_ layer: CATextLayer, transform: Transform, clip: Mask? = nil, into canvas: Pixmap) {
        guard let (glyphs, color) = glyphs(of: layer) else { return }
        canvas.fill(glyphs, paint: Paint(color: color.rasterColor), transform: transform, clip: clip)
    }

    /// The string `layer` draws (a `String` or `NSString`; nil for anything else).
    static func text(of layer: CATextLayer) -> String? {
        (layer.string as? String) ?? (layer.string as? NSString).map({ $0 as String })
    }

    /// The font name `layer` draws with (`font` as a name; Helvetica otherwise).
    static func fontName(of layer: CATextLayer) -> String { (layer.font as? String) ?? "Helvetica" }

    /// The laid-out glyph outlines of `layer`'s string in layer space (points, y-down) and their
    /// colour, or nil when it draws nothing.
    static func glyphs(of layer: CATextLayer) -> (Path, CGColor)? {
        guard let text = text(of: layer), !text.isEmpty, let color = layer.foregroundColor, color.alpha > 0,
              let face = FontLibrary.shared.face(named: fontName(of: layer)) else { return nil }
        FontLibrary.shared.faceUseLock.lock()
        defer { FontLibrary.shared.faceUseLock.unlock() }
        let size = Double(layer.fontSize)
        guard size > 0, size.isFinite else { return nil }
        let unitsPerEm = Double(face.pointee.units_per_EM)
        guard unitsPerEm > 0 else { return nil }
        let scale = size / unitsPerEm
        let ascender = Double(face.pointee.ascender) * scale
        let lineHeight = Double(face.pointee.height) * scale
        let b = layer.bounds
        var lines = layout(text, face: face, scale: scale, width: Double(b.width), wrapped: layer.isWrapped)
        if !layer.isWrapped, layer.truncationMode != .none, let first = lines.first, first.width > Double(b.width) {
            lines = [truncate(first, face: face, scale: scale, width: Double(b.width), mode: layer.truncationMode)]
        }
        var path = Path()
        for (i, line) in lines.enumerated() {
            let baseline = Double(b.minY) + ascender + Double(i) * lineHeight
            let x: Double
            switch layer.alignmentMode {
            case .center: x = Double(b.midX) - line.width / 2
            case .right: x = Double(b.maxX) - line.width
            default: x = Double(b.minX)
            }
            appendGlyphs(line.text, face: face, scale: scale, origin: Point(x: x, y: baseline), into: &path)
        }
        return (path, color)
    }

    /// Lines of `text`: explicit newlines always break; with `wrapped`, words move to the next
    /// line when they would cross `width`.
    static func layout(_ text: String, face: FT_Face, scale: Double, width: Double, wrapped: Bool) -> [Line] {
        var lines: [Line] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard wrapped else {
                let chars = Array(paragraph)
                lines.append(Line(text: chars, width: advance(chars, face: face, scale: scale)))
                continue
            }
            var current: [Character] = []
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                let candidate = current.isEmpty ? Array(word) : current + [" "] + Array(word)
                if !current.isEmpty && advance(candidate, face: face, scale: scale) > width {
                    lines.append(Line(text: current, width: advance(current, face: face, scale: scale)))
                    current = Array(word)
                } else {
                    current = candidate
                }
            }
            lines.append(Line(text: current, width: advance(current, face: face, scale: scale)))
        }
        return lines
    }

    /// `line` shortened with an ellipsis at its start, middle or end so it fits `width`.
    static func truncate(_ line: Line, face: FT_Face, scale: Double, width: Double,
                         mode: CATextLayerTruncationMode) -> Line {
        var kept = line.text
        func candidate() -> [Character] {
            switch mode {
            case .start: return ["…"] + kept
            case .middle:
                let half = kept.count / 2
                return Array(kept[..<half]) + ["…"] + Array(kept[half...])
            default: return kept + ["…"]
            }
        }
        while !kept.isEmpty && advance(candidate(), face: face, scale: scale) > width {
            switch mode {
            case .start: kept.removeFirst()
            case .middle: kept.remove(at: kept.count / 2)
            default: kept.removeLast()
            }
        }
        let text = candidate()
        return Line(text: text, width: advance(text, face: face, scale: scale))
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
            var sink = OutlineSink(path: path, scale: scale, origin: Point(x: pen, y: origin.y))
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
            path = sink.path
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
