import Foundation
import Testing
@testable import Raster

/// Dashed strokes drawn dash by dash: dashes cut as the path is flattened, their
/// outlines handed to one fill in batches of `Pixmap.outlineBatchPoints` points, dashes off the
/// pixmap skipped, and fine round-capped dashes merged into the solid stroke. Expected areas
/// are closed forms (width × painted length, a capsule's area), as in `StrokeTests`; batched
/// strokes are compared pixel for pixel with one fill of every dash's outline.
struct DashBatchTests {
    /// A horizontal line at a half-pixel-free height, from x = 0 to `length`.
    static func line(length: Double, y: Double = 50) -> Path {
        var p = Path(); p.move(to: Point(x: 0, y: y)); p.line(to: Point(x: length, y: y)); return p
    }

    /// The dashes of `pattern` (butt caps, width 4) along a 190-px line, drawn in batches of
    /// 64 outline points (16 dashes): how many there are and the area they cover.
    static func batched(_ pattern: [Double]) throws -> (count: Int, area: Double) {
        let pixmap = try Pixmap(width: 200, height: 100)
        let style = StrokeStyle(width: 4, dash: pattern)
        let path = line(length: 190)
        let dashes = try #require(Dasher.dashes(Flattener.polylines(path, tolerance: 0.05), lengths: style.dash, phase: 0))
        let plan = try #require(DashPlan(path, transform: .identity, tolerance: 0.05, lengths: style.dash, phase: 0))
        pixmap.strokeDashes(path, plan: plan, style: style, paint: StrokeTests.white, transform: .identity, clip: nil,
                            tolerance: 0.05, batchPoints: 64)
        return (dashes.count, CoverageTests.alphaSum(pixmap))
    }

    /// A pattern [1, 1]: 95 dashes of 4×1 px cover 95 × 4 px², exactly, since their edges fall
    /// on pixel edges.
    @Test func batchesCoverWhatOneOutlineCovers() throws {
        let (count, area) = try Self.batched([1, 1])
        #expect(count == 95)
        #expect(abs(area - 95 * 4) < 0.5)
    }

    /// Dashes that share pixels ([0.25, 0.25]: two per pixel column): a pixel two dashes share
    /// gets their coverage added, batch boundary or not. 190 / 0.5 = 380 dashes of 0.25 × 4.
    @Test func batchesAddCoverageOfDashesSharingAPixel() throws {
        let (count, area) = try Self.batched([0.25, 0.25])
        #expect(count == 380)
        // 760 pixels are half covered; each rounds 127.5/255 by up to 0.5/255: at most 1.49.
        #expect(abs(area - 380 * 0.25 * 4) < 1.5)
    }

    /// Rows of dashes ([2, 1], butt caps, width 4) at y = 8r + 4.375, from x = 10 to 190 (60
    /// dashes a row, the pattern restarting at each row), drawn twice over: `copies` copies of
    /// the twelve rows, one subpath each.
    static func doubledRows(copies: Int = 2) -> Path {
        var path = Path()
        for _ in 0..<copies {
            for r in 0..<12 {
                let y = 8 * Double(r) + 4.375
                path.move(to: Point(x: 10, y: y)); path.line(to: Point(x: 190, y: y))
            }
        }
        return path
    }

    /// The same dashes as closed-form rectangles: dash k of a row covers x ∈ [10 + 3k, 12 + 3k]
    /// and y ∈ [y − 2, y + 2], every copy's.
    static func doubledRowRectangles(copies: Int = 2) -> Path {
        var path = Path()
        for _ in 0..<copies {
            for r in 0..<12 {
                let y = 8 * Double(r) + 4.375
                for k in 0..<60 {
                    let rect = Path(rect: Rect(x: 10 + 3 * Double(k), y: y - 2, width: 2, height: 4))
                    path.verbs += rect.verbs
                    path.points += rect.points
                }
            }
        }
        return path
    }

    /// A dashed stroke in many batches is exactly one fill of all its dashes' outlines (non-zero
    /// winding added across batches): 1 440 dashes in batches of 64 outline points, and more
    /// edges than the rasterizer holds (64: the stroke is cut twice), equal pixel for pixel to
    /// one fill of the 1 440 rectangles. The second copy of each dash lands in another batch
    /// than the first; in the rows the dashes cover 0.375 of, one fill counts 2 × 0.375 = 0.75,
    /// level 191 (0.75 · 255 = 191.25), where adding each batch's rounded coverage gave 96 + 96.
    @Test func batchedDashesAreOneFillOfTheirOutlines() throws {
        let style = StrokeStyle(width: 4, dash: [2, 1])
        let path = Self.doubledRows()
        let plan = try #require(DashPlan(path, transform: .identity, tolerance: 0.05, lengths: style.dash, phase: 0))
        let stroked = try LargePathTests.drawn {
            $0.strokeDashes(path, plan: plan, style: style, paint: StrokeTests.white, transform: .identity, clip: nil,
                            tolerance: 0.05, batchPoints: 64, heldEdges: 64)
        }
        let filled = try LargePathTests.drawn { $0.fill(Self.doubledRowRectangles(), paint: StrokeTests.white) }
        #expect(LargePathTests.samePixels(stroked, filled))
        // Row 6 (y ∈ [6, 7]) holds the bottom 0.375 of the first row's dashes; x = 10 lies in dash 0.
        #expect(stroked.pixels[(6 * 200 + 10) * 4 + 3] == 191)
        // 12 rows of 60 dashes, two pixel columns each, at 2 × 0.375 in their bottom pixel row.
        let levels = (0..<(200 * 100)).map { stroked.pixels[$0 * 4 + 3] }
        #expect(levels.filter { $0 == 191 }.count == 12 * 60 * 2)
    }

