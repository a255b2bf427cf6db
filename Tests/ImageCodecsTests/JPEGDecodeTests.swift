import ImageCodecs
import Raster
import Testing

/// JPEG decoding of the libjpeg-made fixtures (JPEGFixtures.swift): size, opacity and the
/// quadrant colours (checked in each quadrant's interior; quality 95 without subsampling keeps
/// solid 8×8 blocks within a few levels, Skia decodes them within ±1).
struct JPEGDecodeTests {
    static let quadrants: [(x: Int, y: Int, rgb: [Int])] = [
        (3, 3, [200, 40, 90]), (12, 3, [30, 160, 220]), (3, 12, [250, 230, 20]), (12, 12, [60, 60, 60]),
    ]

    static func expectQuadrants(_ pixmap: Pixmap, gray: Bool = false) {
        #expect(pixmap.width == 16 && pixmap.height == 16)
        for q in quadrants {
            let p = pixmap.pixel(x: q.x, y: q.y)
            let expected = gray ? [q.rgb[0], q.rgb[0], q.rgb[0]] : q.rgb
            let got = [Int(p.r), Int(p.g), Int(p.b)]
            #expect(zip(got, expected).allSatisfy { abs($0 - $1) <= 3 }, "at (\(q.x), \(q.y)): \(got) vs \(expected)")
        }
        #expect((0..<16 * 16).allSatisfy { pixmap.pixels[4 * $0 + 3] == 255 })
    }

    @Test func baseline() throws { Self.expectQuadrants(try JPEGCodec.decode(JPEGFixtures.baseline)) }
    @Test func progressive() throws { Self.expectQuadrants(try JPEGCodec.decode(JPEGFixtures.progressive)) }
    @Test func grayscale() throws { Self.expectQuadrants(try JPEGCodec.decode(JPEGFixtures.gray), gray: true) }
    @Test func adobeCMYK() throws { Self.expectQuadrants(try JPEGCodec.decode(JPEGFixtures.cmyk)) }

    @Test func fromFile() throws {
        let path = try TemporaryFolder.make() + "/photo.jpg"
        try TemporaryFolder.write(JPEGFixtures.progressive, to: path)
        Self.expectQuadrants(try JPEGCodec.decode(contentsOf: path))
    }

    @Test func garbageIsNotAJPEG() {
        #expect(throws: ImageCodecError(file: nil, reason: .notJPEG)) { try JPEGCodec.decode(Array("hello".utf8)) }
        #expect(throws: ImageCodecError(file: nil, reason: .notJPEG)) { try JPEGCodec.decode([UInt8]()) }
    }

    /// Every cut of every fixture is an error (truncated, or malformed when the cut falls in a
    /// header), never a crash and never a grey-padded image.
    @Test(arguments: [JPEGFixtures.baseline, JPEGFixtures.progressive, JPEGFixtures.gray, JPEGFixtures.cmyk])
    func everyPrefixFails(_ bytes: [UInt8]) {
        for length in 0..<bytes.count - 2 {  // the last two bytes are the EOI marker
            #expect(throws: ImageCodecError.self) { try JPEGCodec.decode(Array(bytes[0..<length])) }
        }
    }

    /// A frame header (SOF0: FF C0, length, precision, height, width) announcing 40 000 × 40 000
    /// pixels is refused before pixel memory is allocated (Raster's limit is 32 768 per side).
    @Test func hugeImageIsRefusedBeforeAllocating() throws {
        var bytes = JPEGFixtures.baseline
        let sof = try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange(sof + 5..<sof + 9, with: [0x9C, 0x40, 0x9C, 0x40])  // 40 000 = 0x9C40
        do {
            _ = try JPEGCodec.decode(bytes)
            Issue.record("decode should fail")
        } catch {
            guard case let .invalidSize(w, h, _) = error.reason else { Issue.record("unexpected \(error)"); return }
            #expect(w == 40_000 && h == 40_000)
        }
    }

    @Test func corruptedBytesNeverCrash() {
        for index in 2..<JPEGFixtures.baseline.count {
            var bytes = JPEGFixtures.baseline
            bytes[index] ^= 0xA5
            _ = try? JPEGCodec.decode(bytes)
        }
    }

    @Test func truncatedFileNamesTheFile() throws {
        let path = try TemporaryFolder.make() + "/cut.jpg"
        try TemporaryFolder.write(Array(JPEGFixtures.baseline[0..<(JPEGFixtures.baseline.count - 60)]), to: path)
        #expect(throws: ImageCodecError(file: path, reason: .truncated)) { try JPEGCodec.decode(contentsOf: path) }
    }
}
