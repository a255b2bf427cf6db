import Foundation
import Testing
@testable import Raster

/// A path's cost follows what it draws. Fills cull edges that cannot change a pixel of
/// the target (and stand a curve off it for its chord) once they have made
/// `EdgeList.foldingStart` edges, strokes of paths over `Pixmap.strokeCullingPoints` points leave
/// out the runs of segments whose stroke cannot reach it, and a fill or stroke with more edges
/// than the rasterizer holds at once is drawn in batches. Each path here is large enough to be
/// culled. Expected areas are closed forms (as in `StrokeTests`: opaque
/// white on transparent, so Σ alpha / 255 is the covered area in pixels²); the batched draws
/// are also compared pixel for pixel with the same draw held at once, which they must equal.
struct LargePathTests {
    static let white = StrokeTests.white

    /// A zigzag of `count` segments between y = `low` and y = `high`, `step` apart in x, from x0.
    static func zigzag(from x0: Double, count: Int, step: Double, low: Double, high: Double, into path: inout Path) {
        for i in 1...count { path.line(to: Point(x: x0 + Double(i) * step, y: i % 2 == 0 ? low : high)) }
    }

    /// A 200×100 pixmap with `draw` done in it.
    static func drawn(_ draw: (Pixmap) -> Void) throws -> Pixmap {
        let pixmap = try Pixmap(width: 200, height: 100)
        draw(pixmap)
        return pixmap
    }

    static func samePixels(_ a: Pixmap, _ b: Pixmap) -> Bool {
        (0..<(a.width * a.height * 4)).allSatisfy { a.pixels[$0] == b.pixels[$0] }
    }

    /// A rectangle from far left of the target to x = 120, rows 20…80, whose left part is a
    /// zigzag of 100 000 segments between y = −5 000 and 5 000 wholly left of the target: the
    /// culled edges add up to one vertical on the target's left edge, and the fill covers
    /// 120 × 60 pixels of the target — with either fill rule, the zigzag's back-and-forth adding
    /// no winding of its own where it passes (it lies left of the target).
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func windingFromLeftOfTheTargetStays(rule: FillRule) throws {
        var path = Path()
        path.move(to: Point(x: 120, y: 20))
        path.line(to: Point(x: 120, y: 80))
        path.line(to: Point(x: -200_000, y: 80))
        path.line(to: Point(x: -200_000, y: 20))
        path.line(to: Point(x: -150_000, y: 20))
        Self.zigzag(from: -150_000, count: 100_000, step: 1, low: 20, high: -5_000, into: &path)
        path.close()
        let pixmap = try Self.drawn { $0.fill(path, rule: rule, paint: Self.white) }
        #expect(abs(CoverageTests.alphaSum(pixmap) - 120 * 60) < 0.5)
    }

    /// A disc of radius 10 000 centred 9 000 px left of the target covers all of it (its
    /// farthest corner is 9 200.1 px from the centre); two of its four cubics lie wholly off
    /// the target and are drawn as their chords (after a zigzag of 5 000 edges right of the
    /// target, which makes the fill large enough to cull).
    @Test func curvesOffTheTargetKeepTheirWinding() throws {
        var path = Path()
        path.move(to: Point(x: 300, y: 0))
        Self.zigzag(from: 300, count: 5_000, step: 0.01, low: 0, high: 100, into: &path)
        path.close()
        let circle = CoverageTests.circle(cx: -9_000, cy: 50, r: 10_000)
        path.verbs += circle.verbs
        path.points += circle.points
        let pixmap = try Self.drawn { $0.fill(path, paint: Self.white) }
        #expect(abs(CoverageTests.alphaSum(pixmap) - 200 * 100) < 0.5)
    }

