// A rotary knob control as iOS apps write one: a UIControl subclass that follows the touch
// with the tracking hooks (beginTracking / continueTracking / endTracking), turns the angle
// into a value and sends .valueChanged; its colours are colour literals, its label uses a
// weighted system font, and a shimmer view is shown through a mask view. Written in the
// project's own words after patterns common in open-source iOS code. Compiled unchanged in
// Swift 6 mode (IOSSnippetsTests) and Swift 5 mode (IOSSnippetsSwift5Tests links this file).
import UIKit

final class KnobControl: UIControl {
    /// 0…1, from the angle of the touch about the centre: 0 at 12 o'clock, clockwise.
    private(set) var value: CGFloat = 0
    private(set) var trackedMoves = 0
    private(set) var didEndTracking = false
    let trackColor = #colorLiteral(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
    let valueLabel = UILabel()

    override init(frame: CGRect) {
        super.init(frame: frame)
        valueLabel.font = .systemFont(ofSize: 15, weight: .semibold)
        addSubview(valueLabel)
        backgroundColor = trackColor
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    override func awakeFromNib() {
        super.awakeFromNib()
        valueLabel.font = .preferredFont(forTextStyle: .headline)
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        valueLabel.frame = bounds.inset(by: layoutMargins)
    }

    private func updateValue(for touch: UITouch) {
        let p = touch.location(in: self)
        let angle = atan2(p.x - bounds.midX, bounds.midY - p.y)
        value = (angle < 0 ? angle + 2 * .pi : angle) / (2 * .pi)
        valueLabel.text = "\(Int((value * 100).rounded()))%"
        sendActions(for: .valueChanged)
    }

    override func beginTracking(_ touch: UITouch, with event: UIEvent?) -> Bool {
        updateValue(for: touch)
        didEndTracking = false
        return true
    }

    override func continueTracking(_ touch: UITouch, with event: UIEvent?) -> Bool {
        trackedMoves += 1
        updateValue(for: touch)
        return trackedMoves < 3
    }

    override func endTracking(_ touch: UITouch?, with event: UIEvent?) {
        super.endTracking(touch, with: event)
        didEndTracking = true
    }
}

/// A view whose coloured content shows only through a circle: a mask view.
final class SpotlightView: UIView {
    let spot = UIView()

    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = #colorLiteral(red: 1, green: 0.5, blue: 0, alpha: 1)
        spot.frame = CGRect(x: 0, y: 0, width: frame.width / 2, height: frame.height / 2)
        spot.backgroundColor = .black
        spot.layer.cornerRadius = frame.width / 4
        mask = spot
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}
