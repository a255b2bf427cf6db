import UIKit
import Compositor
import CoreText
import QuartzCore
import TestSupport
import Testing

/// A one-line `UILabel` in closed form from its font's own tables (DejaVu Sans, read by
/// fontTools: `FontTables`): `UIFont.lineHeight` is ascender − descender + leading (Apple's
/// documentation of `lineHeight`; `hhea` ascender, descender and line gap), and the label centres
/// that line in its bounds, so the baseline lies (h − lineHeight) / 2 + ascender below the top.
@Suite(.serialized) struct LabelMetricsTests {
    @Test func aOneLineLabelCentresItsLineAndSitsTheTextOnItsBaseline() throws {
        let file = try #require(resolvedFont("DejaVu Sans"))
        let f = try FontTables.read(file.file, index: file.index, text: "H")
        let font = try #require(UIFont(name: "DejaVu Sans", size: 20))
        #expect(abs(Double(font.lineHeight) - f.lineHeight(20)) < 1e-9)
        #expect(abs(Double(font.ascender) - f.ascent(20)) < 1e-9 && abs(Double(font.descender) + f.descent(20)) < 1e-9)
        let label = UILabel(frame: CGRect(x: 0, y: 0, width: 100, height: 60))
        label.font = font
        label.text = "H"
        let image = try CARenderer.image(of: label.layer, size: CGSize(width: 100, height: 60), at: 0)
        let rows = (0..<image.height).filter { y in (0..<image.width).contains { image.pixmap.pixel(x: $0, y: y).a > 127 } }
        let baseline = (60 - f.lineHeight(20)) / 2 + f.ascent(20)
        #expect(abs(Double(try #require(rows.last) + 1) - baseline) <= 1)
        #expect(abs(Double(rows.count) - f.box("H", size: 20).maxY) <= 1.5)
    }
}