    /// A path with edges wholly right of, above and below the target (zigzags of 50 000
    /// segments each) around a 40 × 40 square inside it: only the square is drawn.
    @Test func edgesRightAboveAndBelowTheTargetAreCulled() throws {
        var path = Path()
        path.move(to: Point(x: 80, y: 30)); path.line(to: Point(x: 120, y: 30))
        path.line(to: Point(x: 120, y: 70)); path.line(to: Point(x: 80, y: 70)); path.close()
        for (x0, low, high) in [(300.0, 0.0, 100.0), (0.0, -500.0, -1.0), (0.0, 101.0, 900.0)] {
            path.move(to: Point(x: x0, y: low))
            Self.zigzag(from: x0, count: 50_000, step: 0.003, low: low, high: high, into: &path)
            path.close()
        }
        let pixmap = try Self.drawn { $0.fill(path, paint: Self.white) }
        #expect(abs(CoverageTests.alphaSum(pixmap) - 40 * 40) < 0.5)
    }

    /// A regular 100 000-gon of radius 40 (area (n/2)·r²·sin(2π/n)), as two halves whose chords
    /// cancel, and between them a subpath with a NaN point (dropped): filled holding at most 64 edges at a time — flattened
    /// twice, deposited in batches — it draws the same pixels as held at once.
    @Test func aFillOverItsHeldEdgesDrawsTheSamePixels() throws {
        let n = 100_000, r = 40.0
        var path = Path()
        func vertex(_ i: Int) -> Point {
            Point(x: 100 + r * cos(2 * Double.pi * Double(i) / Double(n)), y: 50 + r * sin(2 * Double.pi * Double(i) / Double(n)))
        }
        path.move(to: vertex(0))
        for i in 1...(n / 2) { path.line(to: vertex(i)) }
        path.close()
        path.move(to: Point(x: 10, y: 10)); path.line(to: Point(x: .nan, y: 90)); path.line(to: Point(x: 20, y: 90)); path.close()
        path.move(to: vertex(n / 2))
        for i in (n / 2 + 1)...n { path.line(to: vertex(i)) }
        path.close()
        let held = try Self.drawn { $0.fill(path, paint: Self.white) }
        let batched = try Self.drawn { pixmap in
            var blitter = PaintBlitter(target: pixmap, paint: Self.white, clip: nil)
            pixmap.rasterizer.fill(rule: .nonZero, antiAlias: true, clip: IntRect(x0: 0, y0: 0, x1: 200, y1: 100),
                                   rows: 0..<100, into: &blitter, heldEdges: 64) { sink in
                Flattener.walk(path, transform: .identity, tolerance: Flattener.tolerance, into: &sink)
            }
        }
        #expect(Self.samePixels(held, batched))
        let area = Double(n) / 2 * r * r * sin(2 * Double.pi / Double(n))
        #expect(abs(CoverageTests.alphaSum(held) - area) < 1.5)
    }

    /// A stroke (width 4, butt caps) along y = 50 across the target, whose path goes on as
    /// zigzags of 50 000 segments far left and far right of it: only the part on the target is
    /// outlined, 4 × 200 pixels.
    @Test func strokeRunsOffTheTargetAreLeftOut() throws {
        var path = Path()
        path.move(to: Point(x: -5_000, y: 5_000))
        Self.zigzag(from: -5_000, count: 50_000, step: 0.09, low: 5_000, high: 4_000, into: &path)
        path.line(to: Point(x: -500, y: 50))
        path.line(to: Point(x: 700, y: 50))
        Self.zigzag(from: 700, count: 50_000, step: 0.09, low: -3_000, high: -4_000, into: &path)
        let pixmap = try Self.drawn { $0.stroke(path, style: StrokeStyle(width: 4), paint: Self.white) }
        #expect(abs(CoverageTests.alphaSum(pixmap) - 4 * 200) < 0.5)
    }

