import Testing
import Raster

/// Coverage of filled shapes against closed-form areas. Shapes are filled opaque white into a
/// transparent pixmap, so a pixel's alpha is its coverage (0…255).
struct CoverageTests {
    static func alphaSum(_ pixmap: Pixmap) -> Double {
        var sum = 0.0
        for y in 0..<pixmap.height { for x in 0..<pixmap.width { sum += Double(pixmap.pixel(x: x, y: y).a) } }
        return sum / 255
    }

    static func circle(cx: Double, cy: Double, r: Double) -> Path {
        // Four cubics with the standard k = 4/3·(√2−1) (error ≈ 2.7e-4 · r).
        let k = 0.5522847498307936 * r
        var p = Path()
        p.move(to: Point(x: cx + r, y: cy))
        p.cubic(to: Point(x: cx, y: cy + r), control1: Point(x: cx + r, y: cy + k), control2: Point(x: cx + k, y: cy + r))
        p.cubic(to: Point(x: cx - r, y: cy), control1: Point(x: cx - k, y: cy + r), control2: Point(x: cx - r, y: cy + k))
        p.cubic(to: Point(x: cx, y: cy - r), control1: Point(x: cx - r, y: cy - k), control2: Point(x: cx - k, y: cy - r))
        p.cubic(to: Point(x: cx + r, y: cy), control1: Point(x: cx + k, y: cy - r), control2: Point(x: cx + r, y: cy - k))
        p.close()
        return p
    }

    static let white = Paint(color: .white)

    @Test func pixelAlignedRectIsExact() throws {
        let pm = try Pixmap(width: 20, height: 20)
        pm.fill(Rect(x: 2, y: 3, width: 10, height: 5), paint: Self.white)
        for y in 0..<20 {
            for x in 0..<20 {
                let inside = (2..<12).contains(x) && (3..<8).contains(y)
                #expect(pm.pixel(x: x, y: y).a == (inside ? 255 : 0), "pixel \(x),\(y)")
            }
        }
    }

    @Test func halfCoveredColumnIsHalf() throws {
        let pm = try Pixmap(width: 20, height: 4)
        pm.fill(Rect(x: 10.5, y: 0, width: 5, height: 4), paint: Self.white)
        #expect(pm.pixel(x: 10, y: 1).a == 128)   // 0.5 · 255 = 127.5, rounded
        #expect(pm.pixel(x: 11, y: 1).a == 255)
        #expect(pm.pixel(x: 15, y: 1).a == 128)
        #expect(pm.pixel(x: 9, y: 1).a == 0)
    }

    @Test func circleAreaMatchesPiRSquared() throws {
        // The Bézier circle's area exceeds πr² by ≈ 0.03 %; flattening to chords within the
        // 0.05 px tolerance loses at most (2/3)·0.05·2πr, i.e. 0.067/r of the area; 8-bit
        // rounding adds noise at the rim. Large circles: 0.1 %, small ones: the flattening bound.
        for (r, bound) in [(100.0, 0.001), (37.25, 0.002), (10.0, 0.007), (3.3, 0.02)] {
            let pm = try Pixmap(width: 220, height: 220)
            pm.fill(Self.circle(cx: 110.3, cy: 109.7, r: r), paint: Self.white)
            let expected = Double.pi * r * r
            #expect(abs(Self.alphaSum(pm) - expected) / expected < bound, "r = \(r)")
        }
    }

    @Test func triangleArea() throws {
        let pm = try Pixmap(width: 64, height: 64)
        var p = Path()
        p.move(to: Point(x: 3.2, y: 5.1)); p.line(to: Point(x: 60.7, y: 20.3)); p.line(to: Point(x: 17.9, y: 58.4)); p.close()
        pm.fill(p, paint: Self.white)
        // Shoelace formula.
        let area = abs((60.7 - 3.2) * (58.4 - 5.1) - (17.9 - 3.2) * (20.3 - 5.1)) / 2
        #expect(abs(Self.alphaSum(pm) - area) < 0.5)
    }

    @Test func evenOddAndNonZeroOnOverlappingSquares() throws {
        var p = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
        let inner = Path(rect: Rect(x: 5, y: 5, width: 10, height: 10))
        p.verbs += inner.verbs; p.points += inner.points
        let nz = try Pixmap(width: 20, height: 20)
        nz.fill(p, rule: .nonZero, paint: Self.white)
        let eo = try Pixmap(width: 20, height: 20)
        eo.fill(p, rule: .evenOdd, paint: Self.white)
        #expect(nz.pixel(x: 7, y: 7).a == 255)
        #expect(eo.pixel(x: 7, y: 7).a == 0)
        #expect(abs(Self.alphaSum(nz) - 175) < 1e-9)   // 100 + 100 − 25
        #expect(abs(Self.alphaSum(eo) - 150) < 1e-9)   // 175 − 25
    }

    @Test func shapesPartlyOffCanvasAreClipped() throws {
        let pm = try Pixmap(width: 10, height: 10)
        pm.fill(Rect(x: -5, y: -5, width: 10, height: 10), paint: Self.white)
        #expect(abs(Self.alphaSum(pm) - 25) < 1e-9)
        // Half of a circle centred on the left edge: area πr²/2.
        let pm2 = try Pixmap(width: 80, height: 80)
        pm2.fill(Self.circle(cx: 0, cy: 40, r: 30), paint: Self.white)
        #expect(abs(Self.alphaSum(pm2) - Double.pi * 450) / (Double.pi * 450) < 0.003)
    }

    @Test func badGeometryDrawsNothing() throws {
        let pm = try Pixmap(width: 10, height: 10)
        var nan = Path()
        nan.move(to: Point(x: 1, y: 1)); nan.line(to: Point(x: .nan, y: 5)); nan.line(to: Point(x: 8, y: 8)); nan.close()
        pm.fill(nan, paint: Self.white)
        pm.fill(Path(), paint: Self.white)
        pm.fill(Rect(x: 1, y: 1, width: 0, height: 5), paint: Self.white)
        #expect(Self.alphaSum(pm) == 0)
        // Huge coordinates: clipped, no hang; the visible part is the whole canvas.
        pm.fill(Rect(x: -1e30, y: -1e30, width: 2e30, height: 2e30), paint: Self.white)
        pm.fill(Self.circle(cx: 1e15, cy: 1e15, r: 1e16), paint: Self.white)
        #expect(Self.alphaSum(pm) == 100)
    }

    @Test func sizeLimitsAreRefused() {
        #expect(throws: RasterError.self) { try Pixmap(width: 100_000, height: 10) }
        #expect(throws: RasterError.self) { try Pixmap(width: -1, height: 10) }
        #expect(throws: RasterError.self) { try Pixmap(width: 30_000, height: 30_000) }
    }
}
