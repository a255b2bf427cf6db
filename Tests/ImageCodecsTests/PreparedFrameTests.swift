import ImageCodecs
import Raster
import TestSupport
import Testing

/// Frames prepared by several preparers, in an order other than the frames' (as the exporter's
/// workers do), give the same bytes as `append(_ frame:)` on one thread; a GIF encoder uses the
/// preparers' palette work wherever its assumptions hold; misuse is an error.
@Suite(.serialized)
struct PreparedFrameTests {
    static let rate = FrameRate(frames: 25, seconds: 1)!

    /// 12 frames of 80×48: a noisy gradient (thousands of colours: dithered, local tables)
    /// under a square moving 5 px a frame, frames 8–9 the same as frame 7; `transparent` clears
    /// the left half, so the square leaves transparent pixels behind (GIF disposal 2).
    static func frames(transparent: Bool) throws -> [Pixmap] {
        var random = SplitMix64(seed: 5)
        let noise = (0..<(80 * 48)).map { _ in Int(random.byte() % 7) }
        return try (0..<12).map { k in
            let p = try Pixmap(width: 80, height: 48)
            let t = min(k, 7)
            for y in 0..<48 {
                for x in 0..<80 {
                    if transparent && x < 40 && !(5 * t..<(5 * t + 12)).contains(x) { continue }
                    let inSquare = (5 * t..<(5 * t + 12)).contains(x) && (10..<22).contains(y)
                    let n = noise[y * 80 + x]
                    p.setPixel(x: x, y: y, inSquare ? PremultipliedColor(r: 250, g: 240, b: 30, a: 255)
                        : PremultipliedColor(r: UInt8(x * 3 + n), g: UInt8(y * 5 + n), b: UInt8(120 + t * 4), a: 255))
                }
            }
            return p
        }
    }

    /// Prepares frame 0, then the others two at a time in reverse pairs (2, 1, 4, 3, …), each
    /// with one of two preparers, and appends them in order.
    static func appendPrepared<E: PreparingAnimationEncoder>(_ frames: [Pixmap], to encoder: E) throws {
        let preparers = [try encoder.makePreparer(), try encoder.makePreparer()]
        let prepared = frames.map { _ in encoder.makePreparedFrame() }
        var order = [0]
        var k = 1
        while k < frames.count {
            order += k + 1 < frames.count ? [k + 1, k] : [k]
            k += 2
        }
        for (n, i) in order.enumerated() {
            try preparers[n % 2].prepare(frames[i], previous: i > 0 ? frames[i - 1] : nil, isLast: i == frames.count - 1,
                                         into: prepared[i])
        }
        for p in prepared { try encoder.append(p) }
        try encoder.finish()
    }

    /// Every table strategy and dithering mode once; the transparent animation has a disposal
    /// to background after every frame, so its frames are quantized again by the encoder (the
    /// preparation assumed disposal 1) — with the same bytes.
    @Test(arguments: [(false, GIFPaletteStrategy.automatic, GIFDithering.ordered), (false, .global, .diffusion),
                      (false, .perFrame, .none), (true, .automatic, .ordered)])
    func preparedGIFIsTheSameAsAppendedFrames(transparent: Bool, palette: GIFPaletteStrategy, dithering: GIFDithering) throws {
        let frames = try Self.frames(transparent: transparent)
        let options = GIFOptions(dithering: dithering, palette: palette)
        let plainSink = MemorySink(), preparedSink = MemorySink()
        let plain = try GIFEncoder(sink: plainSink, width: 80, height: 48, rate: Self.rate, options: options)
        for frame in frames { try plain.append(frame) }
        try plain.finish()
        let prepared = try GIFEncoder(sink: preparedSink, width: 80, height: 48, rate: Self.rate, options: options)
        try Self.appendPrepared(frames, to: prepared)
        #expect(preparedSink.bytes == plainSink.bytes)
        #expect(plain.statistics.preparedFramesUsed == 0)
        // Frames 8–11 are merged into frame 7: 8 frames written.
        #expect(prepared.statistics.framesWritten == 8)
        #expect(prepared.statistics.preparedFramesUsed == (transparent ? 0 : 8))
    }

    @Test(arguments: [false, true])
    func preparedAPNGIsTheSameAsAppendedFrames(transparent: Bool) throws {
        let frames = try Self.frames(transparent: transparent)
        let plainSink = MemorySink(), preparedSink = MemorySink()
        let plain = try APNGEncoder(sink: plainSink, width: 80, height: 48, frameCount: frames.count, rate: Self.rate)
        for frame in frames { try plain.append(frame) }
        try plain.finish()
        let prepared = try APNGEncoder(sink: preparedSink, width: 80, height: 48, frameCount: frames.count, rate: Self.rate)
        try Self.appendPrepared(frames, to: prepared)
        #expect(preparedSink.bytes == plainSink.bytes)
    }

    @Test func misuseIsAnError() throws {
        let frames = try Self.frames(transparent: false)
        let apng = try APNGEncoder(sink: MemorySink(), width: 80, height: 48, frameCount: 2, rate: Self.rate)
        let later = apng.makePreparedFrame()
        try apng.makePreparer().prepare(frames[1], previous: frames[0], isLast: true, into: later)
        #expect(throws: ImageCodecError.self) { try apng.append(later) }  // not frame 0
        let gif = try GIFEncoder(sink: MemorySink(), width: 80, height: 48, rate: Self.rate)
        let early = gif.makePreparedFrame()
        do {
            try gif.makePreparer().prepare(frames[1], previous: frames[0], isLast: false, into: early)
            Issue.record("frame 1 prepared before frame 0")
        } catch {
            guard case .misuse = error.reason else { Issue.record("unexpected \(error)"); return }
        }
        let small = try GIFEncoder(sink: MemorySink(), width: 8, height: 8, rate: Self.rate)
        #expect(throws: ImageCodecError.self) { try gif.append(small.makePreparedFrame()) }
    }
}