    /// A closed path whose start, (100, 50), is on the target while most of it is far off: the
    /// closing segment (up from (100, 5 000)) and the first one (right to (5 000, 50)) are kept
    /// as one polyline through the start, so the corner there has its miter. The stroke (width 4)
    /// covers the vertical band [98, 102] × [48, 100] and the horizontal one [98, 200] × [48, 52]:
    /// 208 + 408 − 16 = 600 pixels (butt ends at the start instead of the join would give 596).
    /// The far part zigzags down in 5 000 segments, so the path is large enough to be culled.
    @Test func aClosedPathCulledInTheMiddleKeepsItsJoinAtTheStart() throws {
        var path = Path()
        path.move(to: Point(x: 100, y: 50))
        path.line(to: Point(x: 5_000, y: 50))
        for i in 1...5_000 { path.line(to: Point(x: 5_000 + Double(i % 2), y: 50 + Double(i) * 0.99)) }
        path.line(to: Point(x: 5_000, y: 5_000))
        path.line(to: Point(x: 3_000, y: 6_000))
        path.line(to: Point(x: 100, y: 5_000))
        path.close()
        let pixmap = try Self.drawn { $0.stroke(path, style: StrokeStyle(width: 4, join: .miter), paint: Self.white) }
        #expect(abs(CoverageTests.alphaSum(pixmap) - 600) < 0.5)
    }

    /// A dot (round caps, a zero-length subpath) on the target is still drawn, a disc of radius
    /// 5, beside one far off it and a far zigzag of 5 000 segments (both dropped).
    @Test func dotsOnTheTargetAreKept() throws {
        var path = Path()
        path.move(to: Point(x: 50, y: 50)); path.line(to: Point(x: 50, y: 50))
        path.move(to: Point(x: 5_000, y: 50)); path.line(to: Point(x: 5_000, y: 50))
        path.move(to: Point(x: 5_000, y: 0))
        Self.zigzag(from: 5_000, count: 5_000, step: 0.01, low: 0, high: 100, into: &path)
        let pixmap = try Self.drawn { $0.stroke(path, style: StrokeStyle(width: 10, cap: .round), paint: Self.white) }
        #expect(abs(CoverageTests.alphaSum(pixmap) - Double.pi * 25) < 0.5)
    }

    /// Long polylines outlined a band at a time (64 outline points a band) and their outline
    /// rasterized holding 64 edges at a time: an open zigzag (miter joins) across the target and
    /// a closed 20 000-gon circle of radius 30 (round joins) draw what the one outline held at
    /// once draws, within float rounding of the bands' closing segments, which cancel; the
    /// circle's stroke alone (width 4) is the annulus π((r + 2)² − (r − 2)²) = 8πr.
    @Test func bandsFillAsTheOneOutline() throws {
        var zigzag = Path()
        zigzag.move(to: Point(x: 5, y: 10))
        Self.zigzag(from: 5, count: 2_000, step: 0.09, low: 10, high: 90, into: &zigzag)
        var circle = Path()
        let n = 20_000, r = 30.0
        circle.move(to: Point(x: 100 + r, y: 50))
        for i in 1..<n {
            circle.line(to: Point(x: 100 + r * cos(2 * Double.pi * Double(i) / Double(n)),
                                  y: 50 + r * sin(2 * Double.pi * Double(i) / Double(n))))
        }
        circle.close()
        for (path, style) in [(zigzag, StrokeStyle(width: 3, join: .miter)), (circle, StrokeStyle(width: 4, join: .round))] {
            let whole = try Self.drawn { $0.fill(path.stroked(style, tolerance: 0.05), paint: Self.white) }
            let banded = try Self.drawn {
                $0.strokeSolid(path, style: style, paint: Self.white, transform: .identity, clip: nil, tolerance: 0.05,
                               batchPoints: 64, heldEdges: 64)
            }
            var differing = 0, largest = 0
            for i in 0..<(200 * 100 * 4) where whole.pixels[i] != banded.pixels[i] {
                differing += 1
                largest = max(largest, abs(Int(whole.pixels[i]) - Int(banded.pixels[i])))
            }
            #expect(largest <= 1, "\(differing) bytes differ, by up to \(largest)")
        }
        let annulus = try Self.drawn {
            $0.strokeSolid(circle, style: StrokeStyle(width: 4, join: .round), paint: Self.white, transform: .identity,
                           clip: nil, tolerance: 0.05, batchPoints: 64, heldEdges: 64)
        }
        #expect(abs(CoverageTests.alphaSum(annulus) - 8 * Double.pi * r) < 1)
    }

