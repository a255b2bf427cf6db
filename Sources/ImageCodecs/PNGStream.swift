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
}

/// Writes a PNG (or APNG) stream to a `ByteSink`: the signature, chunks with their CRCs, and
/// image data filtered and deflated from premultiplied pixels. One image at a time, from one
/// thread.
final class PNGStreamWriter {
    /// Largest value of PNG's four-byte counts (lengths, sizes, sequence numbers): 2^31 − 1.
    static let maxCount = 0x7FFF_FFFF
    /// The signature: \x89 P N G \r \n \x1A \n.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Deflated bytes per IDAT/fdAT chunk (the last chunk of an image may be shorter).
    static let chunkCapacity = 256 * 1024
    /// The trial's sample (see the design note): bands of rows, and columns per band.
    static let trialBandRows = 64, trialBands = 2, trialColumns = 480

    let sink: any ByteSink
    /// Widest row the buffers hold, in pixels.
    let maxWidth: Int
    /// How every image is encoded; nil (the default) chooses per image by trial. Tests set it.
    var fixedEncoding: ImageEncoding? = nil

    private let deflater: PNGDeflater
    /// Streams that deflate the trial sample unfiltered and filtered (output discarded).
    private let trialUnfiltered: PNGDeflater, trialFiltered: PNGDeflater
    private let trialOutput: UnsafeMutablePointer<UInt8>
    private static let trialOutputCapacity = 64 * 1024
    /// Two straight-alpha rows, each behind `rowPadding` zero bytes (the filters' left neighbour).
    private let row: UnsafeMutablePointer<UInt8>
    private let previousRow: UnsafeMutablePointer<UInt8>
    private let rowStorage: UnsafeMutablePointer<UInt8>
    private static let rowPadding = 16
    /// The filter-type byte followed by the filtered row.
    private let filtered: UnsafeMutablePointer<UInt8>
    /// A chunk under construction: `chunkDataOffset` bytes of room for length, type and sequence
    /// number, `chunkCapacity` data bytes, four for the CRC.
    private let chunk: UnsafeMutableRawPointer
    private static let chunkDataOffset = 12
    /// Small chunks (IHDR, fcTL, …) are assembled here.
    private var scratch: [UInt8] = []
    /// The next APNG sequence number (fcTL and fdAT chunks share one sequence from 0).
    private(set) var sequenceNumber: UInt32 = 0

    /// A writer whose image rows are at most `maxWidth` pixels, deflated at `compressionLevel`
    /// (zlib's −1…9).
    init(sink: any ByteSink, maxWidth: Int, compressionLevel: Int32) throws(ImageCodecError) {
        guard maxWidth > 0, maxWidth <= Pixmap.maxDimension else {
            throw ImageCodecError(file: nil, reason: .invalidSize(width: maxWidth, height: 0,
                                                               reason: "row width outside 1…\(Pixmap.maxDimension)"))
        }
        guard compressionLevel >= -1, compressionLevel <= 9 else {
            throw ImageCodecError(file: nil, reason: .malformed("compression level \(compressionLevel) is outside zlib's -1…9"))
        }
        self.sink = sink
        self.maxWidth = maxWidth
        deflater = try PNGDeflater(level: compressionLevel)
        trialUnfiltered = try PNGDeflater(level: compressionLevel)
        trialFiltered = try PNGDeflater(level: compressionLevel)
        trialOutput = .allocate(capacity: Self.trialOutputCapacity)
        let rowBytes = maxWidth * 4
        let rowStride = Self.rowPadding + rowBytes + 16
        rowStorage = .allocate(capacity: 2 * rowStride)
        rowStorage.initialize(repeating: 0, count: 2 * rowStride)
        row = rowStorage + Self.rowPadding
        previousRow = rowStorage + rowStride + Self.rowPadding
        filtered = .allocate(capacity: rowBytes + 1)
        filtered.initialize(repeating: 0, count: rowBytes + 1)
        chunk = .allocate(byteCount: Self.chunkDataOffset + Self.chunkCapacity + 4, alignment: 16)
    }

    deinit {
        trialOutput.deallocate()
        rowStorage.deallocate()
        filtered.deallocate()
        chunk.deallocate()
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

    static func crc(_ bytes: UnsafeRawPointer, count: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: crc32(0, bytes.assumingMemoryBound(to: Bytef.self), uInt(count)))
    }

    // MARK: - Image data

    /// How the image data is framed: IDAT chunks (a PNG's image, an APNG's default image), or
    /// fdAT chunks each led by the next APNG sequence number.
    enum Framing { case idat, fdat }

