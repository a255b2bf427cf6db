import Foundation

/// A font's OpenType layout tables as fontTools reads them, for the shaping tests: the `kern`
/// feature's pair adjustment in `GPOS` (lookup type 2, formats 1 and 2, inside extension lookups
/// too; the legacy `kern` table when the font has no `GPOS`), and the `liga` feature's ligature
/// in `GSUB` (lookup type 4).
extension FontTables {
    private static let openTypeScript = #"""
import sys, json
from fontTools.ttLib import TTFont
font = TTFont(sys.argv[1], fontNumber=int(sys.argv[2]))
cmap, hmtx = font.getBestCmap(), font["hmtx"]
left, right = cmap[ord(sys.argv[3])], cmap[ord(sys.argv[4])]

def subtables(table, feature, types):
    indices = set()
    for record in table.FeatureList.FeatureRecord:
        if record.FeatureTag == feature:
            indices.update(record.Feature.LookupListIndex)
    for index in sorted(indices):
        lookup = table.LookupList.Lookup[index]
        for sub in lookup.SubTable:
            if lookup.LookupType in (7, 9):
                sub = sub.ExtSubTable
            if sub.LookupType in types:
                yield sub

def kerning():
    if "GPOS" in font:
        for sub in subtables(font["GPOS"].table, "kern", (2,)):
            if left not in sub.Coverage.glyphs:
                continue
            if sub.Format == 1:
                pairs = sub.PairSet[sub.Coverage.glyphs.index(left)].PairValueRecord
                for pair in pairs:
                    if pair.SecondGlyph == right:
                        return getattr(pair.Value1, "XAdvance", 0) or 0
            else:
                c1 = sub.ClassDef1.classDefs.get(left, 0)
                c2 = sub.ClassDef2.classDefs.get(right, 0)
                return getattr(sub.Class1Record[c1].Class2Record[c2].Value1, "XAdvance", 0) or 0
        return 0
    if "kern" in font:
        return font["kern"].kernTables[0].kernTable.get((left, right), 0)
    return 0

def ligature():
    if "GSUB" not in font:
        return None
    for sub in subtables(font["GSUB"].table, "liga", (4,)):
        for lig in sub.ligatures.get(left, []):
            if lig.Component == [right]:
                return lig.LigGlyph
    return None

lig = ligature()
print(json.dumps({"left": hmtx[left][0], "right": hmtx[right][0], "kerning": kerning(),
                  "ligature": lig, "ligatureAdvance": hmtx[lig][0] if lig else None}))
"""#

    /// The pair `first` `second` in face `index` of `file`: each one's advance, the `kern`
    /// feature's adjustment between them, and the `liga` ligature that replaces them (its glyph
    /// name and advance), all in font units.
    public struct Pair {
        public var first: Double, second: Double, kerning: Double
        public var ligature: String?, ligatureAdvance: Double?
    }

    public static func pair(_ file: String, index: Int = 0, _ first: Character, _ second: Character) throws -> Pair {
        let (status, json, errors) = try PillowDecoder.run(PillowDecoder.python,
                                                           ["-c", openTypeScript, file, String(index), String(first), String(second)])
        guard status == 0, let info = try JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw Failure(description: "fontTools could not read \(file): \(String(decoding: errors, as: UTF8.self))")
        }
        func number(_ key: String) -> Double? { (info[key] as? NSNumber)?.doubleValue }
        return Pair(first: number("left") ?? .nan, second: number("right") ?? .nan, kerning: number("kerning") ?? .nan,
                    ligature: info["ligature"] as? String, ligatureAdvance: number("ligatureAdvance"))
    }
}
