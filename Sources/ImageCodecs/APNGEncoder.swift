import Raster
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Animated PNG output (APNG 1.0, https://wiki.mozilla.org/APNG_Specification, now part of the
// PNG 3rd edition), written frame by frame to a `ByteSink`.
//
// Design note
// -----------
// * Layout: signature, IHDR (8-bit RGBA), acTL (frame count, plays), sRGB, pHYs when asked, then
//   per frame an fcTL and its image data; frame 0's data is IDAT, so it is also the default
//   image that a PNG-only reader (libpng) shows; later frames are fdAT. IEND at `finish()`.
//   All chunks go through `PNGStreamWriter` (filtering, streamed deflate, CRCs).
// * Only what changed: each frame after the first is compared with the previous one and only
//   the bounding box of the changed pixels is coded, with dispose NONE (the canvas keeps the
//   previous frame). Blend is SOURCE (the box replaces the canvas), or OVER with the unchanged
//   pixels of the box written as transparent black when every changed pixel is opaque
//   (`overIsExact`) and the writer's trial finds it smaller — usually several times smaller
//   for layers moving over a still background, but not when a moved gradient leaves pixels
//   equal only by chance (see `PNGStreamWriter`).
// * A frame equal to the previous one is coded as a 1×1 frame at (0, 0): acTL's frame count is
//   written before the frames are seen, so the frame cannot be dropped (merging its delay into
//   the previous frame would change the count), and the 1×1 frame keeps every frame's duration
//   as the exporter gave it, for about 60 bytes.
// * Delays are exact: `delay_num/delay_den` = seconds/frames of the `FrameRate` when both fit
//   in 16 bits (30 fps is 1/30, 29.97 fps is 1001/30000); otherwise frame i lasts
//   `rate.units(upTo: i + 1) − rate.units(upTo: i)` milliseconds (a coarser unit only for
//   frames longer than 65.535 s), so the rounding never accumulates.
// * Parallel frames: `APNGFramePreparer` does a frame's work (changed rectangle, trial,
//   filtering, deflate) on any thread, given the frame before it; `append(_ prepared:)` only
//   numbers and writes the chunks (fcTL, IDAT/fdAT cut at 256 KiB, CRCs). `append(_ frame:)` is
//   the same two steps on the calling thread, so the bytes do not depend on who prepared.
// * Memory: for `append(_ frame:)`, one copy of the previous frame (width·height·4 bytes); per
//   preparer three zlib streams (about 0.4 MB each) and two rows; per prepared frame its
//   deflated data (at most about the frame's size, usually a small fraction).
//
// Measured (release build, 2-core shared machine, CPU time of the encoding thread; 30 frames of
// 1920×1080 rendered with Raster: gradient background + four moving anti-aliased shapes;
// ffmpeg 5.1 `-f apng -plays 0` on the same straight-RGBA frames, its user CPU time):
//
//   scene                             Citrine (level 6)           ffmpeg apng
//   shapes over a still gradient      548 KB,  31 ms/frame        549 KB, 181–184 ms/frame
//   gradient moving under shapes      2.85 MB, 57 ms/frame        2.86 MB, 359–363 ms/frame
//   shapes on transparent             405 KB,  29 ms/frame        399 KB, 147–149 ms/frame
//
// Both ffmpeg's and Pillow's decoders return every source frame exactly. (ffmpeg is smaller on
// the transparent scene because it also tries dispose BACKGROUND, which Citrine does not.)

/// Options of `APNGEncoder`.
public struct APNGOptions: Sendable, Equatable {
    /// acTL's `num_plays`: how many times the animation plays; 0 = forever.
    public var loopCount: Int = 0
    /// zlib's compression level, 0…9 (or −1, zlib's default, which is 6). Default
    /// `defaultCompressionLevel`.
    public var compressionLevel: Int32 = APNGOptions.defaultCompressionLevel
    /// When set, a pHYs chunk declares this many pixels per point (1 point = 1/72 inch):
    /// round(pixelsPerPoint·72/0.0254) pixels per metre, so 2 (@2x) is 144 dpi.
    public var pixelsPerPoint: Double? = nil

    /// The default compression level, 6, chosen by measurement (the 1080p animation of shapes
    /// over a still gradient in the source's design note, 30 frames):
    ///
    ///     level   1       3       4       5       6       7       9
    ///     KB      1274    1214    739     641     548     547     524
    ///     ms      14      14      30      29      31      32      59    (per frame)
    ///
    /// Levels 4–7 cost the same time and 6 is the smallest of them, as small as ffmpeg's output;
    /// level 9 saves 4 % for twice the time; levels 1–3 halve the time for twice the size.
    public static let defaultCompressionLevel: Int32 = 6

    public init(loopCount: Int = 0, compressionLevel: Int32 = APNGOptions.defaultCompressionLevel,
                pixelsPerPoint: Double? = nil) {
        self.loopCount = loopCount
        self.compressionLevel = compressionLevel
        self.pixelsPerPoint = pixelsPerPoint
    }
}

/// Writes an animated PNG frame by frame: create it with the frame count, `append` each frame
/// (premultiplied RGBA8 `Pixmap`s of the animation's size) in order from one thread, then
/// `finish()`. The bytes go to `sink` as they are produced; with an `OutputFile`, call its
/// `commit()` after `finish()` — an animation abandoned before that leaves no file.
///
/// Frames are stored as straight-alpha RGBA8 (see `StraightAlpha.convert`); after
/// the first, only the rectangle that changed is coded (see the design note in the source).
///
/// Every misuse is an `ImageCodecError`: an empty or oversized canvas, a frame count ≤ 0, a frame
/// of the wrong size, more or fewer frames than announced, use after `finish()`. After an error
/// from the sink or zlib the encoder refuses further work.
public final class APNGEncoder {
    public let width: Int
    public let height: Int
    /// Frames announced in acTL; `finish()` requires exactly this many.
    public let frameCount: Int
    public let rate: FrameRate
    public let options: APNGOptions
    /// Frames appended so far.
    public private(set) var framesAppended = 0

    private let writer: PNGStreamWriter
    private let delays: Delays
    /// For `append(_ frame:)`: its preparer, prepared frame and a copy of the last frame.
    private var ownPreparer: APNGFramePreparer?
    private let ownPrepared = APNGPreparedFrame()
    private var previous: Pixmap?
    private var state = State.open
    /// How every frame `append(_ frame:)` prepares is encoded; nil (the default) lets the
    /// trial choose. Tests set it to cover each encoding; clearing unchanged pixels (blend
    /// OVER) still happens only where `overIsExact`.
    var fixedEncoding: PNGStreamWriter.ImageEncoding? {
        get { ownPreparer?.fixedEncoding }
        set { ownPreparer?.fixedEncoding = newValue }
    }

    private enum State { case open, finished, failed(ImageCodecError) }

    /// Starts an animation of `frameCount` frames of `width`×`height` pixels at `rate` and writes
    /// its header chunks to `sink`.
    public init(sink: any ByteSink, width: Int, height: Int, frameCount: Int, rate: FrameRate,
                options: APNGOptions = APNGOptions()) throws(ImageCodecError) {
        guard width > 0, height > 0 else {
            throw ImageCodecError(file: nil, reason: .invalidSize(width: width, height: height,
                                                               reason: "an APNG cannot be empty"))
        }
        do { try Pixmap.validate(width: width, height: height) } catch {
            throw ImageCodecError(file: nil, reason: .invalidSize(width: width, height: height, reason: error.description))
        }
        guard frameCount > 0, frameCount <= PNGStreamWriter.maxCount / 2 else {
            throw ImageCodecError(file: nil, reason: .malformed(
                "frame count \(frameCount) is outside 1…\(PNGStreamWriter.maxCount / 2)"))
        }
        guard options.loopCount >= 0, options.loopCount <= PNGStreamWriter.maxCount else {
            throw ImageCodecError(file: nil, reason: .malformed(
                "loop count \(options.loopCount) is outside 0…2^31 - 1 (0 plays forever)"))
        }
        if let scale = options.pixelsPerPoint { _ = try PNGStreamWriter.pixelsPerMetre(scale) }
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.rate = rate
        self.options = options
        delays = try Delays(rate: rate, frameCount: frameCount)
        writer = try PNGStreamWriter(sink: sink, maxWidth: width, compressionLevel: options.compressionLevel)
        ownPreparer = APNGFramePreparer(encoder: writer.compressor, width: width, height: height)
        try writer.writeSignature()
        try writer.writeHeader(width: width, height: height)
        try writer.writeChunk(.acTL) { data in
            data.appendPNGBigEndian(UInt32(frameCount))
            data.appendPNGBigEndian(UInt32(options.loopCount))
        }
        try writer.writeSRGB()
        if let scale = options.pixelsPerPoint { try writer.writePhysicalScale(pixelsPerPoint: scale) }
    }

    /// Appends the next frame: premultiplied RGBA8, `width`×`height`. (The same as preparing
    /// it with a `makePreparer()` and appending the prepared frame.)
    public func append(_ frame: Pixmap) throws(ImageCodecError) {
        try checkOpen("append a frame")
        try checkCount()
        let preparer = ownPreparer!
        try preparer.prepare(frame, previous: framesAppended == 0 ? nil : previous,
                             isLast: framesAppended == frameCount - 1, into: ownPrepared)
        try append(ownPrepared)
        if framesAppended < frameCount {
            if previous == nil { previous = try Self.pixmap(width: width, height: height) }
            let region = ownPrepared.region, rowBytes = width * 4
            (previous!.pixels + region.y * rowBytes).update(from: frame.pixels + region.y * rowBytes,
                                                            count: region.height * rowBytes)
        }
    }

    /// Appends the next frame, prepared (on any thread) by a preparer of this encoder from the
    /// frame and the one before it (none for frame 0): writes its fcTL with the next sequence
    /// number and its data as IDAT (frame 0) or fdAT chunks.
    public func append(_ prepared: APNGPreparedFrame) throws(ImageCodecError) {
        try checkOpen("append a frame")
        try checkCount()
        guard prepared.isFirst == (framesAppended == 0), prepared.width == width, prepared.height == height else {
            throw ImageCodecError(file: nil, reason: .misuse(
                "frame \(framesAppended) was prepared \(prepared.isFirst ? "as the first frame" : "from a previous frame") "
                    + "for a \(prepared.width)×\(prepared.height) animation; this one is \(width)×\(height)"))
        }
        do {
            try write(prepared)
        } catch {
            state = .failed(error)
            throw error
        }
        framesAppended += 1
    }

    /// A preparer for this encoder's frames: one per thread (it holds zlib streams and row
    /// buffers, about 1.3 MB, reused frame after frame).
    public func makePreparer() throws(ImageCodecError) -> APNGFramePreparer {
        let compressor = try PNGImageCompressor(maxWidth: width, compressionLevel: options.compressionLevel)
        return APNGFramePreparer(encoder: compressor, width: width, height: height)
    }

    /// Storage for a prepared frame (reusable: prepare into it again once appended).
    public func makePreparedFrame() -> APNGPreparedFrame { APNGPreparedFrame() }

    private func checkCount() throws(ImageCodecError) {
        guard framesAppended < frameCount else {
            throw ImageCodecError(file: nil, reason: .malformed("too many frames: the animation has \(frameCount)"))
        }
    }

    private static func pixmap(width: Int, height: Int) throws(ImageCodecError) -> Pixmap {
        do { return try Pixmap(width: width, height: height) } catch {
            throw ImageCodecError(file: nil, reason: .invalidSize(width: width, height: height, reason: error.description))
        }
    }

    /// Writes `text` as an iTXt chunk with the keyword "Comment" (UTF-8) where the stream is
    /// now: before the first frame, or after the frames before `finish()` (PNG allows iTXt
    /// anywhere between IHDR and IEND; readers such as Pillow read those after the image data).
    public func appendComment(_ text: String) throws(ImageCodecError) {
        try checkOpen("write a comment")
        do {
            try writer.writeComment(text)
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// Writes the end of the file. Requires exactly `frameCount` frames (if fewer, appending the
    /// rest and calling `finish()` again is allowed).
    public func finish() throws(ImageCodecError) {
        try checkOpen("finish")
        guard framesAppended == frameCount else {
            throw ImageCodecError(file: nil, reason: .malformed(
                "too few frames: \(framesAppended) appended, the animation has \(frameCount)"))
        }
        do {
            try writer.writeEnd()
        } catch {
            state = .failed(error)
            throw error
        }
        state = .finished
    }

    private func checkOpen(_ what: String) throws(ImageCodecError) {
        switch state {
        case .open: return
        case .finished:
            throw ImageCodecError(file: nil, reason: .malformed("cannot \(what): the APNG is already finished"))
        case let .failed(error):
            throw ImageCodecError(file: error.file, reason: .malformed("cannot \(what): the APNG failed earlier (\(error))"))
        }
    }

    // MARK: - Frames

    /// A region of the canvas.
    struct Region: Equatable {
        var x: Int, y: Int, width: Int, height: Int
    }

    /// fcTL, then the prepared image data.
    private func write(_ prepared: APNGPreparedFrame) throws(ImageCodecError) {
        let index = framesAppended, region = prepared.region
        let (delayNumerator, delayDenominator) = delays.delay(ofFrame: index)
        let sequence = try writer.nextSequenceNumber()
        try writer.writeChunk(.fcTL) { data in
            data.appendPNGBigEndian(sequence)
            data.appendPNGBigEndian(UInt32(region.width))
            data.appendPNGBigEndian(UInt32(region.height))
            data.appendPNGBigEndian(UInt32(region.x))
            data.appendPNGBigEndian(UInt32(region.y))
            data.appendPNGBigEndian(delayNumerator)
            data.appendPNGBigEndian(delayDenominator)
            data.append(0)  // dispose_op: APNG_DISPOSE_OP_NONE
            data.append(prepared.blendsOver ? 1 : 0)  // blend_op: APNG_BLEND_OP_OVER or _SOURCE
        }
        try writer.writeImageData(UnsafeRawBufferPointer(start: prepared.data.bytes, count: prepared.data.count),
                                  framing: index == 0 ? .idat : .fdat)
    }

    /// Whether blending `region` OVER the previous frame, with the pixels that did not change
    /// made transparent, reproduces `frame` exactly in every decoder: every changed pixel is
    /// opaque. (OVER of a translucent pixel onto a transparent one is the pixel itself by the
    /// specification, but decoders differ: Pillow pastes through the alpha as a mask, which
    /// premultiplies it; with alpha 255 or 0 every method agrees.)
    static func overIsExact(_ frame: UnsafePointer<UInt8>, _ previous: UnsafePointer<UInt8>, width: Int,
                            region: Region) -> Bool {
        let a = UnsafeRawPointer(frame), b = UnsafeRawPointer(previous)
        for y in region.y..<(region.y + region.height) {
            var offset = (y * width + region.x) * 4
            for _ in 0..<region.width {
                let new = a.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                if new < 0xFF00_0000, new != b.loadUnaligned(fromByteOffset: offset, as: UInt32.self) { return false }
                offset += 4
            }
        }
        return true
    }

    /// The bounding box of the pixels where `frame` and `previous` (both `width`×`height`,
    /// RGBA8) differ; nil when they are equal.
    static func changedRegion(_ frame: UnsafePointer<UInt8>, _ previous: UnsafePointer<UInt8>,
                              width: Int, height: Int) -> Region? {
        let rowBytes = width * 4
        func rowDiffers(_ y: Int) -> Bool { memcmp(frame + y * rowBytes, previous + y * rowBytes, rowBytes) != 0 }
        guard let top = (0..<height).first(where: rowDiffers) else { return nil }
        var bottom = height - 1
        while !rowDiffers(bottom) { bottom -= 1 }
        let a = UnsafeRawPointer(frame), b = UnsafeRawPointer(previous)
        func differs(_ x: Int, _ y: Int) -> Bool {
            let offset = (y * width + x) * 4
            return a.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                != b.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        }
        var left = width, right = -1
        for y in top...bottom where rowDiffers(y) {
            // Only columns outside the box found so far can widen it.
            var x = 0
            while x < left, !differs(x, y) { x += 1 }
            left = min(left, x)
            x = width - 1
            while x > right, !differs(x, y) { x -= 1 }
            right = max(right, x)
        }
        return Region(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    // MARK: - Delays

    /// Each frame's `delay_num/delay_den`.
    enum Delays: Equatable {
        /// Every frame lasts numerator/denominator seconds.
        case uniform(numerator: UInt16, denominator: UInt16)
        /// Frame i lasts `rate.units(upTo: i + 1) − rate.units(upTo: i)` units of 1/`unitsPerSecond` s.
        case accumulated(rate: FrameRate, unitsPerSecond: Int)

        init(rate: FrameRate, frameCount: Int) throws(ImageCodecError) {
            if let n = UInt16(exactly: rate.seconds), let d = UInt16(exactly: rate.frames) {
                self = .uniform(numerator: n, denominator: d)
                return
            }
            // Milliseconds, unless a frame is longer than 65.535 s (rates down to 0.001 fps).
            for units in [1000, 100, 10, 1] {
                let (product, overflow) = rate.seconds.multipliedReportingOverflow(by: units)
                guard !overflow else { continue }
                let longest = product / rate.frames + 2
                guard longest <= Int(UInt16.max) else { continue }
                // `units(upTo: frameCount)` computes 2·frameCount·seconds·units + frames.
                let (total, overflow2) = product.multipliedReportingOverflow(by: frameCount)
                guard !overflow2, total <= (Int.max - rate.frames) / 2 else { continue }
                self = .accumulated(rate: rate, unitsPerSecond: units)
                return
            }
            throw ImageCodecError(file: nil, reason: .malformed(
                "the frame rate \(rate) over \(frameCount) frames cannot be written as APNG delays"))
        }

        func delay(ofFrame index: Int) -> (numerator: UInt16, denominator: UInt16) {
            switch self {
            case let .uniform(n, d):
                return (n, d)
            case let .accumulated(rate, units):
                let length = rate.units(upTo: index + 1, unitsPerSecond: units) - rate.units(upTo: index, unitsPerSecond: units)
                return (UInt16(clamping: length), UInt16(units))
            }
        }
    }
}