    /// How the rows of one image are filtered (see the design note).
    enum RowFiltering: Equatable, CaseIterable {
        /// Filter type 0 (None) on every row.
        case unfiltered
        /// Per row, the filter type with the smallest sum of absolute differences.
        case minimumSum
    }

    /// How one image is encoded.
    struct ImageEncoding: Equatable {
        var filtering: RowFiltering
        /// Pixels equal to the source's reference image are written as transparent black.
        var clearsUnchanged: Bool
    }

    /// A rectangle of a premultiplied pixmap, and optionally a reference image of the pixmap's
    /// size (an APNG's previous frame) whose equal pixels may be written as transparent black.
    struct Source {
        var pixmap: Pixmap
        var x: Int, y: Int, width: Int, height: Int
        var reference: UnsafePointer<UInt8>?

        /// Straight-alpha pixels `column..<column + count` of row `r` of the rectangle, into
        /// `target`; with `clearing`, those equal to the reference's are transparent black.
        @inline(__always)
        func straightRow(_ r: Int, columns column: Int, count: Int, clearing: Bool, into target: UnsafeMutablePointer<UInt8>) {
            let offset = ((y + r) * pixmap.width + x + column) * 4
            StraightAlpha.convert(pixmap.pixels + offset, into: target, pixels: count)
            if clearing, let reference {
                PNGStreamWriter.clearEqualPixels(target, pixmap.pixels + offset, reference + offset, pixelCount: count)
            }
        }
    }

    /// Checks that `source`'s rectangle lies in its pixmap and fits the buffers.
    func check(_ source: Source) throws(ImageCodecError) {
        guard source.width > 0, source.height > 0, source.width <= maxWidth, source.x >= 0, source.y >= 0,
              source.width <= source.pixmap.width - source.x, source.height <= source.pixmap.height - source.y else {
            throw ImageCodecError(file: nil, reason: .invalidSize(
                width: source.width, height: source.height,
                reason: "rectangle at (\(source.x), \(source.y)) is not inside the \(source.pixmap.width)×\(source.pixmap.height) image"))
        }
    }

    /// Filters, deflates and writes `source` as one image's data, `encoding` chosen by
    /// `chooseEncoding` (or given): one zlib stream in IDAT or fdAT chunks (fdAT chunks take
    /// their numbers from `nextSequenceNumber()`).
    func writeImageData(_ source: Source, encoding: ImageEncoding, framing: Framing) throws(ImageCodecError) {
        try check(source)
        let width = source.width, rowBytes = width * 4
        let clearing = encoding.clearsUnchanged && source.reference != nil
        try deflater.reset()
        setChunkOutput()
        let drain = { () throws(ImageCodecError) in try self.flushChunk(framing) }
        switch encoding.filtering {
        case .unfiltered:
            filtered[0] = PNGFilter.none.rawValue
            for r in 0..<source.height {
                source.straightRow(r, columns: 0, count: width, clearing: clearing, into: filtered + 1)
                try deflater.deflate(filtered, count: rowBytes + 1, drain: drain)
            }
        case .minimumSum:
            var current = row, above = previousRow
            above.update(repeating: 0, count: rowBytes)  // the row above the first is zeros
            for r in 0..<source.height {
                source.straightRow(r, columns: 0, count: width, clearing: clearing, into: current)
                filterMinimumSum(current, above: above, count: rowBytes)
                try deflater.deflate(filtered, count: rowBytes + 1, drain: drain)
                swap(&current, &above)
            }
        }
        try deflater.finish(drain: drain)
        try flushChunk(framing)
    }

    /// `filtered` ← the filter-type byte and `current` filtered with the minimum-sum choice.
    @inline(__always)
    private func filterMinimumSum(_ current: UnsafeMutablePointer<UInt8>, above: UnsafeMutablePointer<UInt8>, count: Int) {
        let filter = PNGRowFilters.choose(row: current, previous: above, count: count)
        filtered[0] = filter.rawValue
        PNGRowFilters.apply(filter, row: current, previous: above, count: count, into: filtered + 1)
    }

    // MARK: - Trial

