import CoreText
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
    /// Writes the fonts the export's text was drawn with (`FontUsage.summary`) at `finish()`,
    /// when the format records them (APNG); nil for GIF.
    private let writeFonts: ((String) throws -> Void)?
    /// The fonts every frame's text was drawn with, gathered as frames render.
    private let fonts = FontUsage()

    init(_ destination: ExportDestination, overwrite: Bool, frameCount: Int,
         encoder: (any ByteSink) throws -> Encoder, writeFonts: ((Encoder, String) throws -> Void)? = nil) throws {
        self.destination = try ByteDestination(destination, overwrite: overwrite)
        let made = try encoder(self.destination.sink)
        self.encoder = made
        self.frameCount = frameCount
        self.writeFonts = writeFonts.map { write in { try write(made, $0) } }
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

    func rendered(index: Int, slot: Int, fonts: FontUsage) {
        if writeFonts != nil { self.fonts.merge(fonts) }
    }

    func finish() throws {
        if let writeFonts, let summary = fonts.summary { try writeFonts(summary) }
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
    /// An APNG (num_plays is the times to play; the scale goes into pHYs). When text was drawn,
    /// an iTXt "Comment" names the fonts of all frames (`FontUsage.summary`) after the last
    /// frame: frames are written as they are rendered, so the fonts of them all are known only
    /// then (PNG allows iTXt anywhere between IHDR and IEND).
    static func apng(_ destination: ExportDestination, width: Int, height: Int, frameCount: Int, rate: FrameRate,
                     pixelsPerPoint: Double, options: ExportOptions) throws -> AnimationWriter {
        var apng = options.apng
        apng.loopCount = options.loopCount ?? 1
        apng.pixelsPerPoint = pixelsPerPoint
        return try AnimationWriter(destination, overwrite: options.overwrite, frameCount: frameCount) { sink in
            try APNGEncoder(sink: sink, width: width, height: height, frameCount: frameCount, rate: rate, options: apng)
        } writeFonts: { encoder, fonts in try encoder.appendComment(fonts) }
    }
}
