/// Fonts by name, as Core Graphics (`CGFont`) and Core Text (`CTFont`) hand them around.
///
/// Citrine draws glyphs with the font file CoreText's font policy finds for a name (Helvetica is
/// drawn with Nimbus Sans or Liberation Sans when installed, else DejaVu Sans; README: Fonts), so
/// a font here is a name — a family ("Helvetica"), a
/// PostScript-style "Family-Style" ("Helvetica-Bold", read as the fontconfig pattern
/// "Helvetica:bold") or a fontconfig pattern — plus, for a `CTFont`, a size in points.

/// Something that names a font and may carry a size (shared by Citrine's modules, not API):
/// `CGFont`, `CTFont` and the UI layer's `UIFont` adopt it, so `CATextLayer.font` and the font
/// attribute of an attributed string accept any of them.
package protocol _FontDescribing: AnyObject {
    /// The fontconfig pattern of the font ("Helvetica:bold").
    var _fontPattern: String { get }
    /// Its size in points, or nil when it has none (a `CGFont`).
    var _fontPointSize: CGFloat? { get }
}

/// Something that can stand for a `CGColor` in an attributed string's colour attribute
/// (shared by Citrine's modules: the UI layer's `UIColor` adopts it).
package protocol _CGColorConvertible {
    var _cgColor: CGColor { get }
}

extension CGColor: _CGColorConvertible {
    package var _cgColor: CGColor { self }
}

/// A font without a size (Apple's `CGFont`).
public final class CGFont: _FontDescribing, @unchecked Sendable {
    /// The name it was made with.
    public let postScriptName: CFString?
    public var fullName: CFString? { postScriptName }
    package let _fontPattern: String
    package var _fontPointSize: CGFloat? { nil }

    /// The font called `name`; nil for an empty name.
    public init?(_ name: CFString) {
        guard !name.isEmpty else { return nil }
        postScriptName = name
        _fontPattern = fontPattern(name)
    }
}

/// A font at a size (Core Text's `CTFont`), made by `CTFontCreateWithName`.
public final class CTFont: _FontDescribing, @unchecked Sendable {
    public let name: String
    /// Points.
    public let size: CGFloat
    package let _fontPattern: String
    package var _fontPointSize: CGFloat? { size }

    init(name: String, pattern: String, size: CGFloat) {
        self.name = name
        self._fontPattern = pattern
        self.size = size
    }
}

/// Core Text: the font called `name` at `size` points (Apple: a size of 0 means 12). The matrix
/// is accepted for source compatibility and not applied.
public func CTFontCreateWithName(_ name: CFString, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?) -> CTFont {
    CTFont(name: name, pattern: fontPattern(name), size: size > 0 && size.isFinite ? size : 12)
}

/// Core Text: `graphicsFont` at `size` points (0 means 12).
public func CTFontCreateWithGraphicsFont(_ graphicsFont: CGFont, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?,
                                         _ attributes: Any?) -> CTFont {
    CTFont(name: graphicsFont.postScriptName ?? "Helvetica", pattern: graphicsFont._fontPattern,
           size: size > 0 && size.isFinite ? size : 12)
}

/// The point size of `font`.
public func CTFontGetSize(_ font: CTFont) -> CGFloat { font.size }
/// The name `font` was made with.
public func CTFontCopyPostScriptName(_ font: CTFont) -> CFString { font.name }

/// Core Text's attribute names (raw strings are Apple's): the font (a `CTFont`; Apple's default
/// when absent is Helvetica 12) and the foreground colour (a `CGColor`; default black).
public let kCTFontAttributeName: CFString = "NSFont"
public let kCTForegroundColorAttributeName: CFString = "CTForegroundColor"
/// Kerning (a number, points): "how many points the following character should be shifted from
/// its default offset … If this attribute is not present, standard kerning will be used. If this
/// attribute is set to 0.0, no kerning will be done at all" (CTStringAttributes.h). Citrine: when
/// present, the font's kerning is off and the value is added after every character.
public let kCTKernAttributeName: CFString = "NSKern"
/// Ligatures (a number, default 1): "0 indicates that only ligatures essential for proper
/// rendering of text should be used, 1 indicates that standard ligatures should be used, and 2
/// indicates that all available ligatures should be used" (CTStringAttributes.h).
public let kCTLigatureAttributeName: CFString = "NSLigature"

/// The fontconfig pattern for a font name: "Family-Style" → "Family:style"; a name that already
/// is a pattern, or a plain family, stays as it is.
func fontPattern(_ name: String) -> String {
    guard !name.contains(":") else { return name }
    let parts = name.split(separator: "-", maxSplits: 1).map(String.init)
    return parts.count == 2 ? "\(parts[0]):\(parts[1].lowercased())" : name
}
