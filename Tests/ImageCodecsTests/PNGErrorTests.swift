import TestSupport
import ImageCodecs
import Raster
import Testing

/// Bad PNG input gives an `ImageCodecError`, never a crash.
struct PNGErrorTests {
    static let valid = PNGTestImage(width: 9, height: 7, colorType: .rgba, bitDepth: 8,
                                    samples: (0..<9 * 7 * 4).map { UInt16($0 * 7 % 256) }, interlaced: true).encoded()

    @Test func garbageIsNotAPNG() {
        #expect(throws: ImageCodecError(file: nil, reason: .notPNG)) {
            try PNGCodec.decode(Array("GIF89a, not a png at all".utf8))
        }
        #expect(throws: ImageCodecError(file: nil, reason: .notPNG)) { try PNGCodec.decode(JPEGFixtures.baseline) }
    }

    @Test func emptyInputIsTruncated() {
        #expect(throws: ImageCodecError(file: nil, reason: .truncated)) { try PNGCodec.decode([UInt8]()) }
    }

    /// Every prefix of a valid file (cut inside the signature, a chunk header, IDAT, the CRC or
    /// IEND) is reported as truncated.
    @Test func everyPrefixIsTruncated() {
        for length in 0..<Self.valid.count {
            #expect(throws: ImageCodecError(file: nil, reason: .truncated)) {
                try PNGCodec.decode(Array(Self.valid[0..<length]))
            }
        }
    }

    /// Flipping any single byte after the signature never crashes: either the CRC check or the
    /// structure check rejects it, or (a few IDAT bytes of stored blocks) it decodes.
    @Test func corruptedBytesNeverCrash() {
        for index in 8..<Self.valid.count {
            var bytes = Self.valid
            bytes[index] ^= 0x5A
            _ = try? PNGCodec.decode(bytes)
        }
    }

    @Test func badCRCIsMalformed() throws {
        var bytes = Self.valid
        bytes[29] ^= 0xFF  // last byte of IHDR's CRC (8 signature + 8 header + 13 data = 29)
        do {
            _ = try PNGCodec.decode(bytes)
            Issue.record("decode should fail")
        } catch {
            guard case .malformed = error.reason else { Issue.record("unexpected \(error)"); return }
        }
    }

    /// A header announcing 40 000 × 40 000 pixels is refused before any pixel memory is
    /// allocated (Raster's limit is 32 768 per side).
    @Test func hugeImageIsRefusedBeforeAllocating() {
        var image = PNGTestImage(width: 1, height: 1, colorType: .gray, bitDepth: 8, samples: [0])
        var bytes = image.encoded()
        image.width = 40_000
        image.height = 40_000
        let header = chunk("IHDR", bigEndian(40_000) + bigEndian(40_000) + [8, 0, 0, 0, 0])
        bytes.replaceSubrange(8..<33, with: header)
        do {
            _ = try PNGCodec.decode(bytes)
            Issue.record("decode should fail")
        } catch {
            guard case let .invalidSize(w, h, _) = error.reason else { Issue.record("unexpected \(error)"); return }
            #expect(w == 40_000 && h == 40_000)
        }
    }

    @Test func missingFileNamesTheFile() {
        do {
            _ = try PNGCodec.decode(contentsOf: "/no/such/file.png")
            Issue.record("decode should fail")
        } catch {
            #expect(error.file == "/no/such/file.png")
            #expect(error.description.hasPrefix("/no/such/file.png: cannot open: "))
        }
    }

    @Test func truncatedFileNamesTheFile() throws {
        let path = try TemporaryFolder.make() + "/cut.png"
        try TemporaryFolder.write(Array(Self.valid[0..<40]), to: path)
        #expect(throws: ImageCodecError(file: path, reason: .truncated)) { try PNGCodec.decode(contentsOf: path) }
    }
}
