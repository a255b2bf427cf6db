import CJPEGShim
import Raster
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// JPEG reading over libjpeg(-turbo): baseline and progressive; grayscale, YCbCr/RGB and
/// CMYK/YCCK (Adobe-inverted or plain) into an opaque premultiplied RGBA8 `Pixmap`.
///
/// A file that ends early is an error (`.truncated`) rather than an image padded with grey,
/// which is what libjpeg would otherwise return after a warning. Every other libjpeg warning —
/// corrupt data it would "recover" from (extraneous bytes, bad Huffman codes, a corrupt scan)
/// — is an error too (`.malformed` with libjpeg's text), unless the caller asks for a lenient
/// decode (`decode(buffer:lenient:)`), which returns what libjpeg recovers.
public enum JPEGCodec: ImageDecoding {
    public static func decode(buffer bytes: UnsafeRawBufferPointer) throws(ImageCodecError) -> Pixmap {
        try decode(buffer: bytes, lenient: false)
    }

    /// Decodes; with `lenient`, corrupt data libjpeg recovers from gives its recovered image
    /// instead of an error (a truncated file is an error either way).
    public static func decode(buffer bytes: UnsafeRawBufferPointer, lenient: Bool) throws(ImageCodecError) -> Pixmap {
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw ImageCodecError(file: nil, reason: bytes.count < 2 && bytes.first == 0xFF ? .truncated : .notJPEG)
        }
        guard let decoder = citrine_jpeg_create() else {
            throw ImageCodecError(file: nil, reason: .malformed("libjpeg could not allocate a decoder"))
        }
        defer { citrine_jpeg_destroy(decoder) }
        citrine_jpeg_set_warnings_are_errors(decoder, lenient ? 0 : 1)
        var message = [CChar](repeating: 0, count: Int(CITRINE_JPEG_MESSAGE_CAPACITY))
        var info = citrine_jpeg_info()
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        guard citrine_jpeg_read_header(decoder, base, UInt(bytes.count), &info, &message) == 0 else {
            throw libraryError(message, decoder)
        }
        try ImageDecodingLimits.check(width: Int(info.width), height: Int(info.height))
        let pixmap: Pixmap
        do {
            pixmap = try Pixmap(width: Int(info.width), height: Int(info.height))
        } catch {
            throw ImageCodecError(file: nil, reason: .invalidSize(width: Int(info.width), height: Int(info.height),
                                                               reason: error.description))
        }
        guard citrine_jpeg_read_pixels(decoder, pixmap.pixels, pixmap.bytesPerRow, &message) == 0 else {
            throw libraryError(message, decoder)
        }
        guard citrine_jpeg_hit_premature_end(decoder) == 0 else {
            throw ImageCodecError(file: nil, reason: .truncated)
        }
        if info.is_cmyk != 0 { convertCMYK(pixmap, inverted: info.cmyk_inverted != 0) }
        return pixmap
    }

    private static func libraryError(_ message: [CChar], _ decoder: OpaquePointer) -> ImageCodecError {
        if citrine_jpeg_hit_premature_end(decoder) != 0 { return ImageCodecError(file: nil, reason: .truncated) }
        let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return ImageCodecError(file: nil, reason: .malformed(text))
    }

    /// CMYK → opaque RGB in place, the naive formula browsers and libjpeg's tools use:
    /// `R = (255 − C)·(255 − K)/255` for plain CMYK; Adobe files store every ink inverted,
    /// so there `R = C·K/255`. One 32-bit load and store per pixel (bytes C, M, Y, K from the
    /// lowest), the inversion an XOR: a header may claim the whole decoding budget (the
    /// fuzzer's slowest inputs were such CMYK files, this loop most of their time).
    private static func convertCMYK(_ pixmap: Pixmap, inverted: Bool) {
        let words = pixmap.words, flip: UInt32 = inverted ? 0 : 0xFFFF_FFFF
        for i in 0..<pixmap.width * pixmap.height {
            let w = words[i] ^ flip, k = w >> 24
            let r = ((w & 0xFF) * k + 127) / 255, g = ((w >> 8 & 0xFF) * k + 127) / 255, b = ((w >> 16 & 0xFF) * k + 127) / 255
            words[i] = r | g << 8 | b << 16 | 0xFF00_0000
        }
    }
}
