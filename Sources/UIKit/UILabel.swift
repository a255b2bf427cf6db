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
/// switches wrapping on. `sizeThatFits(_:)` is not text-measured: it keeps the width and gives
/// one line's height per allowed line.
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

    open var text: String? { didSet { updateText() } }
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

    /// One line's height per allowed line (one for `numberOfLines` 0), the width kept.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        let font = self.font ?? .systemFont(ofSize: 17)
        return CGSize(width: size.width, height: (font.lineHeight * CGFloat(max(numberOfLines, 1))).rounded(.up))
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
