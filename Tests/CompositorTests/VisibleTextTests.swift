import Compositor
import CoreText
import Foundation
import QuartzCore
import Raster
import TestSupport
import Testing

/// Text is laid out and outlined only where it can be seen (`TextLayout`): a megabyte of text
/// draws the same pixels as the part of it that shows, and a Core Text line is still measured
/// whole. Expected values: the font's own `hmtx` advance (fontTools, `FontTables`), and the
/// pixels of the same layout given only its visible text.
@Suite struct VisibleTextTests {
    static let filler = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 24_000)   // 1 080 000 characters

    static func font(_ size: CGFloat) -> CTFont { CTFontCreateWithName("DejaVu Sans" as CFString, size, nil) }

    static func attributed(_ text: String) -> NSAttributedString {
        NSAttributedString(string: text, attributes: [NSAttributedString.Key(kCTFontAttributeName): font(12)])
    }

    static func layer(_ text: String, width: CGFloat, height: CGFloat, _ configure: (CATextLayer) -> Void = { _ in }) -> CATextLayer {
        let t = CATextLayer()
        t.frame = CGRect(x: 0, y: 0, width: width, height: height)
        t.string = text
        t.font = "DejaVu Sans"
        t.fontSize = 12
        configure(t)
        return t
    }

    static func pixels(_ layer: CALayer) throws -> [UInt8] {
        let image = try CARenderer.image(of: layer, size: layer.bounds.size, at: 0)
        return Array(UnsafeBufferPointer(start: image.pixmap.pixels, count: image.width * image.height * 4))
    }

    static func hasInk(_ pixels: [UInt8]) -> Bool { stride(from: 3, to: pixels.count, by: 4).contains { pixels[$0] > 0 } }

    /// Core Text measures a line whole (its typographic bounds are the string's): a million
    /// 'H's are 10⁶ times H's advance wide, whatever part of them is drawn.
    @Test func aMillionCharacterLineIsMeasuredWhole() throws {
        let file = try #require(resolvedFont("DejaVu Sans"))
        let tables = try FontTables.read(file.file, index: file.index, text: "H")
        let advance = try #require(tables.advances["H"])
        let line = CTLineCreateWithAttributedString(Self.attributed(String(repeating: "H", count: 1_000_000)))
        let expected = 1_000_000 * advance * tables.scale(12)
        #expect(abs(CTLineGetTypographicBounds(line, nil, nil, nil) - expected) <= expected * 1e-12)
        #expect(CTLineGetGlyphCount(line) == 1_000_000)
    }

    /// A line of a megabyte drawn into a 200 × 30 context shows the pixels of its first 60
    /// characters (which already reach past the right edge).
    @Test func aHugeLineDrawsWhatItsVisibleStartDraws() throws {
        func drawn(_ text: String) throws -> [UInt8] {
            let context = CGContext(pixmap: try Pixmap(width: 200, height: 30))
            context.textPosition = CGPoint(x: 4, y: 10)
            CTLineDraw(CTLineCreateWithAttributedString(Self.attributed(text)), context)
            return Array(UnsafeBufferPointer(start: context.pixmap.pixels, count: 200 * 30 * 4))
        }
        let huge = try drawn(Self.filler)
        #expect(Self.hasInk(huge))
        #expect(huge == (try drawn(String(Self.filler.prefix(60)))))
    }

    /// A right-aligned one-line layer shows the end of its text: the same pixels as a layer
    /// holding only the last 60 characters.
    @Test func aRightAlignedHugeLineShowsItsEnd() throws {
        let text = Self.filler + "and that is the end of it"
        let huge = try Self.pixels(Self.layer(text, width: 200, height: 30) { $0.alignmentMode = .right })
        #expect(Self.hasInk(huge))
        #expect(huge == (try Self.pixels(Self.layer(String(text.suffix(60)), width: 200, height: 30) { $0.alignmentMode = .right })))
    }

    /// Wrapped text truncated in the middle takes as much of the text's start and end as fits:
    /// a megabyte between them draws as 5 000 characters between them do.
    @Test func wrappedTextTruncatedInTheMiddleReadsOnlyTheEnds() throws {
        func pixels(_ middle: String) throws -> [UInt8] {
            try Self.pixels(Self.layer("In the beginning " + middle + " happily ever after", width: 200, height: 40) {
                $0.isWrapped = true
                $0.truncationMode = .middle
            })
        }
        let huge = try pixels(Self.filler)
        #expect(Self.hasInk(huge))
        #expect(huge == (try pixels(String(Self.filler.prefix(5_000)))))
    }

    /// Apple's `NSLineBreakMode.byWordWrapping`: "wrapping occurs at word boundaries, unless the
    /// word itself doesn't fit on a single line" — a word wider than the layer is broken between
    /// characters, every line within the width.
    @Test func aWordWiderThanTheLineIsBrokenBetweenCharacters() throws {
        let t = Self.layer("Supercalifragilisticexpialidocious", width: 60, height: 200) { $0.isWrapped = true; $0.fontSize = 20 }
        let image = try CARenderer.image(of: t, size: CGSize(width: 100, height: 200), at: 0)
        let inkColumns = (0..<image.width).filter { x in (0..<image.height).contains { image.pixmap.pixel(x: x, y: $0).a > 0 } }
        let inkRows = (0..<image.height).filter { y in (0..<image.width).contains { image.pixmap.pixel(x: $0, y: y).a > 0 } }
        #expect(try #require(inkColumns.last) < 60)
        #expect(try #require(inkRows.last) > 5 * 23)   // more than five lines of 23.3 points (DejaVu's line spacing at 20)
    }
}
