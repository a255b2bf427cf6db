import Compositor
import Foundation
import QuartzCore
import Testing

/// A layer tree deeper than the caller's stack is trusted with (448 levels) is drawn partly on
/// a thread with a fresh stack (`LayerRenderer+Stack`). That thread must act as the caller: the
/// same media time when the caller has one of its own (an export worker sets it), the same
/// transaction (a drawing delegate that reads or opens one). Expected values: what the same
/// drawing sees at the top of the tree, on the caller's own thread.
@Suite(.serialized) struct FreshStackContextTests {
    /// Records, when it draws, the media time and the transaction's animation duration it sees.
    final class Witness: CALayer {
        nonisolated(unsafe) static var seen: [(time: CFTimeInterval, duration: CFTimeInterval)] = []
        override func draw(in ctx: CGContext) {
            Self.seen.append((CACurrentMediaTime(), CATransaction.animationDuration()))
        }
    }

    /// A chain `depth` layers deep with a witness at the top and one at the bottom.
    static func chain(depth: Int) -> CALayer {
        let root = Witness()
        root.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
        root.setNeedsDisplay()
        var last: CALayer = root
        for _ in 1..<depth - 1 {
            let l = CALayer()
            l.frame = root.bounds
            last.addSublayer(l)
            last = l
        }
        let deepest = Witness()
        deepest.frame = root.bounds
        deepest.setNeedsDisplay()
        last.addSublayer(deepest)
        return root
    }

    /// Draws on a thread with its own media time 42 inside a transaction of duration 7: the
    /// deepest witness (level 999, on a fresh stack) sees what the top one sees.
    @Test func theDeepestLayerSeesTheCallersTimeAndTransaction() throws {
        Witness.seen = []
        let root = Self.chain(depth: 1_000)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: (any Error)?
        nonisolated(unsafe) let tree = root
        let worker = Thread {
            CAMediaClock._setManualTimeForCurrentThread(42)
            CATransaction.begin()
            CATransaction.setAnimationDuration(7)
            do { _ = try CARenderer.image(of: tree, size: CGSize(width: 8, height: 8), at: 42) } catch { failure = error }
            CATransaction.commit()
            CAMediaClock._useSharedTime()
            done.signal()
        }
        worker.stackSize = 8 << 20
        worker.start()
        done.wait()
        if let failure { throw failure }
        #expect(Witness.seen.count == 2)
        #expect(Witness.seen.allSatisfy { $0.time == 42 && $0.duration == 7 }, "\(Witness.seen)")
    }
}
