import Foundation
@testable import ImageCodecs
import Raster
import TestSupport
import Testing

/// A still of more than 16 MiB of pixels is compressed in bands on several threads
/// (`PNGBandedImage`): the file must be one valid zlib stream — checked by Python's zlib, which
/// verifies the Adler-32 (RFC 1950) — that libpng and Pillow read back exactly, and the bytes
/// must not depend on the number of threads.
struct PNGBandedImageTests {
    /// 2 048 × 2 600 pixels: 1 024-row bands (8 MiB each), so three bands, the last one short.
    static let width = 2_048, height = 2_600

    /// Pixels that change in every way the filters see: a smooth part (which deflates best
    /// unfiltered), a noisy part (which deflates best filtered), partial and zero alpha.
    static func image(noisy: Bool) throws -> Pixmap {
        let pixmap = try Pixmap(width: width, height: height)
        var seed: UInt32 = 12_345
        for y in 0..<height {
            let row = pixmap.pixels + y * width * 4
            for x in 0..<width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let noise = noisy ? Int(seed >> 24) : 0
                var a = (x / 7 + y / 5) % 256 | (noisy ? 0 : 0x80)
                if a == 0x80 { a = 0 }
                row[4 * x] = UInt8(min(a, (x + noise) % 256))
                row[4 * x + 1] = UInt8(min(a, (y + noise) % 256))
                row[4 * x + 2] = UInt8(min(a, ((x ^ y) + noise) % 256))
                row[4 * x + 3] = UInt8(a)
            }
        }
        return pixmap
    }

    @Test(arguments: [false, true])
    func bandedStillIsOneValidStreamReadExactly(noisy: Bool) throws {
        #expect(PNGBandedImage.isBanded(width: Self.width, height: Self.height))
        let pixmap = try Self.image(noisy: noisy)
        let folder = try TemporaryFolder.make()
        let path = folder + "/banded.png"
        try PNGStillEncoder(threads: 3).write(pixmap, pixelsPerPoint: 1, to: path)
        let bytes = try TemporaryFolder.read(path)
        let single = PNGStillEncoder(threads: 1)
        try single.encode(pixmap, pixelsPerPoint: 1)
        #expect(single.bytes == bytes, "the same bytes on one thread and on three")

        let chunks = try PNGChunkList(bytes).chunks
        let idat = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        #expect(try Self.inflatedLength(idat) == Self.height * (4 * Self.width + 1))
        #expect(PNGStreamReference.samePixels(try PNGCodec.decode(contentsOf: path), pixmap))
        let pillow = try PillowDecoder.decode(path)
        #expect(pillow.frames.count == 1)
        let expected = PNGStreamReference.straightBytes(of: pixmap)
        #expect(pillow.frames.first?.rgba == expected,
                "\(PNGStreamReference.mismatches(pillow.frames.first?.rgba ?? [], expected)) bytes differ")
    }

    /// An image of two bands or fewer is one zlib stream, as before banding existed.
    @Test func smallImagesAreNotBanded() {
        #expect(!PNGBandedImage.isBanded(width: 1_920, height: 1_080))
        #expect(!PNGBandedImage.isBanded(width: 2_048, height: 2_048))
        #expect(PNGBandedImage.isBanded(width: 2_048, height: 2_049))
        #expect(PNGBandedImage.isBanded(width: 32_768, height: 129))
    }

    /// The zlib header's check bits make it a multiple of 31 at every level (RFC 1950 §2.2).
    @Test func zlibHeadersAreValid() {
        for level: Int32 in -1...9 {
            let (cmf, flg) = PNGBandedImage.zlibHeader(level: level)
            #expect(cmf == 0x78 && (Int(cmf) << 8 | Int(flg)) % 31 == 0 && flg & 0x20 == 0)
        }
    }

    /// The length of `data` inflated by Python's zlib (an error on a bad stream or Adler-32).
    static func inflatedLength(_ data: [UInt8]) throws -> Int {
        let folder = try TemporaryFolder.make()
        let path = folder + "/idat.zlib"
        try TemporaryFolder.write(data, to: path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PillowDecoder.python)
        process.arguments = ["-c", "import sys, zlib\nprint(len(zlib.decompress(open(sys.argv[1], 'rb').read())))", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 : -1
    }
}
