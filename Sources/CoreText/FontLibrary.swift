import CFontconfig
import CFreeType
import Foundation

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
