import Compositor
import CoreText
import QuartzCore
import Raster
import TestSupport
import Testing

/// CATextLayer with attributed strings, font objects, wrapping with truncation and justified
/// lines. Expected values: DejaVu Sans's own tables read by fontTools (`FontTables`: `hhea`
/// ascender and line spacing, the outline bounds of 'H'), Apple's documented defaults (a run without a font is
/// Helvetica 12, without a colour black; a CTFont's or CGFont's own size is ignored for the
/// layer's `font`), and the layout rules documented on `TextLayout`.
@Suite(.serialized) struct TextLayerStyleTests {
    static let black = CGColor(red: 0, green: 0, blue: 0, alpha: 1)

    static func layer(_ string: Any, frame: CGRect) -> CATextLayer {
        let t = CATextLayer()
        t.frame = frame
        t.string = string
        t.font = "DejaVu Sans"
        t.fontSize = 20
        t.foregroundColor = black
        return t
    }

    static func render(_ t: CATextLayer, _ size: CGSize) throws -> CGImage {
        try CARenderer.image(of: t, size: size, at: 0)
    }

    /// Rows (top to bottom) that hold ink, grouped into runs of consecutive rows.
    static func inkRowGroups(_ image: CGImage) -> [ClosedRange<Int>] {
        var groups: [ClosedRange<Int>] = []
        for y in 0..<image.height where (0..<image.width).contains(where: { image.pixmap.pixel(x: $0, y: y).a > 127 }) {
            if let last = groups.last, last.upperBound >= y - 2 { groups[groups.count - 1] = last.lowerBound...y } else { groups.append(y...y) }
        }
        return groups
    }

