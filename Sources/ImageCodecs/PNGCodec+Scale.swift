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
    /// file is an error).
    public static func write(_ pixmap: Pixmap, to path: String, pixelsPerPoint: Double,
                             overwrite: Bool = true) throws(ImageCodecError) {
        let bytes: [UInt8]
        do { bytes = try encode(pixmap, pixelsPerPoint: pixelsPerPoint) } catch { throw error.naming(path) }
        try OutputFile.write(bytes, to: path, overwrite: overwrite)
    }
}

/// Encodes PNGs with a pHYs chunk (as `PNGCodec.encode(_:pixelsPerPoint:)`) one after the
/// other, reusing its zlib streams, rows and output buffer: one per thread for a PNG sequence.
public final class PNGStillEncoder {
    private var compressor: PNGImageCompressor?
    private let sink = MemorySink()

    public init() {}

    /// The last PNG encoded.
    public var bytes: [UInt8] { sink.bytes }

    /// Encodes `pixmap` into `bytes` (see `PNGCodec.encode(_:pixelsPerPoint:)`).
    public func encode(_ pixmap: Pixmap, pixelsPerPoint: Double) throws(ImageCodecError) {
        guard pixmap.width > 0, pixmap.height > 0 else {
            throw ImageCodecError(file: nil, reason: .invalidSize(width: pixmap.width, height: pixmap.height,
                                                               reason: "a PNG cannot be empty"))
        }
        _ = try PNGStreamWriter.pixelsPerMetre(pixelsPerPoint)  // checked before any work
        if compressor == nil || compressor!.maxWidth < pixmap.width {
            compressor = try PNGImageCompressor(maxWidth: pixmap.width, compressionLevel: APNGOptions.defaultCompressionLevel)
        }
        sink.removeAll()
        let writer = PNGStreamWriter(sink: sink, compressor: compressor!)
        try writer.writeSignature()
        try writer.writeHeader(width: pixmap.width, height: pixmap.height)
        try writer.writeSRGB()
        try writer.writePhysicalScale(pixelsPerPoint: pixelsPerPoint)
        let source = PNGStreamWriter.Source(pixmap: pixmap, x: 0, y: 0, width: pixmap.width, height: pixmap.height,
                                            reference: nil)
        try writer.writeImageData(source, encoding: writer.chooseEncoding(source, mayClear: false), framing: .idat)
        try writer.writeEnd()
    }

    /// Encodes `pixmap` and writes it to `path` atomically through `OutputFile` (see
    /// `PNGCodec.write(_:to:pixelsPerPoint:overwrite:)`).
    public func write(_ pixmap: Pixmap, pixelsPerPoint: Double, to path: String, overwrite: Bool = true) throws(ImageCodecError) {
        do { try encode(pixmap, pixelsPerPoint: pixelsPerPoint) } catch { throw error.naming(path) }
        try OutputFile.write(sink.bytes, to: path, overwrite: overwrite)
    }
}
