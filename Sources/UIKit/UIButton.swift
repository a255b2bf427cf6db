/// A control that shows a title and runs its actions when tapped (Apple's `UIButton`), enough
/// for the seeds' buttons: a title and title colour per state (`setTitle(_:for:)`,
/// `setTitleColor(_:for:)`), the label that shows them (`titleLabel`, centred in the bounds),
/// and actions through `UIControl.addAction(_:for:)` or the `primaryAction` initializer
/// (`.touchUpInside`). As UIKit documents, a state without its own title or colour uses the
/// `.normal` one. Defaults: type `.custom` for `init(frame:)` and `UIButton()` (as on iOS),
/// title colour `systemBlue` for `.system` and white for `.custom`; the title font is the system font of size 15 as for a system button.
/// Deviation: no images, configurations or menus, and no highlight dimming (UIKit's amount is
/// not documented) unless a `.highlighted` colour is set.
open class UIButton: UIControl {
    /// Apple's button types (raw values); this port draws `.system` and `.custom` alike except
    /// for the default title colour.
    public enum ButtonType: Int, Sendable {
        case custom = 0, system, detailDisclosure, infoLight, infoDark, contactAdd, close
    }

    /// The button's type (Apple: read-only, chosen by `init(type:)`; `init(frame:)` makes a
    /// `.custom` button, as `UIButton(frame:)` does on iOS).
    public private(set) var buttonType: ButtonType = .custom
    private var titles: [UInt: String] = [:]
    private var titleColors: [UInt: UIColor] = [:]
    private let label = UILabel()

    /// The label showing the current title.
    open var titleLabel: UILabel? { label }

    /// A `.custom` button with `frame` (UIButton's designated initializer, as on iOS: a
    /// subclass's `override init(frame:)` calls `super.init(frame:)`).
    public override init(frame: CGRect) {
        super.init(frame: frame)
        label.textAlignment = .center
        label.font = .systemFont(ofSize: 15)
        addSubview(label)
        updateTitle()
    }

    /// A button of `buttonType` with a zero frame (Apple's `init(type:)`, a convenience
    /// initializer: in a subclass it runs the subclass's `init(frame:)`).
    public convenience init(type buttonType: ButtonType) {
        self.init(frame: .zero)
        self.buttonType = buttonType
        updateTitle()
    }

    /// A button of `buttonType` that runs `primaryAction` on `.primaryActionTriggered` (a tap),
    /// titled with the action's title.
    public convenience init(type buttonType: ButtonType = .system, primaryAction: UIAction?) {
        self.init(type: buttonType)
        if let primaryAction {
            setTitle(primaryAction.title, for: .normal)
            addAction(primaryAction, for: .primaryActionTriggered)
        }
    }

    public required init?(coder: NSCoder) { return nil }

    /// Sets the title shown in `state` (nil: that state uses the `.normal` title).
    open func setTitle(_ title: String?, for state: UIControl.State) {
        titles[state.rawValue] = title
        updateTitle()
    }

    /// The title set for `state`, else the `.normal` one.
    open func title(for state: UIControl.State) -> String? { titles[state.rawValue] ?? titles[0] }

    /// Sets the title colour in `state` (nil: that state uses the `.normal` colour).
    open func setTitleColor(_ color: UIColor?, for state: UIControl.State) {
        titleColors[state.rawValue] = color
        updateTitle()
    }

    /// The title colour for `state`, else the `.normal` one, else the type's default.
    open func titleColor(for state: UIControl.State) -> UIColor? {
        titleColors[state.rawValue] ?? titleColors[0] ?? (buttonType == .custom ? .white : .systemBlue)
    }

    /// The title shown now.
    open var currentTitle: String? { title(for: state) }
    /// The title colour shown now.
    open var currentTitleColor: UIColor { titleColor(for: state) ?? .systemBlue }

    open override func stateDidChange() { updateTitle() }

    /// The title label fills the bounds (its text centred).
    open override func layoutSubviews() { label.frame = bounds }

    /// The title's width (0 without a title) by the title font's line height plus 6 points
    /// above and below (Citrine's choice: the 30-point height iOS gives a system button with
    /// its 15-point title). Citrine has no images or content insets to add.
    open override var intrinsicContentSize: CGSize {
        let text = label.intrinsicContentSize
        return CGSize(width: max(text.width, 0), height: label.font.lineHeight.rounded(.up) + 12)
    }

    /// `intrinsicContentSize` (a button keeps its natural size whatever the proposal).
    open override func sizeThatFits(_ size: CGSize) -> CGSize { intrinsicContentSize }

    private func updateTitle() {
        label.text = currentTitle
        label.textColor = currentTitleColor
    }
}
