import Testing
import UIKit

/// UIControl's touch events and UIButton's titles, as Apple documents them: touch down
/// highlights; lifting inside sends .touchUpInside (and a button's primary action), outside
/// .touchUpOutside; a disabled control takes no touches; a state without its own title uses the
/// .normal one.
extension UIClockSuite {
    @Suite struct ControlTests {
        @Test func tapsAndDragsSendApplesEvents() {
            let window = UIClockSuite.makeWindow(width: 200, height: 100, at: 700)
            var fired = 0
            let button = UIButton(type: .system, primaryAction: UIAction(title: "Go") { _ in fired += 1 })
            button.frame = CGRect(x: 10, y: 10, width: 80, height: 40)
            window.addSubview(button)
            var events: [String] = []
            for (name, event) in [("down", UIControl.Event.touchDown), ("upInside", .touchUpInside),
                                  ("upOutside", .touchUpOutside), ("dragExit", .touchDragExit)] {
                button.addAction(UIAction { _ in events.append(name) }, for: event)
            }
            UIClockSuite.advance(to: 700)
            let app = UIApplication.shared

            app.sendPointerEvent(.began, at: CGPoint(x: 50, y: 30), timestamp: 700.1, in: window)
            #expect(button.isHighlighted && button.isTracking)
            app.sendPointerEvent(.ended, at: CGPoint(x: 52, y: 31), timestamp: 700.2, in: window)
            #expect(!button.isHighlighted && fired == 1)
            #expect(events == ["down", "upInside"])

            events = []
            app.sendPointerEvent(.began, at: CGPoint(x: 50, y: 30), timestamp: 701, in: window)
            app.sendPointerEvent(.moved, at: CGPoint(x: 150, y: 80), timestamp: 701.1, in: window)
            #expect(!button.isHighlighted)
            app.sendPointerEvent(.ended, at: CGPoint(x: 150, y: 80), timestamp: 701.2, in: window)
            #expect(events == ["down", "dragExit", "upOutside"] && fired == 1)

            events = []
            button.isEnabled = false
            #expect(button.state == .disabled)
            app.sendPointerEvent(.began, at: CGPoint(x: 50, y: 30), timestamp: 702, in: window)
            app.sendPointerEvent(.ended, at: CGPoint(x: 50, y: 30), timestamp: 702.1, in: window)
            #expect(events.isEmpty && fired == 1)
        }

        @Test func titlesFallBackToNormal() {
            let button = UIButton(type: .custom)
            button.setTitle("Start", for: .normal)
            button.setTitleColor(.red, for: .highlighted)
            #expect(button.title(for: .highlighted) == "Start" && button.currentTitle == "Start")
            #expect(button.titleColor(for: .normal) == .white)            // a custom button's default
            #expect(UIButton(type: .system).titleColor(for: .normal) == .systemBlue)
            button.isHighlighted = true
            #expect(button.titleLabel?.textColor == .red && button.titleLabel?.text == "Start")
            button.setTitle("Stop", for: .highlighted)
            #expect(button.titleLabel?.text == "Stop")
        }
    }
}
