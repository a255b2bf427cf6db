import Foundation

/// `CALayer.hitTest(_:)` without unbounded recursion (a 100 000-deep chain must be hit
/// tested in O(n) without overflowing the stack).
///
/// Apple's rule is recursive: a layer tries its sublayers front to back, each through its own
/// (overridable) `hitTest(_:)`, then itself. The first `recursionDepth` levels below the first
/// call (fewer on a small stack) recurse exactly so. Deeper, the base implementation walks the rest of the subtree with
/// an explicit stack: it still calls each sublayer's `hitTest(_:)` (so an override runs), and
/// when that call reaches the base implementation for the layer the walk just called it on
/// (directly, or through an override's `super.hitTest(_:)`), the base implementation only
/// records the point it was given and returns nil, and the walk descends into that layer
/// itself. Past that depth an override that returns `super.hitTest(_:)` or nil behaves as on
/// Apple; one that post-processes a nil from `super` (say `super.hitTest(p) ?? self`) sees
/// nil for a sublayer hit that the walk then returns instead.
enum HitTestWalk {
    /// Most levels of plain recursion per thread before the explicit-stack walk takes over,
    /// fewer when the calling thread's stack holds fewer (`_ThreadStack`, measured where the
    /// outermost `hitTest(_:)` starts).
    static let recursionDepth = 256
    /// Stack bytes allowed per level of recursion: 3.3 times the 609 bytes a plain layer's level
    /// takes in a debug build, leaving room for an override's own frame.
    static let stackBytesPerLevel = 2 << 10
    /// Stack bytes kept beyond the recursion for the walk and what the deepest override calls.
    static let stackReserve = 32 << 10

    /// The calling thread's walk state.
    final class State {
        /// Levels of recursion now running on this thread.
        var depth = 0
        /// Levels of recursion the running hit test allows itself (`recursionDepth` at most).
        var recursionLimit = 0
        /// The layer whose `hitTest(_:)` the running walk just called.
        var expected: CALayer?
        /// The point the base implementation was reached with for `expected`.
        var reached: CGPoint?

        private static let perThread = _ThreadLocal { State() }

        /// The calling thread's state (created on first use, released when the thread ends).
        static var current: State { perThread.current }
    }

    /// The base `hitTest(_:)` of `layer` for `p` in its superlayer's coordinates.
    static func hitTest(_ layer: CALayer, _ p: CGPoint) -> CALayer? {
        let state = State.current
        if let expected = state.expected, expected === layer {
            state.expected = nil
            state.reached = p
            return nil
        }
        if state.depth == 0 {
            state.recursionLimit = _ThreadStack.levels(of: stackBytesPerLevel, keeping: stackReserve, atMost: recursionDepth)
        }
        if state.depth >= state.recursionLimit { return walk(from: layer, p, state) }
        guard let visit = Visit(layer, p) else { return nil }
        state.depth += 1
        defer { state.depth -= 1 }
        for child in visit.frontToBack {
            if let hit = child.hitTest(visit.local) { return hit }
        }
        return layer.contains(visit.local) ? layer : nil
    }

    /// One layer being hit tested: the point in its coordinates and its sublayers front to back.
    struct Visit {
        let layer: CALayer
        let local: CGPoint
        let frontToBack: [CALayer]
        var next = 0

        /// nil when `layer` and its subtree cannot be hit: hidden, transparent, or clipping
        /// (`masksToBounds`) a point outside its bounds.
        init?(_ layer: CALayer, _ p: CGPoint) {
            guard !layer.isHidden, layer.opacity > 0 else { return nil }
            let local = layer.pointFromSuperlayer(p)
            if layer.masksToBounds && !layer.contains(local) { return nil }
            self.layer = layer
            self.local = local
            // Front to back: the compositing order of siblings, reversed.
            frontToBack = CALayer._compositingOrder(layer.sublayerStorage).reversed()
        }
    }

    /// The hit test of `root`'s subtree with an explicit stack of visits: the first layer found
    /// (front-most, deepest), as the recursion would return it.
    private static func walk(from root: CALayer, _ p: CGPoint, _ state: State) -> CALayer? {
        let saved = (state.expected, state.reached, state.depth)
        defer { (state.expected, state.reached, state.depth) = saved }
        state.depth = 0
        guard var visit = Visit(root, p) else { return nil }
        var stack: [Visit] = []
        while true {
            if visit.next < visit.frontToBack.count {
                let child = visit.frontToBack[visit.next]
                visit.next += 1
                state.expected = child
                state.reached = nil
                let hit = child.hitTest(visit.local)
                let reached = state.reached
                state.expected = nil
                state.reached = nil
                if let hit { return hit }
                if let reached, let inner = Visit(child, reached) {
                    stack.append(visit)
                    visit = inner
                }
                continue
            }
            if visit.layer.contains(visit.local) { return visit.layer }
            guard let outer = stack.popLast() else { return nil }
            visit = outer
        }
    }
}
