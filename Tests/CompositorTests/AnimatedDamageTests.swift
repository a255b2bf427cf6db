import Compositor
import QuartzCore
import Raster
import Testing

/// Damage tracking while animations run ("a frame in which one small layer moved
/// re-composites only the damaged area"). Every frame of a renderer that patches damaged areas
/// is compared byte for byte with a twin renderer fed the same frames but made to redraw the
/// whole frame each time (`addUpdate` of everything), so both hold the same retained bitmaps.
@Suite(.serialized) struct AnimatedDamageTests {
    static let size = CGSize(width: 320, height: 240)

    static func color(_ i: Int) -> CGColor {
        CGColor(red: CGFloat(i % 5) / 4, green: CGFloat(i % 3) / 2, blue: CGFloat(i % 7) / 6, alpha: 1)
    }

    /// 40 rounded, bordered, partly translucent squares, a clipping container with a child, and a
    /// shape, a gradient and a text layer.
    static func tree() -> (root: CALayer, squares: [CALayer], container: CALayer, shape: CAShapeLayer) {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        var squares: [CALayer] = []
        for i in 0..<40 {
            let l = CALayer()
            l.frame = CGRect(x: 6 + CGFloat(i % 10) * 23, y: 6 + CGFloat(i / 10) * 23, width: 18, height: 18)
            l.backgroundColor = color(i)
            l.cornerRadius = 4
            l.borderWidth = 1
            l.borderColor = color(i + 2)
            l.opacity = i % 4 == 0 ? 0.6 : 1
            root.addSublayer(l)
            squares.append(l)
        }
        let container = CALayer()
        container.frame = CGRect(x: 20, y: 100, width: 60, height: 40)
        container.masksToBounds = true
        container.cornerRadius = 10
        container.backgroundColor = color(3)
        container.opacity = 0.8
        let child = CALayer()
        child.frame = CGRect(x: 30, y: 10, width: 50, height: 50)   // overhangs the container: clipped
        child.backgroundColor = color(5)
        container.addSublayer(child)
        root.addSublayer(container)
        let shape = CAShapeLayer()
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0)); path.addCurve(to: CGPoint(x: 50, y: 30), control1: CGPoint(x: 40, y: -10),
                                                            control2: CGPoint(x: 10, y: 40))
        shape.path = path
        shape.position = CGPoint(x: 100, y: 105)
        shape.fillColor = nil
        shape.strokeColor = color(1)
        shape.lineWidth = 4
        root.addSublayer(shape)
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 170, y: 100, width: 50, height: 40)
        gradient.colors = [color(1), color(4)]
        root.addSublayer(gradient)
        let text = CATextLayer()
        text.frame = CGRect(x: 100, y: 140, width: 130, height: 18)
        text.string = "damage"
        text.fontSize = 14
        text.foregroundColor = color(2)
        root.addSublayer(text)
        return (root, squares, container, shape)
    }

    static func animate(_ l: CALayer, _ keyPath: String, by value: Any, duration: CFTimeInterval = 1) {
        let a = CABasicAnimation(keyPath: keyPath)
        a.byValue = value
        a.duration = duration
        l.add(a, forKey: keyPath)
    }

    /// Renders a frame at `t` with `patching` and with `full` made to redraw everything; checks
    /// that the pixels are the same and returns the area `patching` redrew.
    static func frame(_ patching: CARenderer, _ full: CARenderer, at t: CFTimeInterval) -> CGRect {
        CAMediaClock.setManualTime(t)
        patching.beginFrame(atTime: t); patching.render(); patching.endFrame()
        full.beginFrame(atTime: t)
        full.addUpdate(CGRect(origin: .zero, size: size))
        full.render(); full.endFrame()
        #expect(full._lastRedrawnArea == CGRect(origin: .zero, size: size))
        let n = full.pixmap.width * full.pixmap.height * 4
        let diff = (0..<n).filter { full.pixmap.pixels[$0] != patching.pixmap.pixels[$0] }
        #expect(diff.count == 0, "t = \(t): the patched frame differs from the full redraw at \(diff.count) bytes")
        return patching._lastRedrawnArea
    }

    /// Two renderers of `root`: one patching damaged areas, one to be made to redraw everything.
    static func renderers(_ root: CALayer) throws -> (patching: CARenderer, full: CARenderer) {
        let patching = try CARenderer(width: Int(size.width), height: Int(size.height))
        let full = try CARenderer(width: Int(size.width), height: Int(size.height))
        patching.layer = root
        full.layer = root
        return (patching, full)
    }

    /// Renders frames at `times` with a patching renderer and a full-redraw twin; returns the
    /// patching renderer's redrawn areas (frame 0 excluded) after checking each frame's pixels.
    static func compare(_ root: CALayer, times: [CFTimeInterval]) throws -> [CGRect] {
        let (patching, full) = try renderers(root)
        return times.map { frame(patching, full, at: $0) }.dropFirst().map { $0 }
    }

    static let times: [CFTimeInterval] = [0, 0.1, 0.2, 0.33, 0.5, 0.77, 1.2]

    /// A white root layer the size of the frame.
    static func whiteRoot() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        return root
    }

    /// A 20-point square at (250, 180), far from the other layers of a tree, added to `root`.
    static func farSquare(in root: CALayer) -> CALayer {
        let far = CALayer()
        far.frame = CGRect(x: 250, y: 180, width: 20, height: 20)
        far.backgroundColor = color(4)
        root.addSublayer(far)
        return far
    }

    /// Commits `root`'s tree and sets `square` (20 points wide) moving 20 points left over a
    /// second.
    static func moveLeft(_ square: CALayer) {
        CATransaction.flush()
        animate(square, "position.x", by: -20)
        CATransaction.flush()
    }

    /// Renders `root` at `times` with a patching renderer and a full-redraw twin while
    /// `moveLeft`'s square moves, and expects each frame but the last (after the move) to have
    /// redrawn only the square's box before and after (20 + 20 points wide, 20 high, plus on
    /// each side the damage margin of 2 pixels and 1 for rounding out).
    static func expectOnlyTheMovingSquarePatched(_ root: CALayer) throws {
        for area in try compare(root, times: times).dropLast() {
            #expect(area.width > 0 && area.width <= 20 + 20 + 6 && area.height <= 20 + 6, "\(area)")
        }
    }

    /// A few layers animate position, opacity and rotation (one inside a clipping, translucent
    /// container, and a drawing-line strokeEnd): each frame patches only a part of the frame and
    /// equals the full redraw byte for byte.
    @Test func animatedLayersPatchOnlyTheirArea() throws {
        CAMediaClock.setManualTime(0)
        let (root, squares, container, shape) = Self.tree()
        CATransaction.flush()
        Self.animate(squares[3], "position", by: CGPoint(x: 13.3, y: 21.7))
        Self.animate(squares[12], "opacity", by: -0.7)
        Self.animate(squares[25], "transform.rotation.z", by: CGFloat.pi / 3)
        Self.animate(container.sublayers![0], "position.x", by: -25.5)
        let draw = CABasicAnimation(keyPath: "strokeEnd")
        draw.fromValue = 0.1; draw.toValue = 1; draw.duration = 1
        shape.add(draw, forKey: "draw")
        CATransaction.flush()
        let areas = try Self.compare(root, times: Self.times)
        let frame = Double(Self.size.width * Self.size.height)
        for area in areas.dropLast() {   // the last frame is after the animations ended
            #expect(area.width * area.height > 0 && Double(area.width * area.height) < frame / 2, "\(area)")
        }
    }

    /// A translucent group whose opacity animates damages its sublayers too, also where they
    /// overhang it; turning its clip on and off damages what the clip hides or shows.
    @Test func groupOpacityAndClipChangesDamageTheSubtree() throws {
        CAMediaClock.setManualTime(0)
        let (root, _, container, _) = Self.tree()
        container.masksToBounds = false
        CATransaction.flush()
        Self.animate(container, "opacity", by: -0.5)
        CATransaction.flush()
        let (patching, full) = try Self.renderers(root)
        for t in Self.times { _ = Self.frame(patching, full, at: t) }
        for clips in [true, false] {
            CATransaction.begin(); CATransaction.setDisableActions(true)
            container.masksToBounds = clips
            CATransaction.commit()
            let area = Self.frame(patching, full, at: 2)
            #expect(area.width > 0 && area.width < Self.size.width)
        }
    }

    /// The test tree inside a holder layer, committed, with the whole tree moving down 10 points
    /// over `duration` seconds: damage everywhere.
    static func movingTree(duration: CFTimeInterval) -> (holder: CALayer, squares: [CALayer]) {
        CAMediaClock.setManualTime(0)
        let (root, squares, _, _) = tree()
        let holder = CALayer()
        holder.frame = root.frame
        holder.addSublayer(root)
        CATransaction.flush()
        animate(root, "position.y", by: 10, duration: duration)
        return (holder, squares)
    }

    /// When the whole tree moves, the damage is the whole frame: it is simply redrawn.
    @Test func largeDamageRedrawsTheWholeFrame() throws {
        let (holder, _) = Self.movingTree(duration: 1)
        CATransaction.flush()
        let areas = try Self.compare(holder, times: Self.times)
        #expect(areas.first == CGRect(origin: .zero, size: Self.size))
    }

    /// While animations damage most of the frame, frames are drawn whole without measuring
    /// damage for a few frames (`CARenderer.untrackedFrames`, doubling while the damage stays
    /// large, up to `maxUntrackedFrames`); once the large animation has ended, patches resume
    /// within that many frames and two, and every frame equals the full redraw.
    @Test func framesAfterLargeDamageStayExactAndPatchesResume() throws {
        let (holder, squares) = Self.movingTree(duration: 0.5)
        Self.animate(squares[3], "position", by: CGPoint(x: 13.3, y: 21.7), duration: 5)
        CATransaction.flush()
        let times = (0..<40).map { CFTimeInterval($0) * 0.05 }
        let areas = try Self.compare(holder, times: times)
        let whole = CGRect(origin: .zero, size: Self.size)
        #expect(areas.prefix(9).allSatisfy { $0 == whole })   // t ≤ 0.45: the tree moves
        // From t = 0.55 on only one square moves. Frames 1, 2 measure damage, 3…8 are untracked,
        // 9, 10 measure it (large: the tree's last move), 11…22 untracked, 23, 24 measure it:
        // patches from frame 24 (t = 1.2) on.
        let patches = areas.suffix(from: 23)
        #expect(patches.allSatisfy { $0.width > 0 && $0.width * $0.height < whole.width * whole.height / 2 }, "\(patches)")
        #expect(areas[21] == whole)
    }

    /// A container that draws nothing of its own (no background, border or contents: an
    /// imported Lottie layer spans the whole composition) touches only its sublayers' pixels: when
    /// it moves, the damage is the 30-point square's box before and after (at most 30 + 40
    /// points wide and 30 + 10 high, plus on each side the damage margin of 2 pixels and 1 for
    /// rounding out), not the container's frame-sized bounds; each frame equals the full redraw.
    @Test func aMovingContainerDamagesOnlyWhatItsSublayersDraw() throws {
        CAMediaClock.setManualTime(0)
        let root = CALayer(), container = CALayer(), square = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        container.frame = root.frame
        square.frame = CGRect(x: 100, y: 80, width: 30, height: 30)
        square.backgroundColor = CGColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1)
        container.addSublayer(square)
        root.addSublayer(container)
        CATransaction.flush()
        Self.animate(container, "position", by: CGPoint(x: 40, y: 10))
        CATransaction.flush()
        let areas = try Self.compare(root, times: Self.times)
        #expect(areas.allSatisfy { $0.width > 0 && $0.width <= 30 + 40 + 6 && $0.height <= 30 + 10 + 6 }, "\(areas)")
    }

    /// Trees damage tracking does not model (here a CATransformLayer, whose sublayers are sorted
    /// by depth) are redrawn whole while they animate.
    @Test func untrackedTreesRedrawTheWholeFrame() throws {
        CAMediaClock.setManualTime(0)
        let (root, squares, _, _) = Self.tree()
        let space = CATransformLayer()
        space.frame = CGRect(x: 250, y: 20, width: 50, height: 50)
        space.addSublayer(squares[0])
        root.addSublayer(space)
        CATransaction.flush()
        Self.animate(squares[9], "opacity", by: -0.5)
        CATransaction.flush()
        let areas = try Self.compare(root, times: Array(Self.times.prefix(3)))
        #expect(areas.allSatisfy { $0 == CGRect(origin: .zero, size: Self.size) })
    }

    /// A sub-pixel move at rest (the layer's pixel box unchanged) still redraws it.
    @Test func subPixelMoveIsDamage() throws {
        CAMediaClock.setManualTime(0)
        let (root, squares, _, _) = Self.tree()
        let (patching, full) = try Self.renderers(root)
        _ = Self.frame(patching, full, at: 0)
        CATransaction.begin(); CATransaction.setDisableActions(true)
        squares[7].position.x += 0.25
        CATransaction.commit()
        let area = Self.frame(patching, full, at: 0)
        #expect(area.width > 0 && area.width < 40)
    }
}
