import Foundation
import Lottie
import QuartzCore
import Raster
import Testing

/// Text layers: glyph outlines from the file, or an installed font through CATextLayer; expected
/// geometry from lottie-web's text layout (advances plus tracking, justification of each line,
/// baselines `lh` apart) and from what any font's glyphs satisfy (an "H" sits on the baseline).
@Suite(.serialized) struct LottieTextTests {
    typealias T = LottieImportTests

    static func document(_ text: String, size: Double = 50, j: Int = 0, tr: Double = 0, lh: Double = 60,
                         font: String = "Bar-Regular") -> [String: Any] {
        ["t": text, "f": font, "s": size, "fc": [1, 0, 0], "j": j, "tr": tr, "lh": lh]
    }

    static func textLayer(_ documents: [(Double, [String: Any])], at p: [Double] = [20, 100]) -> [String: Any] {
        ["ty": 5, "ind": 1, "nm": "text", "ip": 0, "op": 30, "st": 0, "ks": Doc.ks(p: Doc.fixed(p)),
         "t": ["d": ["k": documents.map { ["t": $0.0, "s": $0.1] }], "a": [], "p": [:], "m": ["a": Doc.fixed([0, 0])]]]
    }

    /// A file with one glyph, "I": a bar 10 wide from the baseline up 70 (at size 100), advance 20.
    static func withGlyphs(_ layers: [[String: Any]]) -> [String: Any] {
        var doc = Doc.comp(layers)
        doc["fonts"] = ["list": [["fName": "Bar-Regular", "fFamily": "Bar", "fStyle": "Regular", "ascent": 70]]]
        let bar: [String: Any] = ["ty": "sh", "ks": Doc.fixed(["c": true, "v": [[0, 0], [10, 0], [10, -70], [0, -70]],
                                                               "i": [[0, 0], [0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0], [0, 0]]])]
        doc["chars"] = [["ch": "I", "size": 100, "style": "Regular", "w": 20, "fFamily": "Bar",
                         "data": ["shapes": [["ty": "gr", "it": [bar, ["ty": "tr", "p": Doc.fixed([0, 0]), "a": Doc.fixed([0, 0]),
                                                                      "s": Doc.fixed([100, 100]), "r": Doc.fixed(0), "o": Doc.fixed(100)]]]]]]]
        return doc
    }

    static func red(_ image: Pixmap, _ x: Int, _ y: Int) -> Bool { T.rgba(image, x, y) == [255, 0, 0, 255] }

    /// Size 50 scales the glyph by ½: each "I" is 5 wide and 35 tall on the baseline y 100,
    /// advancing 10; the second line is 60 lower.
    @Test func glyphsArePlacedByTheirAdvances() throws {
        let doc = Self.withGlyphs([Self.textLayer([(0, Self.document("II\rI"))])])
        #expect(try Doc.animation(doc).unsupportedFeatures.isEmpty)
        let image = try T.render(try Doc.layer(doc), size: CGSize(width: 200, height: 200), at: 0)
        #expect(Self.red(image, 20, 66) && Self.red(image, 24, 99) && Self.red(image, 30, 66) && Self.red(image, 34, 99))
        #expect(!Self.red(image, 25, 80) && !Self.red(image, 29, 80) && !Self.red(image, 22, 64) && !Self.red(image, 22, 100))
        #expect(Self.red(image, 22, 140) && !Self.red(image, 32, 140), "the second line")
    }

    /// Tracking 100 adds a tenth of the size (5) after each glyph; centring moves each line left
    /// by half its width, the advances and trackings less the last tracking (lottie-web's
    /// TextProperty): "II" is 10 + 5 + 10 = 25 wide, so its bars are at x 87.5…92.5 and
    /// 102.5…107.5 about the position x 100.
    @Test func trackingAndJustificationMoveTheGlyphs() throws {
        let doc = Self.withGlyphs([Self.textLayer([(0, Self.document("II", j: 2, tr: 100))], at: [100, 100])])
        let image = try T.render(try Doc.layer(doc), size: CGSize(width: 200, height: 200), at: 0)
        #expect(Self.red(image, 88, 80) && Self.red(image, 91, 80) && !Self.red(image, 86, 80) && !Self.red(image, 93, 80))
        #expect(Self.red(image, 103, 80) && Self.red(image, 106, 80) && !Self.red(image, 101, 80) && !Self.red(image, 108, 80))
    }

    /// A paragraph box (`sz` 100×80 at `ps` (−50, −40) about the position (100, 100)) centres each
    /// line in its width and puts the first baseline the font's ascent (70 % of the size 50)
    /// below its top: y 60 + 35 = 95; the "I" (5 wide, line width 10) at x 95…100.
    @Test func paragraphBoxesPlaceGlyphLines() throws {
        var document = Self.document("I", j: 2)
        document["sz"] = [100, 80]
        document["ps"] = [-50, -40]
        let doc = Self.withGlyphs([Self.textLayer([(0, document)], at: [100, 100])])
        let image = try T.render(try Doc.layer(doc), size: CGSize(width: 200, height: 200), at: 0)
        #expect(Self.red(image, 95, 61) && Self.red(image, 99, 94))
        #expect(!Self.red(image, 97, 95) && !Self.red(image, 97, 59) && !Self.red(image, 94, 80) && !Self.red(image, 100, 80))
    }

