// UIKit's system and semantic colours (iOS 13+), in their light appearance: Citrine has no dark
// appearance or increased-contrast variant, so each is the colour an iOS app gets in light mode.
//
// Sources:
// - The system colours (`systemRed` … `systemGray6`): the "Default (light)" column of the
//   Human Interface Guidelines' system colour table for iOS (developer.apple.com/design/
//   human-interface-guidelines/color), as published for iOS 13–18 (the June 2025 update changed
//   several hues for iOS 26; Citrine keeps the values that iOS 13–18 apps render).
// - The semantic colours (`label`, `systemBackground`, `separator`, fills …): Apple documents
//   their roles, not their numbers; the values are those UIKit resolves for the light trait
//   collection on iOS 13, as printed with `resolvedColor(with:)` and tabulated by Noah Gilmore,
//   "Backwards compatibility for iOS 13 system colors" (noahgilmore.com, 2019), e.g.
//   `secondaryLabel` → sRGB (0.235294, 0.235294, 0.262745, 0.6) = (60, 60, 67) at 60 %.

extension UIColor {
    /// An sRGB colour from 0…255 components and an alpha.
    private static func srgb(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ alpha: CGFloat = 1) -> UIColor {
        UIColor(red: r / 255, green: g / 255, blue: b / 255, alpha: alpha)
    }

    // MARK: System colours (HIG, light)

    /// (255, 59, 48).
    public class var systemRed: UIColor { srgb(255, 59, 48) }
    /// (255, 149, 0).
    public class var systemOrange: UIColor { srgb(255, 149, 0) }
    /// (255, 204, 0).
    public class var systemYellow: UIColor { srgb(255, 204, 0) }
    /// (52, 199, 89).
    public class var systemGreen: UIColor { srgb(52, 199, 89) }
    /// (0, 199, 190) (iOS 15).
    public class var systemMint: UIColor { srgb(0, 199, 190) }
    /// (48, 176, 199).
    public class var systemTeal: UIColor { srgb(48, 176, 199) }
    /// (50, 173, 230) (iOS 15).
    public class var systemCyan: UIColor { srgb(50, 173, 230) }
    /// (0, 122, 255): also the default tint colour.
    public class var systemBlue: UIColor { srgb(0, 122, 255) }
    /// (88, 86, 214).
    public class var systemIndigo: UIColor { srgb(88, 86, 214) }
    /// (175, 82, 222).
    public class var systemPurple: UIColor { srgb(175, 82, 222) }
    /// (255, 45, 85).
    public class var systemPink: UIColor { srgb(255, 45, 85) }
    /// (162, 132, 94).
    public class var systemBrown: UIColor { srgb(162, 132, 94) }
    /// (142, 142, 147).
    public class var systemGray: UIColor { srgb(142, 142, 147) }
    /// (174, 174, 178).
    public class var systemGray2: UIColor { srgb(174, 174, 178) }
    /// (199, 199, 204).
    public class var systemGray3: UIColor { srgb(199, 199, 204) }
    /// (209, 209, 214).
    public class var systemGray4: UIColor { srgb(209, 209, 214) }
    /// (229, 229, 234).
    public class var systemGray5: UIColor { srgb(229, 229, 234) }
    /// (242, 242, 247).
    public class var systemGray6: UIColor { srgb(242, 242, 247) }

    // MARK: Label colours

    /// Primary text: black.
    public class var label: UIColor { srgb(0, 0, 0) }
    /// Secondary text: (60, 60, 67) at alpha 0.6.
    public class var secondaryLabel: UIColor { srgb(60, 60, 67, 0.6) }
    /// Tertiary text: (60, 60, 67) at alpha 0.3.
    public class var tertiaryLabel: UIColor { srgb(60, 60, 67, 0.3) }
    /// Quaternary text: (60, 60, 67) at alpha 0.18.
    public class var quaternaryLabel: UIColor { srgb(60, 60, 67, 0.18) }
    /// Placeholder text: (60, 60, 67) at alpha 0.3.
    public class var placeholderText: UIColor { srgb(60, 60, 67, 0.3) }
    /// Links: (0, 122, 255), the system blue.
    public class var link: UIColor { srgb(0, 122, 255) }

    // MARK: Fill colours

    /// Thin and small shapes: (120, 120, 128) at alpha 0.2.
    public class var systemFill: UIColor { srgb(120, 120, 128, 0.2) }
    /// Medium shapes: (120, 120, 128) at alpha 0.16.
    public class var secondarySystemFill: UIColor { srgb(120, 120, 128, 0.16) }
    /// Large shapes: (118, 118, 128) at alpha 0.12.
    public class var tertiarySystemFill: UIColor { srgb(118, 118, 128, 0.12) }
    /// Large areas with complex content: (116, 116, 128) at alpha 0.08.
    public class var quaternarySystemFill: UIColor { srgb(116, 116, 128, 0.08) }

    // MARK: Background colours

    /// The main background: white.
    public class var systemBackground: UIColor { srgb(255, 255, 255) }
    /// Content layered on the main background: (242, 242, 247).
    public class var secondarySystemBackground: UIColor { srgb(242, 242, 247) }
    /// Content layered on secondary backgrounds: white.
    public class var tertiarySystemBackground: UIColor { srgb(255, 255, 255) }
    /// A grouped interface's background: (242, 242, 247).
    public class var systemGroupedBackground: UIColor { srgb(242, 242, 247) }
    /// Content on a grouped background: white.
    public class var secondarySystemGroupedBackground: UIColor { srgb(255, 255, 255) }
    /// Content on secondary grouped backgrounds: (242, 242, 247).
    public class var tertiarySystemGroupedBackground: UIColor { srgb(242, 242, 247) }

    // MARK: Separators

    /// A thin border that lets the content show through: (60, 60, 67) at alpha 0.29.
    public class var separator: UIColor { srgb(60, 60, 67, 0.29) }
    /// An opaque border: (198, 198, 200).
    public class var opaqueSeparator: UIColor { srgb(198, 198, 200) }
}
