import Compositor
import CoreText
import QuartzCore
import Raster
import TestSupport
import Testing

/// CATextLayer drawing with the installed DejaVu fonts. Expected positions come from the font
/// file's own tables read by fontTools (`FontTables`: `hhea` ascender, the outline bounds of
/// 'H') and from the layer's alignment rules.
@Suite(.serialized) struct TextLayerTests {
    static func ink(_ image: CGImage) -> (minX: Int, maxX: Int, minY: Int, maxY: Int)? {
        var box: (Int, Int, Int, Int)?
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixmap.pixel(x: x, y: y).a > 127 {
                box = box.map { (min($0.0, x), max($0.1, x), min($0.2, y), max($0.3, y)) } ?? (x, x, y, y)
            }
        }
        return box.map { (minX: $0.0, maxX: $0.1, minY: $0.2, maxY: $0.3) }
    }

    /// DejaVu Sans's tables, with the outlines of 'H' and '…'.
    static func dejaVuSans() throws -> FontTables {
        let file = try #require(resolvedFont("DejaVu Sans"))
        return try FontTables.read(file.file, index: file.index, text: "H…")
    }

    static func text(_ s: String, size: CGFloat, frame: CGRect) -> CATextLayer {
        let t = CATextLayer()
        t.frame = frame
        t.string = s
        t.font = "DejaVu Sans"
        t.fontSize = size
        t.foregroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        return t
    }

    @Test func capitalSitsOnTheBaselineOneAscenderDown() throws {
        let t = Self.text("H", size: 100, frame: CGRect(x: 0, y: 0, width: 120, height: 120))
        let img = try CARenderer.image(of: t, size: CGSize(width: 120, height: 120), at: 0)
        let box = try #require(Self.ink(img))
        let f = try Self.dejaVuSans()
        let baseline = f.ascent(100), capTop = baseline - f.box("H", size: 100).maxY   // DejaVu Sans 2.37: 92.8, 19.9
        #expect(abs(Double(box.maxY + 1) - baseline) <= 1)
        #expect(abs(Double(box.minY) - capTop) <= 1)
    }

    @Test func alignmentModes() throws {
        let size = CGSize(width: 300, height: 50)
        func box(_ mode: CATextLayerAlignmentMode) throws -> (minX: Int, maxX: Int, minY: Int, maxY: Int) {
            let t = Self.text("Citrine", size: 30, frame: CGRect(origin: .zero, size: size))
            t.alignmentMode = mode
            return try #require(Self.ink(try CARenderer.image(of: t, size: size, at: 0)))
        }
        let left = try box(.left), center = try box(.center), right = try box(.right)
        #expect(left.minX <= 3)
        #expect(right.maxX >= 295)
        #expect(abs((center.minX + center.maxX) - 300) <= 6)   // centred within a few pixels (side bearings)
        #expect(abs((right.maxX - right.minX) - (left.maxX - left.minX)) <= 1)   // same ink, subpixel shift
    }

    @Test func wrappingAndTruncation() throws {
        let size = CGSize(width: 120, height: 200)
        let wrapped = Self.text("one two three four", size: 20, frame: CGRect(origin: .zero, size: size))
        wrapped.isWrapped = true
        let w = try #require(Self.ink(try CARenderer.image(of: wrapped, size: size, at: 0)))
        #expect(w.maxY > 40)            // more than one line (line height ≈ 23 px at 20 pt)
        #expect(w.maxX < 120)
        let cut = Self.text("a very long line of text", size: 20, frame: CGRect(x: 0, y: 0, width: 100, height: 30))
        cut.truncationMode = .end
        let c = try #require(Self.ink(try CARenderer.image(of: cut, size: CGSize(width: 200, height: 30), at: 0)))
        #expect(c.maxX < 100)           // "…" keeps it inside the bounds
        cut.truncationMode = .none
        // Not truncated, the line is cut at the bounds' right edge: a text layer draws within its
        // bounds, as Apple's draws into a backing store of its bounds' size.
        let full = try #require(Self.ink(try CARenderer.image(of: cut, size: CGSize(width: 300, height: 30), at: 0)))
        #expect(full.maxX < 100 && full.maxX >= 90)
    }
}
