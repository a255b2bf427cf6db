import Compositor
import QuartzCore
import Raster
import Testing

/// Damage tracking of trees holding layers of an app's own subclass of `CALayer`. Core Animation
/// draws a layer's content (`draw(in:)`, `display()`) only when it needs display (Apple,
/// `setNeedsDisplay()`), so a subclass whose drawing left every pixel transparent — the common
/// pattern of a subclass that adds properties or lays out sublayers, and `LottieAnimationLayer`
/// — changes its pixels only through its properties, as a plain layer: once its content is
/// known, one small animated layer under it patches a small area. A subclass that draws is not
/// modelled (the frame is drawn whole). Every frame is compared byte for byte with the full
/// redraw (`AnimatedDamageTests.frame`).
@Suite(.serialized) struct SubclassDamageTests {
    /// Adds a property, draws nothing.
    final class Holder: CALayer {
        var tag = 0
    }

    /// Draws a 30 × 30 square at its origin when `on`.
    final class Toggle: CALayer {
        var on = false
        override func draw(in ctx: CGContext) {
            guard on else { return }
            ctx.setFillColor(CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1))
            ctx.fill(CGRect(x: 0, y: 0, width: 30, height: 30))
        }
    }

    /// `AnimatedDamageTests.tree()` inside `holder`, one square moving 13 points over a second
    /// when `moving`.
    static func scene(in holder: CALayer, moving: Bool = true) -> CALayer {
        CAMediaClock.setManualTime(0)
        let (root, squares, _, _) = AnimatedDamageTests.tree()
        holder.frame = root.frame
        holder.addSublayer(root)
        CATransaction.flush()
        if moving { AnimatedDamageTests.animate(squares[3], "position.x", by: 13) }
        CATransaction.flush()
        return holder
    }

    static let whole = CGRect(origin: .zero, size: AnimatedDamageTests.size)

    @Test func aSubclassThatDrawsNothingIsTrackedFromItsSecondFrame() throws {
        let areas = try AnimatedDamageTests.compare(Self.scene(in: Holder()), times: [0, 0.1, 0.2, 0.3])
        // Frame 1 (the first compared) finds footprints to compare with only from here on.
        #expect(areas[0] == Self.whole)
        for area in areas.dropFirst() {
            #expect(area.width > 0 && area.width < 40 && area.height < 40, "\(area)")
        }
    }

    @Test func aSubclassThatDrawsIsRedrawnWhole() throws {
        let toggle = Toggle()
        toggle.on = true
        let areas = try AnimatedDamageTests.compare(Self.scene(in: toggle), times: [0, 0.1, 0.2, 0.3])
        #expect(areas.allSatisfy { $0 == Self.whole })
    }

    /// A subclass that drew nothing draws after `setNeedsDisplay()`: that frame shows it. Checked
    /// against a fresh renderer's picture (`CARenderer.image(of:)`) rather than a twin renderer
    /// (the first renderer to draw a layer that needs display clears the flag), on a tree whose
    /// square moves by whole points (a retained bitmap keeps the sub-pixel phase it was drawn at,
    /// which a fresh picture would not have). Each frame commits a change of its own: other
    /// tests' commits may come between the frames.
    @Test func aSubclassThatStartsDrawingIsShown() throws {
        let toggle = Toggle()
        let root = Self.scene(in: toggle, moving: false)
        CATransaction.begin(); CATransaction.setDisableActions(true)
        root.sublayers![0].backgroundColor = nil   // the tree's white background would hide the square
        CATransaction.commit()
        let size = AnimatedDamageTests.size
        let renderer = try CARenderer(width: Int(size.width), height: Int(size.height))
        renderer.layer = root
        /// The area `renderer` redrew at `t`, after checking its frame against a fresh one.
        func frame(at t: CFTimeInterval) throws -> CGRect {
            CAMediaClock.setManualTime(t)
            renderer.beginFrame(atTime: t); renderer.render(); renderer.endFrame()
            let fresh = try CARenderer.image(of: root, size: size, at: t)
            #expect(RetainedContentTests.worstDifference(fresh.pixmap, renderer.pixmap) == 0, "t = \(t)")
            return renderer._lastRedrawnArea
        }
        /// Moves the first square one point right, committed.
        func moveSquare() {
            CATransaction.begin(); CATransaction.setDisableActions(true)
            root.sublayers![0].sublayers![0].position.x += 1
            CATransaction.commit()
        }
        _ = try frame(at: 0)
        moveSquare()
        _ = try frame(at: 0.1)   // the subclass's empty content known from frame 0: footprints
        moveSquare()
        let moved = try frame(at: 0.2)
        #expect(moved.width > 0 && moved.width < 40, "\(moved)")   // tracked: a patch
        toggle.on = true
        toggle.setNeedsDisplay()
        #expect(try frame(at: 0.3) == Self.whole)
        let blue = renderer.pixmap.pixel(x: 2, y: 2)   // left of the first square
        #expect(blue.b > 200 && blue.r < 80, "\(blue)")
        moveSquare()
        #expect(try frame(at: 0.4) == Self.whole)   // the subclass draws now: not tracked
    }
}
