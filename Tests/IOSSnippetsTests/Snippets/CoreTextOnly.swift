// Core Text with nothing but `import CoreText`, as on Apple (CoreText brings the Core Graphics
// types along).
import CoreText

/// The width of a line of `text` in Helvetica at `size` points.
func lineWidth(_ text: String, size: CGFloat) -> Double {
    let font = CTFontCreateWithName("Helvetica" as CFString, size, nil)
    let attributed = NSAttributedString(string: text, attributes: [NSAttributedString.Key(kCTFontAttributeName as String): font])
    return CTLineGetTypographicBounds(CTLineCreateWithAttributedString(attributed), nil, nil, nil)
}
