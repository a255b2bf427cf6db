import ImageCodecs
import Raster
import Testing

/// Bad input gets an `ImageCodecError` that says what is wrong, never a trap.
struct GIFErrorTests {
    static let rate = FrameRate(frames: 30, seconds: 1)!

    static func reason(_ body: () throws(ImageCodecError) -> Void) -> ImageCodecError.Reason? {
        do { try body() } catch { return error.reason }
        return nil
    }

    @Test func badSizesAreRefused() {
        for (w, h) in [(0, 10), (10, 0), (-1, 5), (5, -3), (Int.min, 1)] {
            guard case let .invalidSize(width, height, why)? = Self.reason({ () throws(ImageCodecError) in
                _ = try GIFEncoder(sink: MemorySink(), width: w, height: h, rate: Self.rate)
            }) else { Issue.record("\(w)×\(h) accepted"); continue }
            #expect(width == w && height == h && why.contains("at least one pixel"))
        }
        for (w, h) in [(65_536, 1), (1, 70_000), (Int.max, Int.max)] {
            guard case let .invalidSize(_, _, why)? = Self.reason({ () throws(ImageCodecError) in
                _ = try GIFEncoder(sink: MemorySink(), width: w, height: h, rate: Self.rate)
            }) else { Issue.record("\(w)×\(h) accepted"); continue }
            #expect(why.contains("65535"))
        }
        // Within GIF's limit but beyond Raster's (sides ≤ 32 768, area ≤ 2^28).
        for (w, h) in [(40_000, 10), (30_000, 30_000)] {
            guard case .invalidSize? = Self.reason({ () throws(ImageCodecError) in
                _ = try GIFEncoder(sink: MemorySink(), width: w, height: h, rate: Self.rate)
            }) else { Issue.record("\(w)×\(h) accepted"); continue }
        }
    }

    @Test func badLoopCountsAreRefused() {
        for loop in [-1, 65_536, Int.min] {
            guard case let .malformed(text)? = Self.reason({ () throws(ImageCodecError) in
                _ = try GIFEncoder(sink: MemorySink(), width: 4, height: 4, rate: Self.rate, options: GIFOptions(loopCount: loop))
            }) else { Issue.record("loop \(loop) accepted"); continue }
            #expect(text.contains("loop count \(loop)"))
        }
    }

    @Test func frameOfTheWrongSize() throws {
        let encoder = try GIFEncoder(sink: MemorySink(), width: 4, height: 3, rate: Self.rate)
        try encoder.append(Pixmap(width: 4, height: 3))
        let wrong = try Pixmap(width: 3, height: 4)
        guard case let .invalidSize(w, h, why)? = Self.reason({ () throws(ImageCodecError) in try encoder.append(wrong) }) else {
            Issue.record("a 3×4 frame was accepted"); return
        }
        #expect(w == 3 && h == 4 && why == "frame 1 is 3×4 but the GIF is 4×3")
        // The encoder still works after a refused frame.
        try encoder.append(Pixmap(width: 4, height: 3))
        try encoder.finish()
    }

    @Test func useAfterFinishAndFinishWithoutFrames() throws {
        let empty = try GIFEncoder(sink: MemorySink(), width: 4, height: 3, rate: Self.rate)
        guard case let .malformed(text)? = Self.reason({ () throws(ImageCodecError) in try empty.finish() }) else {
            Issue.record("finish without frames succeeded"); return
        }
        #expect(text.contains("at least one frame"))

        let sink = MemorySink()
        let encoder = try GIFEncoder(sink: sink, width: 4, height: 3, rate: Self.rate)
        try encoder.append(Pixmap(width: 4, height: 3))
        try encoder.finish()
        let written = sink.bytes
        #expect(written.last == 0x3B)
        let frame = try Pixmap(width: 4, height: 3)
        guard case let .malformed(after)? = Self.reason({ () throws(ImageCodecError) in try encoder.append(frame) }) else {
            Issue.record("append after finish succeeded"); return
        }
        #expect(after.contains("already finished"))
        guard case .malformed? = Self.reason({ () throws(ImageCodecError) in try encoder.finish() }) else {
            Issue.record("finish twice succeeded"); return
        }
        #expect(sink.bytes == written)
    }

    /// A sink that refuses: its error comes out of `append`/`finish`, and the encoder then
    /// refuses further work, naming the earlier error.
    @Test func sinkErrorsPropagate() throws {
        final class FullDisk: ByteSink {
            var budget: Int
            init(budget: Int) { self.budget = budget }
            func write(_ bytes: UnsafeRawBufferPointer) throws(ImageCodecError) {
                budget -= bytes.count
                if budget < 0 { throw ImageCodecError(file: "/full/disk.gif", reason: .fileSystem("cannot write: No space left on device")) }
            }
        }
        let encoder = try GIFEncoder(sink: FullDisk(budget: 40), width: 16, height: 16, rate: Self.rate)
        let frames = try GIFTesting.distinctFrames(4, width: 16, height: 16)
        var caught: ImageCodecError?
        do {
            for f in frames { try encoder.append(f) }
            try encoder.finish()
        } catch { caught = error }
        #expect(caught?.reason == .fileSystem("cannot write: No space left on device"))
        guard case let .malformed(text)? = Self.reason({ () throws(ImageCodecError) in try encoder.append(frames[0]) }) else {
            Issue.record("append after a failure succeeded"); return
        }
        #expect(text.contains("earlier error") && text.contains("No space left"))
    }

    /// Through an `OutputFile`: nothing at the destination until `commit()`.
    @Test func writesThroughAnOutputFile() throws {
        let path = try TemporaryFolder.make() + "/anim.gif"
        let file = try OutputFile(path: path)
        let encoder = try GIFEncoder(sink: file, width: 8, height: 6, rate: Self.rate)
        for f in try GIFTesting.distinctFrames(3, width: 8, height: 6) { try encoder.append(f) }
        try encoder.finish()
        #expect(!TemporaryFolder.entries(String(path.dropLast(9))).contains("anim.gif"))
        try file.commit()
        let blocks = try GIFBlocks.parse(try TemporaryFolder.read(path))
        #expect(blocks.frames.count == 3 && blocks.trailer)
    }
}
