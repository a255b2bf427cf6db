#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Raster

/// An animated GIF (GIF89a) encoder fed one frame at a time, with its own colour quantizer and
/// LZW coder.
///
/// ```swift
/// let file = try OutputFile(path: "out.gif")
/// let gif = try GIFEncoder(sink: file, width: 320, height: 200, rate: FrameRate(frames: 30, seconds: 1)!)
/// for frame in frames { try gif.append(frame) }   // premultiplied RGBA8 Pixmaps
/// try gif.finish()
/// try file.commit()
/// ```
///
/// Design (see also `GIFFrameCoder`, `GIFQuantizer`, `GIFLZWEncoder`):
///
/// * **Frame differencing.** Frame 0 covers the canvas; every later frame codes only the
///   bounding rectangle of the pixels whose source colour changed, and inside it the pixels that
///   did not change are the transparent index (kept; LZW compresses their runs to almost
///   nothing). Disposal is 1 (do not dispose) while frames build on each other; a frame is
///   given disposal 2 (restore to background = transparent) when the next frame is transparent
///   where it is opaque, its rectangle grown to cover those pixels.
/// * **Palettes** per `GIFPaletteStrategy`; the `.automatic` rule keeps the global table while
///   its measured squared error over a frame's changed pixels stays within 0.5 dB (+ 1 level²
///   per pixel) of a table made for that frame, else the frame gets a local table.
/// * **Delays.** Source frame i lasts `rate.units(upTo: i + 1, unitsPerSecond: 100) −
///   rate.units(upTo: i, …)` centiseconds, so the delays add up to the exact duration (30 fps
///   gives 3, 4, 3, 3, 4, 3 … cs). A frame identical to the one before (after alpha handling)
///   is merged into it: the written frame's delay is the sum. Browsers show delays of 0–1 cs as
///   10 cs, so no written frame gets less than 2 cs: above 50 fps the animation is sampled at
///   steps of at least 2 cs — each written frame shows the source frame on screen at its start
///   (a frame starting in the same centisecond as the pending one replaces it; one starting
///   1 cs later is skipped, its time going to the frame on screen), and a last frame that
///   would get less than 2 cs is dropped, its time going to the one before. The total stays
///   exact. (A lone frame keeps its exact delay, even under 2 cs.) Delays over 65 535 cs are
///   continued by empty frames of at least 2 cs.
/// * **Latency and memory.** Each frame is coded when the next distinct frame arrives (its
///   disposal depends on it) and written to the sink when the frame after that is coded (its
///   delay may still grow); `finish()` writes the rest and the trailer. Memory, allocated
///   once: 19 bytes per canvas pixel (two prepared frames, the viewer model, the indices)
///   plus about 11 MB of tables (histogram, colour-search caches, LZW), and 9 MB more for
///   frames with over 32 768 colours. Each preparer holds the same tables and a frame of
///   words (4 bytes per pixel); each prepared frame 5 bytes per pixel.
///
/// * **Threads.** `append(_ frame:)` does everything on the calling thread. For several
///   threads, each has a `GIFFramePreparer` (`makePreparer()`) that does a frame's conversion,
///   histogram, table choice and dithered mapping (`GIFPreparedFrame`); `append(_ prepared:)`
///   then does, in order, what depends on the frames before: merging identical frames and
///   skipping under 2 cs, the disposal (which needs the next frame), the check against the
///   colours displayed (a changed pixel whose colour is already shown becomes transparent),
///   LZW, and writing — and the palette work itself for the frames whose preparation did not
///   assume what the canvas held (after a disposal to background, a skipped frame, or a
///   replaced first frame). The bytes are the same either way.
///
/// The encoder itself is not thread-safe: one thread appends the frames, in order.
///
/// Errors are `ImageCodecError`s: a bad size or loop count (from `init`), a frame of the
/// wrong size (refused; the encoder stays usable), use after `finish()`, `finish()` without a
/// frame, and whatever the sink throws — after which the encoder refuses further work.
public final class GIFEncoder {
    /// Largest side GIF can describe.
    public static let maxDimension = 65_535

    public let width: Int
    public let height: Int
    public let rate: FrameRate
    public let options: GIFOptions

