import UIKit
import Compositor
import CoreText
import QuartzCore
import TestSupport
import Testing

/// UIKit's attributed-string keys on a CATextLayer: `.font` with a `UIFont` and
/// `.foregroundColor` with a `UIColor` (toll-free bridged to CTFont and CGColor on iOS).
/// Expected: the height of DejaVu Sans's 'H' at the point size, from its outline (fontTools,
/// `FontTables`).
@Suite(.serialized) struct TextAttributesTests {
    @Test func uiFontAndUIColorStyleARun() throws {
        let font = try #require(UIFont(name: "DejaVu Sans", size: 50))
        let text = NSAttributedString(string: "H", attributes: [.font: font, .foregroundColor: UIColor.red])
        let layer = CATextLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 60, height: 70)
        layer.string = text
        let image = try CARenderer.image(of: layer, size: CGSize(width: 60, height: 70), at: 0)
        var rows = Set<Int>()
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixmap.pixel(x: x, y: y)
                if p.a > 200 { #expect(p.r > 200 && p.g < 40 && p.b < 40); rows.insert(y) }
            }
        }
        let file = try #require(resolvedFont("DejaVu Sans"))
        let capHeight = try FontTables.read(file.file, index: file.index, text: "H").box("H", size: 50).maxY
        #expect(abs(Double(rows.count) - capHeight) <= 1.5)
    }
}
