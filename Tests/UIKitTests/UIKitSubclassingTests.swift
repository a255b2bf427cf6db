import Testing
import UIKit

// Subclasses written as iOS code writes them: a designated initializer of the subclass's own
// (or `override init(frame:)`) calling super's designated initializer, plus
// `required init?(coder:)`. Apple's designated initializers: UIView/UIControl/UIButton
// `init(frame:)` and `init?(coder:)`; UIViewController `init(nibName:bundle:)` and `init?(coder:)`.

private final class BadgeView: UIView {
    let count: Int
    init(count: Int) {
        self.count = count
        super.init(frame: CGRect(x: 0, y: 0, width: 24, height: 24))
        backgroundColor = .systemRed
    }
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
    override var intrinsicContentSize: CGSize { CGSize(width: 24, height: 24) }
}

private final class RingView: UIView {
    let ring = CAShapeLayer()
    override init(frame: CGRect) {
        super.init(frame: frame)
        layer.addSublayer(ring)
    }
    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
    override func layoutSubviews() {
        super.layoutSubviews()
        ring.path = UIBezierPath(ovalIn: bounds).cgPath
    }
}

private final class ToggleControl: UIControl {
    var isOn = false
    override init(frame: CGRect) {
        super.init(frame: frame)
        addAction(UIAction { [unowned self] _ in self.isOn.toggle() }, for: .touchUpInside)
    }
    required init?(coder: NSCoder) { fatalError() }
}

private final class RoundButton: UIButton {
    override init(frame: CGRect) {
        super.init(frame: frame)
        layer.cornerRadius = frame.height / 2
        setTitle("Go", for: .normal)
    }
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
}

private final class TitledButton: UIButton {
    let tag2: String
    init(tag2: String) {
        self.tag2 = tag2
        super.init(frame: .zero)
        setTitle(tag2, for: .normal)
    }
    required init?(coder: NSCoder) { nil }
}

private final class LoaderViewController: UIViewController {
    let message: String
    init(message: String) {
        self.message = message
        super.init(nibName: nil, bundle: nil)
    }
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
    }
}

private final class PlainViewController: UIViewController {
    init() { super.init(nibName: nil, bundle: nil) }
    required init?(coder: NSCoder) { super.init(coder: coder) }
}

struct UIKitSubclassingTests {
    @Test func viewWithItsOwnDesignatedInitializer() {
        let v = BadgeView(count: 3)
        #expect(v.count == 3)
        #expect(v.frame == CGRect(x: 0, y: 0, width: 24, height: 24))
        #expect(v.intrinsicContentSize == CGSize(width: 24, height: 24))
        #expect(v.backgroundColor == .systemRed)
    }

    @Test func viewOverridingInitFrame() {
        let v = RingView(frame: CGRect(x: 0, y: 0, width: 40, height: 20))
        #expect(v.layer.sublayers?.contains { $0 === v.ring } == true)
        v.layoutIfNeeded()
        v.layoutSubviews()
        #expect(isClose(v.ring.path!.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 40, height: 20), 1e-9))
        // UIView() runs the subclass's init(frame:) with a zero frame (a convenience initializer).
        #expect(RingView().frame == .zero)
    }

    @Test func controlOverridingInitFrame() {
        let c = ToggleControl(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        c.sendActions(for: .touchUpInside)
        #expect(c.isOn)
    }

    @Test func buttonOverridingInitFrameCallsSuperInitFrame() {
        let b = RoundButton(frame: CGRect(x: 0, y: 0, width: 80, height: 30))
        #expect(b.layer.cornerRadius == 15)
        #expect(b.currentTitle == "Go")
        // Apple: UIButton(frame:) makes a .custom button.
        #expect(b.buttonType == .custom)
        // init(type:) is a convenience initializer: it runs the subclass's init(frame:).
        let system = RoundButton(type: .system)
        #expect(system.buttonType == .system && system.currentTitle == "Go")
    }

    @Test func buttonWithItsOwnDesignatedInitializer() {
        let b = TitledButton(tag2: "Retry")
        #expect(b.currentTitle == "Retry" && b.titleLabel?.text == "Retry")
    }

    @Test func viewControllersWithTheirOwnInitializers() {
        let vc = LoaderViewController(message: "Loading")
        #expect(vc.message == "Loading")
        #expect(!vc.isViewLoaded)
        #expect(vc.view.backgroundColor == .systemBackground)
        let plain = PlainViewController()
        #expect(plain.view != nil)
        #expect(UIViewController(nibName: nil, bundle: nil).view.bounds == UIScreen.main.bounds)
    }
}
