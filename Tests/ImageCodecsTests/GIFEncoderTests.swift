import ImageCodecs
import Raster
import TestSupport
import Testing

/// The GIF encoder, checked by decoding its files with Pillow (an independent decoder that
/// composites frames as a viewer shows them: disposal, transparency, local tables).
@Suite(.serialized)
struct GIFEncoderTests {
    static let fps30 = FrameRate(frames: 30, seconds: 1)!

    /// A ≤ 255-colour animation comes back exactly: frame count, pixels, durations, loop.
    /// Frame 0 holds all 120 colours, so even one global table (made from frame 0) is exact.
    @Test(arguments: [GIFPaletteStrategy.automatic, .global, .perFrame])
    func fewColoursComeBackExactly(palette: GIFPaletteStrategy) throws {
        let colors = GIFTesting.colorSet(120, seed: 7)
        var frames: [Pixmap] = []
        for k in 0..<5 {
            let p = try Pixmap(width: 64, height: 40)
            var rng = GIFTesting.Random(seed: UInt64(k + 1))
            for y in 0..<40 {
                for x in 0..<64 {
                    // Blocks of 4×4 from the colour set; frame k shifts the lower half.
                    let c = colors[(x / 4 + y / 4 * 16 + (y >= 20 ? k * 3 : 0) + Int(rng.next() % 2)) % colors.count]
                    p.setPixel(x: x, y: y, c)
                }
            }
            frames.append(p)
        }
        // Exact tables are never dithered, whatever the option.
        for dithering in [GIFDithering.ordered, .diffusion] {
            let options = GIFOptions(dithering: dithering, palette: palette)
            let decoded = try GIFTesting.roundTrip(frames, rate: Self.fps30, options: options)
            #expect(decoded.format == "GIF")
            #expect(decoded.loop == 0)
            #expect(decoded.frames.count == 5)
            // 30 fps: frame i lasts round(100(i+1)/30) − round(100i/30) cs: 3, 4, 3, 3, 4.
            #expect(decoded.frames.map(\.duration) == [30, 40, 30, 30, 40])
            for (k, frame) in decoded.frames.enumerated() {
                #expect(GIFTesting.maxDifference(frame, frames[k]) == 0, "frame \(k), \(dithering)")
            }
        }
    }

    /// A smooth gradient of 12 288 colours (a plane through RGB space) through 255 colours,
    /// undithered. Reference: the mean squared error of a naive 255-colour quantizer — the
    /// image cut into 15 × 17 blocks, each block's pixels replaced by their mean colour —
    /// computed here (for a uniform 2-D spread of colours, square cells are within a few per
    /// cent of the best 255-cell partition). The encoder's error must not exceed it (measured:
    /// 51.8 against 54.7 per pixel, summed over channels), and no channel may be off by more
    /// than 12 levels (measured: 9; a block of the naive grid spans up to 18 levels of red).
    @Test func gradientBeatsANaiveQuantizer() throws {
        let width = 128, height = 96
        let p = try Pixmap(width: width, height: height)
        func color(_ x: Int, _ y: Int) -> SIMD3<Int> { SIMD3(x * 2, y * 254 / 95, (x + y) * 255 / 222) }
        for y in 0..<height {
            for x in 0..<width {
                let c = color(x, y)
                p.setPixel(x: x, y: y, PremultipliedColor(r: UInt8(c.x), g: UInt8(c.y), b: UInt8(c.z), a: 255))
            }
        }
        var naive = 0.0
        for by in 0..<17 {
            for bx in 0..<15 {
                let xs = (bx * width / 15)..<((bx + 1) * width / 15), ys = (by * height / 17)..<((by + 1) * height / 17)
                var sum = SIMD3<Double>.zero
                for y in ys { for x in xs { sum += SIMD3<Double>(color(x, y)) } }
                let mean = sum / Double(xs.count * ys.count)
                for y in ys { for x in xs { let e = SIMD3<Double>(color(x, y)) - mean; naive += (e * e).sum() } }
            }
        }
        naive /= Double(width * height)
        let decoded = try GIFTesting.roundTrip([p], rate: Self.fps30, options: GIFOptions(dithering: .none))
        let want = GIFTesting.expected(p)
        var total = 0.0, worst = 0
        for i in 0..<(width * height * 4) where i % 4 != 3 {
            let e = abs(Int(want[i]) - Int(decoded.frames[0].rgba[i]))
            total += Double(e * e)
            worst = max(worst, e)
        }
        let mse = total / Double(width * height)
        #expect(mse <= naive, "squared error \(mse) per pixel against \(naive) for the naive grid")
        #expect(worst <= 12, "max error \(worst)")
    }

