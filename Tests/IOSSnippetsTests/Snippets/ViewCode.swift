// The view code around indicators, as iOS apps write it: an
// indicator host view with padding and start/stop, a pill badge sized from its text, an inset
// label, a loading button, a control that dims while pressed, a spinner overlay controller, a
// card in semantic colours, and UIKit's own progress and activity views. Written in the
// project's own words after patterns common in open-source iOS code. Linux forces one difference
// here (README): controls take closures (`UIAction`), not `#selector` targets. Compiled
// unchanged in Swift 6 mode (IOSSnippetsTests) and Swift 5 mode (IOSSnippetsSwift5Tests links
// this file).
import UIKit

/// An indicator host: the animation is a square inset by `padding`, rebuilt when the bounds
/// change while it runs.
final class IndicatorHostView: UIView {
    let padding: CGFloat
    let color: UIColor
    private(set) var isAnimating = false
    private(set) var setUpCount = 0

    override var bounds: CGRect {
        didSet {
            if oldValue != bounds && isAnimating {
                setUpAnimation()
            }
        }
    }

    init(frame: CGRect, color: UIColor = .systemBlue, padding: CGFloat = 0) {
        self.color = color
        self.padding = padding
        super.init(frame: frame)
        isHidden = true
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override var intrinsicContentSize: CGSize {
        CGSize(width: bounds.width, height: bounds.height)
    }

    /// The square the dots fill: the padded bounds, shrunk to their shorter side and centred.
    var animationRect: CGRect {
        let padded = bounds.inset(by: UIEdgeInsets(top: padding, left: padding, bottom: padding, right: padding))
        let side = min(padded.width, padded.height)
        return CGRect(x: padded.midX - side / 2, y: padded.midY - side / 2, width: side, height: side)
    }

    func startAnimating() {
        guard !isAnimating else { return }
        isHidden = false
        isAnimating = true
        layer.speed = 1
        setUpAnimation()
    }

    func stopAnimating() {
        guard isAnimating else { return }
        isHidden = true
        isAnimating = false
        layer.sublayers?.removeAll()
    }

    private func setUpAnimation() {
        setUpCount += 1
        layer.sublayers = nil
        let rect = animationRect
        let host = CALayer()
        host.frame = rect
        _ = addBallSpinFadeLoader(to: host, size: rect.size, color: color)
        layer.addSublayer(host)
    }
}

/// A pill badge: its text's bounding rectangle, rounded up, plus insets; round ends.
final class PillBadgeView: UIView {
    static let insets = UIEdgeInsets(top: 4, left: 10, bottom: 4, right: 10)

    var text = "" {
        didSet {
            invalidateIntrinsicContentSize()
            setNeedsDisplay()
        }
    }
    var font = UIFont.boldSystemFont(ofSize: 13)

    private var attributedText: NSAttributedString {
        NSAttributedString(string: text, attributes: [.font: font, .foregroundColor: UIColor.white])
    }

    override var intrinsicContentSize: CGSize {
        let box = attributedText.boundingRect(with: CGSize(width: CGFloat.greatestFiniteMagnitude,
                                                           height: CGFloat.greatestFiniteMagnitude),
                                              options: [.usesLineFragmentOrigin, .usesFontLeading], context: nil)
        let insets = PillBadgeView.insets
        return CGSize(width: ceil(box.width) + insets.left + insets.right,
                      height: ceil(box.height) + insets.top + insets.bottom)
    }

    override func sizeThatFits(_ size: CGSize) -> CGSize {
        intrinsicContentSize
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        layer.cornerRadius = bounds.height / 2
    }

    override func draw(_ rect: CGRect) {
        attributedText.draw(in: rect.inset(by: PillBadgeView.insets))
    }
}

/// A label with padding: its natural size is the text's plus the insets.
final class PaddedLabel: UILabel {
    var contentInsets = UIEdgeInsets(top: 4, left: 8, bottom: 4, right: 8) {
        didSet { invalidateIntrinsicContentSize() }
    }

