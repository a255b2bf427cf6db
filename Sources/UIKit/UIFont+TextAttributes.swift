import QuartzCore

/// UIKit's attributed-string keys for what `CATextLayer` draws (Apple's raw strings: "NSFont"
/// is also Core Text's `kCTFontAttributeName`, so a `UIFont` or a `CTFont` under either key
/// works, as toll-free bridging makes it work on iOS).
extension NSAttributedString.Key {
    public static let font = NSAttributedString.Key("NSFont")
    public static let foregroundColor = NSAttributedString.Key("NSColor")
    /// Core Text's `kCTKernAttributeName` (absent: the font's kerning; 0: none).
    public static let kern = NSAttributedString.Key("NSKern")
    /// Core Text's `kCTLigatureAttributeName` (absent: 1, standard ligatures).
    public static let ligature = NSAttributedString.Key("NSLigature")
}

/// A `UIFont` names its font and size for `CATextLayer` (Apple: `UIFont` is toll-free bridged
/// with `CTFont`, so attributed strings take it as their font).
extension UIFont: _FontDescribing {
    package var _fontPattern: String { fontconfigName }
    package var _fontPointSize: CGFloat? { pointSize }
}

/// A `UIColor` colours attributed-string text (`.foregroundColor`).
extension UIColor: _CGColorConvertible {
    package var _cgColor: CGColor { cgColor }
}