    /// The encoding of `source` whose trial sample deflates smallest (see the design note):
    /// unfiltered or minimum-sum rows, and — only when `mayClear` and `source` has a reference —
    /// with unchanged pixels cleared or not. Stored output (level 0) is unfiltered, uncleared.
    func chooseEncoding(_ source: Source, mayClear: Bool) throws(ImageCodecError) -> ImageEncoding {
        try check(source)
        if let fixedEncoding {
            return ImageEncoding(filtering: fixedEncoding.filtering,
                                 clearsUnchanged: fixedEncoding.clearsUnchanged && mayClear && source.reference != nil)
        }
        let plain = ImageEncoding(filtering: .unfiltered, clearsUnchanged: false)
        if deflater.level == 0 { return plain }
        var best = plain, bestSize = Int.max
        for clearing in (mayClear && source.reference != nil ? [false, true] : [false]) {
            let (unfiltered, filtered) = try trialSizes(source, clearing: clearing)
            if unfiltered < bestSize { (best, bestSize) = (ImageEncoding(filtering: .unfiltered, clearsUnchanged: clearing), unfiltered) }
            if filtered < bestSize { (best, bestSize) = (ImageEncoding(filtering: .minimumSum, clearsUnchanged: clearing), filtered) }
        }
        return best
    }

    /// Deflated sizes of the trial sample of `source`, unfiltered and with minimum-sum filters.
    private func trialSizes(_ source: Source, clearing: Bool) throws(ImageCodecError) -> (unfiltered: Int, filtered: Int) {
        let bandRows = Self.trialBandRows, bands = Self.trialBands
        let whole = source.height <= bandRows * bands
        let columns = min(source.width, Self.trialColumns)
        let firstColumn = (source.width - columns) / 2
        let rowBytes = columns * 4
        let discard = { () throws(ImageCodecError) in
            if self.trialUnfiltered.stream.pointee.avail_out == 0 {
                self.trialUnfiltered.setOutput(self.trialOutput, count: Self.trialOutputCapacity)
            }
            if self.trialFiltered.stream.pointee.avail_out == 0 {
                self.trialFiltered.setOutput(self.trialOutput, count: Self.trialOutputCapacity)
            }
        }
        var unfilteredSize = 0, filteredSize = 0
        for band in 0..<(whole ? 1 : bands) {
            let start = whole ? 0 : source.height * (2 * band + 1) / (2 * bands) - bandRows / 2
            let end = whole ? source.height : start + bandRows
            try trialUnfiltered.reset()
            try trialFiltered.reset()
            trialUnfiltered.setOutput(trialOutput, count: Self.trialOutputCapacity)
            trialFiltered.setOutput(trialOutput, count: Self.trialOutputCapacity)
            var current = row, above = previousRow
            if start > 0 {
                source.straightRow(start - 1, columns: firstColumn, count: columns, clearing: clearing, into: above)
            } else {
                above.update(repeating: 0, count: rowBytes)
            }
            var none = PNGFilter.none.rawValue
            for r in start..<end {
                source.straightRow(r, columns: firstColumn, count: columns, clearing: clearing, into: current)
                try trialUnfiltered.deflate(&none, count: 1, drain: discard)
                try trialUnfiltered.deflate(current, count: rowBytes, drain: discard)
                filterMinimumSum(current, above: above, count: rowBytes)
                try trialFiltered.deflate(filtered, count: rowBytes + 1, drain: discard)
                swap(&current, &above)
            }
            try trialUnfiltered.finish(drain: discard)
            try trialFiltered.finish(drain: discard)
            unfilteredSize += Int(trialUnfiltered.stream.pointee.total_out)
            filteredSize += Int(trialFiltered.stream.pointee.total_out)
        }
        return (unfilteredSize, filteredSize)
    }

    // MARK: - Chunk output

    private func setChunkOutput() {
        deflater.setOutput((chunk + Self.chunkDataOffset).assumingMemoryBound(to: UInt8.self), count: Self.chunkCapacity)
    }

    /// Writes the deflated bytes in the chunk buffer (if any) as one chunk and empties it.
    private func flushChunk(_ framing: Framing) throws(ImageCodecError) {
        let dataStart = chunk + Self.chunkDataOffset
        let count = Self.chunkCapacity - Int(deflater.stream.pointee.avail_out)
        guard count > 0 else { return }
        let start: UnsafeMutableRawPointer
        let length: Int
        switch framing {
        case .idat:
            start = dataStart - 8
            length = count
            start.storeBytes(of: PNGChunkType.IDAT.code.bigEndian, toByteOffset: 4, as: UInt32.self)
        case .fdat:
            start = dataStart - 12
            length = count + 4
            start.storeBytes(of: PNGChunkType.fdAT.code.bigEndian, toByteOffset: 4, as: UInt32.self)
            start.storeBytes(of: try nextSequenceNumber().bigEndian, toByteOffset: 8, as: UInt32.self)
        }
        start.storeBytes(of: UInt32(length).bigEndian, as: UInt32.self)
        let crc = Self.crc(start + 4, count: length + 4)
        (start + 8 + length).storeBytes(of: crc.bigEndian, as: UInt32.self)
        try sink.write(UnsafeRawBufferPointer(start: start, count: length + 12))
        setChunkOutput()
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