    private let sink: ByteSink
    private let coder: GIFFrameCoder
    private let lzw = GIFLZWEncoder()
    /// The frame waiting to be coded and the one just appended.
    private var pending: GIFPreparedFrame
    private var incoming: GIFPreparedFrame
    /// Whether the canvas model holds the source words of the frame before `pending` (so the
    /// palette work of its preparation holds), and whether the last frame appended has the
    /// words of `pending` (so the model will hold them once `pending` is coded).
    private var pendingPreparationHolds = true
    private var lastAppendedEqualsPending = true
    /// Frame 0's global table for the preparers of later frames.
    let sharedPalette = GIFSharedPalette()
    /// Centiseconds from the animation's start to the pending frame's start.
    private var pendingStart = 0
    private var appended = 0
    private let maxFrames: Int
    private var held: HeldFrame?
    private var spare = ByteBuffer()
    private var headerWritten = false
    private var state = State.open

    private enum State { case open, finished, failed(ImageCodecError) }

    /// A coded frame not yet written: its delay may still grow.
    private struct HeldFrame {
        var bytes: ByteBuffer
        var delay: Int
        var disposal: UInt8
        var rect: GIFRect
    }

    /// Counts of what was written so far (for tests and tuning).
    public struct Statistics: Sendable, Equatable {
        /// Frames written (after merging and skipping; filler frames included).
        public var framesWritten = 0
        /// Frames that carry a local colour table.
        public var localTables = 0
        /// Source frames merged into the previous one because they were identical.
        public var identicalFramesMerged = 0
        /// Source frames skipped because they began under 2 cs after the frame on screen.
        public var framesSkipped = 0
        /// Frames coded with the palette work of their preparation (`append(_ prepared:)`),
        /// not quantized again by the encoder.
        public var preparedFramesUsed = 0
    }

    public private(set) var statistics = Statistics()

    /// Starts an animation of `width`×`height` pixels (each 1…65 535, and within Raster's
    /// `Pixmap` limits) at `rate`, written to `sink`. Nothing is written until frames arrive.
    public init(sink: ByteSink, width: Int, height: Int, rate: FrameRate, options: GIFOptions = GIFOptions()) throws(ImageCodecError) {
        guard width > 0, height > 0 else {
            throw ImageCodecError(file: nil, reason: .invalidSize(width: width, height: height,
                                                               reason: "a GIF needs at least one pixel on each side"))
        }
        guard width <= Self.maxDimension, height <= Self.maxDimension else {
            throw ImageCodecError(file: nil, reason: .invalidSize(width: width, height: height,
                                                               reason: "a GIF side is at most \(Self.maxDimension) pixels"))
        }
        do { try Pixmap.validate(width: width, height: height) } catch {
            throw ImageCodecError(file: nil, reason: .invalidSize(width: width, height: height, reason: error.description))
        }
        if let loop = options.loopCount, !(0...65_535).contains(loop) {
            throw ImageCodecError(file: nil, reason: .malformed("GIF loop count \(loop) is outside 0…65535"))
        }
        self.sink = sink
        self.width = width
        self.height = height
        self.rate = rate
        self.options = options
        coder = GIFFrameCoder(width: width, height: height, options: options)
        pending = GIFPreparedFrame(width: width, height: height)
        incoming = GIFPreparedFrame(width: width, height: height)
        // rate.units(upTo: i) computes 2·i·seconds·100 + frames: keep it within Int.
        let perFrame = rate.seconds.multipliedReportingOverflow(by: 200)
        maxFrames = perFrame.overflow ? 0 : (Int.max - rate.frames) / max(perFrame.partialValue, 1) - 1
    }

    /// Adds the next frame (premultiplied RGBA8, `width`×`height`), coding it on this thread.
    public func append(_ frame: Pixmap) throws(ImageCodecError) {
        try checkOpen("append a frame")
        guard frame.width == width, frame.height == height else {
            throw ImageCodecError(file: nil, reason: .invalidSize(
                width: frame.width, height: frame.height,
                reason: "frame \(appended) is \(frame.width)×\(frame.height) but the GIF is \(width)×\(height)"))
        }
        try checkCount()
        incoming.hasTransparency = GIFFrameCoder.convert(frame, alpha: options.alpha, into: incoming.words)
        incoming.quantization = nil
        try appendIncoming()
    }

