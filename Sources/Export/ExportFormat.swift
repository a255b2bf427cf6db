import ImageCodecs

/// What an export writes.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// One still image (8-bit straight-alpha RGBA PNG with a `pHYs` chunk for the scale).
    case png
    /// One PNG per frame, named by a printf-style pattern with one integer field
    /// (`frames/%04d.png`), numbered from 0.
    case pngSequence = "png-sequence"
    /// Animated GIF (Citrine's own quantizer and LZW encoder).
    case gif
    /// Animated PNG.
    case apng
    /// H.264 in MP4, yuv420p (opaque; odd sizes padded to even), through `ffmpeg`.
    case mp4
    /// ProRes 4444 with alpha in QuickTime, through `ffmpeg`.
    case mov
    /// VP9 with alpha in WebM, through `ffmpeg`.
    case webm

    /// The format a file name asks for: by extension (`.png` is a still, or a sequence when the
    /// name holds a `%d`-style field; `.apng` is APNG), nil when unknown.
    public static func inferred(from path: String) -> ExportFormat? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "png": return FramePattern(path) != nil ? .pngSequence : .png
        case "gif": return .gif
        case "apng": return .apng
        case "mp4", "m4v": return .mp4
        case "mov": return .mov
        case "webm": return .webm
        default: return nil
        }
    }

    /// Whether the format holds more than one frame.
    public var isAnimated: Bool { self != .png }

    /// Whether the format keeps transparency. MP4 (yuv420p) does not: its frames are drawn over
    /// an opaque background (white unless one is given).
    public var keepsAlpha: Bool { self != .mp4 }

    /// The external program the format is written through, if any.
    public var externalTool: String? {
        switch self {
        case .mp4, .mov, .webm: "ffmpeg"
        default: nil
        }
    }
}

/// A printf-style file-name pattern with exactly one integer field: `%d`, `%4d` or `%04d`
/// (ffmpeg's image-sequence convention). `%%` is a literal percent sign.
public struct FramePattern: Sendable, Equatable {
    let prefix: String
    let suffix: String
    let width: Int
    let zeroPadded: Bool

    /// Nil unless `pattern` has exactly one integer field.
    public init?(_ pattern: String) {
        var prefix = "", suffix = "", field: (width: Int, zero: Bool)?
        var chars = Array(pattern)[...]
        while let c = chars.popFirst() {
            guard c == "%" else { if field == nil { prefix.append(c) } else { suffix.append(c) }; continue }
            if chars.first == "%" {
                chars.removeFirst()
                if field == nil { prefix.append("%") } else { suffix.append("%") }
                continue
            }
            guard field == nil else { return nil }
            let zero = chars.first == "0"
            var digits = ""
            while let d = chars.first, d.isASCII, d.isNumber { digits.append(d); chars.removeFirst() }
            guard chars.popFirst() == "d", let width = digits.isEmpty ? 0 : Int(digits), width <= 12 else { return nil }
            field = (width, zero)
        }
        guard let field else { return nil }
        self.prefix = prefix
        self.suffix = suffix
        width = field.width
        zeroPadded = field.zero
    }

    /// The file name of frame `index`.
    public func path(ofFrame index: Int) -> String {
        let digits = String(index)
        let padding = max(0, width - digits.count)
        return prefix + String(repeating: zeroPadded ? "0" : " ", count: padding) + digits + suffix
    }
}