    /// A subpath with a non-finite point is left out whole, as the flattener leaves it out of
    /// fills — also the dashes it had already made when the point came: a path whose first
    /// subpath runs 100 px along y = 30 before a NaN point draws what its second subpath draws
    /// alone.
    @Test func nonFiniteSubpathsAreLeftOutWhole() throws {
        let style = StrokeStyle(width: 4, dash: [3, 2])
        var second = Path(); second.move(to: Point(x: 10, y: 60)); second.line(to: Point(x: 150, y: 70))
        var path = Path()
        path.move(to: Point(x: 0, y: 30)); path.line(to: Point(x: 100, y: 30)); path.line(to: Point(x: .nan, y: 40))
        path.verbs += second.verbs
        path.points += second.points
        let both = try LargePathTests.drawn { $0.stroke(path, style: style, paint: StrokeTests.white) }
        let alone = try LargePathTests.drawn { $0.stroke(second, style: style, paint: StrokeTests.white) }
        #expect(LargePathTests.samePixels(both, alone))
        #expect(CoverageTests.alphaSum(alone) > 100)
    }

    /// A closed subpath that ends painted joins its last dash to its first across the closing
    /// point (Core Graphics' rule, `Dasher`), also when the dashes stream: the square
    /// (50, 20)–(90, 60), perimeter 160, dashed [30, 10] from phase 5, has four dashes of 30,
    /// each turning one corner with a miter join: 4 × 30 × 4 px², where two butt-capped pieces
    /// meeting at the start corner would leave its outer 2 × 2 square empty (476).
    @Test func aClosedSubpathJoinsItsLastDashToItsFirst() throws {
        var square = Path(rect: Rect(x: 50, y: 20, width: 40, height: 40))
        square.close()
        let style = StrokeStyle(width: 4, cap: .butt, join: .miter, dash: [30, 10], dashPhase: 5)
        let pixmap = try LargePathTests.drawn { $0.stroke(square, style: style, paint: StrokeTests.white) }
        #expect(abs(CoverageTests.alphaSum(pixmap) - 480) < 0.5)
        // The array form keeps the joined dash first: from 155 along (x = 50, y = 25) to 25 along.
        let dashes = try #require(Dasher.dashes(Flattener.polylines(square, tolerance: 0.05), lengths: [30, 10], phase: 5))
        #expect(dashes.count == 4)
        #expect(dashes.first?.points.first == Point(x: 50, y: 25) && dashes.first?.points.last == Point(x: 75, y: 20))
    }

    /// Dashes entirely off the pixmap are not outlined: a line 10 000 px long of 1-px dashes
    /// (5 000 dashes) across a 200-px pixmap draws what falls inside — 100 dashes, 4 px² each.
    @Test func dashesOffThePixmapAreSkipped() throws {
        let pixmap = try Pixmap(width: 200, height: 100)
        pixmap.stroke(Self.line(length: 10_000), style: StrokeStyle(width: 4, dash: [1, 1]), paint: StrokeTests.white)
        #expect(abs(CoverageTests.alphaSum(pixmap) - 100 * 4) < 0.5)
    }

    /// Round-capped dashes with gaps finer than the flattening tolerance draw the solid
    /// round-capped stroke: a capsule of width 10 around a 100-px line, 10 · 100 + π · 5².
    @Test func fineRoundDashesDrawTheSolidStroke() throws {
        let pixmap = try Pixmap(width: 200, height: 100)
        var line = Path(); line.move(to: Point(x: 40, y: 50)); line.line(to: Point(x: 140, y: 50))
        let style = StrokeStyle(width: 10, cap: .round, dash: [0.001, 0.002])
        #expect(Pixmap.dashesMergeIntoSolid(style, tolerance: Flattener.tolerance))
        pixmap.stroke(line, style: style, paint: StrokeTests.white)
        #expect(abs(CoverageTests.alphaSum(pixmap) - (1000 + Double.pi * 25)) < 1)
    }

    /// Only round caps merge, and with a join other than round only when the painted lengths
    /// are fine too (a long dash across a corner would show its join).
    @Test func mergingNeedsRoundCapsAndFineGaps() {
        let t = 0.05
        #expect(!Pixmap.dashesMergeIntoSolid(StrokeStyle(width: 10, cap: .butt, dash: [0.01, 0.01]), tolerance: t))
        #expect(!Pixmap.dashesMergeIntoSolid(StrokeStyle(width: 10, cap: .round, dash: [0.01, 1]), tolerance: t))
        #expect(!Pixmap.dashesMergeIntoSolid(StrokeStyle(width: 10, cap: .round, join: .miter, dash: [5, 0.01]), tolerance: t))
        #expect(Pixmap.dashesMergeIntoSolid(StrokeStyle(width: 10, cap: .round, join: .round, dash: [5, 0.01]), tolerance: t))
        // An odd pattern alternates: every length is a gap once.
        #expect(!Pixmap.dashesMergeIntoSolid(StrokeStyle(width: 10, cap: .round, join: .round, dash: [5]), tolerance: t))
    }
}
