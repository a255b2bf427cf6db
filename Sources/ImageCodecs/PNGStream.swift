import CZlib
import Raster

// Citrine's own PNG stream writer (PNG specification, 3rd edition, with APNG's fdAT framing),
// used by `APNGEncoder` and `PNGCodec.encode(_:pixelsPerPoint:)`.
//
// Design note
// -----------
// * Output is 8-bit RGBA, straight alpha, non-interlaced. Pixels come from premultiplied
//   `Pixmap`s and are un-premultiplied row by row (`StraightAlpha.convert`, StraightAlpha.swift:
//   c·255/a to nearest, clamped; a = 0 gives transparent black), the values `PNGCodec.encode`
//   writes.
// * One zlib stream per image (a PNG's IDAT data, one APNG frame's IDAT or fdAT data), from a
//   `PNGDeflater` kept for the writer's lifetime and fed one filtered row at a time. Deflate
//   writes straight into the chunk buffer, behind room for the chunk's length, type and sequence
//   number; when the buffer is full the header and CRC are filled in and the chunk goes to the
//   sink in one `write`. Nothing is allocated per row or per chunk.
// * Each image is encoded one of up to four ways (`ImageEncoding`), chosen by a trial:
//   - rows unfiltered, or each row with the filter of minimum sum of absolute differences
//     (`PNGRowFilters`). Neither wins everywhere: on rendered vector content (flat fills,
//     gradients, anti-aliased edges, strokes) unfiltered rows deflate up to 30 % smaller (17 %
//     on the anchor scene of circles, 9 % on a 1080p gradient with shapes), because deflate
//     matches whole runs of the rows above; on images, filtered rows are about half the size.
//   - for an APNG frame that may blend OVER the previous one: pixels equal to the previous
//     frame's written as transparent black, or not. Usually the zeros compress to nothing, but
//     where few pixels changed *by chance* (a gradient that moved) the scattered holes cost
//     three times the plain frame.
//   The trial deflates the same sample of the image each way, at the writer's level, with two
//   trial streams: two bands of 64 rows (at ¼ and ¾ of the height) of the middle 480 columns
//   (all of an image up to 128 rows and 480 columns). The smallest wins (ties: unfiltered, not
//   cleared). On the repository's 14 reference PNGs (anchor scenes and demo goldens, 1920×1080
//   down to 120×120) plus two 1080p animation frames, a model of this rule in Python chose the
//   smaller filtering for all but one 160×240 golden (107 bytes), 0.002 % over the best overall;
//   the same trial at level 1, or with 16-row bands, misjudged gradients by 9 %. The sample is
//   3 % of a 1080p frame's pixels; measured, the trial adds 6 % to a full 1080p frame's time
//   with two ways to try and 16 % with four.
// * zlib's default strategy: `Z_FILTERED` and `Z_RLE` measured worse on unfiltered rows.
// * Every count that goes into the file is checked against PNG's 2^31 − 1 limit; an impossible
//   value is an `ImageCodecError`, never a trap.

/// A chunk type: four ASCII letters as a big-endian word.
struct PNGChunkType: Equatable, Sendable {
    let code: UInt32

    init(_ name: StaticString) {
        precondition(name.utf8CodeUnitCount == 4, "a chunk type has four letters")
        let p = name.utf8Start
        code = UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
    }

    static let IHDR = PNGChunkType("IHDR"), IDAT = PNGChunkType("IDAT"), IEND = PNGChunkType("IEND")
    static let sRGB = PNGChunkType("sRGB"), pHYs = PNGChunkType("pHYs")
    static let acTL = PNGChunkType("acTL"), fcTL = PNGChunkType("fcTL"), fdAT = PNGChunkType("fdAT")
    static let iTXt = PNGChunkType("iTXt"), tEXt = PNGChunkType("tEXt")
}

/// Writes a PNG (or APNG) stream to a `ByteSink`: the signature, chunks with their CRCs, and
/// image data — deflated by a `PNGImageCompressor` (its own, or one per thread whose output is
/// handed over, as `APNGEncoder` does for frames prepared in parallel) and cut into IDAT or
/// fdAT chunks of `chunkCapacity` bytes. One image at a time, from one thread.
final class PNGStreamWriter {
    /// Largest value of PNG's four-byte counts (lengths, sizes, sequence numbers): 2^31 − 1.
    static let maxCount = 0x7FFF_FFFF
    /// The signature: \x89 P N G \r \n \x1A \n.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Deflated bytes per IDAT/fdAT chunk (the last chunk of an image may be shorter).
    static let chunkCapacity = 256 * 1024

