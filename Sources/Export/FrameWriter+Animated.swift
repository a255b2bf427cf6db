import ImageCodecs
import Raster

/// GIF or APNG through Citrine's own encoders, into an atomic file or standard output.
final class AnimationWriter: FrameWriter {
    private let destination: ByteDestination
    private let encoder: any AnimationEncoder

    private init(_ destination: ExportDestination, overwrite: Bool,
                 encoder: (any ByteSink) throws -> any AnimationEncoder) throws {
        self.destination = try ByteDestination(destination, overwrite: overwrite)
        self.encoder = try encoder(self.destination.sink)
    }

    /// A GIF. "Times to play" n is NETSCAPE2.0's repeat count n − 1 (browsers play it once more
    /// than the count says); once is no loop extension at all.
    static func gif(_ destination: ExportDestination, width: Int, height: Int, rate: FrameRate,
                    options: ExportOptions) throws -> AnimationWriter {
        var gif = options.gif
        gif.loopCount = options.loopCount.flatMap { $0 == 0 ? 0 : $0 == 1 ? nil : $0 - 1 }
        return try AnimationWriter(destination, overwrite: options.overwrite) { sink in
            try GIFEncoder(sink: sink, width: width, height: height, rate: rate, options: gif)
        }
    }

    /// An APNG (num_plays is the times to play; the scale goes into pHYs).
    static func apng(_ destination: ExportDestination, width: Int, height: Int, frameCount: Int, rate: FrameRate,
                     pixelsPerPoint: Double, options: ExportOptions) throws -> AnimationWriter {
        var apng = options.apng
        apng.loopCount = options.loopCount ?? 1
        apng.pixelsPerPoint = pixelsPerPoint
        return try AnimationWriter(destination, overwrite: options.overwrite) { sink in
            try APNGEncoder(sink: sink, width: width, height: height, frameCount: frameCount, rate: rate, options: apng)
        }
    }

    func append(_ frame: Pixmap) throws { try encoder.append(frame) }
    func finish() throws {
        try encoder.finish()
        try destination.commit()
    }
    func abandon() { destination.discard() }
}
