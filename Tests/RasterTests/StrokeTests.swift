import Testing
import Raster
import Foundation

/// Stroke areas against closed forms. Strokes are drawn opaque white into a transparent pixmap, so
/// the sum of alpha / 255 is the covered area in pixels².
struct StrokeTests {
    static let white = Paint(color: .white)

    static func area(_ draw: (Pixmap) -> Void) throws -> Double {
        let pm = try Pixmap(width: 200, height: 200)
        draw(pm)
        return CoverageTests.alphaSum(pm)
    }

    static func line(_ a: Point, _ b: Point) -> Path {
        var p = Path(); p.move(to: a); p.line(to: b); return p
    }

    @Test func buttCapLineIsWidthTimesLength() throws {
        let a = try Self.area { $0.stroke(Self.line(Point(x: 20, y: 50.3), Point(x: 120, y: 50.3)),
                                          style: StrokeStyle(width: 6), paint: Self.white) }
        #expect(abs(a - 600) < 0.5)
    }

    @Test func roundCapsAddADisc() throws {
        let w = 10.0
        let a = try Self.area { $0.stroke(Self.line(Point(x: 40, y: 60), Point(x: 140, y: 60)),
                                          style: StrokeStyle(width: w, cap: .round), paint: Self.white) }
        let expected = w * 100 + Double.pi * w * w / 4
        #expect(abs(a - expected) / expected < 0.002)
    }

    @Test func squareCapsAddWSquared() throws {
        let w = 8.0
        let a = try Self.area { $0.stroke(Self.line(Point(x: 40, y: 60), Point(x: 140, y: 60)),
                                          style: StrokeStyle(width: w, cap: .square), paint: Self.white) }
        #expect(abs(a - (w * 100 + w * w)) < 0.5)
    }

    @Test func diagonalLineArea() throws {
        // Rotation does not change the area: w · L.
        let a = try Self.area { $0.stroke(Self.line(Point(x: 20, y: 30), Point(x: 140, y: 120)),
                                          style: StrokeStyle(width: 5), paint: Self.white) }
        #expect(abs(a - 5 * 150) < 1)
    }

    /// A right-angle corner of two segments of length 100 and width w:
    /// bevel: 2·w·100 − w²/4·... computed from the union of two rectangles plus the join.
    @Test func joinsOnARightAngle() throws {
        let w = 10.0, h = w / 2
        var corner = Path()
        corner.move(to: Point(x: 40, y: 150)); corner.line(to: Point(x: 140, y: 150)); corner.line(to: Point(x: 140, y: 50))
        func area(_ join: StrokeStyle.Join) throws -> Double {
            try Self.area { $0.stroke(corner, style: StrokeStyle(width: w, join: join), paint: Self.white) }
        }
        // Two w×100 rectangles overlap in an h×h square at the corner's inner quadrant... the
        // union of the two butt rectangles is 2·100·w − h·w (overlap h×w at the vertex) …
        // exactly: rect A = [40,140]×[145,155], rect B = [135,145]×[50,150]; overlap [135,140]×[145,150].
        let union = 1000.0 + 1000.0 - 25.0
        let bevel = union + h * h / 2           // triangle between (140,150),(145,150),(140,155)
        let miter = union + h * h               // the square [140,145]×[150,155]
        let round = union + Double.pi * h * h / 4
        #expect(abs(try area(.bevel) - bevel) < 0.5)
        #expect(abs(try area(.miter) - miter) < 0.5)
        #expect(abs(try area(.round) - round) < 0.5)
    }

    @Test func miterLimitFallsBackToBevel() throws {
        // Two segments meeting at φ = 30°: miter length / width = 1/sin(15°) ≈ 3.86.
        var p = Path()
        let phi = Double.pi / 6
        p.move(to: Point(x: 20, y: 100)); p.line(to: Point(x: 120, y: 100))
        p.line(to: Point(x: 120 - 100 * cos(phi), y: 100 - 100 * sin(phi)))
        let above = try Self.area { $0.stroke(p, style: StrokeStyle(width: 6, join: .miter, miterLimit: 3.9), paint: Self.white) }
        let below = try Self.area { $0.stroke(p, style: StrokeStyle(width: 6, join: .miter, miterLimit: 3.8), paint: Self.white) }
        let bevel = try Self.area { $0.stroke(p, style: StrokeStyle(width: 6, join: .bevel), paint: Self.white) }
        #expect(abs(below - bevel) < 0.01)
        // The miter adds the kite between the bevel chord and the tip: h²·(1/tan(φ/2) − sin φ … )
        // — here checked as strictly larger, by at least the triangle beyond the bevel.
        let h = 3.0, tip = h / sin(phi / 2)
        let chordDistance = h * cos(Double.pi / 2 - phi / 2)   // bevel chord from the vertex
        let extra = (tip - chordDistance) * h * cos(phi / 2)   // triangle: height × half-base … ×2 / 2
        #expect(abs((above - bevel) - extra) < 0.5)
    }

