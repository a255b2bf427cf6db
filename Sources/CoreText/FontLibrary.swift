import CFontconfig
import CFreeType
import Foundation

/// Glyph outlines from FreeType, font files found for a name by `FontPolicy` through fontconfig.
/// Glyphs become `Raster.Path`s, so text gets the same exact-area anti-aliasing and transforms as
/// every other shape.
///
/// The fonts are the machine's (fontconfig's configuration), or only those in one folder when
/// `CITRINE_FONT_DIR` names it (`citrine render --font-dir`): the same folder gives the same
/// pixels on any machine.
final class FontLibrary: @unchecked Sendable {
    static let shared = FontLibrary()

    private var library: FT_Library?
    /// fontconfig's configuration, loaded once (loading it reads every font file's cache), or
    /// one holding only a font folder's fonts.
    private var config: OpaquePointer?
    /// The folder resolution is restricted to, if any.
    private(set) var fontDirectory: String?
    /// Faces by font file and index: as many as the fonts installed, kept for the process
    /// (layouts hold them).
    private var facesByFile: [String: FT_Face] = [:]
    /// What each pattern asked for resolves to, forgotten all at once past `maxRememberedNames`
    /// (a caller may ask for any number of distinct names).
    private var resolutionByPattern: [String: FontResolution] = [:]
    /// The families whose substitution was said on standard error.
    private var announced: Set<String> = []
    private let lock = NSLock()
    /// Held while a face is used: an `FT_Face` loads one glyph at a time into its own slot, so
    /// threads rendering text at once (the exporter's workers) take turns.
    let faceUseLock = NSLock()

