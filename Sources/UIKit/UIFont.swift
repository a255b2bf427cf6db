import CoreText

/// A font (Apple's `UIFont`), minimal: a name and a point size, enough for `UILabel` and
/// `CATextLayer`.
///
/// Citrine draws a name with the installed font `FontPolicy` (CoreText) chooses for it — Helvetica
/// with Nimbus Sans or Liberation Sans when installed, else DejaVu Sans (README: Fonts) — and
/// reports that font's metrics: `ascender`, `descender` and `leading` from its `hhea` table.
/// The system font is San Francisco on iOS, which no Linux machine can install: here it is the
/// ".SFUI" family, which the policy draws with Helvetica's fonts.
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

    /// The system font at `fontSize` points. Its names are UIKit's hidden ".SFUI" ones (iOS
    /// reports ".SFUI-Regular"; the suffix varies between iOS versions).
    public class func systemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(fontName: ".SFUI-Regular", pointSize: fontSize, fontconfigName: ".SFUI")
    }

    /// The bold system font at `fontSize` points.
    public class func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(fontName: ".SFUI-Bold", pointSize: fontSize, fontconfigName: ".SFUI:bold")
    }

    /// The italic system font at `fontSize` points.
    public class func italicSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(fontName: ".SFUI-Italic", pointSize: fontSize, fontconfigName: ".SFUI:italic")
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
    /// The drawn font's metrics at this size; with no font installed, Core Text's proportions
    /// for a missing font are unknown, so a plain 0.8 / −0.2 em box with no gap.
    private var metrics: (ascender: Double, descender: Double, leading: Double) {
        fontMetrics(fontconfigName, size: Double(pointSize)) ?? (0.8 * Double(pointSize), -0.2 * Double(pointSize), 0)
    }
    /// Top of the tallest glyphs above the baseline (points): the font's `hhea` ascender.
    public var ascender: CGFloat { CGFloat(metrics.ascender) }
    /// Bottom of the lowest glyphs relative to the baseline (points, negative): `hhea` descender.
    public var descender: CGFloat { CGFloat(metrics.descender) }
    /// The gap between lines (points): the font's `hhea` line gap.
    public var leading: CGFloat { CGFloat(metrics.leading) }
    /// Baseline to baseline (points): ascender − descender + leading (Apple's `UIFont.lineHeight`).
    public var lineHeight: CGFloat { ascender - descender + leading }

    public static func == (l: UIFont, r: UIFont) -> Bool { l.fontName == r.fontName && l.pointSize == r.pointSize }
    public func hash(into h: inout Hasher) { h.combine(fontName); h.combine(pointSize) }
    public var description: String { "UIFont(\(fontName), \(pointSize) pt)" }
}
