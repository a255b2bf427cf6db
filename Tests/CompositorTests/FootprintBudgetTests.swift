@testable import Compositor
import QuartzCore
import Raster
import Testing

/// The footprint budget (per-layer damage-tracking state must not grow without bound
/// across frames). A renderer forced past its budget (`CARenderer.footprintBudget`, internal,
/// through `@testable import`) keeps no footprints and redraws each changed frame whole; its
/// pixels must equal those of a renderer within the budget and of a twin made to redraw
/// everything (`AnimatedDamageTests.frame`).
@Suite(.serialized) struct FootprintBudgetTests {
    /// Layers `AnimatedDamageTests.tree()` draws: the root, 40 squares, the container and its
    /// child, the shape, the gradient and the text layer.
    static let drawnLayers = 1 + 40 + 2 + 3

    /// The test tree with a few animations running (as `animatedLayersPatchOnlyTheirArea`).
    static func animatedTree() -> CALayer {
        CAMediaClock.setManualTime(0)
        let (root, squares, container, _) = AnimatedDamageTests.tree()
        CATransaction.flush()
        AnimatedDamageTests.animate(squares[3], "position", by: CGPoint(x: 13.3, y: 21.7))
        AnimatedDamageTests.animate(squares[12], "opacity", by: -0.7)
        AnimatedDamageTests.animate(container.sublayers![0], "position.x", by: -25.5)
        CATransaction.flush()
        return root
    }

    @Test func pastTheBudgetFramesAreDrawnWholeWithTheSamePixels() throws {
        let root = Self.animatedTree()
        let (within, full) = try AnimatedDamageTests.renderers(root)
        let (past, pastFull) = try AnimatedDamageTests.renderers(root)
        past.footprintBudget = 8
        let whole = CGRect(origin: .zero, size: AnimatedDamageTests.size)
        for t in AnimatedDamageTests.times {
            let patched = AnimatedDamageTests.frame(within, full, at: t)
            let drawn = AnimatedDamageTests.frame(past, pastFull, at: t)
            #expect(within.footprints?.count == Self.drawnLayers)
            #expect(past.footprints == nil)
            #expect(drawn == whole)
            if t > 0 && t < 1 { #expect(patched.width * patched.height < whole.width * whole.height / 2) }
            let n = within.pixmap.width * within.pixmap.height * 4
            let differing = (0..<n).filter { within.pixmap.pixels[$0] != past.pixmap.pixels[$0] }.count
            #expect(differing == 0, "t = \(t): \(differing) bytes differ between the renderers within and past the budget")
        }
    }

    @Test func theBudgetCountsDrawnLayers() throws {
        let root = Self.animatedTree()
        for (budget, tracked) in [(Self.drawnLayers, true), (Self.drawnLayers - 1, false)] {
            let (r, full) = try AnimatedDamageTests.renderers(root)
            r.footprintBudget = budget
            for t in AnimatedDamageTests.times.prefix(3) { _ = AnimatedDamageTests.frame(r, full, at: t) }
            #expect((r.footprints != nil) == tracked, "budget \(budget)")
            #expect((r.footprints?.count ?? 0) <= budget)
        }
    }
}
