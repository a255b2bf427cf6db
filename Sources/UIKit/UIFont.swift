/// A font (Apple's `UIFont`), minimal: a name and a point size, enough for `UILabel` and
/// `CATextLayer`.
///
/// Citrine draws text with the fonts fontconfig finds for a name (the installed DejaVu fonts
/// answer for "Helvetica"), so the system font is "Helvetica" here (Apple's is San Francisco)
/// and its metrics are DejaVu Sans' (units per em 2048, ascender 1901, descender −483, no line
/// gap, from the font's `hhea` table): `lineHeight` = 1.164 × `pointSize`.
public final class UIFont: Hashable, CustomStringConvertible, @unchecked Sendable {
    public let fontName: String
    public let pointSize: CGFloat
    /// The name handed to `CATextLayer.font` (a fontconfig pattern, e.g. "Helvetica:bold").
    let fontconfigName: String

    /// The font named `fontName` (a family, or "Family-Style" as in "Helvetica-Bold") at `size`
    /// points; nil for an empty name or a size that is not positive and finite.
    public convenience init?(name fontName: String, size fontSize: CGFloat) {
        guard !fontName.isEmpty, fontSize.isFinite, fontSize > 0 else { return nil }
        let parts = fontName.split(separator: "-", maxSplits: 1).map(String.init)
        let pattern = parts.count == 2 ? "\(parts[0]):\(parts[1].lowercased())" : fontName
        self.init(fontName: fontName, pointSize: fontSize, fontconfigName: pattern)
    }

    init(fontName: String, pointSize: CGFloat, fontconfigName: String) {
        self.fontName = fontName
        self.pointSize = pointSize
        self.fontconfigName = fontconfigName
    }

    /// The system font (here Helvetica, drawn with DejaVu Sans) at `fontSize` points.
    public class func systemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(fontName: "Helvetica", pointSize: fontSize, fontconfigName: "Helvetica")
    }

    /// The bold system font at `fontSize` points.
    public class func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(fontName: "Helvetica-Bold", pointSize: fontSize, fontconfigName: "Helvetica:bold")
    }

    /// The italic system font at `fontSize` points.
    public class func italicSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(fontName: "Helvetica-Oblique", pointSize: fontSize, fontconfigName: "Helvetica:oblique")
    }

    /// UIKit's label font size (17 points).
    public class var labelFontSize: CGFloat { 17 }
    /// UIKit's system font size (14 points).
    public class var systemFontSize: CGFloat { 14 }

    /// The same font at another size.
    public func withSize(_ fontSize: CGFloat) -> UIFont {
        UIFont(fontName: fontName, pointSize: fontSize, fontconfigName: fontconfigName)
    }

    public var familyName: String { String(fontName.split(separator: "-").first ?? Substring(fontName)) }
    /// Top of the tallest glyphs above the baseline (points).
    public var ascender: CGFloat { pointSize * 1901 / 2048 }
    /// Bottom of the lowest glyphs relative to the baseline (points, negative).
    public var descender: CGFloat { -pointSize * 483 / 2048 }
    /// Baseline to baseline (points): ascender − descender.
    public var lineHeight: CGFloat { ascender - descender }
    public var leading: CGFloat { 0 }

    public static func == (l: UIFont, r: UIFont) -> Bool { l.fontName == r.fontName && l.pointSize == r.pointSize }
    public func hash(into h: inout Hasher) { h.combine(fontName); h.combine(pointSize) }
    public var description: String { "UIFont(\(fontName), \(pointSize) pt)" }
}
