import Foundation
@testable import ImageCodecs
import Raster
import TestSupport
import Testing

/// APNG output, read back by Pillow (an independent decoder that composites each frame as a
/// viewer shows it) and by libpng (which sees the default image, frame 0), with the chunk
/// fields checked against the APNG specification.
struct APNGEncoderTests {
    // MARK: - Round trips

    /// Five frames with translucent and transparent pixels, a frame equal to the one before and a
    /// one-pixel change: Pillow decodes exactly the source frames (straight alpha, c·255/a
    /// rounded), each lasting 1/30 s, with the loop count; libpng shows frame 0; the identical
    /// frame is a 1×1 fcTL; sequence numbers run 0, 1, 2, … over fcTL and fdAT.
    @Test func framesDecodeExactlyInPillow() throws {
        let (w, h) = (48, 32)
        var frames: [Pixmap] = []
        frames.append(try Self.frame(w, h) { x, y in (UInt8(x * 5), UInt8(y * 8), 90, UInt8((x * 9 + y * 3) % 256)) })
        frames.append(try Self.copy(frames[0]) { x, y, p in
            (10..<30).contains(x) && (5..<20).contains(y) ? (250, 40, UInt8(x * 8), 77) : p
        })
        frames.append(try Self.copy(frames[1]) { _, _, p in p })
        frames.append(try Self.copy(frames[2]) { x, y, p in x == w - 1 && y == h - 1 ? (1, 2, 3, 4) : p })
        frames.append(try Pixmap(width: w, height: h))
        let path = try TemporaryFolder.make() + "/five.png"
        let file = try OutputFile(path: path)
        let encoder = try APNGEncoder(sink: file, width: w, height: h, frameCount: 5, rate: FrameRate(frames: 30, seconds: 1)!,
                                      options: APNGOptions(loopCount: 3))
        for frame in frames { try encoder.append(frame) }
        try encoder.finish()
        try file.commit()

        let decoded = try PillowDecoder.decode(path)
        #expect(decoded.format == "PNG")
        #expect(decoded.loop == 3)
        #expect(decoded.frames.count == 5)
        for (i, frame) in decoded.frames.enumerated() where i < frames.count {
            #expect(frame.width == w && frame.height == h)
            #expect(PNGStreamReference.mismatches(frame.rgba, PNGStreamReference.straightBytes(of: frames[i])) == 0, "frame \(i)")
            #expect(PNGStreamReference.mismatches(Self.premultiplied(frame.rgba), Array(UnsafeBufferPointer(start: frames[i].pixels, count: w * h * 4))) == 0,
                    "frame \(i) premultiplied back")
            #expect(abs(frame.duration - 1000.0 / 30) < 1e-9, "frame \(i): \(frame.duration) ms")
        }
        #expect(PNGStreamReference.samePixels(try PNGCodec.decode(contentsOf: path), frames[0]))

