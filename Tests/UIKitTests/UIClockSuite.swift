import Testing
import UIKit

/// Tests that set the media clock, commit transactions, read presentations or use the shared
/// `UIApplication` (windows, pointer events, run-loop turns) share process-wide state, so they
/// run one at a time: their suites are declared inside this one.
@Suite(.serialized) enum UIClockSuite {}

extension UIClockSuite {
    /// One run-loop turn at media time `t` (headless: the clock is set by hand first).
    static func advance(to t: CFTimeInterval) {
        CAMediaClock.setManualTime(t)
        UIApplication.shared.advance(to: t)
    }

    /// A key window of `size` points with a white background, committed at time `t` (so that its
    /// layers count as on screen and run actions from now on).
    static func makeWindow(width: CGFloat = 320, height: CGFloat = 480, at t: CFTimeInterval = 0) -> UIWindow {
        CAMediaClock.setManualTime(t)
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: width, height: height))
        window.backgroundColor = .white
        window.makeKeyAndVisible()
        return window
    }

    /// A view that records the touch messages it gets, with the touch's location in its own
    /// coordinates.
    final class RecordingView: UIView {
        var log: [(String, CGPoint)] = []
        override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
            log.append(("began", touches.first!.location(in: self)))
        }
        override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
            log.append(("moved", touches.first!.location(in: self)))
        }
        override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
            log.append(("ended", touches.first!.location(in: self)))
        }
        override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
            log.append(("cancelled", touches.first!.location(in: self)))
        }
        var phases: [String] { log.map(\.0) }
    }
}

/// |a − b| ≤ tolerance for points.
func isClose(_ a: CGPoint, _ b: CGPoint, _ tolerance: CGFloat = 1e-9) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

/// |a − b| ≤ tolerance for rectangles.
func isClose(_ a: CGRect, _ b: CGRect, _ tolerance: CGFloat = 1e-9) -> Bool {
    abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance
        && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
}
