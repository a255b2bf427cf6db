import Foundation
import ImageCodecs
import TestSupport

/// Hostile image files: a header claiming more pixels than the decoding budget is refused
/// before the image is allocated; the decode of a small valid header is checked too.
extension BadInputCase {
    static let fileCases: [BadInputCase] = [
        BadInputCase("png-header-16384-squared-16-bit-interlaced", area: "files", expected: "refused: <memory>: unsupported image size 16384×16384: more than the decoding budget") {
            _ = try PNGCodec.decode(png(width: 16384, height: 16384, bitDepth: 16, interlaced: true))
            return "decoded"
        },
        BadInputCase("png-header-70000-by-1", area: "files", expected: "refused: <memory>: unsupported image size 70000×1") {
            _ = try PNGCodec.decode(png(width: 70000, height: 1, bitDepth: 8, interlaced: false))
            return "decoded"
        },
        BadInputCase("png-header-within-budget-is-read", area: "files", expected: "refused: <memory>: malformed image") {
            // 2×2 with a zlib stream holding no rows: read, then reported as damaged data.
            _ = try PNGCodec.decode(png(width: 2, height: 2, bitDepth: 8, interlaced: false))
            return "decoded"
        },
        BadInputCase("jpeg-progressive-header-16384-squared", area: "files", expected: "refused: <memory>: unsupported image size 16384×16384: more than the decoding budget") {
            _ = try JPEGCodec.decode(jpeg(width: 16384, height: 16384, progressive: true))
            return "decoded"
        },
        BadInputCase("jpeg-baseline-header-65500-squared", area: "files", expected: "refused: <memory>: unsupported image size 65500×65500: more than the decoding budget") {
            _ = try JPEGCodec.decode(jpeg(width: 65500, height: 65500, progressive: false))
            return "decoded"
        },
        BadInputCase("zero-byte-png-file", area: "files", expected: "refused: ") {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-empty-\(getpid()).png")
            _ = FileManager.default.createFile(atPath: url.path, contents: Data())
            defer { try? FileManager.default.removeItem(at: url) }
            do { _ = try PNGCodec.decode(contentsOf: url.path) } catch let error as ImageCodecError {
                return error.file == url.path ? "refused: \(error.reason)" : "refused without the file's name: \(error)"
            }
            return "decoded"
        },
    ]

    /// A PNG of signature, IHDR (RGBA), one IDAT holding an empty zlib stream, and IEND.
    static func png(width: UInt32, height: UInt32, bitDepth: UInt8, interlaced: Bool) -> [UInt8] {
        let header = bigEndian(width) + bigEndian(height) + [bitDepth, 6, 0, 0, interlaced ? 1 : 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
    }

    /// A one-component JPEG header (DQT, SOF0 or SOF2, DHT, SOS) with a few bytes of scan data:
    /// enough for libjpeg to read the header and claim `width`×`height`.
    static func jpeg(width: UInt16, height: UInt16, progressive: Bool) -> [UInt8] {
        func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func segment(_ marker: UInt8, _ data: [UInt8]) -> [UInt8] { [0xFF, marker] + be16(UInt16(data.count + 2)) + data }
        let quant = segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
        let frame = segment(progressive ? 0xC2 : 0xC0, [8] + be16(height) + be16(width) + [1, 1, 0x11, 0])
        // One code of length 1 for symbol 0, as the DC (class 0) and AC (class 1) table 0.
        let oneCode = [UInt8(1)] + [UInt8](repeating: 0, count: 15) + [0]
        let tables = segment(0xC4, [0x00] + oneCode + [0x10] + oneCode)
        let scan = segment(0xDA, [1, 1, 0x00, 0, progressive ? 0 : 63, 0])
        return [0xFF, 0xD8] + quant + frame + tables + scan + [UInt8](repeating: 0, count: 32) + [0xFF, 0xD9]
    }
}

/// Corrupt JPEG data libjpeg "recovers" from: an error by default, an image when lenient.
extension BadInputCase {
    static let lenientDecodingCases: [BadInputCase] = [
        BadInputCase("jpeg-extraneous-bytes-is-an-error", area: "files", expected: "refused: <memory>: malformed image: Corrupt JPEG data") {
            _ = try JPEGCodec.decode(jpeg(width: 8, height: 8, progressive: false))
            return "decoded"
        },
        BadInputCase("jpeg-extraneous-bytes-lenient", area: "files", expected: "decoded 8×8") {
            let bytes = jpeg(width: 8, height: 8, progressive: false)
            let image = try bytes.withUnsafeBytes { try JPEGCodec.decode(buffer: $0, lenient: true) }
            return "decoded \(image.width)×\(image.height)"
        },
    ]
}
