import ImageCodecs

/// Where an export goes.
public enum ExportDestination: Sendable, Equatable {
    /// A file (for `.pngSequence`, a pattern such as `frames/%04d.png`).
    case file(String)
    /// The process's standard output (not for PNG sequences).
    case standardOutput

    var name: String {
        switch self {
        case let .file(path): path
        case .standardOutput: "<standard output>"
        }
    }
}

/// How an export encodes. Defaults suit most uses.
public struct ExportOptions: Sendable, Equatable {
    /// Replace an existing file (default true). With false, an existing destination is an error
    /// before anything is drawn (the `citrine` command's default, as ffmpeg's).
    public var overwrite = true
    /// GIF and APNG: times to play the animation; 0 (default) loops forever; nil or 1 plays it
    /// once (APNG `num_plays`; GIF: the NETSCAPE2.0 repeat count n − 1, none for once).
    public var loopCount: Int? = 0
    /// GIF encoding (palette, dithering, alpha). Its `loopCount` is replaced by `loopCount`.
    public var gif = GIFOptions()
    /// APNG encoding (compression). Its `loopCount` and `pixelsPerPoint` are set by the export.
    public var apng = APNGOptions()
    /// PNG stills and sequences: zlib's compression level, 0 (stored, fastest) … 9 (smallest,
    /// slowest), −1 for zlib's default (6); default `APNGOptions.defaultCompressionLevel`. A
    /// level outside −1…9 makes the export fail before anything is drawn.
    public var pngCompressionLevel: Int32 = APNGOptions.defaultCompressionLevel
    /// The `ffmpeg` executable for MP4, MOV and WebM: a name looked up in `PATH`, or a path.
    public var ffmpeg = "ffmpeg"

    public init() {}
}

/// How far an export has got, reported after each frame is encoded.
public struct ExportProgress: Sendable, Equatable {
    /// Frames encoded so far, and in all.
    public let framesDone: Int
    public let frameCount: Int
    /// Seconds since the export started.
    public let elapsed: Double

    /// Frames encoded per second so far.
    public var framesPerSecond: Double { elapsed > 0 ? Double(framesDone) / elapsed : 0 }
    /// Seconds still needed at the rate so far (nil before the first frame).
    public var estimatedTimeRemaining: Double? {
        framesDone > 0 ? elapsed / Double(framesDone) * Double(frameCount - framesDone) : nil
    }
    /// 0 … 1.
    public var fractionDone: Double { Double(framesDone) / Double(max(frameCount, 1)) }
}
