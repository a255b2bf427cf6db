import CoreText

// The system font's weights and text styles (Apple's `UIFont.Weight`, `UIFont.TextStyle`,
// `preferredFont(forTextStyle:)`), drawn, as the system font is, with Helvetica's stand-ins
// (FontPolicy). A weight is asked of fontconfig by its nearest named weight, so a family with
// only Regular and Bold (Nimbus Sans) draws light weights Regular and heavy ones Bold.

extension UIFont {
    /// A font weight (Apple's `UIFont.Weight`). The raw values are iOS's, as printed on a device
    /// and published (blog.csdn.net/qq_18683985/article/details/89714178: `UIFontWeightUltraLight`
    /// … `UIFontWeightBlack` = −0.8, −0.6, −0.4, 0, 0.23, 0.3, 0.4, 0.56, 0.62 as Floats).
    public struct Weight: RawRepresentable, Hashable, Comparable, Sendable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }

        public static let ultraLight = Weight(-0.8)
        public static let thin = Weight(-0.6)
        public static let light = Weight(-0.4)
        public static let regular = Weight(0)
        public static let medium = Weight(0.23)
        public static let semibold = Weight(0.3)
        public static let bold = Weight(0.4)
        public static let heavy = Weight(0.56)
        public static let black = Weight(0.62)

        public static func < (a: Weight, b: Weight) -> Bool { a.rawValue < b.rawValue }

        /// The named weights, with iOS's style name and fontconfig's weight constant.
        private static let names: [(weight: Weight, style: String, fontconfig: String)] = [
            (.ultraLight, "Ultralight", "extralight"), (.thin, "Thin", "thin"), (.light, "Light", "light"),
            (.regular, "Regular", ""), (.medium, "Medium", "medium"), (.semibold, "Semibold", "semibold"),
            (.bold, "Bold", "bold"), (.heavy, "Heavy", "extrabold"), (.black, "Black", "black"),
        ]

        /// The named weight nearest this one (a non-finite weight is regular).
        var nearestName: (style: String, fontconfig: String) {
            let value = rawValue.isFinite ? rawValue : 0
            let best = Self.names.min { abs($0.weight.rawValue - value) < abs($1.weight.rawValue - value) }!
            return (best.style, best.fontconfig)
        }
    }

    /// A text style for Dynamic Type (Apple's `UIFont.TextStyle`, with iOS's raw strings).
    public struct TextStyle: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let largeTitle = TextStyle(rawValue: "UICTFontTextStyleTitle0")
        public static let title1 = TextStyle(rawValue: "UICTFontTextStyleTitle1")
        public static let title2 = TextStyle(rawValue: "UICTFontTextStyleTitle2")
        public static let title3 = TextStyle(rawValue: "UICTFontTextStyleTitle3")
        public static let headline = TextStyle(rawValue: "UICTFontTextStyleHeadline")
        public static let subheadline = TextStyle(rawValue: "UICTFontTextStyleSubhead")
        public static let body = TextStyle(rawValue: "UICTFontTextStyleBody")
        public static let callout = TextStyle(rawValue: "UICTFontTextStyleCallout")
        public static let footnote = TextStyle(rawValue: "UICTFontTextStyleFootnote")
        public static let caption1 = TextStyle(rawValue: "UICTFontTextStyleCaption1")
        public static let caption2 = TextStyle(rawValue: "UICTFontTextStyleCaption2")

        /// Point size and weight at the default content size ("Large"), from Apple's Human
        /// Interface Guidelines (Typography, iOS Dynamic Type sizes; the same sizes and the
        /// ".SFUI-Regular" / ".SFUI-Semibold" names read off iOS at iosfontsizes.com): large title 34, title 1
        /// 28, title 2 22, title 3 20, headline 17 semibold, body 17, callout 16, subheadline
        /// 15, footnote 13, caption 1 12, caption 2 11. An unknown style is body's.
        var largeSize: (points: CGFloat, weight: Weight) {
            switch self {
            case .largeTitle: (34, .regular)
            case .title1: (28, .regular)
            case .title2: (22, .regular)
            case .title3: (20, .regular)
            case .headline: (17, .semibold)
            case .callout: (16, .regular)
            case .subheadline: (15, .regular)
            case .footnote: (13, .regular)
            case .caption1: (12, .regular)
            case .caption2: (11, .regular)
            default: (17, .regular)
            }
        }
    }

    /// The system font at `fontSize` points and `weight` (iOS 8.2). Its name is
    /// ".SFUI-<Weight>", as iOS reports it ("…-Semibold").
    public class func systemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        let (style, fontconfig) = weight.nearestName
        return UIFont(fontName: ".SFUI-" + style, pointSize: fontSize,
                      fontconfigName: fontconfig.isEmpty ? ".SFUI" : ".SFUI:" + fontconfig)
    }

    /// The system font with digits of equal width (iOS 9). San Francisco's digits are
    /// proportional unless asked; the fonts that draw it here (Helvetica's stand-ins, DejaVu
    /// Sans) have equal-width digits already, so this is `systemFont(ofSize:weight:)`.
    public class func monospacedDigitSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        systemFont(ofSize: fontSize, weight: weight)
    }

    /// The monospaced system font (SF Mono, iOS 13), drawn with Menlo's stand-in (FontPolicy:
    /// DejaVu Sans Mono). Its name here is "Menlo-<Weight>" (iOS reports a hidden SF Mono name).
    public class func monospacedSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        let (style, fontconfig) = weight.nearestName
        return UIFont(fontName: "Menlo-" + style, pointSize: fontSize,
                      fontconfigName: fontconfig.isEmpty ? "Menlo" : "Menlo:" + fontconfig)
    }

    /// The system font for `style` at the default content size ("Large"; Citrine has no
    /// Dynamic Type setting), with the style's size and weight from Apple's HIG table.
    public class func preferredFont(forTextStyle style: TextStyle) -> UIFont {
        let (points, weight) = style.largeSize
        return systemFont(ofSize: points, weight: weight)
    }
}
