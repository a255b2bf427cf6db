import Foundation
import Raster
import Testing

/// The AVX2 and AVX-512 pixel loops (`AVX2Kernels`, `AVX512Kernels`) against the Swift loops
/// they stand for: the same drawing with the AVX2 loops alone and with the AVX-512 ones on must
/// give the words of the Swift loops, for every run length around the eight- and sixteen-pixel
/// blocks and their masked tails. (On a processor without them the runs take the Swift loops
/// and the test holds trivially.)
struct AVX2KernelsTests {
    typealias Generator = DifferentialTests.Generator

    /// The vector loops a drawing can take: none (the Swift loops), AVX2 alone, AVX-512 where a
    /// loop has it.
    enum Kernels: CaseIterable { case swift, avx2, avx512 }

    /// Runs `body` with `kernels` switched on (as far as the processor has them), then restores
    /// the switches.
    static func with<T>(_ kernels: Kernels, _ body: () throws -> T) rethrows -> T {
        let saved = (AVX2Kernels.isEnabled, AVX512Kernels.isEnabled)
        defer { (AVX2Kernels.isEnabled, AVX512Kernels.isEnabled) = saved }
        AVX2Kernels.isEnabled = kernels != .swift && saved.0
        AVX512Kernels.isEnabled = kernels == .avx512 && saved.1
        return try body()
    }

    /// `draw` into a copy of `canvas` with the Swift loops, then with the AVX2 loops and with the
    /// AVX-512 ones; the number of words either differs from the Swift loops' in.
    static func differences(_ canvas: Pixmap, _ draw: (Pixmap) -> Void) throws -> Int {
        let results = try Kernels.allCases.map { kernels in
            try with(kernels) {
                let copy = try Pixmap(width: canvas.width, height: canvas.height)
                copy.words.update(from: canvas.words, count: canvas.width * canvas.height)
                draw(copy)
                return Array(UnsafeBufferPointer(start: copy.words, count: copy.width * copy.height))
            }
        }
        return results.dropFirst().map { zip(results[0], $0).filter { $0 != $1 }.count }.reduce(0, +)
    }

    /// A canvas of random premultiplied pixels.
    static func canvas(_ g: inout Generator, width: Int, height: Int) throws -> Pixmap {
        try TextureTests.image(&g, width: width, height: height, clearBorder: false)
    }

    /// Whole-pixmap fills of sizes around the vector blocks: the same words with every loop, each
    /// the colour's bytes R, G, B, A.
    @Test func fillsMatchTheSwiftLoop() throws {
        let color = PremultipliedColor(r: 0x0A, g: 0x14, b: 0x1E, a: 0x28)
        for (width, height) in [(1, 1), (3, 5), (16, 1), (17, 1), (63, 2), (64, 2), (65, 3), (129, 1), (200, 7)] {
            let canvas = try Pixmap(width: width, height: height)
            #expect(try Self.differences(canvas) { $0.fill(with: color) } == 0, "\(width)×\(height)")
            canvas.fill(with: color)
            #expect((0..<width * height).allSatisfy { canvas.words[$0] == 0x281E_140A }, "\(width)×\(height)")
        }
    }

    /// Solid translucent colours over runs of 1 … 70 pixels of random destination pixels.
    @Test func solidRunsMatchTheSwiftLoop() throws {
        var g = Generator(state: 11)
        let canvas = try Self.canvas(&g, width: 72, height: 70)
        for row in 0..<70 {
            let a = UInt8(g.next() % 255), c = PremultipliedColor(r: UInt8(g.next() % (UInt64(a) + 1)), g: 0, b: a / 2, a: a)
            let differing = try Self.differences(canvas) { pm in
                pm.fill(Rect(x: 1, y: Double(row), width: Double(row + 1), height: 1), paint: Paint(color: c.unpremultiplied))
            }
            #expect(differing == 0, "run of \(row + 1) pixels, colour \(c)")
        }
    }