    /// Receives the one line said when a family with other widths stands in for another
    /// (`FontResolution.isAnnounced`), once per asked family; standard error by default. Tests
    /// replace it.
    nonisolated(unsafe) static var diagnostics: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    private init() {
        var lib: FT_Library?
        if FT_Init_FreeType(&lib) == 0 { library = lib }
        let folder = ProcessInfo.processInfo.environment["CITRINE_FONT_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        useFontDirectory(folder)
    }

    /// Restricts resolution to the fonts in `folder` (and its subfolders), or with nil to the
    /// machine's fonts; names resolve again afterwards.
    func useFontDirectory(_ folder: String?) {
        lock.lock(); defer { lock.unlock() }
        if let old = config { FcConfigDestroy(old) }
        if let folder {
            // A configuration of that folder alone (no system fonts, no aliases), its cache in
            // the user's fontconfig cache: fontconfig matches among those fonts only.
            let escaped = folder.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
            let xml = "<?xml version=\"1.0\"?><fontconfig><dir>\(escaped)</dir>"
                + "<cachedir prefix=\"xdg\">fontconfig</cachedir></fontconfig>"
            let restricted = FcConfigCreate()
            if FcConfigParseAndLoadFromMemory(restricted, xml, 1) == 0 || FcConfigBuildFonts(restricted) == 0 {
                Self.diagnostics("Citrine: the font folder \(folder) cannot be read: no text is drawn")
            }
            config = restricted
        } else {
            config = FcInitLoadConfigAndFonts()
        }
        fontDirectory = folder
        resolutionByPattern.removeAll()
        announced.removeAll()
    }

    /// Most font names whose resolution is remembered at once.
    static let maxRememberedNames = 4_096

    /// The face for a fontconfig pattern (`FontPolicy`'s choice), or nil when FreeType or every
    /// font is unavailable. Names that resolve to the same file share one face.
    func face(named name: String) -> FT_Face? {
        lock.lock(); defer { lock.unlock() }
        guard let resolution = resolveLocked(name), let library else { return nil }
        let key = "\(resolution.index):\(resolution.file)"
        if let face = facesByFile[key] { return face }
        var face: FT_Face?
        guard FT_New_Face(library, resolution.file, resolution.index, &face) == 0, let face else { return nil }
        facesByFile[key] = face
        return face
    }

    /// The file and family that draw a fontconfig pattern, as `FontPolicy` chooses them.
    func resolution(for pattern: String) -> FontResolution? {
        lock.lock(); defer { lock.unlock() }
        return resolveLocked(pattern)
    }

    private func resolveLocked(_ pattern: String) -> FontResolution? {
        if let known = resolutionByPattern[pattern] { return known }
        guard let found = resolve(pattern) else { return nil }
        if resolutionByPattern.count >= Self.maxRememberedNames { resolutionByPattern.removeAll(keepingCapacity: true) }
        resolutionByPattern[pattern] = found
        if found.isAnnounced, announced.insert(FontPolicy.key(found.asked)).inserted {
            Self.diagnostics(found.substitutionNote)
        }
        return found
    }

    /// `FontPolicy`'s order: the family itself, its row's families, fontconfig's best match.
    private func resolve(_ pattern: String) -> FontResolution? {
        let (asked, rest) = FontPolicy.split(pattern)
        for (family, compatible) in FontPolicy.chain(forFamily: asked) {
            if let (file, index, families) = match(family + rest),
               families.contains(where: { FontPolicy.key($0) == FontPolicy.key(family) }) {
                return FontResolution(asked: asked, family: family, file: file, index: index, metricCompatible: compatible)
            }
        }
        guard let (file, index, families) = match(pattern) else { return nil }
        return FontResolution(asked: asked, family: families.first ?? asked, file: file, index: index,
                              metricCompatible: families.contains { FontPolicy.key($0) == FontPolicy.key(asked) })
    }

    /// fontconfig's best match for `pattern`: its file, face index and family names.
    private func match(_ pattern: String) -> (String, Int, [String])? {
        guard let config, let parsed = FcNameParse(pattern) else { return nil }
        defer { FcPatternDestroy(parsed) }
        FcConfigSubstitute(config, parsed, FcMatchPattern)
        FcDefaultSubstitute(parsed)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(config, parsed, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        if FcPatternGetInteger(match, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        var families: [String] = []
        var name: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(match, FC_FAMILY, Int32(families.count), &name) == FcResultMatch, let name {
            families.append(String(cString: name))
        }
        return (String(cString: file), Int(index), families)
    }
}

/// The font file and family that draw a font pattern on this machine (`FontPolicy`), for `citrine
/// info --fonts` and the tests; nil when no font is installed.
package func resolvedFont(_ pattern: String) -> FontResolution? { FontLibrary.shared.resolution(for: pattern) }

/// The folder font resolution is restricted to (`CITRINE_FONT_DIR`), if any.
package var fontDirectory: String? { FontLibrary.shared.fontDirectory }

/// Restricts font resolution to `folder` (nil: the machine's fonts), as `CITRINE_FONT_DIR` does
/// at start-up; names resolve again afterwards.
package func useFontDirectory(_ folder: String?) { FontLibrary.shared.useFontDirectory(folder) }

/// Replaces where substitution notes go (standard error by default); returns the previous one.
@discardableResult
package func setFontDiagnostics(_ sink: @escaping @Sendable (String) -> Void) -> @Sendable (String) -> Void {
    let previous = FontLibrary.diagnostics
    FontLibrary.diagnostics = sink
    return previous
}

/// A font's vertical metrics at `size` points, from its resolved file's `hhea` table as FreeType
/// reads it: ascender (up, positive), descender (negative) and line gap (Apple's `UIFont.leading`).
package func fontMetrics(_ pattern: String, size: Double) -> (ascender: Double, descender: Double, leading: Double)? {
    guard let face = FontLibrary.shared.face(named: pattern) else { return nil }
    let unitsPerEm = Double(face.pointee.units_per_EM)
    guard unitsPerEm > 0 else { return nil }
    let scale = size / unitsPerEm
    let ascender = Double(face.pointee.ascender), descender = Double(face.pointee.descender)
    return (ascender * scale, descender * scale, (Double(face.pointee.height) - ascender + descender) * scale)
}
