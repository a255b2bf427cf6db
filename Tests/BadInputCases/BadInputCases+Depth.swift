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
        BadInputCase("deep-chain-100k-rendered-to-the-deepest-layer", area: "depth", expected: "drew levels 99998 and 99999") {
            try drawnDeepestLevels(chain(depth: 100_000, topDown: true), depth: 100_000)
        },
        // README's Limits: layers below level 131 072 (2^17) are not drawn.
        BadInputCase("deep-chain-131k-rendered-to-the-limit", area: "depth", expected: "drew levels 131070 and 131071") {
            try drawnDeepestLevels(chain(depth: 131_073, topDown: true), depth: 131_072)
        },
        // Every level also has a sublayer that leans out of the plane, so each is drawn in depth
        // order: the costliest stack per level (LayerRenderer+Stack).
        BadInputCase("deep-leaning-chain-20k-rendered-to-the-deepest-layer", area: "depth", expected: "drew levels 19998 and 19999") {
            try drawnDeepestLevels(leaningChain(depth: 20_000), depth: 20_000)
        },
        // The caller's stack is measured, not assumed: a thread with a small stack (Foundation's
        // `Thread.stackSize`) or a process with a small stack limit (`ulimit -s`) draws the
        // costliest chain as the main thread does.
        BadInputCase("deep-leaning-chain-2k-drawn-on-a-128-KiB-thread", area: "depth", expected: "drew levels 1998 and 1999") {
            try onThread(stackSize: 128 << 10) { try drawnDeepestLevels(leaningChain(depth: 2_000), depth: 2_000) }
        },
        BadInputCase("deep-leaning-chain-2k-drawn-under-a-1-MiB-stack-limit", area: "depth", expected: "drew levels 1998 and 1999") {
            var limit = rlimit()
            getrlimit(Int32(RLIMIT_STACK.rawValue), &limit)
            limit.rlim_cur = 1 << 20
            guard setrlimit(Int32(RLIMIT_STACK.rawValue), &limit) == 0 else { return "could not lower the stack limit" }
            return try drawnDeepestLevels(leaningChain(depth: 2_000), depth: 2_000)
        },
        BadInputCase("deep-clipped-masked-rasterized-chain-20k-rendered-to-the-deepest-layer", area: "depth",
                     expected: "drew levels 19998 and 19999") {
            let root = chain(depth: 20_000, topDown: true)
            for (i, l) in levels(root, Array(0..<19_998)).enumerated() {
                l.masksToBounds = true
                if i % 10 == 0 { l.mask = square() }
                if i % 1_000 == 0 || i == 19_990 { l.shouldRasterize = true }
            }
            return try drawnDeepestLevels(root, depth: 20_000)
        },
        BadInputCase("deep-transform-layer-chain-20k-rendered-to-the-deepest-layer", area: "depth", expected: "drew the deepest layer") {
            let root = square()
            var last = root
            for _ in 0..<20_000 {
                let t = CATransformLayer()
                t.frame = root.bounds
                t.transform = CATransform3DMakeRotation(1e-5, 0, 1, 0)
                last.addSublayer(t)
                last = t
            }
            let leaf = square()
            leaf.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            last.addSublayer(leaf)
            let c = try CARenderer.image(of: root, size: CGSize(width: 16, height: 16), at: 0).pixmap.pixel(x: 8, y: 8)
            return c.r == 255 && c.g == 0 && c.b == 0 ? "drew the deepest layer" : "drew \(c)"
        },
        // Emitter cells 100 000 deep (each the only sub-cell of the one before), and 40 levels
        // of a cell listed twice (2^40 cells as listed): drawn with what README's Limits let
        // an emitter read (16 levels, 4 096 cells), built, changed by key path and released.
        BadInputCase("deep-emitter-cells-100k-drawn-and-released", area: "depth", expected: "drew, set level 100000 by key path, released") {
            let root = CAEmitterCell()
            var (last, path) = (root, "")
            for i in 0..<100_000 {
                let cell = CAEmitterCell()
                (cell.name, cell.birthRate, cell.lifetime, cell.color) = ("c", 5, 1, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
                last.emitterCells = [cell]
                last = cell
                if i < 99_999 { path += "emitterCells.c." }
            }
            (root.birthRate, root.lifetime, root.name) = (5, 1, "root")
            var emitter: CAEmitterLayer? = CAEmitterLayer()
            emitter!.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
            emitter!.emitterCells = [root]
            CATransaction.flush()
            _ = try CARenderer.image(of: emitter!, size: CGSize(width: 50, height: 50), at: 1)
            root.setValue(7, forKeyPath: path + "emitterCells.c.birthRate")
            let set = (last.birthRate == 7 ? "set level 100000 by key path" : "key path missed")
            emitter = nil
            return "drew, \(set), released"
        },
        BadInputCase("emitter-cells-listed-twice-40-levels-drawn", area: "cost", expected: "drew") {
            var cell = CAEmitterCell()
            (cell.birthRate, cell.lifetime) = (1, 1)
            for _ in 0..<40 {
                let parent = CAEmitterCell()
                (parent.birthRate, parent.lifetime) = (1, 1)
                parent.emitterCells = [cell, cell]
                cell = parent
            }
            let emitter = CAEmitterLayer()
            emitter.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
            emitter.emitterCells = [cell]
            CATransaction.flush()
            _ = try CARenderer.image(of: emitter, size: CGSize(width: 50, height: 50), at: 1)
            return "drew"
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
        // 240 s: the debug probe took 55–60 s on a slow shared 2-core machine (2026-12-02),
        // nearly all of it evaluating the 100 000 presentations, and went over the default 60.
        BadInputCase("deep-timed-chain-100k-presented-and-rendered", area: "depth",
                     expected: "presented, 0 local times off, drew, next frame at 2.5", seconds: 240) {
            try timedChainPresentedAndRendered(depth: 100_000)
        },
        BadInputCase("deep-timed-chain-100k-next-frame-time-before-every-begin", area: "depth",
                     expected: "next frame at the closed-form earliest begin") {
            try timedChainNextFrameBeforeEveryBegin(depth: 100_000)
        },
        BadInputCase("deep-chain-512-full-screen-clipping-layers-1080p", area: "memory",
                     expected: "drew level 57, not 58; offscreen within 1 GiB") {
            try fullScreenChainOutcome(clipping: true)
        },
        BadInputCase("deep-chain-512-full-screen-half-opaque-layers-1080p", area: "memory",
                     expected: "drew level 63, not 64; offscreen within 1 GiB") {
            try fullScreenChainOutcome(clipping: false)
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

    /// A `depth`-deep chain with timing of its own at every level and, on every layer, a fade
    /// whose beginTime (in the layer's local time) is still to come: the renderer's next frame
    /// time must be the earliest of those begins in media time. Expected value: Apple's map
    /// local = (parent − beginTime) · speed + timeOffset composed from the root down in closed
    /// form, local = a · media + b, so the begin b_i is at media time (b_i − b) / a; the
    /// composition rounds differently from the layer code, hence the tolerance of 1e-9 s.
    static func timedChainNextFrameBeforeEveryBegin(depth: Int) throws -> String {
        CAMediaClock.setManualTime(0)
        var layers = [chain(depth: depth, topDown: true)]
        while let next = layers.last!.sublayers?.first { layers.append(next) }
        var (a, b) = (1.0, 0.0), earliest = CFTimeInterval.infinity
        for (i, l) in layers.enumerated() {
            if i % 10 != 0 {
                (l.beginTime, l.speed, l.timeOffset) = (0.001 * Double(i % 3), 1 + Float(i % 5 - 2) * 1e-6, 0.002 * Double(i % 7))
            }
            (a, b) = (a * Double(l.speed), (b - l.beginTime) * Double(l.speed) + l.timeOffset)
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 0; fade.toValue = 1; fade.duration = 1
            fade.beginTime = b + 3 + 0.001 * Double((i * 7_919) % 997)   // 3 s or more after media time 0
            l.add(fade, forKey: "fade")
            earliest = min(earliest, (fade.beginTime - b) / a)
        }
        CATransaction.flush()
        let renderer = try CARenderer(width: 32, height: 32)
        renderer.layer = layers[0]
        renderer.beginFrame(atTime: 1)
        let next = renderer.nextFrameTime()
        renderer.endFrame()
        return abs(next - earliest) < 1e-9 ? "next frame at the closed-form earliest begin"
            : "next frame at \(next), closed form \(earliest)"
    }

    /// Draws `root` with only the last two of its first `depth` levels down the first sublayers
    /// showing: level depth − 2 blue on its whole square, level depth − 1 red on the left half
    /// of it; says which were drawn.
    static func drawnDeepestLevels(_ root: CALayer, depth: Int) throws -> String {
        var l: CALayer? = root
        while let layer = l { layer.backgroundColor = nil; l = layer.sublayers?.first }
        let marked = levels(root, [depth - 2, depth - 1])
        marked[0].backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        marked[1].backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        marked[1].frame = CGRect(x: 0, y: 0, width: 8, height: 16)
        let image = try CARenderer.image(of: root, size: CGSize(width: 16, height: 16), at: 0)
        let (left, right) = (image.pixmap.pixel(x: 4, y: 8), image.pixmap.pixel(x: 12, y: 8))
        let drew = (left.r, left.b, right.r, right.b) == (255, 0, 0, 255)
        return drew ? "drew levels \(depth - 2) and \(depth - 1)" : "drew \(left) \(right)"
    }

    /// A chain of `depth` layers whose every level but the last two also has a sublayer leaning
    /// out of the plane, so each is drawn in depth order: the costliest stack per level
    /// (LayerRenderer+Stack).
    static func leaningChain(depth: Int) -> CALayer {
        let root = chain(depth: depth, topDown: true)
        for l in levels(root, Array(0..<depth - 2)) {
            let side = CALayer()
            side.frame = CGRect(x: 0, y: 0, width: 4, height: 4)
            side.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
            side.transform = CATransform3DMakeRotation(0.5, 0, 1, 0)
            l.addSublayer(side)
        }
        return root
    }

    /// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for its result.
    static func onThread(stackSize: Int, _ body: @escaping @Sendable () throws -> String) throws -> String {
        nonisolated(unsafe) var result: Result<String, any Error> = .success("")
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result = Result { try body() }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        return try result.get()
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

    /// A 512-deep chain of 1920×1080 layers, each grey, masking to its rounded bounds
    /// (`clipping`: a corner radius of 8, since a square clip holding the whole frame clips
    /// nothing and is skipped, `LayerRenderer.clipHoldsCanvas`) or at opacity 0.5, drawn at 1080p with the default offscreen budget of 1 GiB (README: Limits).
    /// Each level with sublayers needs a surface the size of the frame — counted S = 4 · 1920 ·
    /// 1080 for its pixels + 4 · 1928 · 1081 for the cells of a fill into it + 16 · 1080 for
    /// their row bounds + 4 096 (README: Limits) = 16 652 448 bytes, a clip 1920 · 1080 more —
    /// which without the budget would hold 9.5 GB at once. Closed form: 1 GiB holds
    /// ⌊2³⁰ / (S + 1920 · 1080)⌋ = 57 clipping levels, so level 57 draws its background and its
    /// sublayers are not drawn; or ⌊2³⁰ / S⌋ = 64 groups, levels 0…63, so level 64 is not drawn. The level expected to be the last drawn is red, the next one
    /// blue, and the centre pixel says which were drawn.
    static func fullScreenChainOutcome(clipping: Bool) throws -> String {
        CAMediaClock.setManualTime(0)
        let root = chain(depth: 512, topDown: true)
        var l: CALayer? = root
        while let layer = l {
            layer.frame = CGRect(x: 0, y: 0, width: 1920, height: 1080)
            if clipping {
                layer.masksToBounds = true
                layer.cornerRadius = 8
            } else {
                layer.opacity = 0.5
            }
            l = layer.sublayers?.first
        }
        let (last, next) = clipping ? (57, 58) : (63, 64)
        let (lastLayer, nextLayer) = (levels(root, [last])[0], levels(root, [next])[0])
        lastLayer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        nextLayer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let renderer = try CARenderer(width: 1920, height: 1080)
        renderer.layer = root
        renderer.beginFrame(atTime: 0)
        renderer.render()
        renderer.endFrame()
        let c = renderer.pixmap.pixel(x: 960, y: 540)
        // Greys have r = g = b; the red level adds only to r, the blue one only to b.
        let drawn = c.r > c.g && c.b == c.g ? "drew level \(last), not \(next)" : "drew \(c)"
        let within = renderer._offscreenBytesHighWater <= 1 << 30 ? "within 1 GiB" : "\(renderer._offscreenBytesHighWater) bytes"
        return "\(drawn); offscreen \(within) (high water \(renderer._offscreenBytesHighWater) bytes)"
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
        let wantedLevels = Set(wanted)
        while true {
            if wantedLevels.contains(level) { found[level] = l }
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
