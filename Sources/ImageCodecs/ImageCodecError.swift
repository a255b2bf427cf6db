import Raster

/// Why an image could not be read or written, and which file it was.
public struct ImageCodecError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What went wrong.
    public enum Reason: Equatable, Sendable {
        /// The bytes do not start with the PNG signature.
        case notPNG
        /// The bytes do not start with a JPEG start-of-image marker.
        case notJPEG
        /// The data ends before the image does.
        case truncated
        /// The image's dimensions exceed Raster's limits (`Pixmap.maxDimension`,
        /// `Pixmap.maxPixelCount`), or are zero where an image cannot be empty.
        case invalidSize(width: Int, height: Int, reason: String)
        /// The data is damaged or uses a feature the codec rejects; the text is the library's.
        case malformed(String)
        /// The file system refused (open, read, write, rename); the text is `strerror`'s.
        case fileSystem(String)
        /// An encoder was used against its contract (a prepared frame handed to the wrong
        /// encoder or out of order); the text says how.
        case misuse(String)
    }

    /// The path of the file, or nil for in-memory data.
    public var file: String?
    public var reason: Reason

    public init(file: String?, reason: Reason) {
        self.file = file
        self.reason = reason
    }

    public var description: String {
        let what: String
        switch reason {
        case .notPNG: what = "not a PNG file (bad signature)"
        case .notJPEG: what = "not a JPEG file (no start-of-image marker)"
        case .truncated: what = "truncated: the data ends before the image does"
        case let .invalidSize(w, h, why): what = "unsupported image size \(w)×\(h): \(why)"
        case let .malformed(text): what = "malformed image: \(text)"
        case let .fileSystem(text): what = text
        case let .misuse(text): what = "misuse: \(text)"
        }
        return "\(file ?? "<memory>"): \(what)"
    }

    /// Throws `.invalidSize` unless `frame` is `width`×`height` (an animation's frame size).
    static func checkFrame(_ frame: Pixmap, width: Int, height: Int, of animation: String) throws(ImageCodecError) {
        guard frame.width == width, frame.height == height else {
            throw ImageCodecError(file: nil, reason: .invalidSize(
                width: frame.width, height: frame.height,
                reason: "a frame is \(frame.width)×\(frame.height) but the \(animation) is \(width)×\(height)"))
        }
    }

    /// The same error, attributed to `path`.
    func naming(_ path: String) -> ImageCodecError {
        ImageCodecError(file: path, reason: reason)
    }
}