    /// Keyframed documents change at their frames: "I" until frame 15, then "II".
    @Test func documentKeyframesAreDiscrete() throws {
        let doc = Self.withGlyphs([Self.textLayer([(0, Self.document("I")), (15, Self.document("II"))])])
        let root = try Doc.layer(doc)
        let before = try T.render(root, size: CGSize(width: 200, height: 200), at: 14.0 / 30)
        #expect(Self.red(before, 22, 80) && !Self.red(before, 32, 80))
        let after = try T.render(root, size: CGSize(width: 200, height: 200), at: 16.0 / 30)
        #expect(Self.red(after, 22, 80) && Self.red(after, 32, 80))
    }

    /// The red pixels' box in `image`.
    static func ink(_ image: Pixmap) -> (minX: Int, maxX: Int, minY: Int, maxY: Int)? {
        var box: (Int, Int, Int, Int)?
        for y in 0..<image.height {
            for x in 0..<image.width where T.rgba(image, x, y)[0] > 127 && T.rgba(image, x, y)[3] > 127 {
                box = box.map { (min($0.0, x), max($0.1, x), min($0.2, y), max($0.3, y)) } ?? (x, x, y, y)
            }
        }
        return box.map { (minX: $0.0, maxX: $0.1, minY: $0.2, maxY: $0.3) }
    }

    /// Without glyph data the text is drawn in an installed font: an "H" (no descender) sits on
    /// the baseline at the layer's position; centred, its ink is centred on it; tracking 500 at
    /// size 40 puts 20 points more between two letters; the second line's baseline is `lh` lower.
    @Test func withoutGlyphsAFontDrawsTheText() throws {
        func image(_ document: [String: Any]) throws -> (minX: Int, maxX: Int, minY: Int, maxY: Int) {
            let doc = Doc.comp([Self.textLayer([(0, document)], at: [100, 100])])
            return try #require(Self.ink(try T.render(try Doc.layer(doc), size: CGSize(width: 200, height: 200), at: 0)))
        }
        let h = try image(Self.document("H", size: 40, j: 2, font: "Helvetica"))
        #expect(abs(h.maxY - 99) <= 1, "on the baseline: \(h)")
        #expect(abs(Double(h.minX + h.maxX + 1) / 2 - 100) <= 1, "centred: \(h)")
        let plain = try image(Self.document("HH", size: 40, font: "Helvetica"))
        let tracked = try image(Self.document("HH", size: 40, tr: 500, font: "Helvetica"))
        #expect(abs(plain.minX - 100) <= 4, "left-justified from the position: \(plain)")
        #expect(abs((tracked.maxX - tracked.minX) - (plain.maxX - plain.minX) - 20) <= 1, "\(plain) \(tracked)")
        let lines = try image(Self.document("H\rH", size: 40, lh: 50, font: "Helvetica"))
        #expect(abs(lines.maxY - 149) <= 1, "\(lines)")
    }

    /// A long text of a detailed glyph is refused past a million vertices, naming the layer's
    /// text: 20 000 bars of 100 vertices each.
    @Test func hugeGlyphTextsAreBounded() throws {
        var doc = Self.withGlyphs([Self.textLayer([(0, Self.document(String(repeating: "I", count: 20_000)))])])
        var chars = doc["chars"] as! [[String: Any]]
        let ring: [[Double]] = (0..<100).map { (n: Int) -> [Double] in
            let angle = Double(n) * Double.pi / 50
            return [cos(angle) * 5, sin(angle) * 5 - 5]
        }
        let zeros: [[Double]] = Array(repeating: [0, 0], count: 100)
        let outline: [String: Any] = ["c": true, "v": ring, "i": zeros, "o": zeros]
        chars[0]["data"] = ["shapes": [["ty": "sh", "ks": Doc.fixed(outline)]]]
        doc["chars"] = chars
        #expect(throws: (any Error).self) { try Doc.animation(doc) }
        do {
            _ = try Doc.animation(doc)
        } catch {
            #expect("\(error)" == "layers[0].t: the text's glyph outlines have more than 1000000 vertices")
        }
    }

    /// Text animators are listed (the documents are drawn without them).
    @Test func textAnimatorsAreListed() throws {
        var layer = Self.textLayer([(0, Self.document("I"))])
        layer["t"] = ["d": ["k": [["t": 0, "s": Self.document("I")]]], "a": [["s": [:], "a": [:]]]]
        #expect(try Doc.animation(Self.withGlyphs([layer])).unsupportedFeatures.map(\.feature) == ["text animators"])
    }
}
