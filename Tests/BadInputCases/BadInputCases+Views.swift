import Export
import Scene
import UIKit
import Foundation
import QuartzCore

/// Deep view trees (the UIKit-style layer over the layer tree): built in a window, laid out, hit
/// tested, searched and released in time proportional to their size, without recursion that
/// could overflow the stack.
extension BadInputCase {
    static let viewCases: [BadInputCase] = [
        BadInputCase("deep-view-chain-100k-built-in-a-window-and-released", area: "depth",
                     expected: "built 100000 in the window, removed, released") {
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            var root: UIView? = viewChain(depth: 100_000, in: window)
            let deepest = deepestView(root!)
            let depth = viewDepth(root!)
            let wasIn = deepest.window === window
            root!.removeFromSuperview()
            let isOut = deepest.window == nil
            root = nil
            return wasIn && isOut ? "built \(depth) in the window, removed, released" : "in the window \(wasIn), out \(isOut)"
        },
        BadInputCase("deep-view-chain-100k-hit-test", area: "depth", expected: "hit the deepest view") {
            let root = viewChain(depth: 100_000, in: UIWindow(frame: CGRect(x: 0, y: 0, width: 10, height: 10)))
            return root.hitTest(CGPoint(x: 5, y: 5), with: nil) === deepestView(root) ? "hit the deepest view" : "missed"
        },
        BadInputCase("deep-view-chain-100k-laid-out", area: "depth", expected: "laid out the deepest view") {
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            let root = viewChain(depth: 100_000, in: window)
            let leaf = LayoutWitness(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            deepestView(root).addSubview(leaf)
            leaf.setNeedsLayout()
            window.layoutIfNeeded()
            return leaf.laidOut ? "laid out the deepest view" : "did not lay out the deepest view"
        },
        // A touch on the deepest view goes up the responder chain, view by view, to the root
        // (UIResponder's default touch methods forward to `next`, as Apple documents).
        BadInputCase("deep-view-chain-100k-touch-passed-up-the-responder-chain", area: "depth",
                     expected: "the root saw began and ended") {
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            window.makeKeyAndVisible()
            let root = TouchWitness(frame: window.bounds)
            window.addSubview(root)
            var last: UIView = root
            for _ in 1..<100_000 {
                let v = UIView(frame: root.bounds)
                last.addSubview(v)
                last = v
            }
            UIApplication.shared.sendPointerEvent(.began, at: CGPoint(x: 5, y: 5), timestamp: 0, in: window)
            UIApplication.shared.sendPointerEvent(.ended, at: CGPoint(x: 5, y: 5), timestamp: 0.1, in: window)
            return "the root saw \(root.phases.joined(separator: " and "))"
        },
        // Every view has a tap recognizer: a touch on the deepest engages all 100 000 of them.
        BadInputCase("deep-view-chain-100k-each-with-a-tap-recognizer-tapped", area: "cost",
                     expected: "the deepest view's recognizer ended", seconds: 120) {
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            window.makeKeyAndVisible()
            let root = viewChain(depth: 100_000, in: window)
            var v: UIView? = root
            while let view = v {
                view.addGestureRecognizer(UITapGestureRecognizer())
                v = view.subviews.first
            }
            UIApplication.shared.sendPointerEvent(.began, at: CGPoint(x: 5, y: 5), timestamp: 0, in: window)
            UIApplication.shared.sendPointerEvent(.ended, at: CGPoint(x: 5, y: 5), timestamp: 0.05, in: window)
            let state = deepestView(root).gestureRecognizers?.first?.state
            return state == .ended ? "the deepest view's recognizer ended" : "its state is \(String(describing: state))"
        },
        BadInputCase("deep-view-chain-100k-view-with-tag", area: "depth", expected: "found the deepest view") {
            let root = viewChain(depth: 100_000, in: nil)
            deepestView(root).tag = 7
            return root.viewWithTag(7) === deepestView(root) ? "found the deepest view" : "did not find it"
        },
        // Scripted input (the Scene module's SceneScript): README's Limits bound a drag's moves and
        // the frames one play runs; non-finite times and points are left out.
        BadInputCase("event-timeline-drag-with-int-max-steps", area: "numbers", expected: "100002 events, the last at 1.0") {
            let t = SceneScript([.drag(from: .zero, to: CGPoint(x: 10, y: 10), at: 0, duration: 1, steps: .max)])
            return "\(t.events.count) events, the last at \(t.endTime)"
        },
        BadInputCase("event-timeline-non-finite-steps-played", area: "numbers",
                     expected: "5 events left, played 16 frames; from NaN 0 frames; through infinity 16 frames") {
            let t = SceneScript([
                .tap(CGPoint(x: 1, y: 1), at: .infinity), .down(CGPoint(x: CGFloat.nan, y: 0), at: 0.5),
                .drag(from: .zero, to: CGPoint(x: 1, y: 1), at: 0.25, duration: .nan, steps: 3), .tap(.zero, at: -.infinity),
                .move(to: CGPoint(x: CGFloat.infinity, y: 0), at: 0.75),
            ])
            let played = t.play().count, fromNaN = t.play(from: .nan).count, toInfinity = t.play(through: .infinity).count
            return "\(t.events.count) events left, played \(played) frames; from NaN \(fromNaN) frames; "
                + "through infinity \(toInfinity) frames"
        },
        BadInputCase("event-timeline-played-for-a-year", area: "cost", expected: "played 1000000 frames", seconds: 120) {
            let t = SceneScript([.tap(.zero, at: 365 * 86_400)])
            return "played \(t.play().count) frames"
        },
        // A time a user can type costs what happens before it: the driver once stepped every
        // display frame from 0 (60 × 10⁶ run-loop turns for 10⁶ s; 1e308 never ended).
        BadInputCase("window-scene-advanced-to-1e6-and-1e308-seconds", area: "cost", expected: "advanced to 1e+308", seconds: 30) {
            CAMediaClock.setManualTime(0)
            let view = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
            let driver = SceneDriver(scene: WindowScene(view: view))
            UIView.animate(withDuration: 0.5, delay: 0, options: [.repeat, .autoreverse], animations: { view.alpha = 0.5 })
            driver.advanceFrameByFrame(to: 1e6)
            driver.advanceFrameByFrame(to: 1e308)
            return "advanced to \(driver.time ?? .nan)"
        },
        // A view added to the window in the same run-loop turn as its animation block: its
        // animation completed at once, the property already at its end value (UIKit animates it).
        BadInputCase("view-added-in-the-same-turn-animates", area: "views", expected: "opacity 0.5 at half time") {
            CAMediaClock.setManualTime(0)
            let root = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
            let driver = SceneDriver(scene: WindowScene(view: root))
            driver.advance(to: 0)
            let view = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            view.alpha = 0
            root.addSubview(view)
            UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { view.alpha = 1 })
            driver.advance(to: 0)
            driver.advance(to: 0.5)
            return "opacity \(view.layer.presentation()?.opacity ?? -1) at half time"
        },
        // The start is what is wrong, not the length it spoils (start + 1 s == start there).
        BadInputCase("export-timeline-starting-at-minus-1e308", area: "numbers", expected: "refused: bad start") {
            _ = try ExportTimeline(start: -1e308, duration: 1, fps: 30)
            return "made a timeline"
        },
        BadInputCase("deep-chain-100k-layout-if-needed", area: "depth", expected: "laid out the deepest layer") {
            let root = chain(depth: 100_000, topDown: true)
            let leaf = LayoutWitnessLayer()
            deepest(root).addSublayer(leaf)
            leaf.setNeedsLayout()
            root.layoutIfNeeded()
            return leaf.laidOut ? "laid out the deepest layer" : "did not lay out the deepest layer"
        },
    ]

