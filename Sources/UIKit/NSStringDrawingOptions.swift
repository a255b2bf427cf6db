/// Options for string drawing and measuring (Apple's `NSStringDrawingOptions`, raw values
/// Apple's). Citrine's measuring reads `.usesLineFragmentOrigin`; the others are accepted for
/// source compatibility (the line heights always include the font's leading, as
/// `.usesFontLeading` asks, and glyph bounds are not used).
public struct NSStringDrawingOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Lay the text out as lines from the rectangle's top-left origin, wrapping to its width
    /// (without it, the string is measured as one line from its baseline origin).
    public static let usesLineFragmentOrigin = NSStringDrawingOptions(rawValue: 1 << 0)
    /// Use the font's leading for line heights.
    public static let usesFontLeading = NSStringDrawingOptions(rawValue: 1 << 1)
    /// Measure the glyphs' image bounds rather than their typographic bounds.
    public static let usesDeviceMetrics = NSStringDrawingOptions(rawValue: 1 << 3)
    /// Truncate and add an ellipsis to the last visible line when the text does not fit.
    public static let truncatesLastVisibleLine = NSStringDrawingOptions(rawValue: 1 << 5)
}