    let sink: any ByteSink
    /// Filters and deflates the images of `writeImageData(_:encoding:framing:)`.
    let compressor: PNGImageCompressor
    /// How every image is encoded; nil (the default) chooses per image by trial. Tests set it.
    var fixedEncoding: ImageEncoding? {
        get { compressor.fixedEncoding }
        set { compressor.fixedEncoding = newValue }
    }
    /// The deflated data of the image being written.
    private let imageData = ByteBuffer(capacity: 1 << 16)
    /// Small chunks (IHDR, fcTL, …) are assembled here.
    private var scratch: [UInt8] = []
    /// The next APNG sequence number (fcTL and fdAT chunks share one sequence from 0).
    private(set) var sequenceNumber: UInt32 = 0

    /// A writer whose image rows are at most `maxWidth` pixels, deflated at `compressionLevel`
    /// (zlib's −1…9).
    init(sink: any ByteSink, maxWidth: Int, compressionLevel: Int32) throws(ImageCodecError) {
        self.sink = sink
        compressor = try PNGImageCompressor(maxWidth: maxWidth, compressionLevel: compressionLevel)
    }

    /// A writer using `compressor` (kept by the caller for reuse).
    init(sink: any ByteSink, compressor: PNGImageCompressor) {
        self.sink = sink
        self.compressor = compressor
    }

    /// Takes the next APNG sequence number; an error past 2^31 − 1.
    func nextSequenceNumber() throws(ImageCodecError) -> UInt32 {
        guard Int(sequenceNumber) < Self.maxCount else {
            throw ImageCodecError(file: nil, reason: .malformed("APNG sequence numbers exceed 2^31 - 1"))
        }
        defer { sequenceNumber += 1 }
        return sequenceNumber
    }

    // MARK: - Chunks

    func writeSignature() throws(ImageCodecError) {
        try sink.write(Self.signature)
    }

