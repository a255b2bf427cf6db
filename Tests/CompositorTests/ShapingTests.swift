import Compositor
import CoreText
import Foundation
import QuartzCore
import Raster
import TestSupport
import Testing

/// Text shaped as Core Text shapes it (HarfBuzz, `TextLayout+Shaping.swift`): kerned by default
/// ("If this attribute is not present, standard kerning will be used", `kCTKernAttributeName`),
/// standard ligatures on (`kCTLigatureAttributeName`, default 1), right-to-left runs in visual
/// order. Expected values come from DejaVu Sans's own `GPOS`, `GSUB` and `hmtx` tables read by
/// fontTools (`FontTables.pair`). Needs `libharfbuzz.so.0` (Debian's libharfbuzz0b, on a new
/// machine).
@Suite struct ShapingTests {
    static let size = 40.0

    static func line(_ text: String, _ more: [NSAttributedString.Key: Any] = [:]) -> CTLine {
        let font = CTFontCreateWithName("DejaVu Sans" as CFString, CGFloat(size), nil)
        let attributes = more.merging([NSAttributedString.Key(kCTFontAttributeName): font]) { $1 }
        return CTLineCreateWithAttributedString(NSAttributedString(string: text, attributes: attributes))
    }

    static func dejaVu() throws -> FontResolution { try #require(resolvedFont("DejaVu Sans")) }

    /// "AV" is as wide as A's and V's advances plus the `kern` feature's adjustment of the pair
    /// (negative in DejaVu Sans: the V tucks under the A).
    @Test func aPairIsKernedByItsGPOSAdjustment() throws {
        let font = try Self.dejaVu()
        let pair = try FontTables.pair(font.file, index: font.index, "A", "V")
        let tables = try FontTables.read(font.file, index: font.index, text: "AV")
        #expect(pair.kerning < 0)
        let expected = (pair.first + pair.second + pair.kerning) * tables.scale(Self.size)
        #expect(abs(CTLineGetTypographicBounds(Self.line("AV"), nil, nil, nil) - expected) < 1e-9)
        #expect(CTLineGetGlyphCount(Self.line("AV")) == 2)
    }

    /// "fi" becomes the font's `liga` ligature: one glyph, as wide as that glyph's advance.
    @Test func fiIsTheFontsLigature() throws {
        let font = try Self.dejaVu()
        let pair = try FontTables.pair(font.file, index: font.index, "f", "i")
        let tables = try FontTables.read(font.file, index: font.index, text: "fi")
        let advance = try #require(pair.ligatureAdvance, "DejaVu Sans has an fi ligature in its GSUB liga feature")
        #expect(CTLineGetGlyphCount(Self.line("fi")) == 1)
        #expect(abs(CTLineGetTypographicBounds(Self.line("fi"), nil, nil, nil) - advance * tables.scale(Self.size)) < 1e-9)
    }

    /// `kCTKernAttributeName`: "If this attribute is set to 0.0, no kerning will be done at
    /// all"; a value shifts each following character by that many points (Citrine adds it after
    /// every character, the font's kerning off).
    @Test func theKernAttributeTurnsTheFontsKerningOffAndAddsItsValue() throws {
        let font = try Self.dejaVu()
        let pair = try FontTables.pair(font.file, index: font.index, "A", "V")
        let scale = try FontTables.read(font.file, index: font.index, text: "AV").scale(Self.size)
        let kern = NSAttributedString.Key(kCTKernAttributeName)
        let unkerned = CTLineGetTypographicBounds(Self.line("AV", [kern: 0]), nil, nil, nil)
        #expect(abs(unkerned - (pair.first + pair.second) * scale) < 1e-9)
        let spaced = CTLineGetTypographicBounds(Self.line("AV", [kern: 3]), nil, nil, nil)
        #expect(abs(spaced - ((pair.first + pair.second) * scale + 2 * 3)) < 1e-9)
    }

    /// `kCTLigatureAttributeName` 0: "only ligatures essential for proper rendering" — "fi"
    /// stays two glyphs at their own advances.
    @Test func ligatureAttributeZeroKeepsFAndIApart() throws {
        let font = try Self.dejaVu()
        let tables = try FontTables.read(font.file, index: font.index, text: "fi")
        let line = Self.line("fi", [NSAttributedString.Key(kCTLigatureAttributeName): 0])
        #expect(CTLineGetGlyphCount(line) == 2)
        let expected = (try #require(tables.advances["f"]) + (try #require(tables.advances["i"]))) * tables.scale(Self.size)
        #expect(abs(CTLineGetTypographicBounds(line, nil, nil, nil) - expected) < 1e-9)
    }

    /// The bytes of a 100 × 60 pixmap with each text of `parts` drawn as its own line at pen
    /// (10 + x, 15).
    static func drawn(_ parts: [(String, CGFloat)]) throws -> [UInt8] {
        let context = CGContext(pixmap: try Pixmap(width: 100, height: 60))
        for (text, x) in parts {
            context.textPosition = CGPoint(x: 10 + x, y: 15)
            CTLineDraw(line(text), context)
        }
        return Array(UnsafeBufferPointer(start: context.pixmap.pixels, count: 100 * 60 * 4))
    }

    /// Hebrew runs right to left: "אב" (alef, bet) draws bet at the pen and alef one bet's advance
    /// to its right — the pixels of the two letters drawn one by one in that order.
    @Test func hebrewIsDrawnRightToLeft() throws {
        let font = try Self.dejaVu()
        let tables = try FontTables.read(font.file, index: font.index, text: "אב")
        let bet = try #require(tables.advances["ב"]) * tables.scale(Self.size)
        let word = try Self.drawn([("אב", 0)])
        #expect(stride(from: 3, to: word.count, by: 4).contains { word[$0] > 0 })
        let byHand = try Self.drawn([("ב", 0), ("א", CGFloat(bet))])
        let differing = zip(word, byHand).filter { abs(Int($0) - Int($1)) > 2 }.count
        #expect(differing == 0)
        #expect(word != (try Self.drawn([("א", 0), ("ב", CGFloat(try #require(tables.advances["א"]) * tables.scale(Self.size)))])))
    }

    /// Arabic runs right to left: in "اب" (alef, beh) the first logical character, alef, is drawn
    /// rightmost — beh at the pen and alef one beh's advance (`hmtx` of its `cmap` glyph, read
    /// by fontTools) to its right. Alef joins only to the letter before it (Unicode's
    /// ArabicShaping.txt: joining type R), so both letters keep their isolated forms, the glyphs
    /// each letter draws alone.
    @Test func arabicIsDrawnRightToLeft() throws {
        let font = try Self.dejaVu()
        let tables = try FontTables.read(font.file, index: font.index, text: "اب")
        let scale = tables.scale(Self.size)
        let beh = try #require(tables.advances["ب"]) * scale, alef = try #require(tables.advances["ا"]) * scale
        let word = try Self.drawn([("اب", 0)])
        #expect(stride(from: 3, to: word.count, by: 4).contains { word[$0] > 0 })
        let byHand = try Self.drawn([("ب", 0), ("ا", CGFloat(beh))])
        let differing = zip(word, byHand).filter { abs(Int($0) - Int($1)) > 2 }.count
        #expect(differing == 0)
        #expect(word != (try Self.drawn([("ا", 0), ("ب", CGFloat(alef))])))
    }

    /// A line whose first strong character is right to left runs right to left (UAX #9 P2–P3):
    /// in "אב a", the Latin letter is drawn left of the Hebrew word.
    @Test func aRightToLeftLinePutsItsLaterRunsToTheLeft() throws {
        let context = CGContext(pixmap: try Pixmap(width: 200, height: 60))
        context.textPosition = CGPoint(x: 10, y: 15)
        CTLineDraw(Self.line("אב a"), context)
        let latin = CGContext(pixmap: try Pixmap(width: 200, height: 60))
        latin.textPosition = CGPoint(x: 10, y: 15)
        CTLineDraw(Self.line("a"), latin)
        // "a" drawn first, at the pen: the same pixels in the columns it covers.
        func columns(_ c: CGContext, _ range: Range<Int>) -> [UInt8] {
            (0..<60).flatMap { y in range.map { c.pixmap.pixel(x: $0, y: y).a } }
        }
        let same = columns(context, 0..<30) == columns(latin, 0..<30)
        #expect(same)
    }
}
