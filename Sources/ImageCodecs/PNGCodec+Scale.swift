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
        _ = try PNGStreamWriter.pixelsPerMetre(pixelsPerPoint)  // checked before any work
        let sink = MemorySink()
        let writer = try PNGStreamWriter(sink: sink, maxWidth: pixmap.width,
                                         compressionLevel: APNGOptions.defaultCompressionLevel)
        try writer.writeSignature()
        try writer.writeHeader(width: pixmap.width, height: pixmap.height)
        try writer.writeSRGB()
        try writer.writePhysicalScale(pixelsPerPoint: pixelsPerPoint)
        let source = PNGStreamWriter.Source(pixmap: pixmap, x: 0, y: 0, width: pixmap.width, height: pixmap.height,
                                            reference: nil)
        try writer.writeImageData(source, encoding: writer.chooseEncoding(source, mayClear: false), framing: .idat)
        try writer.writeEnd()
        return sink.bytes
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