    /// Writes a chunk of `type` whose data is built by `body` (appending to the array it gets).
    func writeChunk(_ type: PNGChunkType, _ body: (inout [UInt8]) -> Void) throws(ImageCodecError) {
        scratch.removeAll(keepingCapacity: true)
        scratch.appendPNGBigEndian(UInt32(0))
        scratch.appendPNGBigEndian(type.code)
        body(&scratch)
        let length = scratch.count - 8
        guard length <= Self.maxCount else {
            throw ImageCodecError(file: nil, reason: .malformed("chunk of \(length) bytes exceeds 2^31 - 1"))
        }
        scratch.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt32(length).bigEndian, toByteOffset: 0, as: UInt32.self)
        }
        let crc = scratch.withUnsafeBytes { Self.crc($0.baseAddress! + 4, count: length + 4) }
        scratch.appendPNGBigEndian(crc)
        try sink.write(scratch)
    }

    /// IHDR for `width`×`height` 8-bit RGBA, non-interlaced.
    func writeHeader(width: Int, height: Int) throws(ImageCodecError) {
        let w = try Self.count(width, "width"), h = try Self.count(height, "height")
        guard w > 0, h > 0 else {
            throw ImageCodecError(file: nil, reason: .invalidSize(width: width, height: height, reason: "a PNG cannot be empty"))
        }
        try writeChunk(.IHDR) { data in
            data.appendPNGBigEndian(w)
            data.appendPNGBigEndian(h)
            data += [8, 6, 0, 0, 0]  // bit depth 8, colour type 6 (RGBA), deflate, filter method 0, no interlace
        }
    }

    /// sRGB with the perceptual intent: the pixels are sRGB (as libpng's simplified writer says).
    func writeSRGB() throws(ImageCodecError) {
        try writeChunk(.sRGB) { $0.append(0) }
    }

    /// pHYs for `pixelsPerPoint` (1 point = 1/72 inch): round(pixelsPerPoint·72/0.0254) pixels
    /// per metre on both axes.
    func writePhysicalScale(pixelsPerPoint: Double) throws(ImageCodecError) {
        let perMetre = try Self.pixelsPerMetre(pixelsPerPoint)
        try writeChunk(.pHYs) { data in
            data.appendPNGBigEndian(perMetre)
            data.appendPNGBigEndian(perMetre)
            data.append(1)  // unit: the metre
        }
    }

    /// iTXt with the keyword "Comment" (PNG 3rd edition §11.3.3.2, a predefined keyword:
    /// "miscellaneous comment"), uncompressed, no language tag: `text` as UTF-8.
    func writeComment(_ text: String) throws(ImageCodecError) {
        try writeChunk(.iTXt) { data in
            data += Array("Comment".utf8)
            data += [0, 0, 0, 0, 0]  // keyword end, compression flag and method, empty language tag and translated keyword
            data += Array(text.utf8)
        }
    }

    func writeEnd() throws(ImageCodecError) {
        try writeChunk(.IEND) { _ in }
    }

    /// Pixels per metre for `pixelsPerPoint`; an error unless it is finite, positive and gives
    /// 1…2^31 − 1.
    static func pixelsPerMetre(_ pixelsPerPoint: Double) throws(ImageCodecError) -> UInt32 {
        let perMetre = (pixelsPerPoint * 72 / 0.0254).rounded()
        guard pixelsPerPoint.isFinite, perMetre >= 1, perMetre <= Double(maxCount) else {
            throw ImageCodecError(file: nil, reason: .malformed(
                "pixels per point \(pixelsPerPoint) gives no pHYs value within 1…2^31 - 1 pixels per metre"))
        }
        return UInt32(perMetre)
    }

    /// `value` as one of PNG's four-byte counts, or an error naming `what`.
    static func count(_ value: Int, _ what: String) throws(ImageCodecError) -> UInt32 {
        guard value >= 0, value <= maxCount else {
            throw ImageCodecError(file: nil, reason: .malformed("\(what) \(value) is outside PNG's 0…2^31 - 1"))
        }
        return UInt32(value)
    }

    /// The CRC-32 of `count` bytes, continuing the CRC `continuing` of the bytes before them.
    static func crc(_ bytes: UnsafeRawPointer, count: Int, continuing: UInt32 = 0) -> UInt32 {
        UInt32(truncatingIfNeeded: crc32(uLong(continuing), bytes.assumingMemoryBound(to: Bytef.self), uInt(count)))
    }

    // MARK: - Image data

    /// How the image data is framed: IDAT chunks (a PNG's image, an APNG's default image), or
    /// fdAT chunks each led by the next APNG sequence number.
    enum Framing { case idat, fdat }

    /// The encoding of `source` by trial (see `PNGImageCompressor.chooseEncoding`).
    func chooseEncoding(_ source: Source, mayClear: Bool) throws(ImageCodecError) -> ImageEncoding {
        try compressor.chooseEncoding(source, mayClear: mayClear)
    }

    /// Filters, deflates and writes `source` as one image's data, `encoding` chosen by
    /// `chooseEncoding` (or given).
    func writeImageData(_ source: Source, encoding: ImageEncoding, framing: Framing) throws(ImageCodecError) {
        imageData.removeAll()
        try compressor.compress(source, encoding: encoding, into: imageData)
        try writeImageData(UnsafeRawBufferPointer(start: imageData.bytes, count: imageData.count), framing: framing)
    }

    /// Writes one image's deflated data (one zlib stream) as IDAT or fdAT chunks of
    /// `chunkCapacity` bytes, the last one shorter (fdAT chunks take their numbers from
    /// `nextSequenceNumber()`).
    func writeImageData(_ data: UnsafeRawBufferPointer, framing: Framing) throws(ImageCodecError) {
        var offset = 0
        while offset < data.count {
            let count = min(Self.chunkCapacity, data.count - offset)
            try writeDataChunk(UnsafeRawBufferPointer(rebasing: data[offset..<(offset + count)]), framing: framing)
            offset += count
        }
    }

    /// One IDAT chunk, or one fdAT chunk with the next sequence number, holding `data`.
    private func writeDataChunk(_ data: UnsafeRawBufferPointer, framing: Framing) throws(ImageCodecError) {
        scratch.removeAll(keepingCapacity: true)
        switch framing {
        case .idat:
            scratch.appendPNGBigEndian(UInt32(data.count))
            scratch.appendPNGBigEndian(PNGChunkType.IDAT.code)
        case .fdat:
            scratch.appendPNGBigEndian(UInt32(data.count + 4))
            scratch.appendPNGBigEndian(PNGChunkType.fdAT.code)
            scratch.appendPNGBigEndian(try nextSequenceNumber())
        }
        var crc = scratch.withUnsafeBytes { Self.crc($0.baseAddress! + 4, count: $0.count - 4) }
        crc = Self.crc(data.baseAddress!, count: data.count, continuing: crc)
        try sink.write(scratch)
        try sink.write(data)
        scratch.removeAll(keepingCapacity: true)
        scratch.appendPNGBigEndian(crc)
        try sink.write(scratch)
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` in PNG's (network) byte order.
    mutating func appendPNGBigEndian(_ value: UInt32) {
        append(UInt8(value >> 24)); append(UInt8(value >> 16 & 0xFF))
        append(UInt8(value >> 8 & 0xFF)); append(UInt8(value & 0xFF))
    }

    mutating func appendPNGBigEndian(_ value: UInt16) {
        append(UInt8(value >> 8)); append(UInt8(value & 0xFF))
    }
}