    /// Frame i lasts round(100(i+1)/fps) − round(100i/fps) cs, summing to round(100n/fps).
    @Test(arguments: [(30, 1), (30_000, 1_001), (24, 1), (25, 1), (12, 1)])
    func delaysAccumulateToTheExactDuration(frames fpsFrames: Int, seconds: Int) throws {
        let rate = FrameRate(frames: fpsFrames, seconds: seconds)!
        let n = 13
        let source = try GIFTesting.distinctFrames(n, width: 8, height: 6)
        let decoded = try GIFTesting.roundTrip(source, rate: rate, options: GIFOptions())
        func start(_ i: Int) -> Int { Int((Double(100 * i * seconds) / Double(fpsFrames)).rounded()) }
        #expect(decoded.frames.count == n)
        #expect(decoded.frames.map(\.duration) == (0..<n).map { Double(10 * (start($0 + 1) - start($0))) })
        #expect(decoded.frames.map(\.duration).reduce(0, +) == Double(10 * start(n)))
    }

    /// Above 50 fps no frame is shorter than 2 cs: a frame beginning under 2 cs after the frame
    /// on screen began is skipped; each written frame shows the source frame current at its
    /// start, and the total is still round(100n/fps).
    @Test(arguments: [60, 100, 240])
    func highRatesKeepDelaysOfTwoCentisecondsOrMore(fps: Int) throws {
        let rate = FrameRate(frames: fps, seconds: 1)!
        let n = 25
        let source = try GIFTesting.distinctFrames(n, width: 8, height: 6)
        let decoded = try GIFTesting.roundTrip(source, rate: rate, options: GIFOptions())
        func start(_ i: Int) -> Int { Int((Double(100 * i) / Double(fps)).rounded()) }
        let durations = decoded.frames.map(\.duration)
        #expect(durations.allSatisfy { $0 >= 20 }, "\(durations)")
        #expect(durations.reduce(0, +) == Double(10 * start(n)))
        var t = 0
        for frame in decoded.frames {
            let current = (0..<n).last { start($0) <= t }!
            #expect(GIFTesting.maxDifference(frame, source[current]) == 0, "at \(t) cs")
            t += Int(frame.duration) / 10
        }
    }

