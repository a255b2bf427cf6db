import CPNG
import Raster
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// PNG reading and writing over libpng's simplified API (`png_image_*`).
///
/// Reading accepts every PNG colour type and bit depth (gray, gray + alpha, RGB, RGBA, palette
/// with or without `tRNS`; 1–16 bits; interlaced or not) and returns a premultiplied RGBA8
/// `Pixmap`. 16-bit samples are scaled to 8 bits; 16-bit files without a `gAMA`/`sRGB` chunk are
/// taken to be sRGB-encoded (as Core Graphics and browsers do), files that declare another gamma
/// are converted to sRGB by libpng. Writing produces an 8-bit straight-alpha RGBA PNG.
public enum PNGCodec: ImageDecoding {
    /// `PNG_FORMAT_RGBA` (a macro expression Swift does not import).
    static let rgbaFormat = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Encodes `pixmap` as an 8-bit straight-alpha RGBA PNG (colour un-premultiplied with
    /// rounding: `c·255/a` to nearest; fully transparent pixels become transparent black).
    public static func encode(_ pixmap: Pixmap) throws(ImageCodecError) -> [UInt8] {
        guard pixmap.width > 0, pixmap.height > 0 else {
            throw ImageCodecError(file: nil, reason: .invalidSize(width: pixmap.width, height: pixmap.height,
                                                               reason: "a PNG cannot be empty"))
        }
        let straight = StraightAlpha.bytes(of: pixmap)
        var image = newImage()
        image.width = UInt32(pixmap.width)
        image.height = UInt32(pixmap.height)
        image.format = rgbaFormat
        let stride = Int32(pixmap.bytesPerRow)
        var size = 0
        guard png_image_write_to_memory(&image, nil, &size, 0, straight, stride, nil) != 0 else {
            throw failure(of: &image)
        }
        var encoded = [UInt8](repeating: 0, count: size)
        let ok = encoded.withUnsafeMutableBytes {
            png_image_write_to_memory(&image, $0.baseAddress, &size, 0, straight, stride, nil)
        }
        guard ok != 0 else { throw failure(of: &image) }
        encoded.removeLast(encoded.count - size)
        return encoded
    }

    /// Encodes `pixmap` (see `encode(_:)`) and writes it to `path` atomically: nothing is left
    /// half-written, and an existing file is replaced only once the new one is complete.
    public static func write(_ pixmap: Pixmap, to path: String) throws(ImageCodecError) {
        let bytes: [UInt8]
        do { bytes = try encode(pixmap) } catch { throw error.naming(path) }
        try ImageFile.writeAtomically(bytes, to: path)
    }

    // MARK: - Decoding steps

    public static func decode(buffer bytes: UnsafeRawBufferPointer) throws(ImageCodecError) -> Pixmap {
        try checkStructure(bytes)
        var image = newImage()
        guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
            throw failure(of: &image)
        }
        let width = Int(image.width), height = Int(image.height)
        let pixmap: Pixmap
        do {
            try ImageDecodingLimits.check(width: width, height: height)
        } catch {
            png_image_free(&image)
            throw error
        }
        do {
            pixmap = try Pixmap(width: width, height: height)
        } catch {
            png_image_free(&image)
            throw ImageCodecError(file: nil, reason: .invalidSize(width: width, height: height, reason: error.description))
        }
        image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
        if isInterlaced16Bit(bytes) {
            try readThroughLinear16(&image, into: pixmap)
        } else {
            image.format = rgbaFormat
            guard png_image_finish_read(&image, nil, pixmap.pixels, Int32(pixmap.bytesPerRow), nil) != 0 else {
                throw failure(of: &image)
            }
            premultiply(pixmap)
        }
        return pixmap
    }

    /// IHDR's bit depth is 16 and its interlace method Adam7 (IHDR data starts at byte 16;
    /// `checkStructure` has verified the chunk is there).
    private static func isInterlaced16Bit(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count > 28 && bytes[24] == 16 && bytes[28] == 1
    }

