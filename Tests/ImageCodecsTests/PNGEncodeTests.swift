import ImageCodecs
import Raster
import Testing

/// Encoding: straight-alpha RGBA8 out, atomic file writes.
struct PNGEncodeTests {
    /// Every premultiplied pixel (c ≤ a) survives encode + decode unchanged: un-premultiplying
    /// to s = round(255·c/a) and premultiplying back gives c + e·a/255 with |e| ≤ ½, which
    /// rounds to c (closed form; the test covers every (c, a) pair).
    @Test func roundTripIsExactForEveryPremultipliedValue() throws {
        let pixmap = try Pixmap(width: 256, height: 256)
        for a in 0..<256 {
            for c in 0..<256 {
                let v = UInt8(min(c, a))
                pixmap.setPixel(x: c, y: a, PremultipliedColor(r: v, g: UInt8(min(255 - c, a)), b: UInt8(a / 2), a: UInt8(a)))
            }
        }
        let decoded = try PNGCodec.decode(PNGCodec.encode(pixmap))
        #expect(decoded.width == 256 && decoded.height == 256)
        var mismatches = 0
        for i in 0..<256 * 256 * 4 where decoded.pixels[i] != pixmap.pixels[i] { mismatches += 1 }
        #expect(mismatches == 0)
    }

    /// The file stores straight alpha: the independent test encoder's straight (200, 100, 50, 128)
    /// decodes to premultiplied round(200·128/255) = 100, 50, 25; encoding that pixmap again
    /// yields the same pixels after decoding.
    @Test func storesStraightAlpha() throws {
        let source = PNGTestImage(width: 1, height: 1, colorType: .rgba, bitDepth: 8, samples: [200, 100, 50, 128])
        let pixmap = try PNGCodec.decode(source.encoded())
        #expect(pixmap.pixel(x: 0, y: 0) == PremultipliedColor(r: 100, g: 50, b: 25, a: 128))
        let again = try PNGCodec.decode(PNGCodec.encode(pixmap))
        #expect(again.pixel(x: 0, y: 0) == PremultipliedColor(r: 100, g: 50, b: 25, a: 128))
    }

    @Test func writeReplacesTheFileAndLeavesNoTemporaryFile() throws {
        let folder = try TemporaryFolder.make()
        let path = folder + "/out.png"
        try TemporaryFolder.write([1, 2, 3], to: path)
        let pixmap = try Pixmap(width: 3, height: 2)
        pixmap.fill(with: PremultipliedColor(r: 10, g: 20, b: 30, a: 255))
        try PNGCodec.write(pixmap, to: path)
        #expect(TemporaryFolder.entries(folder) == ["out.png"])
        let decoded = try PNGCodec.decode(contentsOf: path)
        #expect(decoded.width == 3 && decoded.pixel(x: 2, y: 1) == PremultipliedColor(r: 10, g: 20, b: 30, a: 255))
    }

    @Test func failedWriteLeavesTheOldFileUntouched() throws {
        let folder = try TemporaryFolder.make()
        let path = folder + "/keep.png"
        try TemporaryFolder.write([9, 8, 7], to: path)
        let empty = try Pixmap(width: 0, height: 5)
        #expect(throws: ImageCodecError.self) { try PNGCodec.write(empty, to: path) }
        #expect(try TemporaryFolder.read(path) == [9, 8, 7])
        #expect(TemporaryFolder.entries(folder) == ["keep.png"])
    }

    @Test func writeIntoMissingFolderNamesTheFile() throws {
        let path = try TemporaryFolder.make() + "/no/such/folder/x.png"
        let pixmap = try Pixmap(width: 1, height: 1)
        do {
            try PNGCodec.write(pixmap, to: path)
            Issue.record("write should fail")
        } catch {
            #expect(error.file == path)
            guard case .fileSystem = error.reason else { Issue.record("unexpected \(error)"); return }
            #expect(error.description.hasPrefix(path + ": "))
        }
    }
}
