import Foundation
@testable import Raster
import Testing

/// Rectangles whose corners fall on whole device pixels skip scan conversion
/// (`Rasterizer.pixelRect`): their coverage is 255 inside and 0 outside, and the blitter gets the
/// calls the sweep makes for them. Checked against the general rasterizer (the same rectangle
/// with one more vertex on an edge, which the shortcut does not take) and against the closed
/// form (an opaque colour replaces exactly the pixels inside).
struct PixelRectTests {
    typealias Generator = DifferentialTests.Generator

    /// The rectangle as the shortcut sees it, in either winding, with or without a close or a
    /// last line back to the start.
    static func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, form: Int) -> Path {
        var path = Path()
        let corners = form % 2 == 0
            ? [Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1)]
            : [Point(x: x0, y: y0), Point(x: x0, y: y1), Point(x: x1, y: y1), Point(x: x1, y: y0)]
        path.move(to: corners[0])
        for p in corners.dropFirst() { path.line(to: p) }
        if form % 3 != 0 { path.line(to: corners[0]) }
        if form % 4 != 1 { path.close() }
        return path
    }

    /// The same rectangle with an extra vertex halfway along its third side: the general path.
    static func rectWithExtraVertex(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Path {
        var path = Path()
        path.move(to: Point(x: x0, y: y0))
        path.line(to: Point(x: x1, y: y0))
        path.line(to: Point(x: x1, y: y1))
        path.line(to: Point(x: (x0 + x1) / 2, y: y1))
        path.line(to: Point(x: x0, y: y1))
        path.close()
        return path
    }

    @Test func recognizesOnlyWholePixelRectangles() {
        #expect(Rasterizer.pixelRect(Self.rect(2, 3, 10, 7, form: 0), transform: .identity) == IntRect(x0: 2, y0: 3, x1: 10, y1: 7))
        #expect(Rasterizer.pixelRect(Self.rect(10, 7, 2, 3, form: 1), transform: .identity) == IntRect(x0: 2, y0: 3, x1: 10, y1: 7))
        let shifted = Transform(a: 1, b: 0, c: 0, d: 1, tx: -5, ty: 4)
        #expect(Rasterizer.pixelRect(Self.rect(2, 3, 10, 7, form: 3), transform: shifted) == IntRect(x0: -3, y0: 7, x1: 5, y1: 11))
        #expect(Rasterizer.pixelRect(Self.rect(2, 3, 10.5, 7, form: 0), transform: .identity) == nil)
        #expect(Rasterizer.pixelRect(Self.rect(2, 3, 10, 7, form: 0), transform: Transform(a: 1, b: 0.1, c: 0, d: 1, tx: 0, ty: 0)) == nil)
        #expect(Rasterizer.pixelRect(Self.rectWithExtraVertex(2, 3, 10, 7), transform: .identity) == nil)
        #expect(Rasterizer.pixelRect(Self.rect(2, 3, .nan, 7, form: 0), transform: .identity) == nil)
        #expect(Rasterizer.pixelRect(Self.rect(2, 3, 1e12, 7, form: 0), transform: .identity) == nil)
    }

    /// An opaque colour over a whole-pixel rectangle, partly off the canvas: every pixel inside
    /// is the colour, every other one unchanged (coverage is the overlap area, 0 or 1).
    @Test func opaqueRectanglesCoverWholePixels() throws {
        let canvas = try Pixmap(width: 23, height: 17)
        let red = PremultipliedColor(r: 255, g: 0, b: 0, a: 255), white = PremultipliedColor(r: 255, g: 255, b: 255, a: 255)
        for (x0, y0, x1, y1) in [(2, 3, 10, 7), (-4, -2, 3, 30), (20, 15, 40, 16), (5, 5, 6, 6), (0, 0, 23, 17)] {
            canvas.fill(with: white)
            canvas.fill(Self.rect(Double(x0), Double(y0), Double(x1), Double(y1), form: x0 & 3),
                        paint: Paint(color: Color(r: 1, g: 0, b: 0, a: 1)))
            for y in 0..<17 {
                for x in 0..<23 {
                    let inside = x >= x0 && x < x1 && y >= y0 && y < y1
                    #expect(canvas.pixel(x: x, y: y) == (inside ? red : white), "(\(x), \(y)) of \(x0), \(y0), \(x1), \(y1)")
                }
            }
        }
    }

    /// Random rectangles (whole-pixel, some narrower than a quad, some off the canvas, and some
    /// fractional, which both draws rasterize) in every kind of paint, under both rules, with a
    /// clip mask, and into a band: the same words as the general rasterizer's.
    @Test(arguments: [1, 2, 3, 4])
    func rectanglesMatchTheRasterizer(seed: UInt64) throws {
        var g = Generator(state: 90 + seed)
        let width = 53, height = 37
        let canvas = try AVX2KernelsTests.canvas(&g, width: width, height: height)
        let image = try TextureTests.image(&g, width: 19, height: 13, clearBorder: false)
        let clip = try Mask(width: width, height: height)
        for i in 0..<(width * height) { clip.data[i] = UInt8(g.next() % 256) }
        for k in 0..<48 {
            func coordinate(_ size: Int) -> Double {
                let v = Double(Int(g.next() % UInt64(size + 20))) - 10
                return k % 7 == 6 ? v + 0.25 : v
            }
            let x0 = coordinate(width), y0 = coordinate(height)
            let x1 = k % 5 == 0 ? x0 + Double(g.next() % 5) : coordinate(width), y1 = coordinate(height)
            let paint: Paint
            switch k % 6 {
            case 0: paint = Paint(color: Color(r: Float(g.unit()), g: Float(g.unit()), b: Float(g.unit()), a: Float(g.unit())))
            case 1: paint = Paint(shader: .solid(Color(r: 0.2, g: 0.5, b: 0.9, a: 1)), opacity: Float(g.unit()))
            case 2:
                let offset = Transform(a: 1, b: 0, c: 0, d: 1, tx: Double(Int(g.next() % 40)), ty: Double(Int(g.next() % 30)))
                paint = Paint(shader: .image(ImagePattern(image: image, transform: offset, filter: .nearest, spread: .decal)),
                              opacity: Float(g.unit()))
            case 3:
                let map = Transform(a: 1.7, b: 0.3, c: -0.4, d: 1.2, tx: g.unit() * 20, ty: g.unit() * 20)
                paint = Paint(shader: .image(ImagePattern(image: image, transform: map, filter: .bilinear, spread: .pad)))
            case 4:
                let stops = [GradientStop(offset: 0, color: Color(r: 0.9, g: 0.2, b: 0.1, a: 0.8)),
                             GradientStop(offset: 1, color: Color(r: 0.1, g: 0.3, b: 0.9, a: 1))]
                paint = Paint(shader: .linearGradient(LinearGradient(start: Point(x: 3, y: 0), end: Point(x: 50, y: 9), stops: stops)))
            default: paint = Paint(color: Color(r: 0.3, g: 0.6, b: 0.1, a: 0.7), blendMode: .multiply)
            }
            let rule: FillRule = k % 2 == 0 ? .nonZero : .evenOdd
            let masked = k % 4 == 3 ? clip : nil
            let fast = Self.rect(x0, y0, x1, y1, form: k)
            let general = Self.rectWithExtraVertex(x0, y0, x1, y1)
            let band = Int(g.next() % UInt64(height))..<height
            for banded in [false, true] {
                var results: [[UInt32]] = []
                for path in [fast, general] {
                    let frame = try Pixmap(width: width, height: height)
                    frame.words.update(from: canvas.words, count: width * height)
                    let target = banded ? Pixmap(band: band, of: frame) : frame
                    target.fill(path, rule: rule, paint: paint, clip: masked)
                    results.append(Array(UnsafeBufferPointer(start: frame.words, count: width * height)))
                }
                #expect(results[0] == results[1], "seed \(seed), rectangle \(k): \(x0), \(y0), \(x1), \(y1), banded \(banded)")
            }
        }
    }
}
