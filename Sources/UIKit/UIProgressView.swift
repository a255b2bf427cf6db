/// A bar that shows how far a task has got (Apple's `UIProgressView`).
///
/// Drawn as iOS 14+ draws the default style: a track 4 points tall with fully rounded ends
/// (corner radius 2), filled from the left by the progress bar in `progressTintColor`. The
/// height is the view's intrinsic height (`sizeThatFits` keeps the proposed width); the track
/// and bar fill whatever bounds the view is given. Citrine's colours for the light appearance:
/// the bar in the tint colour (`tintColor`, system blue by default) and the track in
/// `systemGray5`, unless `progressTintColor` / `trackTintColor` are set.
open class UIProgressView: UIView {
    /// Apple's styles (raw values Apple's); both draw alike here.
    public enum Style: Int, Sendable {
        case `default` = 0, bar = 1
    }

    /// The intrinsic height of the bar (points).
    static let barHeight: CGFloat = 4

    private let track = CALayer()
    private let bar = CALayer()

    /// The style (default `.default`).
    open var progressViewStyle: Style = .default
    /// The fraction done, 0…1 (default 0; values outside are clamped, as on iOS).
    open var progress: Float {
        get { storedProgress }
        set { setProgress(newValue, animated: false) }
    }
    private var storedProgress: Float = 0
    /// The bar's colour (default nil: the tint colour).
    open var progressTintColor: UIColor? { didSet { updateColors() } }
    /// The track's colour (default nil: `systemGray5`).
    open var trackTintColor: UIColor? { didSet { updateColors() } }

    /// A progress view of `style` with a zero frame (give it a width).
    public init(progressViewStyle style: Style) {
        super.init(frame: .zero)
        progressViewStyle = style
        setUp()
    }

    /// A `.default` progress view with `frame`.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        setUp()
    }

    public required init?(coder: NSCoder) { return nil }

    private func setUp() {
        layer.addSublayer(track)
        track.addSublayer(bar)
        track.masksToBounds = true
        updateColors()
        layoutBar(animated: false)
    }

    /// Sets `progress` (clamped to 0…1); with `animated`, the bar grows or shrinks to it over
    /// the default transaction duration (0.25 s) instead of jumping.
    open func setProgress(_ progress: Float, animated: Bool) {
        storedProgress = progress.isNaN ? 0 : min(max(progress, 0), 1)
        layoutBar(animated: animated)
    }

    /// The bar's height (4 points); the width has no intrinsic value.
    open override var intrinsicContentSize: CGSize {
        CGSize(width: UIView.noIntrinsicMetric, height: Self.barHeight)
    }
    /// The proposed width by the bar's height.
    open override func sizeThatFits(_ size: CGSize) -> CGSize { CGSize(width: size.width, height: Self.barHeight) }

    /// Lays the track and bar out in the bounds, and takes up a tint colour inherited since.
    open override func layoutSubviews() {
        super.layoutSubviews()
        updateColors()
        layoutBar(animated: false)
    }

    open override func didMoveToSuperview() {
        super.didMoveToSuperview()
        updateColors()
    }

    private func updateColors() {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        track.backgroundColor = (trackTintColor ?? .systemGray5).cgColor
        bar.backgroundColor = (progressTintColor ?? tintColor ?? .systemBlue).cgColor
        CATransaction.commit()
    }

    private func layoutBar(animated: Bool) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        let b = bounds
        track.frame = b
        track.cornerRadius = min(b.height, b.width) / 2
        CATransaction.commit()
        CATransaction.begin()
        CATransaction.setDisableActions(!animated)
        bar.frame = CGRect(x: 0, y: 0, width: b.width * CGFloat(storedProgress), height: b.height)
        bar.cornerRadius = min(b.height, b.width) / 2
        CATransaction.commit()
    }
}
