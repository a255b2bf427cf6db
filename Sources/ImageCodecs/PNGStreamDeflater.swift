import CZlib

/// One zlib deflate stream (zlib format, 32 KiB window), kept for reuse: `reset()` between
/// images. Heap-allocated, because zlib's state points back at its `z_stream`.
final class PNGDeflater {
    let stream: UnsafeMutablePointer<z_stream>
    let level: Int32

    /// A stream at zlib `level` (−1…9), with zlib's largest hash (memory level 9); `raw` leaves
    /// out the zlib header and Adler-32 trailer (one band of an image compressed in bands).
    init(level: Int32, raw: Bool = false) throws(ImageCodecError) {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = deflateInit2_(stream, level, Z_DEFLATED, raw ? -15 : 15, 9, Z_DEFAULT_STRATEGY, zlibVersion(),
                                   Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()  // before `self` is complete, so `deinit` will not run
            throw ImageCodecError(file: nil, reason: .malformed("zlib's deflateInit2 failed (\(status))"))
        }
        self.stream = stream
        self.level = level
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Starts a new zlib stream (keeps the memory).
    func reset() throws(ImageCodecError) {
        guard deflateReset(stream) == Z_OK else { throw ImageCodecError(file: nil, reason: .malformed("zlib's deflateReset failed")) }
    }

    /// Where the next output goes.
    func setOutput(_ buffer: UnsafeMutablePointer<UInt8>, count: Int) {
        stream.pointee.next_out = buffer
        stream.pointee.avail_out = uInt(count)
    }

    /// Compresses `count` bytes at `bytes`; `drain` is called whenever the output space is
    /// full and must provide more (`setOutput`).
    @inline(__always)
    func deflate(_ bytes: UnsafePointer<UInt8>, count: Int, drain: () throws(ImageCodecError) -> Void) throws(ImageCodecError) {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes)
        stream.pointee.avail_in = uInt(count)
        while stream.pointee.avail_in > 0 {
            let status = CZlib.deflate(stream, Z_NO_FLUSH)
            guard status == Z_OK else { throw Self.failure(status) }
            if stream.pointee.avail_out == 0 { try drain() }
        }
    }

    /// Ends the zlib stream; the last output stays in the output space for the caller.
    func finish(drain: () throws(ImageCodecError) -> Void) throws(ImageCodecError) {
        stream.pointee.avail_in = 0
        while true {
            let status = CZlib.deflate(stream, Z_FINISH)
            guard status == Z_OK || status == Z_STREAM_END else { throw Self.failure(status) }
            if status == Z_STREAM_END { return }
            if stream.pointee.avail_out == 0 { try drain() }
        }
    }

    /// Ends the deflate data so far on a byte boundary without ending the stream
    /// (`Z_SYNC_FLUSH`: an empty stored block that is not the last), so that another band's
    /// deflate data may follow it.
    func flush(drain: () throws(ImageCodecError) -> Void) throws(ImageCodecError) {
        stream.pointee.avail_in = 0
        while true {
            let status = CZlib.deflate(stream, Z_SYNC_FLUSH)
            guard status == Z_OK || status == Z_BUF_ERROR else { throw Self.failure(status) }
            // Done once deflate left output space unused (zlib's documented completion test).
            if stream.pointee.avail_out > 0 { return }
            try drain()
        }
    }

    private static func failure(_ status: Int32) -> ImageCodecError {
        ImageCodecError(file: nil, reason: .malformed("zlib's deflate failed (\(status))"))
    }
}
