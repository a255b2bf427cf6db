import ImageCodecs
import Raster
import Testing

/// A minimal reader of GIF block structure, written for the tests from the GIF89a spec (no
/// decoding of pixels: Pillow does that). It lists each frame's graphic control values and
/// rectangle, so tests can check what the encoder wrote, not only what a viewer shows.
enum GIFBlocks {
    struct Frame: Equatable {
        var disposal = 0
        var delay = 0
        var transparentIndex: Int?
        var x = 0, y = 0, width = 0, height = 0
        var localTableSize: Int?
        var minimumCodeSize = 0
    }

    struct File {
        var width = 0, height = 0
        var globalTableSize: Int?
        var loop: Int?
        var frames: [Frame] = []
        var trailer = false
    }

    struct Malformed: Error { var what: String }

    static func parse(_ b: [UInt8]) throws -> File {
        var file = File()
        guard b.count >= 13, Array(b[0..<6]) == Array("GIF89a".utf8) else { throw Malformed(what: "signature") }
        func u16(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        file.width = u16(6)
        file.height = u16(8)
        var i = 13
        if b[10] & 0x80 != 0 {
            file.globalTableSize = 2 << Int(b[10] & 7)
            i += 3 * file.globalTableSize!
        }
        var pending = Frame()
        func skipSubBlocks() throws {
            while true {
                guard i < b.count else { throw Malformed(what: "sub-blocks run past the end") }
                let n = Int(b[i]); i += 1
                if n == 0 { return }
                i += n
            }
        }
        while i < b.count {
            switch b[i] {
            case 0x3B:
                file.trailer = true
                guard i == b.count - 1 else { throw Malformed(what: "bytes after the trailer") }
                return file
            case 0x21:
                let label = b[i + 1]
                i += 2
                if label == 0xF9 {
                    guard b[i] == 4 else { throw Malformed(what: "GCE size") }
                    pending.disposal = Int(b[i + 1] >> 2 & 7)
                    pending.delay = u16(i + 2)
                    pending.transparentIndex = b[i + 1] & 1 != 0 ? Int(b[i + 4]) : nil
                    i += 5
                    try skipSubBlocks()
                } else if label == 0xFF, b[i] == 11, Array(b[(i + 1)..<(i + 12)]) == Array("NETSCAPE2.0".utf8) {
                    i += 12
                    if b[i] == 3, b[i + 1] == 1 { file.loop = u16(i + 2) }
                    try skipSubBlocks()
                } else {
                    i += 0
                    try skipSubBlocks()
                }
            case 0x2C:
                pending.x = u16(i + 1); pending.y = u16(i + 3)
                pending.width = u16(i + 5); pending.height = u16(i + 7)
                let flags = b[i + 9]
                i += 10
                if flags & 0x80 != 0 {
                    pending.localTableSize = 2 << Int(flags & 7)
                    i += 3 * pending.localTableSize!
                }
                pending.minimumCodeSize = Int(b[i])
                i += 1
                try skipSubBlocks()
                file.frames.append(pending)
                pending = Frame()
            default:
                throw Malformed(what: "unknown block 0x\(String(b[i], radix: 16)) at \(i)")
            }
        }
        throw Malformed(what: "no trailer")
    }
}

/// The container: header fields, loop extension, table sizes, trailer.
struct GIFStructureTests {
    @Test func headerLoopAndTrailer() throws {
        let frames = try (0..<3).map { k -> Pixmap in
            let p = try Pixmap(width: 10, height: 7)
            p.fill(with: PremultipliedColor(r: UInt8(40 * k), g: 100, b: 200, a: 255))
            return p
        }
        let loops: [Int?] = [0, 3, 65_535, nil]
        for loop in loops {
            let bytes = try GIFTesting.encode(frames, rate: FrameRate(frames: 10, seconds: 1)!, options: GIFOptions(loopCount: loop))
            let file = try GIFBlocks.parse(bytes)
            #expect(file.width == 10 && file.height == 7)
            #expect(file.loop == loop)
            #expect(file.trailer)
            #expect(file.frames.count == 3)
            #expect(file.frames.map { $0.delay } == [10, 10, 10])
            #expect(file.frames.map { $0.disposal } == [1, 1, 1])
        }
    }

    /// Minimum code sizes follow the table size: max(2, log2(entries)).
    @Test func codeSizeFollowsTheTable() throws {
        for bits in 1...8 {
            let colors = GIFTesting.colorSet(1 << bits, seed: UInt64(bits))
            let p = try Pixmap(width: 32, height: 16)
            for i in 0..<(32 * 16) { p.setPixel(x: i % 32, y: i / 32, colors[i % colors.count]) }
            let bytes = try GIFTesting.encode([p], rate: FrameRate(frames: 1, seconds: 1)!, options: GIFOptions(palette: .perFrame))
            let file = try GIFBlocks.parse(bytes)
            #expect(file.frames.first?.localTableSize == max(2, 1 << bits))
            #expect(file.frames.first?.minimumCodeSize == max(2, bits))
        }
    }
}