    /// Adds the next frame, prepared (on any thread) by a preparer of this encoder from the
    /// frame and the one before it. The bytes are those `append(_ frame:)` writes; the palette
    /// work is not done again where the preparation's assumptions hold (see `GIFPreparedFrame`).
    /// Takes the prepared frame's storage and leaves it other storage to prepare into again.
    public func append(_ prepared: GIFPreparedFrame) throws(ImageCodecError) {
        try checkOpen("append a frame")
        guard prepared.width == width, prepared.height == height else {
            throw ImageCodecError(file: nil, reason: .misuse(
                "a frame prepared for a \(prepared.width)×\(prepared.height) GIF appended to a \(width)×\(height) one"))
        }
        try checkCount()
        incoming.exchange(with: prepared)
        try appendIncoming()
    }

    private func checkCount() throws(ImageCodecError) {
        guard appended < maxFrames else {
            throw ImageCodecError(file: nil, reason: .malformed("too many frames for a GIF at \(rate)"))
        }
    }

    /// Merges, skips or codes what is pending now that `incoming` has arrived.
    private func appendIncoming() throws(ImageCodecError) {
        do throws(ImageCodecError) {
            let index = appended
            if index == 0 {
                swap(&pending, &incoming)
                pendingStart = 0
            } else {
                let start = rate.units(upTo: index, unitsPerSecond: 100)
                if memcmp(pending.words, incoming.words, width * height * 4) == 0 {
                    statistics.identicalFramesMerged += 1
                    lastAppendedEqualsPending = true
                } else if start == pendingStart {
                    // The pending frame would last 0 cs: this one is on screen at its start.
                    swap(&pending, &incoming)
                    pendingPreparationHolds = false
                    lastAppendedEqualsPending = true
                    statistics.framesSkipped += 1
                } else if start - pendingStart < 2 {
                    lastAppendedEqualsPending = false
                    statistics.framesSkipped += 1
                } else {
                    let disposal = try code(delay: start - pendingStart, next: incoming)
                    pendingPreparationHolds = lastAppendedEqualsPending && disposal == 1
                    lastAppendedEqualsPending = true
                    swap(&pending, &incoming)
                    pendingStart = start
                }
            }
            appended += 1
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// Writes the frames still held and the trailer. The sink is then complete (commit an
    /// `OutputFile` afterwards). Needs at least one frame.
    public func finish() throws(ImageCodecError) {
        try checkOpen("finish")
        guard appended > 0 else {
            throw ImageCodecError(file: nil, reason: .malformed("a GIF needs at least one frame; none was appended"))
        }
        do throws(ImageCodecError) {
            let last = rate.units(upTo: appended, unitsPerSecond: 100) - pendingStart
            if last < 2, var previous = held {
                // Under 2 cs the last frame would be shown for 10: its time goes to the one before.
                previous.delay += last
                held = previous
                statistics.framesSkipped += 1
            } else {
                _ = try code(delay: last, next: nil)
            }
            if let previous = held { try write(previous) }
            held = nil
            try sink.write([0x3B])
            state = .finished
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private func checkOpen(_ what: String) throws(ImageCodecError) {
        switch state {
        case .open: return
        case .finished:
            throw ImageCodecError(file: nil, reason: .malformed("cannot \(what): the GIF was already finished"))
        case let .failed(error):
            throw ImageCodecError(file: error.file, reason: .malformed("cannot \(what) after an earlier error: \(error)"))
        }
    }

    // MARK: - Container

    /// Codes the pending frame, writes the previously held one, holds this one; returns the
    /// pending frame's disposal.
    private func code(delay: Int, next: GIFPreparedFrame?) throws(ImageCodecError) -> UInt8 {
        let before = coder.preparedFramesUsed
        let frame = coder.code(pending.words, next: next?.words, nextHasTransparency: next?.hasTransparency ?? false,
                               ahead: pendingPreparationHolds ? pending : nil)
        statistics.preparedFramesUsed += coder.preparedFramesUsed - before
        if !headerWritten {
            try writeHeader()
            headerWritten = true
        }
        let bytes = spare
        bytes.removeAll()
        append(frame, delay: 0, to: bytes)
        if let previous = held {
            try write(previous)
            spare = previous.bytes
        } else {
            spare = ByteBuffer()
        }
        held = HeldFrame(bytes: bytes, delay: delay, disposal: frame.disposal, rect: frame.rect)
        if frame.localPalette != nil { statistics.localTables += 1 }
        return frame.disposal
    }

    /// "GIF89a", the logical screen descriptor, the global table, the loop extension.
    private func writeHeader() throws(ImageCodecError) {
        let out = ByteBuffer(capacity: 1024)
        out.append(Array("GIF89a".utf8))
        out.appendUInt16(width)
        out.appendUInt16(height)
        if let global = coder.globalPalette {
            let size = GIFFrameCoder.tableSize(global.count)
            out.append(0xF0 | Self.sizeField(size))  // global table, 8-bit colour resolution
            out.append(0)  // background: index 0 (viewers show disposal 2 as transparent)
            out.append(0)  // no aspect ratio
            Self.appendTable(global, size: size, to: out)
        } else {
            out.append(0x70)
            out.append(0)
            out.append(0)
        }
        if let loop = options.loopCount {
            out.append([0x21, 0xFF, 0x0B])
            out.append(Array("NETSCAPE2.0".utf8))
            out.append([0x03, 0x01])
            out.appendUInt16(loop)
            out.append(0)
        }
        try out.write(to: sink)
    }

    /// Graphic control extension, image descriptor, local table, image data.
    private func append(_ frame: GIFCodedFrame, delay: Int, to out: ByteBuffer) {
        out.append([0x21, 0xF9, 0x04])
        out.append(frame.disposal << 2 | (frame.transparentIndex != nil ? 1 : 0))
        out.appendUInt16(delay)
        out.append(UInt8(truncatingIfNeeded: frame.transparentIndex ?? 0))
        out.append(0)
        out.append(0x2C)
        out.appendUInt16(frame.rect.x)
        out.appendUInt16(frame.rect.y)
        out.appendUInt16(frame.rect.width)
        out.appendUInt16(frame.rect.height)
        if let local = frame.localPalette {
            out.append(0x80 | Self.sizeField(frame.tableSize))
            Self.appendTable(local, size: frame.tableSize, to: out)
        } else {
            out.append(0)
        }
        var bits = 2
        while 1 << bits < frame.tableSize { bits += 1 }
        lzw.encode(frame.indices, minimumCodeSize: bits, into: out)
    }

    /// Offsets of the disposal byte and the delay in a frame's bytes.
    private static let disposalOffset = 3, delayOffset = 4

    /// Writes a held frame with its final delay; a delay over 65 535 cs is continued by empty
    /// frames (the last of which takes over the frame's disposal).
    private func write(_ frame: HeldFrame) throws(ImageCodecError) {
        var remaining = frame.delay
        var first = min(remaining, 65_535)
        if remaining - first == 1 { first -= 1 }  // no 1 cs continuation
        remaining -= first
        let bytes = frame.bytes
        bytes.set(UInt8(truncatingIfNeeded: first), at: Self.delayOffset)
        bytes.set(UInt8(truncatingIfNeeded: first >> 8), at: Self.delayOffset + 1)
        let flags = bytes.bytes[Self.disposalOffset] & 1
        bytes.set(flags | (remaining > 0 ? 1 : frame.disposal) << 2, at: Self.disposalOffset)
        try bytes.write(to: sink)
        statistics.framesWritten += 1
        while remaining > 0 {
            var chunk = min(remaining, 65_535)
            if remaining - chunk == 1 { chunk -= 2 }
            remaining -= chunk
            let last = remaining == 0
            let rect = last && frame.disposal == 2 ? frame.rect : GIFRect(x: 0, y: 0, width: 1, height: 1)
            let filler = coder.filler(rect, disposal: last ? frame.disposal : 1, updatingModel: false)
            let out = ByteBuffer(capacity: 256)
            append(filler, delay: chunk, to: out)
            try out.write(to: sink)
            statistics.framesWritten += 1
        }
    }

    /// The 3-bit size field of a table of `size` entries (2^(field + 1)).
    private static func sizeField(_ size: Int) -> UInt8 {
        var field: UInt8 = 0
        while 2 << Int(field) < size { field += 1 }
        return field
    }

    /// `colors` (opaque words; the transparent entry is written black), padded to `size`.
    private static func appendTable(_ colors: [UInt32], size: Int, to out: ByteBuffer) {
        out.reserve(3 * size)
        for i in 0..<size {
            let c = i < colors.count ? colors[i] : 0
            out.append(UInt8(truncatingIfNeeded: c))
            out.append(UInt8(truncatingIfNeeded: c >> 8))
            out.append(UInt8(truncatingIfNeeded: c >> 16))
        }
    }
}
