import Raster

extension PNGCodec {
    /// An 8-bit straight-alpha RGBA PNG of `pixmap` (colour un-premultiplied as `encode(_:)`
    /// does) with an sRGB chunk and a pHYs chunk for `pixelsPerPoint`: 1 point = 1/72 inch, so
    /// round(pixelsPerPoint·72/0.0254) pixels per metre — @2x is 5669 px/m, 144 dpi. Written by
    /// Citrine's own `PNGStreamWriter` at `APNGOptions.defaultCompressionLevel`.
    ///
    /// Errors: an empty pixmap; a `pixelsPerPoint` that is not finite and positive, or whose
    /// pixels per metre fall outside 1…2^31 − 1.
    public static func encode(_ pixmap: Pixmap, pixelsPerPoint: Double) throws(ImageCodecError) -> [UInt8] {
        guard pixmap.width > 0, pixmap.height > 0 else {
            throw ImageCodecError(file: nil, reason: .invalidSize(width: pixmap.width, height: pixmap.height,
                                                               reason: "a PNG cannot be empty"))
        }
        let encoder = PNGStillEncoder()
        try encoder.encode(pixmap, pixelsPerPoint: pixelsPerPoint)
        return encoder.bytes
    }

    /// Encodes `pixmap` with a pHYs chunk (see `encode(_:pixelsPerPoint:)`) and writes it to
    /// `path` atomically through `OutputFile`: nothing is left half-written, and an existing
    /// file is replaced only once the new one is complete (with `overwrite` false, an existing
    /// file is an error). The file is written as it is compressed (`PNGStillEncoder`).
    public static func write(_ pixmap: Pixmap, to path: String, pixelsPerPoint: Double,
                             overwrite: Bool = true) throws(ImageCodecError) {
        try PNGStillEncoder().write(pixmap, pixelsPerPoint: pixelsPerPoint, to: path, overwrite: overwrite)
    }
}

/// Encodes PNGs with a pHYs chunk (as `PNGCodec.encode(_:pixelsPerPoint:)`) one after the
/// other, reusing its zlib streams, rows and output buffers: one per thread for a PNG sequence,
/// or one using `threads` threads for a large still. An image of more than 16 MiB of pixels is
/// compressed in bands, on up to `threads` threads, and written to its sink band by band
/// (`PNGBandedImage`): what is held beside the image is one compressed band per thread.
public final class PNGStillEncoder {
    /// zlib's compression level, 0 (stored) … 9 (smallest, slowest), or −1 (zlib's default, 6).
    public let compressionLevel: Int32
    /// Threads that compress the bands of a large image (at least 1).
    public let threads: Int
    private var compressors: [PNGImageCompressor] = []
    private var bandBuffers: [ByteBuffer] = []
    private let memory = MemorySink()

    /// An encoder deflating at `compressionLevel` (default `APNGOptions.defaultCompressionLevel`,
    /// 6) with up to `threads` threads (default 1). A level outside −1…9 makes every encode an
    /// error.
    public init(compressionLevel: Int32 = APNGOptions.defaultCompressionLevel, threads: Int = 1) {
        self.compressionLevel = compressionLevel
        self.threads = max(1, threads)
    }

    /// The last PNG `encode(_:pixelsPerPoint:)` made.
    public var bytes: [UInt8] { memory.bytes }

    /// Encodes `pixmap` into `bytes` (see `PNGCodec.encode(_:pixelsPerPoint:)`).
    public func encode(_ pixmap: Pixmap, pixelsPerPoint: Double, comment: String? = nil) throws(ImageCodecError) {
        memory.removeAll()
        try encode(pixmap, pixelsPerPoint: pixelsPerPoint, comment: comment, to: memory)
    }

    /// Encodes `pixmap` (see `PNGCodec.encode(_:pixelsPerPoint:)`), writing it to `sink` as it
    /// is compressed; a `comment` goes before the image data as an iTXt chunk with the keyword
    /// "Comment" (UTF-8; none when nil).
    public func encode(_ pixmap: Pixmap, pixelsPerPoint: Double, comment: String? = nil,
                       to sink: any ByteSink) throws(ImageCodecError) {
        guard pixmap.width > 0, pixmap.height > 0 else {
            throw ImageCodecError(file: nil, reason: .invalidSize(width: pixmap.width, height: pixmap.height,
                                                               reason: "a PNG cannot be empty"))
        }
        _ = try PNGStreamWriter.pixelsPerMetre(pixelsPerPoint)  // checked before any work
        let banded = PNGBandedImage.isBanded(width: pixmap.width, height: pixmap.height)
        let needed = banded ? threads : 1
        if compressors.first.map({ $0.maxWidth < pixmap.width }) ?? false {
            compressors.removeAll()
        }
        while compressors.count < needed {
            compressors.append(try PNGImageCompressor(maxWidth: pixmap.width, compressionLevel: compressionLevel))
        }
        let writer = PNGStreamWriter(sink: sink, compressor: compressors[0])
        try writer.writeSignature()
        try writer.writeHeader(width: pixmap.width, height: pixmap.height)
        try writer.writeSRGB()
        try writer.writePhysicalScale(pixelsPerPoint: pixelsPerPoint)
        if let comment { try writer.writeComment(comment) }
        let source = PNGStreamWriter.Source(pixmap: pixmap, x: 0, y: 0, width: pixmap.width, height: pixmap.height,
                                            reference: nil)
        let encoding = try writer.chooseEncoding(source, mayClear: false)
        if banded {
            while bandBuffers.count < needed { bandBuffers.append(ByteBuffer()) }
            try PNGBandedImage.write(source, encoding: encoding, level: compressionLevel,
                                     compressors: Array(compressors.prefix(needed)),
                                     buffers: Array(bandBuffers.prefix(needed)), writer: writer)
        } else {
            try writer.writeImageData(source, encoding: encoding, framing: .idat)
        }
        try writer.writeEnd()
    }

    /// Encodes `pixmap` and writes it to `path` atomically through `OutputFile`, as it is
    /// compressed (see `PNGCodec.write(_:to:pixelsPerPoint:overwrite:)`), with `comment` as in
    /// `encode(_:pixelsPerPoint:comment:to:)`.
    public func write(_ pixmap: Pixmap, pixelsPerPoint: Double, comment: String? = nil, to path: String,
                      overwrite: Bool = true) throws(ImageCodecError) {
        let file = try OutputFile(path: path, overwrite: overwrite)
        do { try encode(pixmap, pixelsPerPoint: pixelsPerPoint, comment: comment, to: file) } catch {
            file.discard()
            throw error.naming(path)
        }
        try file.commit()
    }
}
