import CZlib
import Dispatch

// Large PNG images compressed in bands, on several threads, and written as they are done.
//
// Design note
// -----------
// * An image of more than two bands (`bandBytes` of RGBA rows each, 8 MiB: a 32 768-pixel row
//   is 128 KiB, so 64 rows) is cut into bands of whole rows. Each band is filtered and deflated
//   on its own by one thread's `PNGImageCompressor` as raw deflate data (no zlib header) that
//   ends on a byte boundary (`Z_SYNC_FLUSH`), the last band with deflate's final block; no
//   match reaches back into an earlier band. Concatenated in order, the bands are one deflate
//   stream (RFC 1951 §3.2.3: blocks follow one another; a sync flush's empty stored block is
//   an ordinary non-final block), which is what pigz writes too. The zlib header goes before
//   the first band and the Adler-32 of all filtered bytes, combined from the bands' own
//   (`adler32_combine`), after the last (RFC 1950).
// * Rows are filtered with the row above them from the image itself, so a band's first row has
//   the same filter input as in one stream; only deflate's matches across band boundaries are
//   lost (each band starts with an empty 32 KiB window): measured on `citrine render fold-image
//   --time 0.5 --scale 16` (3 840², eight bands), 183 602 bytes against 183 451 for the same
//   filtered rows deflated as one stream by Python's zlib at the same level (+0.08 %).
// * Bands are compressed a wave at a time — as many as there are compressors (threads) — and
//   each wave's output is written, in order, before the next wave starts: what is held beside
//   the image is one deflated band per thread, never a second copy of the image or of its
//   compressed stream.
// * Images of up to two bands (a 1080p frame is 8 MB) are written as one zlib stream, as
//   before, so their bytes do not change.

/// Writes one image's data (IDAT chunks) compressed in bands (see the design note).
enum PNGBandedImage {
    /// RGBA bytes per band (whole rows; at least one row).
    static let bandBytes = 8 << 20

    /// Rows per band for rows of `width` pixels.
    static func rowsPerBand(width: Int) -> Int { max(1, bandBytes / (4 * max(width, 1))) }

    /// Whether a `width`×`height` image is compressed in bands (more than two bands' worth).
    static func isBanded(width: Int, height: Int) -> Bool { height > 2 * rowsPerBand(width: width) }

    /// The zlib header (RFC 1950 §2.2) of a stream deflated at `level`: deflate with a 32 KiB
    /// window, no dictionary, FLEVEL as zlib's `deflate` sets it, FCHECK making it a multiple of 31.
    static func zlibHeader(level: Int32) -> (UInt8, UInt8) {
        let cmf = 0x78
        let flevel = level == -1 || level == 6 ? 2 : level < 2 ? 0 : level < 6 ? 1 : 3
        var flg = flevel << 6
        flg += 31 - (cmf << 8 | flg) % 31
        return (UInt8(cmf), UInt8(flg & 0xFF))
    }

    /// Filters, deflates and writes `source` as IDAT chunks through `writer`, `encoding` chosen
    /// for the whole image, one band per compressor at a time (`compressors.count` threads;
    /// `buffers` holds one output buffer per compressor).
    static func write(_ source: PNGStreamWriter.Source, encoding: PNGStreamWriter.ImageEncoding, level: Int32,
                      compressors: [PNGImageCompressor], buffers: [ByteBuffer],
                      writer: PNGStreamWriter) throws(ImageCodecError) {
        precondition(!compressors.isEmpty && compressors.count == buffers.count, "one buffer per compressor")
        let rows = rowsPerBand(width: source.width)
        let bandCount = (source.height + rows - 1) / rows
        let wave = Wave(source: source, encoding: encoding, level: level, rows: rows, bandCount: bandCount,
                        compressors: compressors, buffers: buffers)
        defer { wave.release() }
        var adler = uLong(1)
        for first in stride(from: 0, to: bandCount, by: compressors.count) {
            let count = min(compressors.count, bandCount - first)
            if count == 1 {
                wave.compress(first: first, i: 0)
            } else {
                DispatchQueue.concurrentPerform(iterations: count) { wave.compress(first: first, i: $0) }
            }
            for i in 0..<count {
                if let failure = wave.failures[i] { throw failure }
                let band = first + i
                let length = (min(source.height, (band + 1) * rows) - band * rows) * (4 * source.width + 1)
                adler = adler32_combine(adler, uLong(wave.checksums[i]), length)
                if band == bandCount - 1 {
                    let sum = UInt32(truncatingIfNeeded: adler)
                    buffers[i].append([UInt8(sum >> 24), UInt8(sum >> 16 & 0xFF), UInt8(sum >> 8 & 0xFF), UInt8(sum & 0xFF)])
                }
                try writer.writeImageData(UnsafeRawBufferPointer(start: buffers[i].bytes, count: buffers[i].count),
                                          framing: .idat)
            }
        }
    }
}

/// One wave of bands in flight: band `first + i` is compressed by compressor `i` into buffer
/// `i`, its checksum or error kept in slot `i`. Unchecked `Sendable`: each concurrent
/// iteration touches its own index only, and the caller reads the slots after the wave.
private struct Wave: @unchecked Sendable {
    let source: PNGStreamWriter.Source
    let encoding: PNGStreamWriter.ImageEncoding
    let level: Int32
    let rows: Int, bandCount: Int
    let compressors: [PNGImageCompressor]
    let buffers: [ByteBuffer]
    let checksums: UnsafeMutableBufferPointer<UInt32>
    let failures: UnsafeMutableBufferPointer<ImageCodecError?>

    init(source: PNGStreamWriter.Source, encoding: PNGStreamWriter.ImageEncoding, level: Int32, rows: Int,
         bandCount: Int, compressors: [PNGImageCompressor], buffers: [ByteBuffer]) {
        (self.source, self.encoding, self.level, self.rows, self.bandCount) = (source, encoding, level, rows, bandCount)
        (self.compressors, self.buffers) = (compressors, buffers)
        checksums = .allocate(capacity: compressors.count)
        checksums.initialize(repeating: 1)
        failures = .allocate(capacity: compressors.count)
        failures.initialize(repeating: nil)
    }

    func release() {
        checksums.deallocate()
        failures.deinitialize()
        failures.deallocate()
    }

    /// Compresses band `first + i` with compressor `i` (the zlib header first for band 0).
    func compress(first: Int, i: Int) {
        let band = first + i
        let output = buffers[i]
        output.removeAll()
        if band == 0 {
            let (cmf, flg) = PNGBandedImage.zlibHeader(level: level)
            output.append([cmf, flg])
        }
        do {
            checksums[i] = try compressors[i].compressBand(
                source, rows: band * rows..<min(source.height, (band + 1) * rows), encoding: encoding,
                isLast: band == bandCount - 1, into: output)
        } catch {
            failures[i] = error
        }
    }
}
