import Raster

/// An APNG frame made ready on any thread (`APNGFramePreparer.prepare`) for
/// `APNGEncoder.append(_:)`: its rectangle, blend operation and deflated image data — all of a
/// frame's work but the chunk framing. Reusable: prepare into it again once it is appended.
public final class APNGPreparedFrame {
    /// The animation's size the frame was prepared for.
    private(set) var width = 0, height = 0
    /// Whether it was prepared as frame 0 (whole canvas, no previous frame).
    private(set) var isFirst = true
    /// The rectangle coded, on the canvas.
    var region = APNGEncoder.Region(x: 0, y: 0, width: 0, height: 0)
    /// blend_op OVER (unchanged pixels cleared) rather than SOURCE.
    var blendsOver = false
    /// The rectangle's filtered, deflated rows: one zlib stream.
    let data = ByteBuffer(capacity: 1 << 16)

    public init() {}

    func reset(width: Int, height: Int, isFirst: Bool) {
        self.width = width
        self.height = height
        self.isFirst = isFirst
        data.removeAll()
    }
}

/// Does an APNG frame's work on the thread it is called from: compares the frame with the one
/// before it (the changed rectangle, and whether blending OVER is exact), chooses the encoding
/// by trial, filters and deflates. Made by `APNGEncoder.makePreparer()`; one per thread (it
/// reuses its zlib streams and row buffers); frames may be prepared in any order, each from
/// the frame before it.
public final class APNGFramePreparer {
    private let compressor: PNGImageCompressor
    private let width: Int, height: Int
    /// See `APNGEncoder.fixedEncoding`.
    var fixedEncoding: PNGStreamWriter.ImageEncoding? {
        get { compressor.fixedEncoding }
        set { compressor.fixedEncoding = newValue }
    }

    init(encoder compressor: PNGImageCompressor, width: Int, height: Int) {
        self.compressor = compressor
        self.width = width
        self.height = height
    }

    /// Prepares `frame` (premultiplied RGBA8, the animation's size) into `prepared`: frame 0
    /// when `previous` is nil, else the frame after `previous` (which must be the animation's
    /// frame before it, as appended). `isLast` is not needed by APNG (it is by GIF's preparer).
    public func prepare(_ frame: Pixmap, previous: Pixmap?, isLast: Bool = false,
                        into prepared: APNGPreparedFrame) throws(ImageCodecError) {
        try ImageCodecError.checkFrame(frame, width: width, height: height, of: "APNG")
        if let previous { try ImageCodecError.checkFrame(previous, width: width, height: height, of: "APNG") }
        prepared.reset(width: width, height: height, isFirst: previous == nil)
        let region: APNGEncoder.Region
        if let previous {
            region = APNGEncoder.changedRegion(frame.pixels, previous.pixels, width: width, height: height)
                ?? APNGEncoder.Region(x: 0, y: 0, width: 1, height: 1)
        } else {
            region = APNGEncoder.Region(x: 0, y: 0, width: width, height: height)
        }
        let reference = previous.map { UnsafePointer($0.pixels) }
        let source = PNGStreamWriter.Source(pixmap: frame, x: region.x, y: region.y, width: region.width,
                                            height: region.height, reference: reference)
        let mayBlendOver = reference.map { APNGEncoder.overIsExact(frame.pixels, $0, width: width, region: region) } ?? false
        let encoding = try compressor.chooseEncoding(source, mayClear: mayBlendOver)
        try compressor.compress(source, encoding: encoding, into: prepared.data)
        prepared.region = region
        prepared.blendsOver = encoding.clearsUnchanged
    }
}
