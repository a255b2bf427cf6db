/// A spinning "busy" indicator (Apple's `UIActivityIndicatorView`).
///
/// What it draws, as iOS 13+ draws it: 8 rounded spokes around the centre of a square —
/// 20 × 20 points for `.medium` (and the deprecated `.white`, `.gray`), 37 × 37 for `.large`
/// (and `.whiteLarge`) — the leading spoke opaque and each spoke behind it fainter, the whole
/// wheel stepping clockwise by one spoke (45°) eight times a second, so it turns once a second.
/// (iOS 12 and earlier drew 12 spokes; Citrine follows the current look.) The spoke proportions
/// (width 1/10 of the side, from 45 % to 100 % of the radius) and the 1 s period are Citrine's
/// reading of that look; Apple documents neither.
///
/// The spokes are one spoke layer in a `CAReplicatorLayer` (8 instances, each turned −45° and
/// 1/8 fainter), and the spin is a discrete `transform.rotation.z` keyframe animation on the
/// replicator, so renders and exports at any time show it where iOS would.
///
/// Defaults (Apple): style `.medium`, `hidesWhenStopped` true, not animating — so a new
/// indicator is hidden until `startAnimating()`. `color` defaults to the style's colour:
/// `systemGray` for `.medium`/`.large` (Citrine's choice for the light appearance), white for
/// `.white`/`.whiteLarge`, `UIColor.gray` for `.gray`.
open class UIActivityIndicatorView: UIView {
    /// Apple's styles (raw values Apple's: the deprecated ones first, then iOS 13's).
    public enum Style: Int, Sendable {
        case whiteLarge = 0, white = 1, gray = 2
        case medium = 100, large = 101

        /// The side of the indicator's square (points).
        var side: CGFloat { self == .large || self == .whiteLarge ? 37 : 20 }

        var defaultColor: UIColor {
            switch self {
            case .white, .whiteLarge: .white
            case .gray: .gray
            case .medium, .large: .systemGray
            }
        }
    }

    /// The number of spokes iOS 13+ draws.
    static let spokeCount = 8
    /// The animation key of the spin on the replicator layer.
    static let spinKey = "UIActivityIndicatorView.spin"

    private let wheel = CAReplicatorLayer()
    private let spoke = CALayer()
    private var explicitColor: UIColor?

    /// The style (default `.medium`); changing it resizes the spokes and their colour.
    open var style: Style = .medium { didSet { layoutWheel() } }
    /// Whether the indicator hides when not animating (default true, as on iOS).
    open var hidesWhenStopped = true { didSet { updateHidden() } }
    /// Whether the indicator is spinning.
    public private(set) var isAnimating = false
    /// The spokes' colour (default: the style's colour; setting nil restores it).
    open var color: UIColor! {
        get { explicitColor ?? style.defaultColor }
        set { explicitColor = newValue; spoke.backgroundColor = color.cgColor }
    }

    /// An indicator of `style`, sized to the style's square, stopped (hidden).
    public init(style: Style) {
        super.init(frame: CGRect(x: 0, y: 0, width: style.side, height: style.side))
        self.style = style
        setUp()
    }

    /// A `.medium` indicator with `frame` (the spokes are centred in it at the style's size).
    public override init(frame: CGRect) {
        super.init(frame: frame)
        setUp()
    }

    public required init?(coder: NSCoder) { return nil }

    private func setUp() {
        isUserInteractionEnabled = false
        wheel.instanceCount = Self.spokeCount
        wheel.addSublayer(spoke)
        layer.addSublayer(wheel)
        layoutWheel()
        updateHidden()
    }

    /// Starts the spin (and shows the indicator).
    open func startAnimating() {
        guard !isAnimating else { return }
        isAnimating = true
        let spin = CAKeyframeAnimation(keyPath: "transform.rotation.z")
        // Clockwise on iOS's y-down screen: increasing angle, one spoke (2π/8) per step.
        spin.values = (0..<Self.spokeCount).map { CGFloat($0) * 2 * .pi / CGFloat(Self.spokeCount) }
        spin.calculationMode = .discrete
        spin.duration = 1
        spin.repeatCount = .infinity
        spin.isRemovedOnCompletion = false
        wheel.add(spin, forKey: Self.spinKey)
        updateHidden()
    }

    /// Stops the spin (and hides the indicator when `hidesWhenStopped`).
    open func stopAnimating() {
        guard isAnimating else { return }
        isAnimating = false
        wheel.removeAnimation(forKey: Self.spinKey)
        updateHidden()
    }

    /// The style's square.
    open override var intrinsicContentSize: CGSize { CGSize(width: style.side, height: style.side) }
    /// The style's square.
    open override func sizeThatFits(_ size: CGSize) -> CGSize { intrinsicContentSize }

    open override func layoutSubviews() {
        super.layoutSubviews()
        layoutWheel()
    }

    private func updateHidden() { isHidden = hidesWhenStopped && !isAnimating }

    /// The replicator centred in the bounds at the style's size; the spoke points up (12
    /// o'clock) from 45 % of the radius to the edge; each next instance turns 45° back
    /// (counter-clockwise on screen) and is 1/8 fainter, so the opaque spoke leads the spin.
    private func layoutWheel() {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        let side = style.side, radius = side / 2
        let b = bounds
        wheel.frame = CGRect(x: b.midX - radius, y: b.midY - radius, width: side, height: side)
        wheel.instanceTransform = CATransform3DMakeRotation(-2 * .pi / CGFloat(Self.spokeCount), 0, 0, 1)
        wheel.instanceAlphaOffset = -1 / Float(Self.spokeCount)
        let width = side / 10, length = radius * 0.55
        spoke.frame = CGRect(x: radius - width / 2, y: 0, width: width, height: length)
        spoke.cornerRadius = width / 2
        spoke.backgroundColor = color.cgColor
        CATransaction.commit()
    }
}