    @Test func dashesCoverTheirLengths() throws {
        // 100 px line, pattern [10, 5] phase 0: dashes at 0–10, 15–25, …, 90–100 → 7 dashes, 70 px.
        let style = StrokeStyle(width: 4, dash: [10, 5])
        let a = try Self.area { $0.stroke(Self.line(Point(x: 50, y: 50), Point(x: 150, y: 50)), style: style, paint: Self.white) }
        #expect(abs(a - 4 * 70) < 0.5)
        // Phase 12 starts 2 px into the gap: 3 gap, then 10 on … ends: 100 = 3 + 6·15 + 7 → 6·10 + 7 = 67.
        var phased = style; phased.dashPhase = 12
        let b = try Self.area { $0.stroke(Self.line(Point(x: 50, y: 50), Point(x: 150, y: 50)), style: phased, paint: Self.white) }
        #expect(abs(b - 4 * 67) < 0.5)
    }

    @Test func closedRectangleStrokeIsARing() throws {
        var r = Path(rect: Rect(x: 50, y: 50, width: 100, height: 80))
        r.close()
        let a = try Self.area { $0.stroke(r, style: StrokeStyle(width: 4), paint: Self.white) }
        // Outer 104×84 minus inner 96×76 (miter joins keep square corners).
        #expect(abs(a - (104 * 84 - 96 * 76)) < 0.5)
    }

    /// Smooth vertices of a flattened curve (one offset point per side): a stroked circle is the
    /// annulus π((r + w/2)² − (r − w/2)²) = 2π·r·w, for every join style.
    @Test(arguments: [StrokeStyle.Join.round, .miter, .bevel])
    func strokedCircleIsAnAnnulus(join: StrokeStyle.Join) throws {
        let r = 60.0, w = 8.0
        let a = try Self.area { $0.stroke(CoverageTests.circle(cx: 100, cy: 100, r: r), style: StrokeStyle(width: w, join: join), paint: Self.white) }
        let expected = 2 * Double.pi * r * w
        #expect(abs(a - expected) / expected < 0.003, "area \(a), expected \(expected)")
    }

    /// Half width beyond the radius of curvature: the inner offsets fold over, the vertices keep
    /// their pivots, and the stroke is the full disc of radius R = r + w/2 (no hole, no
    /// cancellation). The centre line's chords lie up to the 0.1 px flattening tolerance inside
    /// the circle, which bounds the missing area by 0.1 · 2πR.
    @Test func strokeWiderThanItsCurvatureFillsTheDisc() throws {
        let r = 4.0, w = 12.0, outer = r + w / 2
        let a = try Self.area { $0.stroke(CoverageTests.circle(cx: 100, cy: 100, r: r), style: StrokeStyle(width: w, join: .round), paint: Self.white) }
        let expected = Double.pi * outer * outer
        #expect(abs(a - expected) <= 0.1 * 2 * Double.pi * outer, "area \(a), expected \(expected)")
    }

    @Test func zeroLengthSubpathDrawsCapDots() throws {
        var dot = Path(); dot.move(to: Point(x: 100, y: 100)); dot.line(to: Point(x: 100, y: 100))
        let round = try Self.area { $0.stroke(dot, style: StrokeStyle(width: 10, cap: .round), paint: Self.white) }
        let square = try Self.area { $0.stroke(dot, style: StrokeStyle(width: 10, cap: .square), paint: Self.white) }
        let butt = try Self.area { $0.stroke(dot, style: StrokeStyle(width: 10, cap: .butt), paint: Self.white) }
        #expect(abs(round - Double.pi * 25) / (Double.pi * 25) < 0.01)
        #expect(abs(square - 100) < 0.5)
        #expect(butt == 0)
    }

    @Test func pathologicalDashPatternsStayBounded() throws {
        let a = try Self.area { $0.stroke(Self.line(Point(x: 10, y: 10), Point(x: 190, y: 10)),
                                          style: StrokeStyle(width: 2, dash: [1e-9, 1e-9]), paint: Self.white) }
        #expect(abs(a - 360) < 1)   // drawn solid
    }
}
