import UIKit
import Compositor
import QuartzCore
import Testing

/// UIKit's attributed-string keys on a CATextLayer: `.font` with a `UIFont` and
/// `.foregroundColor` with a `UIColor` (toll-free bridged to CTFont and CGColor on iOS).
/// Expected: DejaVu Sans' cap height, 1493/2048 of the point size.
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
        #expect(abs(Double(rows.count) - 50 * 1493 / 2048) <= 1.5)
    }
}