    /// Translated textures (fractional offsets, translucent and opaque) whose rows are split into
    /// sampled runs of every length. Seeds 7–10: rings around flat interiors
    /// (`TextureTests.ringImage`), larger than the canvas, whose sampled texels the vector loops
    /// read from the extents' strips (from the image where a clipped row's run leaves them) and
    /// the Swift loop from the image.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    func translatedTexturesMatchTheSwiftLoop(seed: UInt64) throws {
        var g = Generator(state: seed)
        let canvas = try Self.canvas(&g, width: 61, height: 47)
        let rings = seed > 6
        let image = rings
            ? try TextureTests.ringImage(&g, width: Int(g.next() % 20) + 80, height: Int(g.next() % 14) + 40)
            : seed % 2 == 0
            ? try TextureTests.flatImage(&g, width: Int(g.next() % 40) + 12, height: Int(g.next() % 30) + 12, ellipse: seed % 3 == 0)
            : try TextureTests.image(&g, width: Int(g.next() % 50) + 1, height: Int(g.next() % 40) + 1, clearBorder: seed % 3 == 0)
        let extents = TexelExtents(of: image)
        // Offsets in 1/64 pixel: x from −left to width − left, y likewise.
        let (width, left, height, top): (UInt64, Int, UInt64, Int) = rings ? (4800, 2400, 3600, 1800) : (3200, 800, 2400, 800)
        for k in 0..<8 {
            let t = Transform(a: 1, b: 0, c: 0, d: 1, tx: Double(Int(g.next() % width) - left) / 64,
                              ty: Double(Int(g.next() % height) - top) / 64)
            let opacity: Float = k % 2 == 0 ? 1 : Float(g.unit())
            let differing = try Self.differences(canvas) { pm in
                pm.drawTexture(image, transform: t, opacity: opacity, extents: k % 3 == 0 ? nil : extents)
            }
            #expect(differing == 0, "seed \(seed), \(t), opacity \(opacity)")
        }
    }

    /// Turned and scaled textures: rows of sampled pixels of every length, with flat interiors
    /// (seeds 1–4) and with random outermost texels (5, 6: rows have pixels sampled with
    /// the checks, which the vector loop hands back).
    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func turnedTexturesMatchTheSwiftLoop(seed: UInt64) throws {
        var g = Generator(state: seed)
        let canvas = try Self.canvas(&g, width: 61, height: 47)
        let image = seed > 4
            ? try TextureTests.image(&g, width: Int(g.next() % 40) + 1, height: Int(g.next() % 30) + 1, clearBorder: false)
            : try TextureTests.flatImage(&g, width: Int(g.next() % 40) + 12, height: Int(g.next() % 30) + 12, ellipse: seed % 2 == 0)
        let extents = TexelExtents(of: image)
        for k in 0..<6 {
            let angle = g.unit() * 2 * Double.pi, scale = 0.5 + g.unit() * 1.5
            let t = Transform(a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle), d: scale * cos(angle),
                              tx: g.unit() * 60, ty: g.unit() * 40)
            let opacity: Float = k % 2 == 0 ? 1 : Float(g.unit())
            let differing = try Self.differences(canvas) { pm in
                pm.drawTexture(image, transform: t, opacity: opacity, extents: k % 3 == 0 ? nil : extents)
            }
            #expect(differing == 0, "seed \(seed), \(t), opacity \(opacity)")
        }
    }

    /// Images under perspective maps, filled over the whole canvas with every spread mode: rows
    /// that enter and leave the image (sampled eight at a time where the texel quads lie inside,
    /// one by one elsewhere), and maps whose horizon crosses the canvas (nothing behind it).
    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func perspectiveImagesMatchTheSwiftLoop(seed: UInt64) throws {
        var g = Generator(state: seed)
        let canvas = try Self.canvas(&g, width: 67, height: 43)
        let image = try TextureTests.image(&g, width: Int(g.next() % 40) + 2, height: Int(g.next() % 30) + 2, clearBorder: seed % 2 == 0)
        let spreads: [SpreadMode] = [.decal, .pad, .repeat, .reflect]
        for k in 0..<8 {
            let angle = g.unit() * 2 * Double.pi, scale = 0.5 + g.unit() * 1.5
            let px = (g.unit() - 0.5) * 0.1, py = (g.unit() - 0.5) * 0.1
            let map = Projective(scale * cos(angle), -scale * sin(angle), g.unit() * 60,
                                 scale * sin(angle), scale * cos(angle), g.unit() * 40, px, py, 1)
            let paint = Paint(shader: .image(ImagePattern(image: image, transform: map, filter: .bilinear, spread: spreads[k % 4])))
            let differing = try Self.differences(canvas) { pm in
                pm.fill(Rect(x: 0, y: 0, width: 67, height: 43), paint: paint)
            }
            #expect(differing == 0, "seed \(seed), \(map), \(spreads[k % 4])")
        }
    }

    /// Round-capped strokes and fills of cubic curves, partly off the canvas, in opaque and
    /// translucent solid colours at full and partial opacity: the vector sweep (cells eight at a
    /// time, `citrine_sweep_solid_avx2` and `_avx512`) against the Swift sweep's quads and spans.
    @Test(arguments: [1, 2, 3, 4])
    func solidPathsMatchTheSwiftSweep(seed: UInt64) throws {
        var g = Generator(state: seed)
        let canvas = try Self.canvas(&g, width: 97, height: 61)
        for k in 0..<16 {
            func point() -> Point { Point(x: g.unit() * 130 - 15, y: g.unit() * 90 - 15) }
            var path = Path()
            path.move(to: point())
            path.cubic(to: point(), control1: point(), control2: point())
            let color = Color(r: Float(g.unit()), g: Float(g.unit()), b: Float(g.unit()), a: k % 3 == 0 ? 1 : Float(g.unit()))
            let paint = Paint(shader: .solid(color), opacity: k % 4 == 1 ? Float(g.unit()) : 1)
            let style = StrokeStyle(width: 0.5 + g.unit() * 9, cap: .round, join: .round)
            let filled = k % 2 == 1
            if filled { path.close() }
            let differing = try Self.differences(canvas) { pm in
                if filled { pm.fill(path, paint: paint) } else { pm.stroke(path, style: style, paint: paint) }
            }
            #expect(differing == 0, "seed \(seed), curve \(k), \(filled ? "filled" : "stroked")")
        }
    }

    /// Wide rings (a 40-gon with a hole of the opposite winding) on a 300-pixel canvas: rows whose
    /// runs without deltas span tens to hundreds of cells, where the vector sweep steps 32 cells
    /// at a time, against the Swift sweep's spans. Seed 3 on a canvas 1 100 pixels wide, where the
    /// vector sweep also asks for the rows ahead of the one it draws.
    @Test(arguments: [1, 2, 3])
    func longRunsMatchTheSwiftSweep(seed: UInt64) throws {
        var g = Generator(state: 90 + seed)
        let width = seed == 3 ? 1100 : 300
        let canvas = try Self.canvas(&g, width: width, height: 90)
        for k in 0..<8 {
            let center = Point(x: 40 + g.unit() * Double(width - 80), y: 20 + g.unit() * 50)
            let outer = 30 + g.unit() * 150, inner = outer * g.unit() * 0.8
            var path = Path()
            for (radius, turn) in [(outer, 1.0), (inner, -1.0)] {
                for i in 0..<40 {
                    let angle = turn * Double(i) * 2 * Double.pi / 40
                    let p = Point(x: center.x + radius * cos(angle), y: center.y + radius * 0.4 * sin(angle))
                    if i == 0 { path.move(to: p) } else { path.line(to: p) }
                }
                path.close()
            }
            let color = Color(r: Float(g.unit()), g: Float(g.unit()), b: Float(g.unit()), a: k % 2 == 0 ? 1 : Float(g.unit()))
            let paint = Paint(shader: .solid(color), opacity: k % 3 == 2 ? Float(g.unit()) : 1)
            let differing = try Self.differences(canvas) { pm in pm.fill(path, paint: paint) }
            #expect(differing == 0, "seed \(seed), ring \(k)")
        }
    }

    /// Random polygons — long and short edges, vertical ones, edges crossing many columns in a
    /// row, nearly horizontal ones — wholly inside the canvas (every edge deposited by
    /// `citrine_deposit_avx2`) or partly off it (clipped pieces, `citrine_deposit_segment_avx2`),
    /// filled under both rules with a gradient, so the Swift sweep runs either way and only the
    /// area accumulation differs between the loops.
    @Test(arguments: [1, 2, 3, 4])
    func polygonDepositsMatchTheSwiftLoop(seed: UInt64) throws {
        var g = Generator(state: 60 + seed)
        let canvas = try Self.canvas(&g, width: 131, height: 77)
        for k in 0..<16 {
            let inside = k % 3 != 0
            func point() -> Point {
                inside ? Point(x: 1 + g.unit() * 129, y: 1 + g.unit() * 75) : Point(x: g.unit() * 200 - 35, y: g.unit() * 130 - 27)
            }
            var path = Path()
            var last = point()
            path.move(to: last)
            for i in 0..<(3 + k) {
                var p = point()
                switch i % 4 {
                case 1: p.x = last.x                                   // vertical
                case 2: p.y = last.y + (g.unit() - 0.5) * 0.2          // nearly horizontal: many columns a row
                default: break
                }
                path.line(to: p)
                last = p
            }
            path.close()
            let stops = [GradientStop(offset: 0, color: Color(r: 0.9, g: 0.2, b: 0.1, a: 0.8)),
                         GradientStop(offset: 1, color: Color(r: 0.1, g: 0.3, b: 0.9, a: Float(g.unit())))]
            let paint = Paint(shader: .linearGradient(LinearGradient(start: Point(x: 0, y: 0), end: Point(x: 131, y: 77), stops: stops)))
            let rule: FillRule = k % 2 == 0 ? .nonZero : .evenOdd
            let differing = try Self.differences(canvas) { pm in pm.fill(path, rule: rule, paint: paint) }
            #expect(differing == 0, "seed \(seed), polygon \(k), \(rule)")
        }
    }

    /// Gaussian blurs (`Pixmap.gaussianBlur`, the exact kernel) of random pixels, for sizes
    /// around the two- and four-pixel vectors and narrower than the kernel, and σ from under a
    /// pixel to the bounded blur's limit: the same words with every loop.
    @Test func blurMatchesTheSwiftLoop() throws {
        var g = Generator(state: 23)
        for (width, height) in [(1, 1), (2, 9), (5, 3), (9, 2), (17, 31), (40, 33), (70, 5), (3, 70), (66, 67)] {
            let canvas = try Self.canvas(&g, width: width, height: height)
            for sigma in [0.4, 1.3, 3, 7.9] {
                #expect(try Self.differences(canvas) { $0.gaussianBlur(sigma: sigma) } == 0, "\(width)×\(height), σ \(sigma)")
            }
        }
    }

    /// Colour matrices over pixmaps of sizes around the eight-pixel blocks: the filters' own
    /// (saturate, hue-rotate, invert with an alpha bias), random ones, and ones whose entries are
    /// ±∞ (colorSaturate with a huge amount: NaN components, stored as 0).
    @Test func colorMatricesMatchTheSwiftLoop() throws {
        var g = Generator(state: 31)
        let saturate: [Float] = [0.6, 0.5, 0.05, 0, 0, 0.15, 1, 0.05, 0, 0, 0.15, 0.5, 0.45, 0, 0, 0, 0, 0, 1, 0]
        let invert: [Float] = [-1, 0, 0, 0, 1, 0, -1, 0, 0, 1, 0, 0, -1, 0, 1, 0, 0, 0, 1, 0.25]
        let overflowing: [Float] = [.infinity, -.infinity, -.infinity, 0, 0, -.infinity, .infinity, -.infinity, 0, 0,
                                    -.infinity, -.infinity, .infinity, 0, 0, 0, 0, 0, 1, 0]
        for (width, height) in [(1, 1), (7, 1), (8, 1), (9, 2), (17, 3), (40, 33)] {
            let canvas = try Self.canvas(&g, width: width, height: height)
            let random = (0..<20).map { _ in Float(g.unit() * 4 - 2) }
            for m in [saturate, invert, overflowing, random] {
                #expect(try Self.differences(canvas) { $0.applyColorMatrix(m) } == 0, "\(width)×\(height), \(m)")
            }
        }
    }

    /// Group surfaces composited at their place (a nearest-filtered image under a whole-texel
    /// translation, blended straight from its words: `citrine_source_over_span_*`, one factor a
    /// span) at every opacity class, over rectangles with whole-pixel and fractional edges (spans
    /// of coverage 255 and lower) of widths around the vector blocks.
    @Test(arguments: [1, 2, 3])
    func groupCompositesMatchTheSwiftLoop(seed: UInt64) throws {
        var g = Generator(state: 120 + seed)
        let canvas = try Self.canvas(&g, width: 71, height: 29)
        let group = try TextureTests.image(&g, width: 64, height: 24, clearBorder: seed == 2)
        for k in 0..<24 {
            let x = Double(Int(g.next() % 20)), y = Double(Int(g.next() % 8))
            let w = Double(1 + Int(g.next() % 50)), h = Double(1 + Int(g.next() % 20))
            let edge = k % 3 == 2 ? 0.4 : 0
            let opacity: Float = [1, 0, 0.5, 1 / 255, 254 / 255][k % 5]
            let place = Transform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
            let paint = Paint(shader: .image(ImagePattern(image: group, transform: place, filter: .nearest, spread: .decal)),
                              opacity: opacity)
            let differing = try Self.differences(canvas) { pm in
                pm.fill(Rect(x: x + edge, y: y, width: w, height: h), paint: paint)
            }
            #expect(differing == 0, "seed \(seed), composite \(k): \(w)×\(h) at \(x), \(y), opacity \(opacity)")
        }
    }

    /// Images drawn at whole-pixel offsets (`Pixmap.draw(_:atX:y:opacity:)`, blended straight
    /// from their words by `citrine_source_over_span_*`, one factor a run) of every width from 1
    /// to 20 — around the eight-pixel block, its overlapped last eight and its four-pixel tail —
    /// from rows all opaque, all transparent, random, and opaque but for one pixel, at every
    /// opacity class.
    @Test func wholePixelImageRowsMatchTheSwiftLoop() throws {
        var g = Generator(state: 160)
        let canvas = try Self.canvas(&g, width: 24, height: 4)
        let rows = try TextureTests.image(&g, width: 20, height: 4, clearBorder: false)
        for x in 0..<20 {
            rows.setPixel(x: x, y: 0, PremultipliedColor(r: 10, g: 200, b: UInt8(x), a: 255))
            rows.setPixel(x: x, y: 1, PremultipliedColor(r: 0, g: 0, b: 0, a: 0))
            rows.setPixel(x: x, y: 3, x == 2 ? PremultipliedColor(r: 9, g: 9, b: 9, a: 99) : PremultipliedColor(r: 1, g: 2, b: 3, a: 255))
        }
        for width in 1...20 {
            let image = try Pixmap(width: width, height: 4)
            for y in 0..<4 { (image.words + y * width).update(from: rows.words + y * 20, count: width) }
            for opacity: Float in [1, 0, 0.5, 1 / 255, 254 / 255] {
                let differing = try Self.differences(canvas) { $0.draw(image, atX: 3, y: 0, opacity: opacity) }
                #expect(differing == 0, "width \(width), opacity \(opacity)")
            }
        }
    }

    /// Rounded rectangles filled with a bilinear image pattern under turned and scaled maps
    /// (the stretch of each span whose texel quads lie inside the image sampled by
    /// `citrine_bilinear_row_avx2`, the pixels before and after it one by one), every spread mode.
    @Test(arguments: [1, 2, 3, 4])
    func bilinearPatternFillsMatchTheSwiftLoop(seed: UInt64) throws {
        var g = Generator(state: 140 + seed)
        let canvas = try Self.canvas(&g, width: 83, height: 59)
        let image = try TextureTests.image(&g, width: Int(g.next() % 40) + 2, height: Int(g.next() % 30) + 2, clearBorder: false)
        let spreads: [SpreadMode] = [.pad, .decal, .repeat, .reflect]
        for k in 0..<8 {
            let angle = g.unit() * 2 * Double.pi, scale = 0.3 + g.unit() * 2.5
            let map = Transform(a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle) * 1.3, d: scale * cos(angle) * 1.3,
                                tx: g.unit() * 80, ty: g.unit() * 60)
            let paint = Paint(shader: .image(ImagePattern(image: image, transform: map, filter: .bilinear, spread: spreads[k % 4])),
                              opacity: k % 3 == 0 ? Float(g.unit()) : 1)
            var path = Path()
            let x = g.unit() * 30 - 5, y = g.unit() * 20 - 5, w = 10 + g.unit() * 70, h = 10 + g.unit() * 50, r = 4.0
            path.move(to: Point(x: x + r, y: y))
            path.line(to: Point(x: x + w - r, y: y))
            path.quad(to: Point(x: x + w, y: y + r), control: Point(x: x + w, y: y))
            path.line(to: Point(x: x + w, y: y + h - r))
            path.quad(to: Point(x: x + w - r, y: y + h), control: Point(x: x + w, y: y + h))
            path.line(to: Point(x: x + r, y: y + h))
            path.quad(to: Point(x: x, y: y + h - r), control: Point(x: x, y: y + h))
            path.line(to: Point(x: x, y: y + r))
            path.quad(to: Point(x: x + r, y: y), control: Point(x: x, y: y))
            path.close()
            let differing = try Self.differences(canvas) { pm in pm.fill(path, paint: paint) }
            #expect(differing == 0, "seed \(seed), fill \(k), \(map), \(spreads[k % 4])")
        }
    }
}
