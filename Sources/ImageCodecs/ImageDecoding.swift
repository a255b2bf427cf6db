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
