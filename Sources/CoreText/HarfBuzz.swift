import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Text shaping by HarfBuzz (`libharfbuzz.so.0`, Debian's `libharfbuzz0b`), loaded when first
/// needed with `dlopen`: it is not a build dependency (its headers are not on a new machine), and
/// without it text keeps the fonts' own advances.
///
/// Design note
/// -----------
/// * Only the few functions shaping needs are declared here, with HarfBuzz's stable C ABI
///   (`hb_glyph_info_t` and `hb_glyph_position_t` are five 32-bit fields each, `hb-buffer.h`).
/// * A font is made from its file (`hb_blob_create_from_file`, `hb_face_create`), not from the
///   FreeType face, with its scale at the face's units per em: positions come back in font units,
///   unhinted, as Citrine's advances are. One `hb_font_t` per font file and face index, kept for
///   the process (fonts are few; `FontLibrary` keeps its faces the same way).
/// * `hb_shape` runs with HarfBuzz's default features — among them `kern`, `liga`, `clig`, `calt`,
///   `mark` and `mkmk` — which are Core Text's defaults: "If this attribute is not present,
///   standard kerning will be used" (`kCTKernAttributeName`, CTStringAttributes.h) and
///   "1 indicates that standard ligatures should be used" (`kCTLigatureAttributeName`, whose
///   default is 1).
/// * When the library is missing, the first layout says so once on standard error
///   (`FontLibrary.diagnostics`), naming what is lost.
final class HarfBuzz: @unchecked Sendable {
    /// The loaded library, or nil when it cannot be loaded (said once on standard error).
    static let shared: HarfBuzz? = {
        if ProcessInfo.processInfo.environment["CITRINE_NO_HARFBUZZ"] == nil, let loaded = HarfBuzz() { return loaded }
        FontLibrary.diagnostics(unavailableNote)
        return nil
    }()

    /// The line said when HarfBuzz cannot be loaded.
    static let unavailableNote = "Citrine: libharfbuzz.so.0 could not be loaded (apt-get install libharfbuzz0b): "
        + "text is drawn without kerning, ligatures, mark positioning or right-to-left shaping"

    /// `hb_glyph_info_t` (codepoint, mask, cluster, two private words) and `hb_glyph_position_t`
    /// (x advance, y advance, x offset, y offset, a private word): 20 bytes each.
    private static let recordSize = 20

    /// HarfBuzz's `hb_direction_t` values (hb-common.h).
    enum Direction: UInt32 { case leftToRight = 4, rightToLeft = 5 }

    private let blobFromFile: @convention(c) (UnsafePointer<CChar>) -> OpaquePointer?
    private let faceCreate: @convention(c) (OpaquePointer?, UInt32) -> OpaquePointer?
    private let faceGetUpem: @convention(c) (OpaquePointer?) -> UInt32
    private let fontCreate: @convention(c) (OpaquePointer?) -> OpaquePointer?
    private let fontSetScale: @convention(c) (OpaquePointer?, Int32, Int32) -> Void
    private let bufferCreate: @convention(c) () -> OpaquePointer?
    private let bufferDestroy: @convention(c) (OpaquePointer?) -> Void
    private let bufferAdd: @convention(c) (OpaquePointer?, UInt32, UInt32) -> Void
    private let bufferSetContentType: @convention(c) (OpaquePointer?, UInt32) -> Void
    private let bufferSetDirection: @convention(c) (OpaquePointer?, UInt32) -> Void
    private let bufferGuessProperties: @convention(c) (OpaquePointer?) -> Void
    private let shapeBuffer: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeRawPointer?, UInt32) -> Void
    private let glyphInfos: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt32>?) -> UnsafeMutableRawPointer?
    private let glyphPositions: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt32>?) -> UnsafeMutableRawPointer?

    private var fonts: [String: OpaquePointer] = [:]
    private let lock = NSLock()

    private init?() {
        guard let handle = dlopen("libharfbuzz.so.0", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<F>(_ name: String, as type: F.Type) -> F? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        guard let blobFromFile = symbol("hb_blob_create_from_file", as: type(of: blobFromFile)),
              let faceCreate = symbol("hb_face_create", as: type(of: faceCreate)),
              let faceGetUpem = symbol("hb_face_get_upem", as: type(of: faceGetUpem)),
              let fontCreate = symbol("hb_font_create", as: type(of: fontCreate)),
              let fontSetScale = symbol("hb_font_set_scale", as: type(of: fontSetScale)),
              let bufferCreate = symbol("hb_buffer_create", as: type(of: bufferCreate)),
              let bufferDestroy = symbol("hb_buffer_destroy", as: type(of: bufferDestroy)),
              let bufferAdd = symbol("hb_buffer_add", as: type(of: bufferAdd)),
              let bufferSetContentType = symbol("hb_buffer_set_content_type", as: type(of: bufferSetContentType)),
              let bufferSetDirection = symbol("hb_buffer_set_direction", as: type(of: bufferSetDirection)),
              let bufferGuessProperties = symbol("hb_buffer_guess_segment_properties", as: type(of: bufferGuessProperties)),
              let shapeBuffer = symbol("hb_shape", as: type(of: shapeBuffer)),
              let glyphInfos = symbol("hb_buffer_get_glyph_infos", as: type(of: glyphInfos)),
              let glyphPositions = symbol("hb_buffer_get_glyph_positions", as: type(of: glyphPositions)) else {
            dlclose(handle)
            return nil
        }
        self.blobFromFile = blobFromFile
        self.faceCreate = faceCreate
        self.faceGetUpem = faceGetUpem
        self.fontCreate = fontCreate
        self.fontSetScale = fontSetScale
        self.bufferCreate = bufferCreate
        self.bufferDestroy = bufferDestroy
        self.bufferAdd = bufferAdd
        self.bufferSetContentType = bufferSetContentType
        self.bufferSetDirection = bufferSetDirection
        self.bufferGuessProperties = bufferGuessProperties
        self.shapeBuffer = shapeBuffer
        self.glyphInfos = glyphInfos
        self.glyphPositions = glyphPositions
    }

    /// The HarfBuzz font of face `index` of `file`, scaled to font units; nil when HarfBuzz cannot
    /// read the file.
    private func font(file: String, index: Int) -> OpaquePointer? {
        lock.lock(); defer { lock.unlock() }
        let key = "\(index):\(file)"
        if let known = fonts[key] { return known }
        guard let blob = blobFromFile(file), let face = faceCreate(blob, UInt32(clamping: index)),
              let font = fontCreate(face) else { return nil }
        let upem = Int32(clamping: faceGetUpem(face))
        fontSetScale(font, upem, upem)
        fonts[key] = font
        return font
    }

    /// One shaped glyph: its glyph index in the font, advance and offset (font units, y up), and
    /// the index in the shaped text of the first character of its cluster.
    struct Shaped {
        let glyph: UInt32
        let advance: Double, xOffset: Double, yOffset: Double
        let cluster: Int
    }

    /// `characters` shaped in face `index` of `file` in `direction`, in visual order (left to
    /// right), each glyph's cluster the index of its first character; nil when the font cannot
    /// be read.
    ///
    /// `features`: OpenType feature tags (four ASCII letters) and values applied to the whole
    /// text, beside HarfBuzz's defaults.
    func shape(_ characters: [Character], file: String, index: Int, direction: Direction,
               features: [(tag: String, value: UInt32)] = []) -> [Shaped]? {
        guard !characters.isEmpty, let font = font(file: file, index: index), let buffer = bufferCreate() else { return nil }
        defer { bufferDestroy(buffer) }
        bufferSetContentType(buffer, 1)   // HB_BUFFER_CONTENT_TYPE_UNICODE
        for (i, c) in characters.enumerated() {
            for scalar in c.unicodeScalars { bufferAdd(buffer, scalar.value, UInt32(i)) }
        }
        bufferSetDirection(buffer, direction.rawValue)
        bufferGuessProperties(buffer)   // the script and language, from the text
        // `hb_feature_t`: tag (big-endian four letters), value, start, end (all of the text).
        var records: [UInt32] = []
        for feature in features {
            let tag = feature.tag.utf8.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            records += [tag, feature.value, 0, UInt32.max]
        }
        records.withUnsafeBytes { shapeBuffer(font, buffer, $0.baseAddress, UInt32(features.count)) }
        var count: UInt32 = 0
        guard let infos = glyphInfos(buffer, &count), let positions = glyphPositions(buffer, nil) else { return nil }
        return (0..<Int(count)).map { i in
            let info = infos + i * Self.recordSize, position = positions + i * Self.recordSize
            return Shaped(glyph: info.load(as: UInt32.self), advance: Double(position.load(as: Int32.self)),
                          xOffset: Double(position.load(fromByteOffset: 8, as: Int32.self)),
                          yOffset: Double(position.load(fromByteOffset: 12, as: Int32.self)),
                          cluster: Int(info.load(fromByteOffset: 8, as: UInt32.self)))
        }
    }
}