    /// Identical consecutive frames merge into one whose delay is the sum; the total is exact.
    @Test func identicalFramesMerge() throws {
        let distinct = try GIFTesting.distinctFrames(3, width: 8, height: 6)
        let sequence = [0, 0, 0, 1, 1, 2, 0].map { distinct[$0] }
        let rate = FrameRate(frames: 10, seconds: 1)!
        let bytes = try GIFTesting.encode(sequence, rate: rate, options: GIFOptions())
        let decoded = try GIFTesting.decode(bytes)
        #expect(decoded.frames.map(\.duration) == [300, 200, 100, 100])
        for (frame, k) in zip(decoded.frames, [0, 1, 2, 0]) { #expect(GIFTesting.maxDifference(frame, distinct[k]) == 0) }
    }

    /// A single frame is written even when it lasts under 2 cs; a last frame under 2 cs after a
    /// written one gives its time to it (100 fps, 3 frames: 0 at 0 cs, 1 skipped, 2 at 2 cs
    /// lasting 1 cs → dropped; frame 0 lasts all 3 cs).
    @Test func shortLastFrames() throws {
        let source = try GIFTesting.distinctFrames(3, width: 4, height: 4)
        let single = try GIFTesting.roundTrip([source[0]], rate: FrameRate(frames: 100, seconds: 1)!, options: GIFOptions())
        #expect(single.frames.map(\.duration) == [10])
        let three = try GIFTesting.roundTrip(source, rate: FrameRate(frames: 100, seconds: 1)!, options: GIFOptions())
        #expect(three.frames.map(\.duration) == [30])
        #expect(GIFTesting.maxDifference(three.frames[0], source[0]) == 0)
    }

    /// Delays beyond GIF's 65 535 cs continue in empty frames: 1 frame per 1 000 s.
    @Test func delaysOverTheFieldLimitContinueInEmptyFrames() throws {
        let source = try GIFTesting.distinctFrames(2, width: 5, height: 3)
        let rate = FrameRate(frames: 1, seconds: 1_000)!
        let bytes = try GIFTesting.encode(source, rate: rate, options: GIFOptions())
        let blocks = try GIFBlocks.parse(bytes)
        #expect(blocks.frames.map(\.delay) == [65_535, 34_465, 65_535, 34_465])
        let decoded = try GIFTesting.decode(bytes)
        #expect(decoded.frames.count == 4)
        for (frame, k) in zip(decoded.frames, [0, 0, 1, 1]) { #expect(GIFTesting.maxDifference(frame, source[k]) == 0) }
    }

    /// A small square moving over a static background: frames after the first code only the
    /// square's old and new place (checked in the file's image descriptors), the decoded frames
    /// are the source frames, and the file is far smaller than the frames coded whole.
    @Test func movingSquareCodesOnlyWhatChanged() throws {
        let bands = GIFTesting.colorSet(24, seed: 3)
        let red = PremultipliedColor(r: 230, g: 20, b: 30, a: 255)
        var frames: [Pixmap] = []
        var squares: [(Int, Int)] = []
        for k in 0..<8 {
            let p = try Pixmap(width: 96, height: 64)
            for y in 0..<64 { for x in 0..<96 { p.setPixel(x: x, y: y, bands[(x / 4 + y / 16) % bands.count]) } }
            let sx = 6 + 9 * k, sy = 10 + 4 * k
            for y in sy..<(sy + 8) { for x in sx..<(sx + 8) { p.setPixel(x: x, y: y, red) } }
            squares.append((sx, sy))
            frames.append(p)
        }
        let rate = FrameRate(frames: 20, seconds: 1)!
        let bytes = try GIFTesting.encode(frames, rate: rate, options: GIFOptions())
        let blocks = try GIFBlocks.parse(bytes)
        #expect(blocks.frames.count == 8)
        #expect(blocks.frames[0].width == 96 && blocks.frames[0].height == 64)
        for k in 1..<8 {
            let (ax, ay) = squares[k - 1], (bx, by) = squares[k]
            let f = blocks.frames[k]
            #expect(f.x == min(ax, bx) && f.y == min(ay, by), "frame \(k)")
            #expect(f.width == max(ax, bx) + 8 - min(ax, bx) && f.height == max(ay, by) + 8 - min(ay, by), "frame \(k)")
            #expect(f.disposal == 1 && f.transparentIndex != nil)
        }
        let decoded = try GIFTesting.decode(bytes)
        for k in 0..<8 { #expect(GIFTesting.maxDifference(decoded.frames[k], frames[k]) == 0, "frame \(k)") }
        let whole = try frames.reduce(0) { $0 + (try GIFTesting.encode([$1], rate: rate, options: GIFOptions())).count }
        #expect(bytes.count * 4 < whole, "\(bytes.count) bytes against \(whole) for the frames coded whole")
    }

    /// Dithering never makes static areas crawl: with a background needing dithering (a
    /// gradient of 3 072 colours), every decoded pixel the moving square never touches is the
    /// same in every frame.
    @Test(arguments: [GIFDithering.ordered, .diffusion, .none])
    func staticAreasAreStable(dithering: GIFDithering) throws {
        let width = 64, height = 48, frameCount = 5
        var frames: [Pixmap] = []
        for k in 0..<frameCount {
            let p = try Pixmap(width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    p.setPixel(x: x, y: y, PremultipliedColor(r: UInt8(x * 4), g: UInt8(y * 5), b: 90, a: 255))
                }
            }
            for y in 20..<28 { for x in (4 + 6 * k)..<(12 + 6 * k) { p.setPixel(x: x, y: y, PremultipliedColor(r: 250, g: 250, b: 250, a: 255)) } }
            frames.append(p)
        }
        let decoded = try GIFTesting.roundTrip(frames, rate: Self.fps30, options: GIFOptions(dithering: dithering))
        #expect(decoded.frames.count == frameCount)
        var moved = 0
        for y in 0..<height {
            for x in 0..<width where !(20..<28).contains(y) || x >= 12 + 6 * (frameCount - 1) {
                let i = 4 * (y * width + x)
                for frame in decoded.frames.dropFirst() where frame.rgba[i..<(i + 4)] != decoded.frames[0].rgba[i..<(i + 4)] {
                    moved += 1
                }
            }
        }
        #expect(moved == 0)
    }
}

/// Helpers shared by the GIF tests.
enum GIFTesting {
    /// Deterministic test data.
    typealias Random = SplitMix64

    /// `count` distinct opaque colours.
    static func colorSet(_ count: Int, seed: UInt64) -> [PremultipliedColor] {
        var rng = Random(seed: seed)
        var seen = Set<UInt32>()
        var out: [PremultipliedColor] = []
        while out.count < count {
            let c = PremultipliedColor(r: rng.byte(), g: rng.byte(), b: rng.byte(), a: 255)
            if seen.insert(UInt32(c.r) | UInt32(c.g) << 8 | UInt32(c.b) << 16).inserted { out.append(c) }
        }
        return out
    }

    /// `count` frames, each a different flat colour with a different dot.
    static func distinctFrames(_ count: Int, width: Int, height: Int) throws -> [Pixmap] {
        let colors = colorSet(count + 1, seed: 99)
        return try (0..<count).map { k in
            let p = try Pixmap(width: width, height: height)
            p.fill(with: colors[k])
            p.setPixel(x: k % width, y: (k / width) % height, colors[count])
            return p
        }
    }

    /// Encodes `frames` into memory, writes the file, decodes it with Pillow.
    static func roundTrip(_ frames: [Pixmap], rate: FrameRate, options: GIFOptions) throws -> PillowDecoder.Decoded {
        let bytes = try encode(frames, rate: rate, options: options)
        return try decode(bytes)
    }

    static func encode(_ frames: [Pixmap], rate: FrameRate, options: GIFOptions) throws -> [UInt8] {
        let sink = MemorySink()
        let encoder = try GIFEncoder(sink: sink, width: frames[0].width, height: frames[0].height, rate: rate, options: options)
        for f in frames { try encoder.append(f) }
        try encoder.finish()
        return sink.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> PillowDecoder.Decoded {
        let path = try TemporaryFolder.make() + "/test.gif"
        try TemporaryFolder.write(bytes, to: path)
        return try PillowDecoder.decode(path)
    }

    /// The straight-alpha RGBA8 a viewer should show for `pixmap` under threshold alpha:
    /// un-premultiplied colour, alpha 255, or (0, 0, 0, 0) below the threshold.
    static func expected(_ pixmap: Pixmap, threshold: UInt8 = 128) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: pixmap.width * pixmap.height * 4)
        for i in 0..<pixmap.width * pixmap.height {
            let a = Int(pixmap.pixels[4 * i + 3])
            if a < Int(threshold) { continue }
            for k in 0..<3 {
                let c = Int(pixmap.pixels[4 * i + k])
                out[4 * i + k] = a == 0 ? 0 : UInt8(min(255, (c * 255 + a / 2) / a))
            }
            out[4 * i + 3] = 255
        }
        return out
    }

    /// Largest per-channel difference between a decoded frame and the expected frame (colour of
    /// transparent pixels ignored).
    static func maxDifference(_ frame: PillowDecoder.Frame, _ pixmap: Pixmap, threshold: UInt8 = 128) -> Int {
        let want = expected(pixmap, threshold: threshold)
        var worst = 0
        for i in 0..<pixmap.width * pixmap.height {
            if want[4 * i + 3] != frame.rgba[4 * i + 3] { return 255 }
            if want[4 * i + 3] == 0 { continue }
            for k in 0..<3 { worst = max(worst, abs(Int(want[4 * i + k]) - Int(frame.rgba[4 * i + k]))) }
        }
        return worst
    }
}
