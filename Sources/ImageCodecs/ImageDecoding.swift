import Foundation
import Raster

/// A decoder of one image format; the byte-array, `Data` and file entry points are shared.
public protocol ImageDecoding {
    /// Decodes an image held in memory into a premultiplied pixmap.
    static func decode(buffer: UnsafeRawBufferPointer) throws(ImageCodecError) -> Pixmap
}

extension ImageDecoding {
    /// Decodes image bytes into a premultiplied pixmap.
    public static func decode(_ bytes: [UInt8]) throws(ImageCodecError) -> Pixmap {
        try bytes.withUnsafeBufferPointer { (buffer) throws(ImageCodecError) in
            try decode(buffer: UnsafeRawBufferPointer(buffer))
        }
    }

    /// Decodes image bytes into a premultiplied pixmap.
    public static func decode(_ data: Data) throws(ImageCodecError) -> Pixmap {
        try decode([UInt8](data))
    }

    /// Decodes the image file at `path`; errors name the file.
    public static func decode(contentsOf path: String) throws(ImageCodecError) -> Pixmap {
        do {
            return try decode(try ImageFile.contents(of: path))
        } catch {
            throw error.file == nil ? error.naming(path) : error
        }
    }
}

/// The decoders' pixel budget: a header whose dimensions claim more pixels than
/// `maxPixelCount` is refused before anything the size of the image is allocated, so a
/// 100-byte file cannot make a decoder ask for gigabytes. Within the budget a decode costs time
/// and memory proportional to the pixels.
public enum ImageDecodingLimits {
    /// Most pixels an image may have to be decoded: 2²⁶ = 67 108 864 (8192 × 8192), 256 MiB as
    /// RGBA8 (libpng's 16-bit path for interlaced 16-bit PNGs needs twice that again).
    public static let maxPixelCount = 1 << 26

    /// Throws `.invalidSize` naming the dimensions and the budget when they exceed it.
    static func check(width: Int, height: Int) throws(ImageCodecError) {
        guard width.multipliedReportingOverflow(by: height).partialValue <= maxPixelCount,
              width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw ImageCodecError(file: nil, reason: .invalidSize(width: width, height: height,
                reason: "more than the decoding budget of \(maxPixelCount) pixels (ImageDecodingLimits.maxPixelCount)"))
        }
    }
}
