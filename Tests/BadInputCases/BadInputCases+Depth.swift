import Compositor
import Foundation
import QuartzCore

/// Deep trees and long nestings: built, walked and released in time proportional to their size,
/// without recursion that could overflow the stack (RELIABILITY.md lists what is still open).
extension BadInputCase {
    static let depthCases: [BadInputCase] = [
        BadInputCase("deep-chain-100k-built-top-down-and-released", area: "depth", expected: "built 100000, released") {
            var root: CALayer? = chain(depth: 100_000, topDown: true)
            let depth = depthOf(root!)
            root = nil
            return "built \(depth), released"
        },
        BadInputCase("deep-chain-100k-built-bottom-up-and-released", area: "depth", expected: "built 100000, released") {
            var root: CALayer? = chain(depth: 100_000, topDown: false)
            let depth = depthOf(root!)
            root = nil
            return "built \(depth), released"
        },
        BadInputCase("deep-chain-100k-cycle-refused", area: "depth", expected: "refused") {
            let root = chain(depth: 100_000, topDown: true)
            var leaf = root
            while let next = leaf.sublayers?.first { leaf = next }
            leaf.addSublayer(root)
            return leaf.sublayers == nil ? "refused" : "accepted"
        },
        BadInputCase("deep-chain-500-rendered-to-the-deepest-layer", area: "depth", expected: "drew the deepest layer") {
            let root = chain(depth: 500, topDown: true)
            deepest(root).backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            let image = try CARenderer.image(of: root, size: CGSize(width: 32, height: 32), at: 0)
            let c = image.pixmap.pixel(x: 8, y: 8)
            return c.r == 255 && c.g == 0 ? "drew the deepest layer" : "missed the deepest layer"
        },
        BadInputCase("deep-chain-100k-rendered-to-the-limit", area: "depth", expected: "drew level 511, not 512") {
            let root = chain(depth: 100_000, topDown: true)
            for l in [root] + levels(root, [511, 512]) { l.backgroundColor = nil }
            let (last, beyond) = (levels(root, [511])[0], levels(root, [512])[0])
            last.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            beyond.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            last.frame = CGRect(x: 0, y: 0, width: 32, height: 16)
            beyond.frame = CGRect(x: 16, y: 0, width: 16, height: 16)
            let image = try CARenderer.image(of: root, size: CGSize(width: 32, height: 32), at: 0)
            let (a, b) = (image.pixmap.pixel(x: 24, y: 8), image.pixmap.pixel(x: 8, y: 8))
            return a.r == 255 && a.b == 0 && b.r == 255 ? "drew level 511, not 512" : "drew \(a) \(b)"
        },
        BadInputCase("deep-chain-100k-next-frame-time", area: "depth", expected: "next frame at 0.5") {
            CAMediaClock.setManualTime(0)
            let root = chain(depth: 100_000, topDown: true)
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 0; fade.toValue = 1; fade.duration = 1
            deepest(root).add(fade, forKey: "fade")
            CATransaction.flush()
            let renderer = try CARenderer(width: 32, height: 32)
            renderer.layer = root
            renderer.beginFrame(atTime: 0.5)
            let next = renderer.nextFrameTime()
            renderer.endFrame()
            return "next frame at \(next)"
        },
        BadInputCase("deep-timed-chain-100k-presented-and-rendered", area: "depth",
                     expected: "presented, 0 local times off, drew, next frame at 2.5") {
            try timedChainPresentedAndRendered(depth: 100_000)
        },
        BadInputCase("nested-transactions-100k", area: "depth", expected: "committed, duration 0.5") {
            CATransaction.begin()
            CATransaction.setAnimationDuration(0.5)
            for _ in 0..<100_000 { CATransaction.begin() }
            let inner = CATransaction.animationDuration()
            for _ in 0..<100_000 { CATransaction.commit() }
            CATransaction.commit()
            return "committed, duration \(inner)"
        },
    ]

    /// A `depth`-deep chain with timing of its own at every level (beginTime, a speed a little off
    /// 1, timeOffset) and a fade on every layer: the deepest layer presented first (its local
    /// time walks the whole chain), every layer's local time checked against Apple's map applied
    /// level by level from the root (local = (parent − beginTime) · speed + timeOffset), and a
    /// frame drawn with its next frame time asked (every layer's animation timing).
    static func timedChainPresentedAndRendered(depth: Int) throws -> String {
        CAMediaClock.setManualTime(0)
        var layers = [chain(depth: depth, topDown: true)]
        while let next = layers.last!.sublayers?.first { layers.append(next) }
        for (i, l) in layers.enumerated() where i % 10 != 0 {
            (l.beginTime, l.speed, l.timeOffset) = (0.001 * Double(i % 3), 1 + Float(i % 5 - 2) * 1e-6, 0.002 * Double(i % 7))
        }
        for l in layers {
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 0; fade.toValue = 1; fade.duration = 1e6
            l.add(fade, forKey: "fade")
        }
        CATransaction.flush()
        CAMediaClock.setManualTime(2.5)
        guard layers.last!.presentation() != nil else { return "no presentation" }
        var time = 2.5, off = 0
        for l in layers {
            time = (time - l.beginTime) * CFTimeInterval(l.speed) + l.timeOffset
            if l.convertTime(2.5, from: nil) != time { off += 1 }
        }
        let renderer = try CARenderer(width: 32, height: 32)
        renderer.layer = layers[0]
        renderer.beginFrame(atTime: 2.5)
        renderer.render()
        let next = renderer.nextFrameTime()
        renderer.endFrame()
        return "presented, \(off) local times off, drew, next frame at \(next)"
    }

    /// A chain of `depth` layers (each the only sublayer of the one before), built from the root
    /// down (each new layer added to the deepest) or from the leaf up.
    static func chain(depth: Int, topDown: Bool) -> CALayer {
        let layers = (0..<depth).map { _ in square() }
        if topDown {
            for i in 1..<depth { layers[i - 1].addSublayer(layers[i]) }
        } else {
            for i in (1..<depth).reversed() { layers[i - 1].addSublayer(layers[i]) }
        }
        return layers[0]
    }

    /// The last layer down the first sublayers.
    static func deepest(_ root: CALayer) -> CALayer {
        var l = root
        while let next = l.sublayers?.first { l = next }
        return l
    }

    /// The layers at the given levels (root 0) down the first sublayers, in the order given.
    static func levels(_ root: CALayer, _ wanted: [Int]) -> [CALayer] {
        var found: [Int: CALayer] = [:], l = root, level = 0
        while true {
            if wanted.contains(level) { found[level] = l }
            guard let next = l.sublayers?.first else { break }
            (l, level) = (next, level + 1)
        }
        return wanted.compactMap { found[$0] }
    }

    /// Layers from `root` down its first sublayers.
    static func depthOf(_ root: CALayer) -> Int {
        var n = 1, l = root
        while let next = l.sublayers?.first { n += 1; l = next }
        return n
    }
}