        let chunks = try PNGChunkList(try TemporaryFolder.read(path)).chunks
        #expect(chunks.first { $0.type == "acTL" }?.data == [0, 0, 0, 5, 0, 0, 0, 3])
        let controls = chunks.filter { $0.type == "fcTL" }.map(FrameControl.init)
        #expect(controls.count == 5)
        #expect(controls.first.map { [$0.width, $0.height, $0.x, $0.y] } == [w, h, 0, 0])
        #expect(controls.allSatisfy { $0.delayNumerator == 1 && $0.delayDenominator == 30 && $0.dispose == 0 && $0.blend == 0 })
        #expect(controls.count == 5 && [controls[1].x, controls[1].y, controls[1].width, controls[1].height] == [10, 5, 20, 15])
        #expect(controls.count == 5 && [controls[2].x, controls[2].y, controls[2].width, controls[2].height] == [0, 0, 1, 1])
        #expect(controls.count == 5 && [controls[3].x, controls[3].y, controls[3].width, controls[3].height] == [w - 1, h - 1, 1, 1])
        let sequenced = chunks.filter { $0.type == "fcTL" || $0.type == "fdAT" }.map { Int(PNGChunkList.bigEndian($0.data, 0)) }
        #expect(sequenced == Array(0..<sequenced.count))
        let order = chunks.map(\.type)
        #expect(Array(order.prefix(4)) == ["IHDR", "acTL", "sRGB", "fcTL"] && order.last == "IEND")
        #expect(order.firstIndex(of: "IDAT")! < order.firstIndex(of: "fdAT")!)
    }

    /// NTSC 29.97 fps is 30000/1001: every frame's delay is exactly 1001/30000 s (Pillow:
    /// 33.3667 ms).
    @Test func ntscDelaysAreExactFractions() throws {
        let sink = MemorySink()
        let encoder = try APNGEncoder(sink: sink, width: 4, height: 3, frameCount: 3, rate: FrameRate(29.97)!)
        for i in 0..<3 { try encoder.append(try Self.frame(4, 3) { x, _ in (UInt8(x * 60 + i), 0, 0, 255) }) }
        try encoder.finish()
        let controls = try PNGChunkList(sink.bytes).chunks.filter { $0.type == "fcTL" }.map(FrameControl.init)
        #expect(controls.map { [$0.delayNumerator, $0.delayDenominator] } == Array(repeating: [1001, 30000], count: 3))
        let path = try TemporaryFolder.make() + "/ntsc.png"
        try TemporaryFolder.write(sink.bytes, to: path)
        let decoded = try PillowDecoder.decode(path)
        #expect(decoded.frames.count == 3)
        #expect(decoded.frames.allSatisfy { abs($0.duration - 1001.0 / 30) < 1e-9 })
        #expect(decoded.loop == 0)
    }

    /// A rate whose fraction does not fit in 16 bits (100000 frames per 3001 s, 30.01 ms a
    /// frame) gets per-frame millisecond delays whose running sum is round(i·30.01) ms for
    /// every i: the average rate stays exact.
    @Test func accumulatedMillisecondDelays() throws {
        let rate = try #require(FrameRate(frames: 100_000, seconds: 3001))
        let sink = MemorySink()
        let encoder = try APNGEncoder(sink: sink, width: 2, height: 2, frameCount: 40, rate: rate)
        for i in 0..<40 { try encoder.append(try Self.frame(2, 2) { _, _ in (UInt8(i), 0, 0, 255) }) }
        try encoder.finish()
        let controls = try PNGChunkList(sink.bytes).chunks.filter { $0.type == "fcTL" }.map(FrameControl.init)
        #expect(controls.count == 40 && controls.allSatisfy { $0.delayDenominator == 1000 })
        var sum = 0
        for (i, control) in controls.enumerated() {
            sum += control.delayNumerator
            #expect(sum == Int((Double(i + 1) * 30.01).rounded()), "after frame \(i)")
        }
    }

    @Test func delayUnitsFitSixteenBits() throws {
        #expect(try APNGEncoder.Delays(rate: FrameRate(frames: 1, seconds: 1000)!, frameCount: 5) == .uniform(numerator: 1000, denominator: 1))
        #expect(try APNGEncoder.Delays(rate: FrameRate(frames: 24000, seconds: 1001)!, frameCount: 5) == .uniform(numerator: 1001, denominator: 24000))
        // 65537 s per 66 frames (993 s a frame): milliseconds and centiseconds overflow 16 bits.
        let slow = FrameRate(frames: 66, seconds: 65537)!
        let delays = try APNGEncoder.Delays(rate: slow, frameCount: 100)
        #expect(delays == .accumulated(rate: slow, unitsPerSecond: 10))
        #expect(delays.delay(ofFrame: 0) == (9930, 10))
    }

    // MARK: - Changed rectangles

    /// A 12×12 square moving 5 px a frame over a static 160×112 noisy background: after frame 0 each
    /// frame codes only the box covering the square's old and new places (17×12), the file is
    /// a small fraction of the frames coded in full (n times the first frame as a still), and
    /// Pillow decodes every frame exactly.
    @Test func movingSquareCodesOnlyTheChangedBox() throws {
        let (w, h, n) = (160, 112, 8)
        var random = SplitMix64(seed: 5)
        let background = try Self.frame(w, h) { x, y in (UInt8(x * 255 / w), random.byte(), UInt8((x + y) % 256), 255) }
        var frames: [Pixmap] = []
        for i in 0..<n {
            frames.append(try Self.copy(background) { x, y, p in
                (40 + 5 * i..<52 + 5 * i).contains(x) && (100..<112).contains(y) ? (255, 255, 0, 200) : p
            })
        }
        let path = try TemporaryFolder.make() + "/square.png"
        let file = try OutputFile(path: path)
        let encoder = try APNGEncoder(sink: file, width: w, height: h, frameCount: n, rate: FrameRate(frames: 60, seconds: 1)!)
        for frame in frames { try encoder.append(frame) }
        try encoder.finish()
        try file.commit()
        let bytes = try TemporaryFolder.read(path)
        let controls = try PNGChunkList(bytes).chunks.filter { $0.type == "fcTL" }.map(FrameControl.init)
        #expect(controls.dropFirst().allSatisfy { $0.width == 17 && $0.height == 12 && $0.y == 100 })
        let fullFrames = n * (try PNGCodec.encode(frames[0], pixelsPerPoint: 1)).count
        #expect(bytes.count * 5 < fullFrames, "\(bytes.count) bytes against \(fullFrames) for full frames")
        let decoded = try PillowDecoder.decode(path)
        #expect(decoded.frames.count == n)
        for (i, frame) in decoded.frames.enumerated() where i < n {
            #expect(PNGStreamReference.mismatches(frame.rgba, PNGStreamReference.straightBytes(of: frames[i])) == 0, "frame \(i)")
        }
    }

    /// Each of the four encodings (unfiltered or minimum-sum rows; unchanged pixels cleared for
    /// blend OVER or not) decodes exactly in Pillow. The frames move an opaque square over an
    /// opaque background (OVER is exact), add translucent pixels onto transparent ones and change
    /// a translucent pixel (OVER is not used for translucent pixels: those frames are SOURCE
    /// whatever the setting), and repeat a frame (a 1×1 frame, cleared: nothing drawn).
    @Test func everyEncodingDecodesExactly() throws {
        let (w, h) = (64, 40)
        var frames: [Pixmap] = []
        let background = try Self.frame(w, h) { x, y in x < 40 ? (UInt8(x * 6), UInt8(y * 6), 120, 255) : (0, 0, 0, 0) }
        frames.append(background)
        frames.append(try Self.copy(background) { x, y, p in (5..<13).contains(x) && (5..<13).contains(y) ? (250, 250, 250, 255) : p })
        frames.append(try Self.copy(frames[1]) { x, y, p in
            (9..<17).contains(x) && (5..<13).contains(y) ? (250, 250, 250, 255) : (5..<9).contains(x) && (5..<13).contains(y) ? Self.straight(background, x, y) : p
        })
        frames.append(try Self.copy(frames[2]) { x, y, p in (44..<60).contains(x) && (20..<30).contains(y) ? (30, 200, 90, UInt8(x * 4)) : p })
        frames.append(try Self.copy(frames[3]) { x, y, p in x == 50 && y == 25 ? (200, 10, 10, 99) : p })
        frames.append(try Self.copy(frames[4]) { _, _, p in p })
        for filtering in PNGStreamWriter.RowFiltering.allCases {
            for clearing in [false, true] {
                let sink = MemorySink()
                let encoder = try APNGEncoder(sink: sink, width: w, height: h, frameCount: frames.count, rate: FrameRate(frames: 12, seconds: 1)!)
                encoder.fixedEncoding = .init(filtering: filtering, clearsUnchanged: clearing)
                for frame in frames { try encoder.append(frame) }
                try encoder.finish()
                let chunks = try PNGChunkList(sink.bytes).chunks
                let blends = chunks.filter { $0.type == "fcTL" }.map { FrameControl($0).blend }
                #expect(blends == (clearing ? [0, 1, 1, 0, 0, 1] : [0, 0, 0, 0, 0, 0]), "\(filtering), clearing \(clearing)")
                let decoded = try PillowDecoder.decode(Self.save(sink.bytes))
                #expect(decoded.frames.count == frames.count)
                for (i, frame) in decoded.frames.enumerated() where i < frames.count {
                    let wrong = PNGStreamReference.mismatches(frame.rgba, PNGStreamReference.straightBytes(of: frames[i]))
                    #expect(wrong == 0, "\(filtering), clearing \(clearing), frame \(i)")
                }
            }
        }
    }

    /// The bounding box of differences, including when the leftmost and rightmost changes lie
    /// on different rows from the top and bottom ones; nil for equal frames.
    @Test func changedRegionIsTheBoundingBox() throws {
        let a = try Pixmap(width: 10, height: 8), b = try Pixmap(width: 10, height: 8)
        #expect(APNGEncoder.changedRegion(a.pixels, b.pixels, width: 10, height: 8) == nil)
        b.setPixel(x: 5, y: 2, PremultipliedColor(r: 1, g: 0, b: 0, a: 1))
        #expect(APNGEncoder.changedRegion(a.pixels, b.pixels, width: 10, height: 8) == .init(x: 5, y: 2, width: 1, height: 1))
        b.setPixel(x: 7, y: 3, PremultipliedColor(r: 0, g: 0, b: 0, a: 9))
        b.setPixel(x: 2, y: 4, PremultipliedColor(r: 0, g: 3, b: 0, a: 9))
        b.setPixel(x: 6, y: 6, PremultipliedColor(r: 0, g: 0, b: 3, a: 9))
        #expect(APNGEncoder.changedRegion(a.pixels, b.pixels, width: 10, height: 8) == .init(x: 2, y: 2, width: 6, height: 5))
        b.setPixel(x: 9, y: 7, PremultipliedColor(r: 0, g: 0, b: 0, a: 1))
        b.setPixel(x: 0, y: 0, PremultipliedColor(r: 0, g: 0, b: 0, a: 1))
        #expect(APNGEncoder.changedRegion(a.pixels, b.pixels, width: 10, height: 8) == .init(x: 0, y: 0, width: 10, height: 8))
    }

    // MARK: - Errors

    @Test func badInputIsAnError() throws {
        let rate = FrameRate(frames: 30, seconds: 1)!
        func reason(_ body: () throws -> Void) -> ImageCodecError.Reason? {
            do { try body(); return nil } catch { return (error as? ImageCodecError)?.reason }
        }
        func isSize(_ r: ImageCodecError.Reason?) -> Bool { if case .invalidSize = r { return true }; return false }
        func isMalformed(_ r: ImageCodecError.Reason?, _ text: String) -> Bool {
            if case let .malformed(message) = r { return message.contains(text) }
            return false
        }
        #expect(isSize(reason { _ = try APNGEncoder(sink: MemorySink(), width: 0, height: 5, frameCount: 1, rate: rate) }))
        #expect(isSize(reason { _ = try APNGEncoder(sink: MemorySink(), width: 5, height: -1, frameCount: 1, rate: rate) }))
        #expect(isSize(reason { _ = try APNGEncoder(sink: MemorySink(), width: 40_000, height: 5, frameCount: 1, rate: rate) }))
        #expect(isSize(reason { _ = try APNGEncoder(sink: MemorySink(), width: 30_000, height: 30_000, frameCount: 1, rate: rate) }))
        #expect(isSize(reason { _ = try APNGEncoder(sink: MemorySink(), width: Int.max, height: Int.max, frameCount: 1, rate: rate) }))
        #expect(isMalformed(reason { _ = try APNGEncoder(sink: MemorySink(), width: 5, height: 5, frameCount: 0, rate: rate) }, "frame count"))
        #expect(isMalformed(reason { _ = try APNGEncoder(sink: MemorySink(), width: 5, height: 5, frameCount: -3, rate: rate) }, "frame count"))
        #expect(isMalformed(reason { _ = try APNGEncoder(sink: MemorySink(), width: 5, height: 5, frameCount: Int.max, rate: rate) }, "frame count"))
        #expect(isMalformed(reason { _ = try APNGEncoder(sink: MemorySink(), width: 5, height: 5, frameCount: 2, rate: rate,
                                                          options: APNGOptions(loopCount: -1)) }, "loop count"))
        #expect(isMalformed(reason { _ = try APNGEncoder(sink: MemorySink(), width: 5, height: 5, frameCount: 2, rate: rate,
                                                          options: APNGOptions(compressionLevel: 10)) }, "compression level"))
        #expect(isMalformed(reason { _ = try APNGEncoder(sink: MemorySink(), width: 5, height: 5, frameCount: 2, rate: rate,
                                                          options: APNGOptions(pixelsPerPoint: -2)) }, "pixels per point"))

        let sink = MemorySink()
        let encoder = try APNGEncoder(sink: sink, width: 5, height: 4, frameCount: 2, rate: rate)
        let wrong = try Pixmap(width: 4, height: 5), right = try Pixmap(width: 5, height: 4)
        #expect(isSize(reason { try encoder.append(wrong) }))
        #expect(isMalformed(reason { try encoder.finish() }, "too few frames: 0 appended"))
        try encoder.append(right)
        #expect(isMalformed(reason { try encoder.finish() }, "too few frames: 1 appended"))
        try encoder.append(right)
        #expect(isMalformed(reason { try encoder.append(right) }, "too many frames"))
        try encoder.finish()
        #expect(isMalformed(reason { try encoder.append(right) }, "already finished"))
        #expect(isMalformed(reason { try encoder.finish() }, "already finished"))
        #expect(try PillowDecoder.decode(Self.save(sink.bytes)).frames.count == 2)
    }

    /// A sink that refuses (disk full) fails the frame being written and every later call; one
    /// that refuses the header fails the initializer.
    @Test func sinkFailureStopsTheEncoder() throws {
        for limit in [0, 20, 60] {
            #expect(throws: ImageCodecError(file: nil, reason: .fileSystem("disk full"))) {
                _ = try APNGEncoder(sink: RefusingSink(limit: limit), width: 8, height: 8, frameCount: 2,
                                    rate: FrameRate(frames: 10, seconds: 1)!, options: APNGOptions(pixelsPerPoint: 2))
            }
        }
        let sink = RefusingSink(limit: 200)
        let encoder = try APNGEncoder(sink: sink, width: 64, height: 64, frameCount: 3, rate: FrameRate(frames: 10, seconds: 1)!)
        let noise = try Self.frame(64, 64) { x, y in (UInt8(x * y % 256), UInt8((x * 7 + y * 13) % 256), 5, 255) }
        #expect(throws: ImageCodecError(file: nil, reason: .fileSystem("disk full"))) { try encoder.append(noise) }
        do {
            try encoder.append(noise)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("failed earlier"))
        }
        #expect(throws: ImageCodecError.self) { try encoder.finish() }
    }

    /// An animation abandoned before `finish()` and `commit()` leaves nothing at the destination
    /// (nor a temporary file); a finished, committed one is there and decodes.
    @Test func unfinishedOutputFileLeavesNoFile() throws {
        let folder = try TemporaryFolder.make()
        let path = folder + "/anim.png"
        do {
            let file = try OutputFile(path: path)
            let encoder = try APNGEncoder(sink: file, width: 8, height: 8, frameCount: 3, rate: FrameRate(frames: 30, seconds: 1)!)
            try encoder.append(try Pixmap(width: 8, height: 8))
            try encoder.append(try Pixmap(width: 8, height: 8))
            #expect(throws: ImageCodecError.self) { try encoder.finish() }
        }
        #expect(TemporaryFolder.entries(folder) == [])
        do {
            let file = try OutputFile(path: path)
            let encoder = try APNGEncoder(sink: file, width: 8, height: 8, frameCount: 1, rate: FrameRate(frames: 30, seconds: 1)!,
                                          options: APNGOptions(pixelsPerPoint: 2))
            try encoder.append(try Pixmap(width: 8, height: 8))
            try encoder.finish()
            try file.commit()
        }
        #expect(TemporaryFolder.entries(folder) == ["anim.png"])
        #expect(try PillowDecoder.decode(path).frames.count == 1)
        #expect(try PillowInfo.dpi(path).map { abs($0 - 144) < 0.01 } == [true, true])
    }

    // MARK: - Helpers

    /// A frame from straight-alpha colours, premultiplied as c = round(s·a/255).
    static func frame(_ w: Int, _ h: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) throws -> Pixmap {
        let pixmap = try Pixmap(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                let (r, g, b, a) = color(x, y)
                pixmap.setPixel(x: x, y: y, premultiply(r, g, b, a))
            }
        }
        return pixmap
    }

    /// A copy of `source` with each premultiplied pixel passed through `change` (which returns
    /// the pixel as given or a new straight colour).
    static func copy(_ source: Pixmap, _ change: (Int, Int, (UInt8, UInt8, UInt8, UInt8)) -> (UInt8, UInt8, UInt8, UInt8)) throws -> Pixmap {
        let pixmap = try Pixmap(width: source.width, height: source.height)
        for y in 0..<source.height {
            for x in 0..<source.width {
                let p = source.pixel(x: x, y: y)
                let given = (p.r, p.g, p.b, p.a)
                let new = change(x, y, given)
                pixmap.setPixel(x: x, y: y, new == given ? p : premultiply(new.0, new.1, new.2, new.3))
            }
        }
        return pixmap
    }

    /// The straight colour of `pixmap`'s pixel that `frame(_:_:_:)` premultiplied (the source of
    /// an opaque pixel is itself).
    static func straight(_ pixmap: Pixmap, _ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let p = pixmap.pixel(x: x, y: y)
        precondition(p.a == 255, "only opaque pixels are restored")
        return (p.r, p.g, p.b, p.a)
    }

    static func premultiply(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> PremultipliedColor {
        func m(_ c: UInt8) -> UInt8 { UInt8((Int(c) * Int(a) + 127) / 255) }
        return PremultipliedColor(r: m(r), g: m(g), b: m(b), a: a)
    }

    /// Straight RGBA8 back to premultiplied, c·a/255 rounded.
    static func premultiplied(_ straight: [UInt8]) -> [UInt8] {
        var out = straight
        for i in stride(from: 0, to: out.count, by: 4) {
            let a = Int(out[i + 3])
            for k in 0..<3 { out[i + k] = UInt8((Int(out[i + k]) * a + 127) / 255) }
        }
        return out
    }

    static func save(_ bytes: [UInt8]) throws -> String {
        let path = try TemporaryFolder.make() + "/out.png"
        try TemporaryFolder.write(bytes, to: path)
        return path
    }
}

/// An fcTL chunk's fields (APNG specification).
struct FrameControl {
    var sequence: Int, width: Int, height: Int, x: Int, y: Int
    var delayNumerator: Int, delayDenominator: Int, dispose: Int, blend: Int

    init(_ chunk: PNGChunkList.Chunk) {
        let d = chunk.data
        func u32(_ o: Int) -> Int { Int(PNGChunkList.bigEndian(d, o)) }
        sequence = u32(0); width = u32(4); height = u32(8); x = u32(12); y = u32(16)
        delayNumerator = Int(d[20]) << 8 | Int(d[21])
        delayDenominator = Int(d[22]) << 8 | Int(d[23])
        dispose = Int(d[24]); blend = Int(d[25])
    }
}

/// A sink that accepts `limit` bytes, then refuses as a full disk would.
final class RefusingSink: ByteSink {
    let limit: Int
    var written = 0
    init(limit: Int) { self.limit = limit }

    func write(_ bytes: UnsafeRawBufferPointer) throws(ImageCodecError) {
        guard written + bytes.count <= limit else { throw ImageCodecError(file: nil, reason: .fileSystem("disk full")) }
        written += bytes.count
    }
}
