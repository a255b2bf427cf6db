import Foundation

/// A font file's own tables, read by an independent reader for the tests: fontTools (PyPI), run
/// in a child process with the same Python as `PillowDecoder` (`scripts/test` installs it). Text
/// tests take their expected metrics from the file Citrine's font policy resolves, so they hold
/// whichever fonts a machine has.
///
/// Values are in font units, as the tables store them: `head.unitsPerEm`; `hhea` ascent,
/// descent (negative) and line gap (what FreeType reports as the face's ascender, descender and
/// height − ascender + descender, FreeType's `FT_FaceRec` documentation); `hmtx` advance widths;
/// each glyph's outline bounds (fontTools' `BoundsPen`, exact for straight and curved segments);
/// `OS/2.sCapHeight` when the table has it.
public struct FontTables {
    public var unitsPerEm: Double
    public var ascender: Double
    public var descender: Double
    public var lineGap: Double
    public var capHeight: Double?
    /// Per character of the text asked for: advance width and outline bounds (xMin, yMin, xMax,
    /// yMax; nil for a blank glyph).
    public var advances: [Character: Double]
    public var bounds: [Character: (Double, Double, Double, Double)]

    /// Points per font unit at `size` points.
    public func scale(_ size: Double) -> Double { size / unitsPerEm }
    /// The unkerned width of `text` at `size` points (each character's advance, summed).
    public func width(_ text: String, size: Double) -> Double {
        text.reduce(0) { $0 + (advances[$1] ?? .nan) } * scale(size)
    }
    /// Ascent, descent (positive) and line gap at `size` points.
    public func ascent(_ size: Double) -> Double { ascender * scale(size) }
    public func descent(_ size: Double) -> Double { -descender * scale(size) }
    public func gap(_ size: Double) -> Double { lineGap * scale(size) }
    /// Baseline to baseline: ascent + descent + line gap.
    public func lineHeight(_ size: Double) -> Double { (ascender - descender + lineGap) * scale(size) }
    /// The glyph's outline bounds at `size` points.
    public func box(_ c: Character, size: Double) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let b = bounds[c] ?? (0, 0, 0, 0), k = scale(size)
        return (b.0 * k, b.1 * k, b.2 * k, b.3 * k)
    }

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    private static let script = #"""
import sys, json
from fontTools.ttLib import TTFont
from fontTools.pens.boundsPen import BoundsPen
font = TTFont(sys.argv[1], fontNumber=int(sys.argv[2]), lazy=True)
cmap, glyphs, hmtx, hhea = font.getBestCmap(), font.getGlyphSet(), font["hmtx"], font["hhea"]
out = {"unitsPerEm": font["head"].unitsPerEm, "ascender": hhea.ascent, "descender": hhea.descent,
       "lineGap": hhea.lineGap, "capHeight": getattr(font["OS/2"], "sCapHeight", None) if "OS/2" in font else None,
       "glyphs": {}}
for ch in set(sys.argv[3]):
    name = cmap.get(ord(ch), ".notdef")
    pen = BoundsPen(glyphs)
    glyphs[name].draw(pen)
    out["glyphs"][ch] = {"advance": hmtx[name][0], "bounds": pen.bounds}
print(json.dumps(out))
"""#

    /// The tables of face `index` of `file`, with the advances and bounds of `text`'s characters.
    public static func read(_ file: String, index: Int = 0, text: String) throws -> FontTables {
        let python = PillowDecoder.python
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Failure(description: "no Python with fontTools at \(python): run ./scripts/test, or set CITRINE_PYTHON")
        }
        let (status, json, errors) = try PillowDecoder.run(python, ["-c", script, file, String(index), text])
        guard status == 0,
              let info = try JSONSerialization.jsonObject(with: json) as? [String: Any],
              let glyphs = info["glyphs"] as? [String: [String: Any]] else {
            throw Failure(description: "fontTools could not read \(file): \(String(decoding: errors, as: UTF8.self))")
        }
        func number(_ key: String) -> Double { (info[key] as? NSNumber)?.doubleValue ?? .nan }
        var tables = FontTables(unitsPerEm: number("unitsPerEm"), ascender: number("ascender"), descender: number("descender"),
                                lineGap: number("lineGap"), capHeight: (info["capHeight"] as? NSNumber)?.doubleValue,
                                advances: [:], bounds: [:])
        for (key, glyph) in glyphs {
            guard let c = key.first else { continue }
            tables.advances[c] = (glyph["advance"] as? NSNumber)?.doubleValue
            if let b = glyph["bounds"] as? [NSNumber], b.count == 4 {
                tables.bounds[c] = (b[0].doubleValue, b[1].doubleValue, b[2].doubleValue, b[3].doubleValue)
            }
        }
        return tables
    }

    /// The pixel rows or columns more than half covered by ink spanning `low…high` (pixel edges
    /// at integers), as exact-area coverage gives them: from `low` rounded to `high` rounded − 1.
    /// `ambiguous` when an edge lies within 0.05 px of a pixel's middle, where the last bit of
    /// coverage decides.
    public static func pixels(_ low: Double, _ high: Double) -> (first: Int, last: Int, ambiguous: Bool) {
        func nearHalf(_ x: Double) -> Bool { abs(x - x.rounded(.down) - 0.5) < 0.05 }
        return (Int(low.rounded()), Int(high.rounded()) - 1, nearHalf(low) || nearHalf(high))
    }
}