    /// Works around libpng 1.6 issue #853 (github.com/pnggroup/libpng/issues/853, present in
    /// Debian 12's 1.6.39): the simplified API corrupts Adam7-interlaced 16-bit images when asked
    /// for 8-bit output. Its 16-bit output path is unaffected but is always linear-light and
    /// premultiplied, with libpng's sRGB approximated as gamma 2.2 (`PNG_GAMMA_sRGB`); this
    /// converts it back to 8-bit sRGB (±1 level of the direct path).
    private static func readThroughLinear16(_ image: inout png_image, into pixmap: Pixmap) throws(ImageCodecError) {
        image.format = rgbaFormat | UInt32(PNG_FORMAT_FLAG_LINEAR)
        let count = pixmap.width * pixmap.height * 4
        var linear = [UInt16](repeating: 0, count: count)
        let ok = linear.withUnsafeMutableBytes {
            png_image_finish_read(&image, nil, $0.baseAddress, Int32(pixmap.width * 4), nil)
        }
        guard ok != 0 else { throw failure(of: &image) }
        for i in stride(from: 0, to: count, by: 4) {
            let alpha = Double(linear[i + 3])
            let a8 = (alpha * 255 / 65_535).rounded()
            pixmap.pixels[i + 3] = UInt8(a8)
            for k in 0..<3 {
                let straight = alpha > 0 ? min(Double(linear[i + k]) / alpha, 1) : 0
                let gammaEncoded: Double = pow(straight, 1 / 2.2)
                let encoded = (gammaEncoded * 255).rounded()
                pixmap.pixels[i + k] = UInt8((encoded * a8 / 255).rounded())
            }
        }
    }

    /// Checks the signature, then walks the chunks up to `IEND` so that a file cut short is
    /// reported as `.truncated` (libpng would only say "read beyond end of data").
    private static func checkStructure(_ bytes: UnsafeRawBufferPointer) throws(ImageCodecError) {
        guard bytes.count >= signature.count, zip(bytes, signature).allSatisfy({ $0 == $1 }) else {
            throw ImageCodecError(file: nil, reason: bytes.count < signature.count && signature.starts(with: bytes)
                                  ? .truncated : .notPNG)
        }
        var offset = signature.count
        while true {
            guard bytes.count - offset >= 8 else { throw ImageCodecError(file: nil, reason: .truncated) }
            let length = bigEndian32(bytes, at: offset)
            guard length <= 0x7FFF_FFFF else {
                throw ImageCodecError(file: nil, reason: .malformed("chunk length \(length) exceeds 2^31 - 1"))
            }
            let end = offset + 12 + Int(length)
            guard end <= bytes.count else { throw ImageCodecError(file: nil, reason: .truncated) }
            if bigEndian32(bytes, at: offset + 4) == 0x49454E44 { return }  // "IEND"
            offset = end
        }
    }

    private static func bigEndian32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    // MARK: - libpng helpers

    private static func newImage() -> png_image {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        return image
    }

    /// The error libpng left in `image` (it frees its own state on failure; freeing again is
    /// harmless).
    private static func failure(of image: inout png_image) -> ImageCodecError {
        let text = withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        png_image_free(&image)
        return ImageCodecError(file: nil, reason: .malformed(text.isEmpty ? "libpng failed" : text))
    }

    // MARK: - Alpha conversion

    /// Straight → premultiplied in place: `c·a/255` rounded to nearest.
    private static func premultiply(_ pixmap: Pixmap) {
        for y in 0..<pixmap.height {
            let row = pixmap.pixels + y * pixmap.bytesPerRow
            for x in 0..<pixmap.width {
                let p = row + 4 * x
                let a = UInt32(p[3])
                guard a < 255 else { continue }
                p[0] = UInt8((UInt32(p[0]) * a + 127) / 255)
                p[1] = UInt8((UInt32(p[1]) * a + 127) / 255)
                p[2] = UInt8((UInt32(p[2]) * a + 127) / 255)
            }
        }
    }
}
