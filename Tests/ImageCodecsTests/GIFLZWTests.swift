@testable import ImageCodecs
import Raster
import TestSupport
import Testing

/// The LZW coder, decoded by Pillow: every minimum code size, lengths around the code-width
/// steps (including the end code read one bit wider), long runs (the run shortcut), and table
/// resets.
@Suite(.serialized)
struct GIFLZWTests {
    /// A GIF whose frames are raw LZW streams of `streams` (indices, table bits), each at (0, 0)
    /// as one row (or rows of 200) with its own table of distinct colours — built here, so the
    /// only encoder code under test is `GIFLZWEncoder`.
    static func gif(of streams: [([UInt8], Int)], canvasWidth: Int, canvasHeight: Int) -> [UInt8] {
        let out = ByteBuffer()
        out.append(Array("GIF89a".utf8))
        out.appendUInt16(canvasWidth)
        out.appendUInt16(canvasHeight)
        out.append([0x70, 0, 0])
        let lzw = GIFLZWEncoder()
        for (indices, bits) in streams {
            let (w, h) = shape(indices.count)
            out.append(0x2C)
            out.appendUInt16(0); out.appendUInt16(0); out.appendUInt16(w); out.appendUInt16(h)
            out.append(0x80 | UInt8(bits - 1))
            for c in palette(bits) { out.append([UInt8(c >> 16), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF)]) }
            indices.withUnsafeBufferPointer { lzw.encode($0, minimumCodeSize: max(2, bits), into: out) }
        }
        out.append(0x3B)
        return Array(UnsafeBufferPointer(start: out.bytes, count: out.count))
    }

    /// Rectangle of `count` pixels: one row up to 512, else rows of 200 (`count` is then a
    /// multiple of 200).
    static func shape(_ count: Int) -> (Int, Int) { count <= 512 ? (count, 1) : (200, count / 200) }

    /// 2^bits distinct colours as 0xRRGGBB.
    static func palette(_ bits: Int) -> [Int] { (0..<(1 << bits)).map { i in (i * 0x9E3779) & 0xFFFFFF ^ i } }

    @Test func everyCodeSizeAndLength() throws {
        var rng = GIFTesting.Random(seed: 42)
        var streams: [([UInt8], Int)] = []
        for bits in 1...8 {
            // Short lengths (the first width steps), lengths around 2^(code size + 1) (where
            // noise reaches the first steps of larger tables), table resets, long streams.
            let step = 1 << (max(2, bits) + 1)
            var lengths = Array(1...24) + Array(max(25, step - 12)...min(512, max(25, step + 12))) + [4_000]
            if bits >= 4 { lengths += [20_000] }
            for (n, length) in lengths.enumerated() {
                var indices = [UInt8](repeating: 0, count: length)
                switch n % 3 {
                case 0:  // noise
                    for i in 0..<length { indices[i] = UInt8(truncatingIfNeeded: rng.next() % UInt64(1 << bits)) }
                case 1:  // long runs, the differencing case
                    var v = UInt8(0), i = 0
                    while i < length {
                        let run = Int(rng.next() % 700) + 1
                        for j in i..<min(length, i + run) { indices[j] = v }
                        i += run
                        v = UInt8(truncatingIfNeeded: rng.next() % UInt64(1 << bits))
                    }
                default:  // short runs and repeats
                    for i in 0..<length { indices[i] = UInt8(truncatingIfNeeded: (i / (1 + i % 5)) % (1 << bits)) }
                }
                streams.append((indices, bits))
            }
        }
        let bytes = Self.gif(of: streams, canvasWidth: 512, canvasHeight: 100)
        let decoded = try GIFTesting.decode(bytes)
        #expect(decoded.frames.count == streams.count)
        var bad = 0
        for (k, (indices, bits)) in streams.enumerated() where k < decoded.frames.count {
            let colors = Self.palette(bits)
            let (w, _) = Self.shape(indices.count)
            let rgba = decoded.frames[k].rgba
            for (i, index) in indices.enumerated() {
                let o = 4 * ((i / w) * 512 + i % w)
                let c = colors[Int(index)]
                if rgba[o] != UInt8(c >> 16) || rgba[o + 1] != UInt8(c >> 8 & 0xFF) || rgba[o + 2] != UInt8(c & 0xFF) {
                    bad += 1
                    break
                }
            }
        }
        #expect(bad == 0, "\(bad) of \(streams.count) streams decode wrong")
    }

    /// The end code's width, checked bit for bit (Pillow stops once a frame is full and never
    /// reads it). Minimum code size 2: clear = 4, end = 5, first free code 6, codes of 3 bits.
    /// A decoder counts one more code with every code it reads after a clear and reads 4 bits
    /// once that count passes 8 (GIF89a appendix F; giflib's `RunningCode > MaxCode1`).
    /// Indices 0 1 2: codes clear, 0, 1, 2 (3 bits each; the count passes 8 after code 2), end
    /// in 4 bits: 100 000 001 010 0101, least significant bit first → 0x44 0x54.
    /// Indices 0 1: clear, 0, 1, end all 3 bits: 100 000 001 101 → 0x44 0x0A.
    @Test func endCodeWidthBitForBit() {
        func stream(_ indices: [UInt8]) -> [UInt8] {
            let out = ByteBuffer()
            indices.withUnsafeBufferPointer { GIFLZWEncoder().encode($0, minimumCodeSize: 2, into: out) }
            return Array(UnsafeBufferPointer(start: out.bytes, count: out.count))
        }
        #expect(stream([0, 1, 2]) == [0x02, 0x02, 0x44, 0x54, 0x00])
        #expect(stream([0, 1]) == [0x02, 0x02, 0x44, 0x0A, 0x00])
        // Empty data: clear and end only (100 101 → 0x2C).
        #expect(stream([]) == [0x02, 0x01, 0x2C, 0x00])
    }

    /// A noisy 256-colour frame (the table fills and resets many times) through the public
    /// encoder comes back exactly: one opaque frame needs no transparent entry, so all 256
    /// colours fit.
    @Test func noisy256ColourFrameAcrossTableResets() throws {
        let colors = GIFTesting.colorSet(256, seed: 5)
        let p = try Pixmap(width: 320, height: 200)
        var rng = GIFTesting.Random(seed: 9)
        for y in 0..<200 { for x in 0..<320 { p.setPixel(x: x, y: y, colors[Int(rng.next() % 256)]) } }
        for i in 0..<256 { p.setPixel(x: i, y: 0, colors[i]) }
        let bytes = try GIFTesting.encode([p], rate: FrameRate(frames: 1, seconds: 1)!, options: GIFOptions(dithering: .none))
        let blocks = try GIFBlocks.parse(bytes)
        #expect(blocks.globalTableSize == 256 && blocks.frames[0].minimumCodeSize == 8)
        let decoded = try GIFTesting.decode(bytes)
        #expect(GIFTesting.maxDifference(decoded.frames[0], p) == 0)
        // 64 000 indices of 8 random bits cannot shrink much: at least ~9 bits per 1.2 pixels.
        #expect(bytes.count > 50_000)
    }
}
