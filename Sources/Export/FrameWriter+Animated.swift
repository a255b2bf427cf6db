import ImageCodecs
import Raster

/// GIF through Citrine's own encoder.
final class GIFWriter: FrameWriter {
    private let destination: ByteDestination
    private let encoder: GIFEncoder

    init(_ destination: ExportDestination, width: Int, height: Int, rate: FrameRate, options: ExportOptions) throws {
        self.destination = try ByteDestination(destination, overwrite: options.overwrite)
        var gif = options.gif
        // "Times to play" n is NETSCAPE2.0's repeat count n − 1 (browsers play it once more than
        // the count says); once is no loop extension at all.
        gif.loopCount = options.loopCount.flatMap { $0 == 0 ? 0 : $0 == 1 ? nil : $0 - 1 }
        encoder = try GIFEncoder(sink: self.destination.sink, width: width, height: height, rate: rate, options: gif)
    }

    func append(_ frame: Pixmap) throws { try encoder.append(frame) }
    func finish() throws {
        try encoder.finish()
        try destination.commit()
    }
    func abandon() { destination.discard() }
}

/// APNG through Citrine's own encoder.
final class APNGWriter: FrameWriter {
    private let destination: ByteDestination
    private let encoder: APNGEncoder

    init(_ destination: ExportDestination, width: Int, height: Int, frameCount: Int, rate: FrameRate,
         pixelsPerPoint: Double, options: ExportOptions) throws {
        self.destination = try ByteDestination(destination, overwrite: options.overwrite)
        var apng = options.apng
        apng.loopCount = options.loopCount ?? 1
        apng.pixelsPerPoint = pixelsPerPoint
        encoder = try APNGEncoder(sink: self.destination.sink, width: width, height: height, frameCount: frameCount,
                                  rate: rate, options: apng)
    }

    func append(_ frame: Pixmap) throws { try encoder.append(frame) }
    func finish() throws {
        try encoder.finish()
        try destination.commit()
    }
    func abandon() { destination.discard() }
}