    override var intrinsicContentSize: CGSize {
        let size = super.intrinsicContentSize
        return CGSize(width: size.width + contentInsets.left + contentInsets.right,
                      height: size.height + contentInsets.top + contentInsets.bottom)
    }

    override func sizeThatFits(_ size: CGSize) -> CGSize {
        intrinsicContentSize
    }
}

/// A button that swaps its title for a spinner while it works.
final class LoadingButton: UIButton {
    let spinner = UIActivityIndicatorView(style: .medium)
    private var savedTitle: String?

    override init(frame: CGRect) {
        super.init(frame: frame)
        setUp()
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
        setUp()
    }

    private func setUp() {
        backgroundColor = .systemBlue
        setTitleColor(.white, for: .normal)
        layer.cornerRadius = 8
        spinner.color = .white
        addSubview(spinner)
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        spinner.center = CGPoint(x: bounds.midX, y: bounds.midY)
    }

    func showLoading() {
        savedTitle = title(for: .normal)
        setTitle("", for: .normal)
        isEnabled = false
        spinner.startAnimating()
    }

    func hideLoading() {
        setTitle(savedTitle, for: .normal)
        isEnabled = true
        spinner.stopAnimating()
    }
}

/// A control that dims while a finger is on it.
final class DimOnPressControl: UIControl {
    override var isHighlighted: Bool {
        didSet { alpha = isHighlighted ? 0.5 : 1 }
    }

    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = .secondarySystemBackground
        layer.cornerRadius = 12
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }
}

/// A dimmed full-screen overlay with a large spinner, running while it is on screen.
final class SpinnerOverlayController: UIViewController {
    let spinner = UIActivityIndicatorView(style: .large)

    override func loadView() {
        view = UIView()
        view.backgroundColor = UIColor(white: 0, alpha: 0.7)
        spinner.color = .white
        view.addSubview(spinner)
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        spinner.startAnimating()
    }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        spinner.stopAnimating()
    }

    /// Centres the spinner (called from the view's layout by its owner).
    func centreSpinner() {
        spinner.sizeToFit()
        spinner.center = CGPoint(x: view.bounds.midX, y: view.bounds.midY)
    }
}

/// A card in semantic colours: it follows the system's palette instead of fixed colours.
final class StatusCardView: UIView {
    let titleLabel = UILabel()
    let subtitleLabel = UILabel()
    let track = CAShapeLayer()
    let progressBar = UIProgressView(progressViewStyle: .default)

    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = .systemBackground
        titleLabel.textColor = .label
        subtitleLabel.textColor = .secondaryLabel
        track.strokeColor = UIColor.systemGray5.cgColor
        track.fillColor = nil
        progressBar.progressTintColor = .systemBlue
        progressBar.trackTintColor = .systemGray5
        addSubview(titleLabel)
        addSubview(subtitleLabel)
        addSubview(progressBar)
        layer.addSublayer(track)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        let content = bounds.inset(by: UIEdgeInsets(top: 12, left: 16, bottom: 12, right: 16))
        titleLabel.frame = CGRect(x: content.minX, y: content.minY, width: content.width, height: 20)
        subtitleLabel.frame = CGRect(x: content.minX, y: content.minY + 24, width: content.width, height: 16)
        progressBar.frame = CGRect(x: content.minX, y: content.maxY - 4, width: content.width, height: 4)
    }
}

/// A controller that keeps a ring square and centred whatever its view's size, in
/// `viewDidLayoutSubviews()`.
final class RingHostController: UIViewController {
    let ring = OvalOutlineView(frame: .zero)
    private(set) var layoutPasses = 0

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        view.addSubview(ring)
    }

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        layoutPasses += 1
        let side = min(view.bounds.width, view.bounds.height) - 40
        ring.frame = CGRect(x: view.bounds.midX - side / 2, y: view.bounds.midY - side / 2, width: side, height: side)
    }
}