    @Test func attributedRunsHaveTheirOwnColourAndSize() throws {
        let s = NSMutableAttributedString(string: "HH")
        let big = CTFontCreateWithName("DejaVu Sans", 100, nil), small = CTFontCreateWithName("DejaVu Sans", 50, nil)
        s.addAttribute(NSAttributedString.Key(kCTFontAttributeName), value: big, range: NSRange(location: 0, length: 1))
        s.addAttribute(NSAttributedString.Key(kCTFontAttributeName), value: small, range: NSRange(location: 1, length: 1))
        s.addAttribute(NSAttributedString.Key(kCTForegroundColorAttributeName), value: CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                       range: NSRange(location: 0, length: 1))
        s.addAttribute(NSAttributedString.Key(kCTForegroundColorAttributeName), value: CGColor(red: 0, green: 0, blue: 1, alpha: 1),
                       range: NSRange(location: 1, length: 1))
        let t = Self.layer(s, frame: CGRect(x: 0, y: 0, width: 200, height: 130))
        t.foregroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)   // unused for an attributed string (Apple)
        let img = try Self.render(t, CGSize(width: 200, height: 130))
        var red: (minY: Int, maxY: Int)?, blue: (minY: Int, maxY: Int)?, green = 0
        for y in 0..<img.height {
            for x in 0..<img.width {
                let p = img.pixmap.pixel(x: x, y: y)
                guard p.a > 200 else { continue }
                if p.r > 200 && p.b < 50 { red = (red?.minY ?? y, y) }
                if p.b > 200 && p.r < 50 { blue = (blue?.minY ?? y, y) }
                if p.g > 200 { green += 1 }
            }
        }
        let r = try #require(red), b = try #require(blue)
        #expect(green == 0)
        // The cap heights of 100 and 50 points (72.9 and 36.5 in DejaVu Sans 2.37); one shared baseline.
        let f = try TextLayerTests.dejaVuSans()
        #expect(abs(Double(r.maxY - r.minY + 1) - f.box("H", size: 100).maxY) <= 1.5)
        #expect(abs(Double(b.maxY - b.minY + 1) - f.box("H", size: 50).maxY) <= 1.5)
        #expect(abs(r.maxY - b.maxY) <= 1)
        // The first baseline is the line's largest ascent (that of 100 points) below the top.
        #expect(abs(Double(r.maxY + 1) - f.ascent(100)) <= 1)
    }

    @Test func runsWithoutAttributesAreBlackHelvetica12() throws {
        let t = Self.layer(NSAttributedString(string: "H"), frame: CGRect(x: 0, y: 0, width: 40, height: 30))
        let img = try Self.render(t, CGSize(width: 40, height: 30))
        let rows = Self.inkRowGroups(img)
        #expect(rows.count == 1)
        let f = try TextLayerTests.dejaVuSans()
        #expect(abs(Double(rows[0].count) - f.box("H", size: 12).maxY) <= 1.5)   // the cap height of 12 points (8.7)
        let ink = (0..<img.width).flatMap { x in (0..<img.height).map { img.pixmap.pixel(x: x, y: $0) } }.filter { $0.a > 200 }
        #expect(!ink.isEmpty && ink.allSatisfy { $0.r < 30 && $0.g < 30 && $0.b < 30 })
    }

    @Test func fontObjectsDrawLikeTheirNameAtTheLayersSize() throws {
        let frame = CGRect(x: 0, y: 0, width: 160, height: 40), size = frame.size
        let named = try Self.render(Self.layer("Citrine", frame: frame), size)
        let ct = Self.layer("Citrine", frame: frame)
        ct.font = CTFontCreateWithName("DejaVu Sans", 70, nil)   // its 70 points are ignored: fontSize 20 applies
        let cg = Self.layer("Citrine", frame: frame)
        cg.font = CGFont("DejaVu Sans")
        for image in [try Self.render(ct, size), try Self.render(cg, size)] {
            #expect((0..<(image.width * image.height * 4)).allSatisfy { image.pixmap.pixels[$0] == named.pixmap.pixels[$0] })
        }
    }

    @Test func wrappedTextTruncatesItsLastVisibleLine() throws {
        // Four lines' worth of words in a box two lines high (DejaVu Sans's line spacing at 20
        // points: 23.3; checked below from its hhea table).
        let words = "alpha beta gamma delta epsilon zeta eta theta iota kappa"
        let lineHeight = try TextLayerTests.dejaVuSans().lineHeight(20)
        #expect(2 * lineHeight <= 50 && 3 * lineHeight > 50)
        let t = Self.layer(words, frame: CGRect(x: 0, y: 0, width: 120, height: 50))
        t.isWrapped = true
        let size = CGSize(width: 200, height: 140)
        // No truncation: the lines within the bounds are drawn, nothing below them (a text layer
        // draws within its bounds, as Apple's draws into a backing store of its bounds' size).
        let overflowing = try Self.render(t, size)
        #expect(Self.inkRowGroups(overflowing).count == 2)
        #expect(!(50..<overflowing.height).contains { y in (0..<overflowing.width).contains { overflowing.pixmap.pixel(x: $0, y: y).a > 0 } })
        t.truncationMode = .end
        let truncated = try Self.render(t, size)
        #expect(Self.inkRowGroups(truncated).count == 2)
        let inkX = (0..<truncated.width).filter { x in (0..<truncated.height).contains { truncated.pixmap.pixel(x: x, y: $0).a > 127 } }
        #expect(try #require(inkX.last) < 120)
    }

    @Test func justifiedLinesFillTheWidthExceptTheLast() throws {
        let t = Self.layer("one two three four five six seven", frame: CGRect(x: 0, y: 0, width: 150, height: 120))
        t.isWrapped = true
        t.alignmentMode = .justified
        let img = try Self.render(t, CGSize(width: 150, height: 120))
        let rows = Self.inkRowGroups(img)
        #expect(rows.count >= 2)
        func extent(_ rows: ClosedRange<Int>) -> (Int, Int) {
            let xs = (0..<img.width).filter { x in rows.contains { img.pixmap.pixel(x: x, y: $0).a > 60 } }
            return (xs.first ?? 0, xs.last ?? 0)
        }
        let first = extent(rows[0]), last = extent(rows[rows.count - 1])
        #expect(first.0 <= 3 && first.1 >= 146)   // reaches both edges (within side bearings)
        #expect(last.0 <= 3 && last.1 < 140)       // the paragraph's last line stays left-aligned
    }

    @Test func unwrappedLinesTruncateEachAtTheMiddle() throws {
        let t = Self.layer("abcdefghijklmnopqrstuvwxyz\nabcdefghijklmnopqrstuvwxyz", frame: CGRect(x: 0, y: 0, width: 100, height: 60))
        t.truncationMode = .middle
        let img = try Self.render(t, CGSize(width: 300, height: 60))
        #expect(Self.inkRowGroups(img).count == 2)
        let inkX = (0..<img.width).filter { x in (0..<img.height).contains { img.pixmap.pixel(x: x, y: $0).a > 127 } }
        #expect(try #require(inkX.last) < 100)
    }
}
