import Foundation
@testable import ImageCodecs
import Raster
import TestSupport
import Testing

/// Citrine's own PNG stream writer: row filters (vector against the scalar reference), the
/// un-premultiply row, chunk framing and CRCs (checked with an independent bitwise CRC-32), and
/// the pHYs still (`PNGCodec.encode(_:pixelsPerPoint:)`) read back by libpng and Pillow.
struct PNGStreamTests {
    // MARK: - Filters

    /// The vector filters choose and produce exactly what the scalar reference does, on rows of
    /// every length 1…41 pixels (vector body plus every tail length) and a 1080p-wide row, with
    /// random, smooth and saturated content.
    @Test func vectorFiltersMatchTheReference() {
        var random = SplitMix64(seed: 7)
        let widths = Array(1...41) + [1920]
        for width in widths {
            let count = width * 4
            for kind in 0..<4 {
                let rows = PNGStreamRows(count: count)
                for i in 0..<count {
                    switch kind {
                    case 0: rows.row[i] = random.byte(); rows.previous[i] = random.byte()
                    case 1: rows.row[i] = UInt8(truncatingIfNeeded: i / 4 * 3 + i % 4); rows.previous[i] = UInt8(truncatingIfNeeded: i / 4 * 3 + i % 4 + 2)
                    case 2: rows.row[i] = random.byte() < 128 ? 0 : 255; rows.previous[i] = random.byte() < 128 ? 0 : 255
                    default: rows.row[i] = UInt8(truncatingIfNeeded: 200 + Int(random.byte() % 9)); rows.previous[i] = UInt8(truncatingIfNeeded: 198 + Int(random.byte() % 5))
                    }
                }
                let chosen = PNGRowFilters.choose(row: rows.row, previous: rows.previous, count: count)
                let reference = PNGRowFilters.chooseReference(row: rows.row, previous: rows.previous, count: count)
                #expect(chosen == reference, "width \(width), content \(kind)")
                for filter in PNGFilter.allCases {
                    let fast = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
                    let slow = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
                    defer { fast.deallocate(); slow.deallocate() }
                    PNGRowFilters.apply(filter, row: rows.row, previous: rows.previous, count: count, into: fast)
                    PNGRowFilters.applyReference(filter, row: rows.row, previous: rows.previous, count: count, into: slow)
                    #expect(memcmp(fast, slow, count) == 0, "\(filter), width \(width), content \(kind)")
                }
            }
        }
    }