    /// Fills whose box needs more cells than the rasterizer holds at once (`Rasterizer.maxCells`,
    /// here about six rows' worth) are scan-converted in strips of rows: a disc (area πr²), an
    /// even-odd five-pointed star and the 100 000-gon of `aFillOverItsHeldEdgesDrawsTheSamePixels`
    /// (its held edges overflowing as well, so each strip flattens the path again) draw what one
    /// whole fill draws within a level — a row's cells take only the edges crossing it; an edge
    /// cut at a strip's top starts there with its own rounding — and never hold more cells than
    /// allowed. Bands of the target drawn one by one leave exactly the bytes of one striped draw
    /// of the whole: the strips follow the box, not the band.
    @Test func aFillTallerThanItsCellsIsDrawnInStrips() throws {
        var star = Path()
        for k in 0..<5 {
            let angle = -Double.pi / 2 + Double(k) * 4 * Double.pi / 5
            let p = Point(x: 100 + 45 * cos(angle), y: 50 + 45 * sin(angle))
            if k == 0 { star.move(to: p) } else { star.line(to: p) }
        }
        star.close()
        let n = 100_000
        var polygon = Path()
        polygon.move(to: Point(x: 140, y: 50))
        for i in 1..<n {
            polygon.line(to: Point(x: 100 + 40 * cos(2 * Double.pi * Double(i) / Double(n)),
                                   y: 50 + 40 * sin(2 * Double.pi * Double(i) / Double(n))))
        }
        polygon.close()
        let disc = CoverageTests.circle(cx: 100.3, cy: 50.6, r: 40)
        let maxCells = 600
        /// `path` filled into `pixmap` holding at most `maxCells` cells (nil: the default) and
        /// `heldEdges` edges.
        func fill(_ path: Path, rule: FillRule, into pixmap: Pixmap, maxCells: Int?, heldEdges: Int) {
            if let maxCells { pixmap.rasterizer.maxCells = maxCells }
            var blitter = PaintBlitter(target: pixmap, paint: Self.white, clip: nil)
            pixmap.rasterizer.fill(rule: rule, antiAlias: true, clip: IntRect(x0: 0, y0: 0, x1: 200, y1: 100),
                                   rows: pixmap.drawableRows, into: &blitter, heldEdges: heldEdges) { sink in
                Flattener.walk(path, transform: .identity, tolerance: Flattener.tolerance, into: &sink)
            }
            #expect(pixmap.rasterizer.cellCapacity <= maxCells ?? Rasterizer.defaultMaxCells)
        }
        for (name, path, rule, heldEdges) in [("disc", disc, FillRule.nonZero, Rasterizer.maxHeldEdges),
                                              ("star", star, .evenOdd, Rasterizer.maxHeldEdges),
                                              ("100 000-gon", polygon, .nonZero, 64)] {
            let whole = try Self.drawn { fill(path, rule: rule, into: $0, maxCells: nil, heldEdges: heldEdges) }
            let striped = try Self.drawn { fill(path, rule: rule, into: $0, maxCells: maxCells, heldEdges: heldEdges) }
            var largest = 0
            for i in 0..<(200 * 100 * 4) { largest = max(largest, abs(Int(whole.pixels[i]) - Int(striped.pixels[i]))) }
            #expect(largest <= 1, "\(name): differs by up to \(largest)")
            let banded = try Self.drawn { frame in
                for rows in [0..<37, 37..<50, 50..<51, 51..<100] {
                    fill(path, rule: rule, into: Pixmap(band: rows, of: frame), maxCells: maxCells, heldEdges: heldEdges)
                }
            }
            #expect(Self.samePixels(striped, banded), "\(name): bands")
        }
        let discArea = try Self.drawn { fill(disc, rule: .nonZero, into: $0, maxCells: maxCells, heldEdges: Rasterizer.maxHeldEdges) }
        #expect(abs(CoverageTests.alphaSum(discArea) - Double.pi * 40 * 40) < 1.5)
    }
}
