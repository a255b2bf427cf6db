import Compositor
import CoreText
import QuartzCore
import Raster
import TestSupport
import Testing

/// A text layer's lines in closed form from the font's own tables (DejaVu Sans, read by
/// fontTools: `FontTables`): the first baseline one ascender below the top (`CATextLayer`'s top
/// alignment), each next one line height lower, the line height ascender − descender + line gap
/// (`hhea`; Apple's `UIFont.lineHeight` is ascender − descender + leading), and truncation
/// (`truncationMode`) keeping whole glyphs around one "…".
@Suite struct TextLayerMetricsTests {
    static let size = 20.0

    static func layer(_ text: String, width: CGFloat, height: CGFloat) -> CATextLayer {
        let t = CATextLayer()
        t.frame = CGRect(x: 0, y: 0, width: width, height: height)
        t.string = text
        t.font = "DejaVu Sans"
        t.fontSize = CGFloat(size)
        t.foregroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        return t
    }

    /// Columns with ink (alpha > 127) in the pixel row `y`.
    static func inkColumns(_ image: CGImage, row y: Int) -> [Int] {
        (0..<image.width).filter { image.pixmap.pixel(x: $0, y: y).a > 127 }
    }

    /// Rows with ink (alpha > 127).
    static func inkRows(_ image: CGImage) -> [Int] {
        (0..<image.height).filter { y in (0..<image.width).contains { image.pixmap.pixel(x: $0, y: y).a > 127 } }
    }

    /// "H\nH\nH": each H sits on its baseline, at A, A + L and A + 2L below the top, where A is
    /// the ascender and L = A − D + G (hhea ascender, descender, line gap).
    @Test func baselinesAreOneAscenderThenOneLineHeightApart() throws {
        let f = try TextLayerTests.dejaVuSans()
        let image = try CARenderer.image(of: Self.layer("H\nH\nH", width: 60, height: 100), size: CGSize(width: 60, height: 100), at: 0)
        let rows = Self.inkRows(image)
        // The last ink row of each H (its bottom is on the baseline): where a row is followed by a gap.
        let bottoms = rows.enumerated().filter { $0.offset == rows.count - 1 || rows[$0.offset + 1] > $0.element + 1 }.map(\.element)
        #expect(bottoms.count == 3)
        for (i, bottom) in bottoms.enumerated() {
            let baseline = f.ascent(Self.size) + Double(i) * f.lineHeight(Self.size)
            #expect(abs(Double(bottom + 1) - baseline) <= 1, "line \(i): \(bottom + 1) vs \(baseline)")
        }
    }

    /// Ten H's in a layer that holds k = 4 of them and "…": `.end` keeps the first four then the
    /// ellipsis, `.start` the ellipsis then the last four, `.middle` two, the ellipsis, two. At
    /// half the cap height only the H's stems have ink, so the ellipsis shows as a gap one "…"
    /// advance wide where it stands.
    @Test func truncationKeepsWholeGlyphsAroundOneEllipsis() throws {
        let f = try TextLayerTests.dejaVuSans()
        let h = try #require(f.advances["H"]) * f.scale(Self.size), ellipsis = try #require(f.advances["…"]) * f.scale(Self.size)
        let hBox = f.box("H", size: Self.size)
        let width = 4 * h + ellipsis + 0.5   // four H's and "…" fit, five do not
        let midCap = Int(f.ascent(Self.size) - hBox.maxY / 2)
        func ink(_ mode: CATextLayerTruncationMode) throws -> [Int] {
            let t = Self.layer(String(repeating: "H", count: 10), width: CGFloat(width), height: 30)
            t.truncationMode = mode
            return Self.inkColumns(try CARenderer.image(of: t, size: CGSize(width: 200, height: 30), at: 0), row: midCap)
        }
        /// Whether the stems' ink lies within the H's at `starts` (their pens), up to a pixel.
        func inkIsHs(at starts: [Double], _ columns: [Int]) -> Bool {
            guard !columns.isEmpty else { return false }
            let inside = columns.allSatisfy { x in starts.contains { Double(x) + 1 > $0 + hBox.minX - 1 && Double(x) < $0 + hBox.maxX + 1 } }
            let reached = starts.allSatisfy { s in columns.contains { abs(Double($0) - (s + hBox.minX)) <= 1 } }
            return inside && reached
        }
        #expect(inkIsHs(at: (0..<4).map { Double($0) * h }, try ink(.end)))
        #expect(inkIsHs(at: (0..<4).map { ellipsis + Double($0) * h }, try ink(.start)))
        #expect(inkIsHs(at: [0, h, 2 * h + ellipsis, 3 * h + ellipsis], try ink(.middle)))
    }
}
