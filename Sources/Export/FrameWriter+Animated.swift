import ImageCodecs
import Raster

/// GIF or APNG through Citrine's own encoders, into an atomic file or standard output.
///
/// The per-frame work runs in `prepare`, on the workers, into the slot's prepared frame
/// (`APNGPreparedFrame`: changed rectangle, filtering and deflate; `GIFPreparedFrame`: see
/// `GIFFramePreparer`), with one preparer per worker (its zlib streams or quantizer and colour
/// search reused frame after frame); `write` hands the prepared frame to the encoder, which
/// does the rest in order (APNG: chunk sequence numbers, chunks and CRCs; GIF: see
/// `GIFEncoder.append(_:)`). The bytes are the same as `append(_ frame:)` gives, whatever the
/// number of threads.
final class AnimationWriter<Encoder: PreparingAnimationEncoder>: FrameWriter {
    private let destination: ByteDestination
    private let encoder: Encoder
    private let frameCount: Int
    private var preparers: [Encoder.Preparer] = []
    private var prepared: [Encoder.Prepared] = []

    init(_ destination: ExportDestination, overwrite: Bool, frameCount: Int,
         encoder: (any ByteSink) throws -> Encoder) throws {
        self.destination = try ByteDestination(destination, overwrite: overwrite)
        self.encoder = try encoder(self.destination.sink)
        self.frameCount = frameCount
    }

    var keepsPreviousFrame: Bool { true }
    var preparesFirstFrameFirst: Bool { Encoder.preparesFirstFrameFirst }

    func start(workers: Int, slots: Int) throws {
        preparers = try (0..<workers).map { _ in try encoder.makePreparer() }
        prepared = (0..<slots).map { _ in encoder.makePreparedFrame() }
    }

    func prepare(_ frame: Pixmap, previous: Pixmap?, index: Int, slot: Int, worker: Int) throws {
        try preparers[worker].prepare(frame, previous: previous, isLast: index == frameCount - 1, into: prepared[slot])
    }

    func write(_ frame: Pixmap, index: Int, slot: Int) throws { try encoder.append(prepared[slot]) }

    func finish() throws {
        try encoder.finish()
        try destination.commit()
    }

    func abandon() { destination.discard() }
}

extension AnimationWriter where Encoder == GIFEncoder {
    /// A GIF. "Times to play" n is NETSCAPE2.0's repeat count n − 1 (browsers play it once more
    /// than the count says); once is no loop extension at all.
    static func gif(_ destination: ExportDestination, width: Int, height: Int, frameCount: Int, rate: FrameRate,
                    options: ExportOptions) throws -> AnimationWriter {
        var gif = options.gif
        gif.loopCount = options.loopCount.flatMap { $0 == 0 ? 0 : $0 == 1 ? nil : $0 - 1 }
        return try AnimationWriter(destination, overwrite: options.overwrite, frameCount: frameCount) { sink in
            try GIFEncoder(sink: sink, width: width, height: height, rate: rate, options: gif)
        }
    }
}

extension AnimationWriter where Encoder == APNGEncoder {
    /// An APNG (num_plays is the times to play; the scale goes into pHYs).
    static func apng(_ destination: ExportDestination, width: Int, height: Int, frameCount: Int, rate: FrameRate,
                     pixelsPerPoint: Double, options: ExportOptions) throws -> AnimationWriter {
        var apng = options.apng
        apng.loopCount = options.loopCount ?? 1
        apng.pixelsPerPoint = pixelsPerPoint
        return try AnimationWriter(destination, overwrite: options.overwrite, frameCount: frameCount) { sink in
            try APNGEncoder(sink: sink, width: width, height: height, frameCount: frameCount, rate: rate, options: apng)
        }
    }
}
