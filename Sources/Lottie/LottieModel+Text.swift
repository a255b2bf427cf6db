import CoreGraphics
import Foundation

// Text layers (`ty` 5) as read: the text document keyframes (`t.d.k`, each a document `s` from
// frame `t` on — text documents never interpolate, lottie-web's TextProperty holds each until
// the next), the fonts (`fonts.list`) and, when the file carries them, the glyph outlines
// (`chars`, each a character's shapes at size 100 and its advance `w`). Text animators (`t.a`),
// text on a path (`t.p`) and per-character options are noted, not read.

/// One text document (`t.d.k[n].s`).
struct TextDocument: Sendable, Interpolatable {
    /// `t`: lines separated by a carriage return (After Effects') or a line feed.
    var text: String
    /// `f`: a font's `fName` in `fonts.list`.
    var font: String
    /// `s`: the font size (points).
    var size: Double
    /// `fc`, `sc`: fill and stroke colours (0–1), nil for none; `sw` the stroke width.
    var fillColor: [Double]?
    var strokeColor: [Double]?
    var strokeWidth: Double
    /// `j`: 0 left, 1 right, 2 centre, of the point the layer places (the first baseline's).
    var justification: Int
    /// `tr`: tracking, thousandths of an em added after each character.
    var tracking: Double
    /// `lh`: the distance between baselines (points).
    var lineHeight: Double
    /// `sz`, `ps`: a paragraph box's size and its top left corner (nil for point text).
    var boxSize: CGPoint?
    var boxPosition: CGPoint?

    /// Documents hold until the next keyframe: never a mix of two.
    static func mix(_ a: TextDocument, _ b: TextDocument, _ t: Double) -> TextDocument { a }

    /// The lines of `text`.
    var lines: [String] {
        text.replacingOccurrences(of: "\r\n", with: "\r").split(separator: "\r", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }.map(String.init)
    }
}

/// A font of `fonts.list`: `fName` (the name documents use, often "Family-Style"), `fFamily`,
/// `fStyle`, and `ascent`, the ascender in percent of the size (where a paragraph box's first
/// baseline is below its top).
struct LottieFont: Sendable {
    var name: String
    var family: String
    var style: String
    var ascent: Double
}

/// A glyph of `chars`: the character, its font's family and style, its advance `w` and its
/// outline (`data.shapes`, paths at font size 100, y up from the baseline negative).
struct LottieGlyph: Sendable {
    var character: String
    var family: String
    var style: String
    var advance: Double
    var shapes: [ShapeItem]
}

extension LottieComposition {
    /// `fonts.list` by name and the glyphs of `chars` (none when absent).
    static func typography(_ root: JSONNode, notes: inout Notes) throws(LottieError) -> ([String: LottieFont], [LottieGlyph]) {
        var fonts: [String: LottieFont] = [:]
        for font in try root.member("fonts")?.member("list")?.array() ?? [] {
            let name = try font.required("fName").string()
            fonts[name] = LottieFont(name: name, family: try font.string("fFamily") ?? name, style: try font.string("fStyle") ?? "",
                                     ascent: try font.number("ascent", default: 75))
        }
        var glyphs: [LottieGlyph] = []
        for char in try root.member("chars")?.array() ?? [] {
            let shapes = try char.member("data")?.member("shapes").map { node throws(LottieError) in
                try ShapeItem.list(node, notes: &notes)
            } ?? []
            glyphs.append(LottieGlyph(character: try char.required("ch").string(), family: try char.string("fFamily") ?? "",
                                      style: try char.string("style") ?? "", advance: try char.number("w", default: 0), shapes: shapes))
        }
        return (fonts, glyphs)
    }
}

extension LottieLayer {
    /// A text layer's `t`: its document keyframes (at least one).
    static func text(_ node: JSONNode, notes: inout Notes) throws(LottieError) -> KeyframedValue<TextDocument> {
        let t = try node.required("t")
        if let a = try t.member("a"), try !a.array().isEmpty { notes.unsupported("text animators", at: a.path) }
        if let p = try t.member("p"), try p.member("m") != nil { notes.unsupported("text on a path", at: p.path) }
        let k = try t.required("d").required("k")
        var frames: [Keyframe<TextDocument>] = []
        for item in try k.array() {
            let time = try item.number("t", default: 0)
            if let last = frames.last, time < last.time {
                throw LottieError("\(item.path).t", "keyframes out of order: frame \(time) is listed after frame \(last.time)")
            }
            frames.append(Keyframe(time: time, value: try TextDocument(try item.required("s")), hold: true))
        }
        guard let first = frames.first else { throw LottieError(k.path, "expected at least one text document") }
        return frames.count == 1 ? .fixed(first.value) : .keyframed(frames)
    }
}

extension TextDocument {
    init(_ s: JSONNode) throws(LottieError) {
        text = try s.string("t") ?? ""
        font = try s.string("f") ?? ""
        size = try s.number("s", default: 10)
        guard size > 0, size <= 10_000 else { throw LottieError("\(s.path).s", "expected a font size above 0 and up to 10000") }
        fillColor = try s.member("fc").map { node throws(LottieError) in try LottieTransform.color(node) }
        strokeColor = try s.member("sc").map { node throws(LottieError) in try LottieTransform.color(node) }
        strokeWidth = try s.number("sw", default: 0)
        justification = try s.int("j", default: 0)
        tracking = try s.number("tr", default: 0)
        lineHeight = try s.number("lh", default: size * 1.2)
        boxSize = try s.member("sz").map { node throws(LottieError) in try LottieTransform.point(node) }
        boxPosition = try s.member("ps").map { node throws(LottieError) in try LottieTransform.point(node) }
    }
}
