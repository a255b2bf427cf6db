import CitrineUI
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
        BadInputCase("deep-view-chain-100k-view-with-tag", area: "depth", expected: "found the deepest view") {
            let root = viewChain(depth: 100_000, in: nil)
            deepestView(root).tag = 7
            return root.viewWithTag(7) === deepestView(root) ? "found the deepest view" : "did not find it"
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
