import Foundation
import Testing
@testable import Raster

/// Dashed strokes drawn dash by dash (issue 18): in batches of `Pixmap.dashBatchPoints` outline
/// points accumulated in a coverage mask, dashes off the pixmap skipped, and fine round-capped
/// dashes merged into the solid stroke. Expected areas are closed forms (width × painted length,
/// a capsule's area), as in `StrokeTests`.
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
        let dashes = try #require(Dasher.dashes(Flattener.polylines(line(length: 190), tolerance: 0.05),
                                                lengths: style.dash, phase: 0))
        pixmap.strokeDashes(dashes, style: style, paint: StrokeTests.white, transform: .identity, clip: nil,
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
    /// gets their coverage added, which is exact for dashes that do not overlap, batch boundary
    /// or not. 190 / 0.5 = 380 dashes of 0.25 × 4.
    @Test func batchesAddCoverageOfDashesSharingAPixel() throws {
        let (count, area) = try Self.batched([0.25, 0.25])
        #expect(count == 380)
        // 760 pixels are half covered; each rounds 127.5/255 by up to 0.5/255: at most 1.49.
        #expect(abs(area - 380 * 0.25 * 4) < 1.5)
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