    /// The byte-domain Paeth predictor equals the specification's for every (a, c) and a spread
    /// of b (the extremes and around the middle, and a stride through the range).
    @Test func vectorPaethMatchesTheSpecification() {
        let bs: [UInt8] = [0, 1, 127, 128, 254, 255] + stride(from: 3, to: 253, by: 50).map { UInt8($0) }
        var mismatches = 0
        for b in bs {
            for a in 0..<256 {
                for c0 in stride(from: 0, to: 256, by: 16) {
                    var cs = SIMD16<UInt8>()
                    for k in 0..<16 { cs[k] = UInt8(c0 + k) }
                    let got = PNGRowFilters.paethPredictor(SIMD16(repeating: UInt8(a)), SIMD16(repeating: b), cs)
                    for k in 0..<16 where got[k] != PNGRowFilters.paethReference(UInt8(a), b, cs[k]) { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// A row equal to the one above is coded with Up (all zeros).
    @Test func repeatedRowIsUp() {
        let rows = PNGStreamRows(count: 64)
        for i in 0..<64 { rows.row[i] = UInt8(i * 5 % 256); rows.previous[i] = rows.row[i] }
        #expect(PNGRowFilters.choose(row: rows.row, previous: rows.previous, count: 64) == .up)
    }

    // MARK: - Alpha

    /// For every (c, a) with c ≤ a: c·255/a rounded to nearest, transparent black for a = 0, and
    /// premultiplying back (c'·a/255 rounded) gives c again. Rows mix opaque runs (the four-pixel
    /// fast path) with translucent pixels at every offset.
    @Test func unpremultiplyRowIsTheRoundedInverse() {
        var pixels: [UInt8] = []
        for a in 0..<256 {
            for c in 0...a {
                pixels += [UInt8(c), UInt8(a - c), UInt8(c / 2), UInt8(a)]
                if c % 7 == 0 { pixels += [UInt8(c), 9, 200, 255, 1, 2, 3, 255, 4, 5, 6, 255] }
            }
        }
        let count = pixels.count / 4
        var straight = [UInt8](repeating: 0xAA, count: pixels.count)
        pixels.withUnsafeBufferPointer { source in
            straight.withUnsafeMutableBufferPointer { target in
                StraightAlpha.convert(source.baseAddress!, into: target.baseAddress!, pixels: count)
            }
        }
        var wrong = 0, notInverse = 0
        for p in 0..<count {
            let a = Int(pixels[4 * p + 3])
            #expect(straight[4 * p + 3] == UInt8(a))
            for k in 0..<3 {
                let c = Int(pixels[4 * p + k]), s = Int(straight[4 * p + k])
                let expected = a == 0 ? 0 : min(255, (c * 255 + a / 2) / a)
                if s != expected { wrong += 1 }
                if c <= a, (s * a + 127) / 255 != c { notInverse += 1 }
            }
        }
        #expect(wrong == 0)
        #expect(notInverse == 0)
    }

    // MARK: - Stream structure

    /// Every chunk's CRC (checked with a bitwise CRC-32, not zlib's) and length are right, the
    /// chunks come in the order IHDR, sRGB, pHYs, IDAT…, IEND, and an image whose data exceeds
    /// one chunk's capacity is split over several IDAT chunks that libpng reassembles exactly.
    @Test func chunksHaveValidCRCsAndLargeDataSpansSeveralIDATs() throws {
        let pixmap = try Pixmap(width: 400, height: 300)
        var random = SplitMix64(seed: 3)
        for i in 0..<400 * 300 {
            let a = random.byte() | 1
            pixmap.pixels[4 * i + 3] = a
            for k in 0..<3 { pixmap.pixels[4 * i + k] = UInt8(Int(random.byte()) % (Int(a) + 1)) }
        }
        let bytes = try PNGCodec.encode(pixmap, pixelsPerPoint: 1)
        let chunks = try PNGChunkList(bytes)
        let idats = chunks.chunks.filter { $0.type == "IDAT" }
        let types: [String] = chunks.chunks.map(\.type)
        let expectedTypes: [String] = ["IHDR", "sRGB", "pHYs"] + Array(repeating: "IDAT", count: idats.count) + ["IEND"]
        #expect(types == expectedTypes)
        #expect(idats.count >= 2, "random pixels do not fit one \(PNGStreamWriter.chunkCapacity)-byte chunk")
        #expect(chunks.chunks[0].data == [0, 0, 1, 144, 0, 0, 1, 44, 8, 6, 0, 0, 0])
        #expect(PNGStreamReference.samePixels(try PNGCodec.decode(bytes), pixmap))
    }

    // MARK: - Encoding trial

    /// The trial's choice of filtering is the one whose full encoding is smaller: unfiltered rows
    /// for flat anti-aliased discs (deflate matches the rows above), minimum-sum filters for
    /// photo-like content (a smooth field with fine noise, where only the residuals are small).
    /// At level 0 it does not try.
    @Test func trialChoosesTheFilteringThatPays() throws {
        let (w, h) = (480, 200)
        let discs = try Pixmap(width: w, height: h)
        discs.fill(with: PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
        for k in 0..<12 {
            let (cx, cy, r) = (Double(30 + k * 38), Double(40 + (k * 71) % 120), Double(14 + (k * 13) % 24))
            var disc = Path(), c = 0.5523 * r
            disc.move(to: Point(x: cx + r, y: cy))
            disc.cubic(to: Point(x: cx, y: cy + r), control1: Point(x: cx + r, y: cy + c), control2: Point(x: cx + c, y: cy + r))
            disc.cubic(to: Point(x: cx - r, y: cy), control1: Point(x: cx - c, y: cy + r), control2: Point(x: cx - r, y: cy + c))
            disc.cubic(to: Point(x: cx, y: cy - r), control1: Point(x: cx - r, y: cy - c), control2: Point(x: cx - c, y: cy - r))
            disc.cubic(to: Point(x: cx + r, y: cy), control1: Point(x: cx + c, y: cy - r), control2: Point(x: cx + r, y: cy - c))
            disc.close()
            discs.fill(disc, paint: Paint(color: Color(r: Float(k % 3) / 2, g: Float(k % 5) / 4, b: 0.6, a: k % 2 == 0 ? 1 : 0.7)))
        }
        let photo = try Pixmap(width: w, height: h)
        var random = SplitMix64(seed: 11)
        for y in 0..<h {
            for x in 0..<w {
                func channel(_ phase: Double) -> UInt8 {
                    UInt8(max(0, min(255, 128 + 90 * sin(Double(x) / 37 + phase) * cos(Double(y) / 29 - phase) + Double(random.byte() % 9) - 4)))
                }
                photo.setPixel(x: x, y: y, PremultipliedColor(r: channel(0), g: channel(1), b: channel(2), a: 255))
            }
        }
        func source(_ pixmap: Pixmap) -> PNGStreamWriter.Source { .init(pixmap: pixmap, x: 0, y: 0, width: w, height: h, reference: nil) }
        func encodedSize(_ pixmap: Pixmap, _ filtering: PNGStreamWriter.RowFiltering) throws -> Int {
            let sink = MemorySink()
            let writer = try PNGStreamWriter(sink: sink, maxWidth: w, compressionLevel: 6)
            try writer.writeImageData(source(pixmap), encoding: .init(filtering: filtering, clearsUnchanged: false), framing: .idat)
            return sink.bytes.count
        }
        let writer = try PNGStreamWriter(sink: MemorySink(), maxWidth: w, compressionLevel: 6)
        let discsChoice = try writer.chooseEncoding(source(discs), mayClear: true)
        let photoChoice = try writer.chooseEncoding(source(photo), mayClear: true)
        let discsSizes = (try encodedSize(discs, .unfiltered), try encodedSize(discs, .minimumSum))
        let photoSizes = (try encodedSize(photo, .unfiltered), try encodedSize(photo, .minimumSum))
        #expect(discsChoice == .init(filtering: .unfiltered, clearsUnchanged: false), "full sizes \(discsSizes)")
        #expect(discsSizes.0 < discsSizes.1)
        #expect(photoChoice == .init(filtering: .minimumSum, clearsUnchanged: false), "full sizes \(photoSizes)")
        #expect(photoSizes.1 < photoSizes.0)
        let stored = try PNGStreamWriter(sink: MemorySink(), maxWidth: w, compressionLevel: 0)
        #expect(try stored.chooseEncoding(source(photo), mayClear: false) == .init(filtering: .unfiltered, clearsUnchanged: false))
    }

    /// Clearing the pixels equal to the previous frame is chosen when they form large areas (a
    /// square moved over a still background) and not when they are scattered (a gradient moved
    /// by one pixel, equal only where neighbouring columns happen to match).
    @Test func trialClearsUnchangedPixelsOnlyWhenItPays() throws {
        let (w, h) = (320, 160)
        func gradient(shift: Int) throws -> Pixmap {
            let p = try Pixmap(width: w, height: h)
            for y in 0..<h {
                for x in 0..<w {
                    p.setPixel(x: x, y: y, PremultipliedColor(r: UInt8((x + shift) * 255 / (w + 2)), g: UInt8(y * 255 / h), b: 90, a: 255))
                }
            }
            return p
        }
        let before = try gradient(shift: 0), moved = try gradient(shift: 1)
        let withSquare = try gradient(shift: 0)
        withSquare.fill(Rect(x: 260, y: 20, width: 40, height: 40), paint: Paint(color: Color(r: 1, g: 1, b: 1)))
        withSquare.fill(Rect(x: 20, y: 110, width: 40, height: 40), paint: Paint(color: Color(r: 0, g: 0, b: 0)))
        let writer = try PNGStreamWriter(sink: MemorySink(), maxWidth: w, compressionLevel: 6)
        let shifted = try writer.chooseEncoding(.init(pixmap: moved, x: 0, y: 0, width: w, height: h, reference: before.pixels), mayClear: true)
        #expect(!shifted.clearsUnchanged)
        let square = try writer.chooseEncoding(.init(pixmap: withSquare, x: 20, y: 20, width: 280, height: 130, reference: before.pixels),
                                               mayClear: true)
        #expect(square.clearsUnchanged)
        let notAllowed = try writer.chooseEncoding(.init(pixmap: withSquare, x: 20, y: 20, width: 280, height: 130, reference: before.pixels),
                                                   mayClear: false)
        #expect(!notAllowed.clearsUnchanged)
    }

    // MARK: - pHYs still

    /// @2x: pHYs holds round(144/0.0254) = 5669 pixels per metre on both axes, unit metre;
    /// Pillow reports about 144 dpi; libpng and Pillow read the pixels exactly (Pillow's straight
    /// bytes are c·255/a rounded).
    @Test func stillWithPhysicalScale() throws {
        let pixmap = try Pixmap(width: 37, height: 21)
        for y in 0..<21 {
            for x in 0..<37 {
                let a = UInt8((x * 7 + y * 11) % 256)
                pixmap.setPixel(x: x, y: y, PremultipliedColor(r: a / 3, g: a, b: UInt8(Int(a) * y / 20), a: a))
            }
        }
        let folder = try TemporaryFolder.make()
        let path = folder + "/still@2x.png"
        try PNGCodec.write(pixmap, to: path, pixelsPerPoint: 2)
        #expect(TemporaryFolder.entries(folder) == ["still@2x.png"])
        let bytes = try TemporaryFolder.read(path)
        let pHYs = try PNGChunkList(bytes).chunks.first { $0.type == "pHYs" }
        #expect(pHYs?.data == [0, 0, 0x16, 0x25, 0, 0, 0x16, 0x25, 1])  // 5669 = 0x1625
        let dpi = try PillowInfo.dpi(path)
        #expect(dpi.count == 2 && dpi.allSatisfy { abs($0 - 144) < 0.01 }, "Pillow's dpi: \(dpi)")
        #expect(PNGStreamReference.samePixels(try PNGCodec.decode(contentsOf: path), pixmap))
        let pillow = try PillowDecoder.decode(path)
        #expect(pillow.frames.count == 1)
        #expect(PNGStreamReference.mismatches(pillow.frames.first?.rgba ?? [], PNGStreamReference.straightBytes(of: pixmap)) == 0)
    }

    @Test func stillScaleErrors() throws {
        let pixmap = try Pixmap(width: 2, height: 2)
        for bad in [0, -1, Double.nan, .infinity, 1e300, 1e-9] {
            #expect(throws: ImageCodecError.self) { try PNGCodec.encode(pixmap, pixelsPerPoint: bad) }
        }
        #expect(throws: ImageCodecError.self) { try PNGCodec.encode(try Pixmap(width: 0, height: 3), pixelsPerPoint: 1) }
        let folder = try TemporaryFolder.make()
        try TemporaryFolder.write([1, 2, 3], to: folder + "/keep.png")
        #expect(throws: ImageCodecError.self) {
            try PNGCodec.write(pixmap, to: folder + "/keep.png", pixelsPerPoint: 2, overwrite: false)
        }
        #expect(try TemporaryFolder.read(folder + "/keep.png") == [1, 2, 3])
        do {
            try PNGCodec.write(pixmap, to: folder + "/bad.png", pixelsPerPoint: .nan)
            Issue.record("expected an error")
        } catch {
            #expect(error.file == folder + "/bad.png")
        }
        #expect(TemporaryFolder.entries(folder) == ["keep.png"])
    }
}

// MARK: - Test helpers (shared with the APNG tests)

/// Two rows of `count` bytes, each behind 16 zero bytes, as the filters require.
final class PNGStreamRows {
    let storage: UnsafeMutablePointer<UInt8>
    let row: UnsafeMutablePointer<UInt8>
    let previous: UnsafeMutablePointer<UInt8>

    init(count: Int) {
        storage = .allocate(capacity: 2 * (count + 32))
        storage.initialize(repeating: 0, count: 2 * (count + 32))
        row = storage + 16
        previous = storage + count + 48
    }

    deinit { storage.deallocate() }
}


/// The chunks of a PNG file, read independently of the writer: lengths, types, and CRCs checked
/// against a bitwise CRC-32 (polynomial 0xEDB88320, the PNG specification's Annex D).
struct PNGChunkList {
    struct Chunk {
        var type: String
        var data: [UInt8]
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    var chunks: [Chunk] = []

    init(_ bytes: [UInt8]) throws {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Failure(description: "signature") }
        var offset = 8
        while offset < bytes.count {
            guard bytes.count - offset >= 12 else { throw Failure(description: "truncated at \(offset)") }
            let length = Int(Self.bigEndian(bytes, offset))
            guard length <= 0x7FFF_FFFF, bytes.count - offset - 12 >= length else { throw Failure(description: "length at \(offset)") }
            let typeAndData = Array(bytes[(offset + 4)..<(offset + 8 + length)])
            let stored = Self.bigEndian(bytes, offset + 8 + length)
            guard crc32(typeAndData) == stored else {
                throw Failure(description: "bad CRC in \(String(decoding: typeAndData.prefix(4), as: UTF8.self)) at \(offset)")
            }
            chunks.append(Chunk(type: String(decoding: typeAndData.prefix(4), as: UTF8.self), data: Array(typeAndData.dropFirst(4))))
            offset += 12 + length
        }
    }

    static func bigEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}

/// Straight-alpha bytes as Pillow should decode them: c·255/a rounded to nearest, clamped;
/// transparent black for a = 0 (the formula, written here independently of the writer).
enum PNGStreamReference {
    static func straightBytes(of pixmap: Pixmap) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: pixmap.width * pixmap.height * 4)
        for i in 0..<pixmap.width * pixmap.height {
            let a = Int(pixmap.pixels[4 * i + 3])
            out[4 * i + 3] = UInt8(a)
            guard a > 0 else { continue }
            for k in 0..<3 { out[4 * i + k] = UInt8(min(255, (Int(pixmap.pixels[4 * i + k]) * 255 + a / 2) / a)) }
        }
        return out
    }

    /// How many bytes differ (all of them when the counts differ), so that a failure does not
    /// print whole images.
    static func mismatches(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard a.count == b.count else { return max(a.count, b.count) }
        return zip(a, b).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
    }

    /// Whether two pixmaps have the same size and bytes.
    static func samePixels(_ a: Pixmap, _ b: Pixmap) -> Bool {
        a.width == b.width && a.height == b.height && memcmp(a.pixels, b.pixels, a.width * a.height * 4) == 0
    }
}

/// One `Image.info` value as Pillow prints it (TestSupport's Python, in a child process).
enum PillowInfo {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func value(of key: String, in path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PillowDecoder.python)
        process.arguments = ["-c", "import sys\nfrom PIL import Image\nprint(Image.open(sys.argv[1]).info.get(sys.argv[2]))", path, key]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "Pillow failed on \(path)") }
        return String(decoding: data, as: UTF8.self)
    }

    /// Pillow's `info["dpi"]` as numbers (empty when the file has no pHYs).
    static func dpi(_ path: String) throws -> [Double] {
        try value(of: "dpi", in: path).trimmingCharacters(in: CharacterSet(charactersIn: "()\n ")).split(separator: ",")
            .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }
}
