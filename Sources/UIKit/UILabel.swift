/// Horizontal text alignment (Apple's `NSTextAlignment`, iOS raw values).
public enum NSTextAlignment: Int, Sendable {
    case left = 0, center = 1, right = 2, justified = 3, natural = 4
}

/// How a line too long for its label ends (Apple's `NSLineBreakMode`, raw values Apple's).
public enum NSLineBreakMode: Int, Sendable {
    case byWordWrapping = 0, byCharWrapping, byClipping, byTruncatingHead, byTruncatingTail, byTruncatingMiddle
}

/// A view that shows text (Apple's `UILabel`), drawn by a `CATextLayer` sublayer of the label's
/// layer (`textLayer`). Defaults are UIKit's: the 17-point system font, black, natural (left)
/// alignment, one line truncated at the tail, user interaction off.
///
/// A one-line label centres its line vertically (the line is `font.lineHeight` tall); with
/// `numberOfLines` ≠ 1 the text wraps at word boundaries from the top of the bounds (Citrine
/// cannot measure the wrapped height here, so it does not centre it) and `numberOfLines` only
/// switches wrapping on. `intrinsicContentSize` and `sizeThatFits(_:)` measure the text with
/// the string-drawing layout (`NSAttributedString.size()`), rounded up to whole points.
open class UILabel: UIView {
    /// The layer that draws the text (no implicit animations of its own).
    public let textLayer = CATextLayer()

    public override init(frame: CGRect) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
        var quiet: [String: CAAction] = [:]
        for key in ["bounds", "position", "string", "fontSize", "foregroundColor", "contentsScale", "hidden", "opacity"] {
            quiet[key] = NSNull()
        }
        textLayer.actions = quiet
        layer.addSublayer(textLayer)
        updateText()
        layoutText()
    }

    public required init?(coder: NSCoder) { return nil }

    open var text: String? { didSet { updateText(); invalidateIntrinsicContentSize() } }
    /// Default: the 17-point system font.
    open var font: UIFont! = .systemFont(ofSize: 17) { didSet { updateText(); layoutText() } }
    /// Default black.
    open var textColor: UIColor! = .black { didSet { updateText() } }
    /// Default `.natural` (left).
    open var textAlignment: NSTextAlignment = .natural { didSet { updateText() } }
    /// 1 (default): one line; 0 or more: wrapped.
    open var numberOfLines = 1 { didSet { updateText(); layoutText() } }
    /// Default `.byTruncatingTail` (applies to one-line labels).
    open var lineBreakMode: NSLineBreakMode = .byTruncatingTail { didSet { updateText() } }

    open override var frame: CGRect {
        get { super.frame }
        set { super.frame = newValue; layoutText() }
    }

    open override var bounds: CGRect {
        get { super.bounds }
        set { super.bounds = newValue; layoutText() }
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        layoutText()
    }

    /// The text's size as one line per paragraph (no wrapping), rounded up to whole points;
    /// (0, 0) without text (Apple: a label's intrinsic size is its text's size).
    open override var intrinsicContentSize: CGSize { measuredText(width: nil) }

    /// The text's size: one line per paragraph when `numberOfLines` is 1, else wrapped to
    /// `size.width` (when positive) and cut to `numberOfLines` lines (0: any number), rounded
    /// up to whole points.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        guard numberOfLines != 1 else { return measuredText(width: nil) }
        let wrapped = measuredText(width: size.width > 0 && size.width.isFinite ? size.width : nil)
        guard numberOfLines > 0 else { return wrapped }
        let font = self.font ?? .systemFont(ofSize: 17)
        return CGSize(width: wrapped.width,
                      height: min(wrapped.height, (font.lineHeight * CGFloat(numberOfLines)).rounded(.up)))
    }

    private func measuredText(width: CGFloat?) -> CGSize {
        guard let text, !text.isEmpty else { return .zero }
        let font = self.font ?? .systemFont(ofSize: 17)
        let size = NSAttributedString(string: text, attributes: [.font: font])
            .boundingRect(with: CGSize(width: width ?? 0, height: 0), options: .usesLineFragmentOrigin, context: nil).size
        return CGSize(width: size.width.rounded(.up), height: size.height.rounded(.up))
    }

    private func updateText() {
        let font = self.font ?? .systemFont(ofSize: 17)
        textLayer.string = text
        textLayer.font = font.fontconfigName
        textLayer.fontSize = font.pointSize
        textLayer.foregroundColor = (textColor ?? .black).cgColor
        switch textAlignment {
        case .center: textLayer.alignmentMode = .center
        case .right: textLayer.alignmentMode = .right
        case .justified: textLayer.alignmentMode = .justified
        case .left, .natural: textLayer.alignmentMode = .left
        }
        textLayer.isWrapped = numberOfLines != 1
        switch (numberOfLines, lineBreakMode) {
        case (1, .byTruncatingHead): textLayer.truncationMode = .start
        case (1, .byTruncatingMiddle): textLayer.truncationMode = .middle
        case (1, .byTruncatingTail): textLayer.truncationMode = .end
        default: textLayer.truncationMode = .none
        }
    }

    /// The text layer's frame: the vertically centred line, or the whole bounds for wrapped text.
    private func layoutText() {
        let b = bounds
        let font = self.font ?? .systemFont(ofSize: 17)
        if numberOfLines == 1 {
            let h = font.lineHeight
            textLayer.frame = CGRect(x: b.minX, y: b.minY + (b.height - h) / 2, width: b.width, height: h)
        } else {
            textLayer.frame = b
        }
    }
}
