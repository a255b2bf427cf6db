import Testing
import QuartzCore

/// `hitTest(_:)` on trees deeper than its plain recursion: the same answers as
/// Apple's recursive rule — the front-most, deepest layer containing the point — and a
/// subclass's override still runs for every layer the walk reaches, at any depth.
struct DeepHitTestTests {
    /// Counts its hit tests; with `refuses`, it and its subtree cannot be hit (an override that
    /// does not call `super`).
    final class Probed: CALayer {
        nonisolated(unsafe) static var calls = 0
        var refuses = false
        override func hitTest(_ p: CGPoint) -> CALayer? {
            Probed.calls += 1
            return refuses ? nil : super.hitTest(p)
        }
    }

    /// A chain of `depth` 10×10 layers, each at the origin of the one above, every one `Probed`.
    static func chain(_ depth: Int) -> [Probed] {
        let layers = (0..<depth).map { _ in Probed() }
        for (i, l) in layers.enumerated() {
            l.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
            if i > 0 { layers[i - 1].addSublayer(l) }
        }
        return layers
    }

    @Test func deepChainHitsItsDeepestLayerAndCallsEveryOverride() {
        let layers = Self.chain(2_000)
        Probed.calls = 0
        #expect(layers[0].hitTest(CGPoint(x: 5, y: 5)) === layers[1_999])
        #expect(Probed.calls == 2_000)
        #expect(layers[0].hitTest(CGPoint(x: 50, y: 5)) == nil)
    }

    /// A refusing override deep down (past the plain recursion) hides its subtree: the hit is
    /// the layer above it, as the recursive rule gives.
    @Test func anOverrideDeepDownStillDecides() {
        let layers = Self.chain(2_000)
        layers[1_200].refuses = true
        #expect(layers[0].hitTest(CGPoint(x: 5, y: 5)) === layers[1_199])
        layers[100].refuses = true
        #expect(layers[0].hitTest(CGPoint(x: 5, y: 5)) === layers[99])
    }

    /// Siblings deep down are tried front to back (later sibling first at equal zPosition, a
    /// higher zPosition first), and a miss in one sibling's subtree moves on to the next.
    @Test func siblingsDeepDownFollowDrawingOrder() {
        let layers = Self.chain(1_000)
        let deepest = layers[999]
        let back = CALayer(), front = CALayer()
        for l in [back, front] {
            l.frame = CGRect(x: 0, y: 0, width: 4, height: 4)
            deepest.addSublayer(l)
        }
        #expect(layers[0].hitTest(CGPoint(x: 2, y: 2)) === front)
        back.zPosition = 1
        #expect(layers[0].hitTest(CGPoint(x: 2, y: 2)) === back)
        #expect(layers[0].hitTest(CGPoint(x: 6, y: 6)) === deepest)
        front.isHidden = true
        back.isHidden = true
        #expect(layers[0].hitTest(CGPoint(x: 2, y: 2)) === deepest)
    }
}
