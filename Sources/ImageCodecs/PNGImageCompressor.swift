import CZlib
import Raster

/// Filters and deflates one PNG image (or an APNG frame's rectangle) at a time into a
/// `ByteBuffer` (see the design note in PNGStream.swift: the encodings and the trial that
/// chooses among them). Its zlib streams and row buffers are allocated once and reused image
/// after image; one compressor per thread (`APNGFramePreparer`, `PNGStillEncoder`).
final class PNGImageCompressor {
    /// The trial's sample (see the design note): bands of rows, and columns per band.
    static let trialBandRows = 64, trialBands = 2, trialColumns = 480
    /// Deflate's output goes to the buffer this many bytes at a time.
    static let outputStep = 64 * 1024

    /// Widest row the buffers hold, in pixels.
    let maxWidth: Int
    /// How every image is encoded; nil (the default) chooses per image by trial. Tests set it.
    var fixedEncoding: PNGStreamWriter.ImageEncoding? = nil

    private let deflater: PNGDeflater
    /// The raw stream of `compressBand`, made at its first use.
    private var rawDeflater: PNGDeflater?
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

    typealias Source = PNGStreamWriter.Source
    typealias ImageEncoding = PNGStreamWriter.ImageEncoding

    /// A compressor for rows of at most `maxWidth` pixels, deflating at `compressionLevel`
    /// (zlib's −1…9).
    init(maxWidth: Int, compressionLevel: Int32) throws(ImageCodecError) {
        guard maxWidth > 0, maxWidth <= Pixmap.maxDimension else {
            throw ImageCodecError(file: nil, reason: .invalidSize(width: maxWidth, height: 0,
                                                               reason: "row width outside 1…\(Pixmap.maxDimension)"))
        }
        guard compressionLevel >= -1, compressionLevel <= 9 else {
            throw ImageCodecError(file: nil, reason: .malformed("compression level \(compressionLevel) is outside zlib's -1…9"))
        }
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
    }

    deinit {
        trialOutput.deallocate()
        rowStorage.deallocate()
        filtered.deallocate()
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

    /// Filters and deflates `source` as one image's data (one zlib stream), `encoding` chosen by
    /// `chooseEncoding` (or given), appending it to `output`.
    func compress(_ source: Source, encoding: ImageEncoding, into output: ByteBuffer) throws(ImageCodecError) {
        try check(source)
        try deflater.reset()
        extendOutput(output, of: deflater, wrote: 0)
        _ = try deflateRows(0..<source.height, of: source, encoding: encoding, with: deflater, into: output, checksum: false)
        try deflater.finish { () throws(ImageCodecError) in self.extendOutput(output, of: self.deflater) }
        output.advance(by: Self.outputStep - Int(deflater.stream.pointee.avail_out))
    }

    /// Filters and deflates rows `rows` of `source` as one band of an image compressed in
    /// bands (`PNGBandedImage`), appending raw deflate data to `output`: no zlib header or
    /// Adler-32, each band's data independent of the others' (no match reaches back into an
    /// earlier band), ending with the final block when `isLast` and otherwise on a byte
    /// boundary (`PNGDeflater.flush`), so the bands' data concatenated in order is one deflate
    /// stream. Returns the Adler-32 of the band's filtered bytes (as zlib starts it, 1).
    func compressBand(_ source: Source, rows: Range<Int>, encoding: ImageEncoding, isLast: Bool,
                      into output: ByteBuffer) throws(ImageCodecError) -> UInt32 {
        try check(source)
        if rawDeflater == nil { rawDeflater = try PNGDeflater(level: deflater.level, raw: true) }
        let band = rawDeflater!
        try band.reset()
        extendOutput(output, of: band, wrote: 0)
        let checksum = try deflateRows(rows, of: source, encoding: encoding, with: band, into: output, checksum: true)
        let drain = { () throws(ImageCodecError) in self.extendOutput(output, of: band) }
        if isLast { try band.finish(drain: drain) } else { try band.flush(drain: drain) }
        output.advance(by: Self.outputStep - Int(band.stream.pointee.avail_out))
        return checksum
    }

    /// Filters rows `rows` of `source` (the row above the first is the source's, or zeros at
    /// the top) and deflates them with `stream` into `output`; returns the Adler-32 of the
    /// filtered bytes when `checksum`, else 1.
    private func deflateRows(_ rows: Range<Int>, of source: Source, encoding: ImageEncoding, with stream: PNGDeflater,
                             into output: ByteBuffer, checksum: Bool) throws(ImageCodecError) -> UInt32 {
        let width = source.width, rowBytes = width * 4
        let clearing = encoding.clearsUnchanged && source.reference != nil
        let drain = { () throws(ImageCodecError) in self.extendOutput(output, of: stream) }
        var adler = uLong(1)
        switch encoding.filtering {
        case .unfiltered:
            filtered[0] = PNGFilter.none.rawValue
            for r in rows {
                source.straightRow(r, columns: 0, count: width, clearing: clearing, into: filtered + 1)
                if checksum { adler = adler32(adler, filtered, uInt(rowBytes + 1)) }
                try stream.deflate(filtered, count: rowBytes + 1, drain: drain)
            }
        case .minimumSum:
            var current = row, above = previousRow
            if rows.lowerBound > 0 {
                source.straightRow(rows.lowerBound - 1, columns: 0, count: width, clearing: clearing, into: above)
            } else {
                above.update(repeating: 0, count: rowBytes)  // the row above the first is zeros
            }
            for r in rows {
                source.straightRow(r, columns: 0, count: width, clearing: clearing, into: current)
                filterMinimumSum(current, above: above, count: rowBytes)
                if checksum { adler = adler32(adler, filtered, uInt(rowBytes + 1)) }
                try stream.deflate(filtered, count: rowBytes + 1, drain: drain)
                swap(&current, &above)
            }
        }
        return UInt32(truncatingIfNeeded: adler)
    }

    /// Deflate's output space: counts the `wrote` bytes `stream` put at `output.end` and gives
    /// it the next `outputStep` bytes.
    private func extendOutput(_ output: ByteBuffer, of stream: PNGDeflater, wrote: Int = PNGImageCompressor.outputStep) {
        output.advance(by: wrote)
        output.reserve(Self.outputStep)
        stream.setOutput(output.end, count: Self.outputStep)
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
}

extension PNGStreamWriter {
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
}