    /// A view that records that it was laid out.
    final class LayoutWitness: UIView {
        var laidOut = false
        override func layoutSubviews() { laidOut = true }
    }

    /// A view that records the touch phases that reach it.
    final class TouchWitness: UIView {
        var phases: [String] = []
        override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { phases.append("began") }
        override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { phases.append("ended") }
    }

    /// A layer that records that it was laid out.
    final class LayoutWitnessLayer: CALayer {
        var laidOut = false
        override func layoutSublayers() {
            super.layoutSublayers()
            laidOut = true
        }
    }

    /// A chain of `depth` 10×10 views built from the top down (each added to the deepest), its
    /// root a subview of `window` from the start when there is one.
    static func viewChain(depth: Int, in window: UIWindow?) -> UIView {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        window?.addSubview(root)
        var last = root
        for _ in 1..<depth {
            let v = UIView(frame: root.bounds)
            last.addSubview(v)
            last = v
        }
        return root
    }

    static func deepestView(_ root: UIView) -> UIView {
        var v = root
        while let next = v.subviews.first { v = next }
        return v
    }

    static func viewDepth(_ root: UIView) -> Int {
        var (v, n) = (root, 1)
        while let next = v.subviews.first { (v, n) = (next, n + 1) }
        return n
    }
}
