import Compositor
import QuartzCore
import Raster
import Testing

/// Damage tracking of layers that cast shadows (`LayerRenderer.footprints`): a shadow's blur
/// reads pixels across a patch's edges, so a patch that touches a shadowed layer's reach takes
/// all of it. Every frame of a patching renderer is compared byte for byte with a twin made to
/// redraw the whole frame (`AnimatedDamageTests.frame`); expected areas follow from the layers'
/// frames (scale 1), the shadow's offset and its blur's reach.
@Suite(.serialized) struct ShadowDamageTests {
    static let size = AnimatedDamageTests.size
    typealias Helpers = AnimatedDamageTests

    /// A white root; at (40, 40) a 60×50 container holding a square and a shape, casting a
    /// shadow from their alpha (offset (6, 8), radius 5); at (170, 40) a 50×50 square casting
    /// a shadow from a shadow path; a small square far from both at (250, 180).
    static func tree() -> (root: CALayer, container: CALayer, pathShadowed: CALayer, far: CALayer) {
        let root = Helpers.whiteRoot()
        let container = CALayer()
        container.frame = CGRect(x: 40, y: 40, width: 60, height: 50)
        let square = CALayer()
        square.frame = CGRect(x: 0, y: 0, width: 30, height: 30)
        square.backgroundColor = Helpers.color(1)
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 25, y: 15, width: 35, height: 35)
        shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 35, height: 35), transform: nil)
        shape.fillColor = Helpers.color(2)
        container.addSublayer(square)
        container.addSublayer(shape)
        container.shadowOpacity = 0.8
        container.shadowOffset = CGSize(width: 6, height: 8)
        container.shadowRadius = 5
        root.addSublayer(container)
        let pathShadowed = CALayer()
        pathShadowed.frame = CGRect(x: 170, y: 40, width: 50, height: 50)
        pathShadowed.backgroundColor = Helpers.color(3)
        pathShadowed.shadowOpacity = 0.6
        pathShadowed.shadowRadius = 4
        pathShadowed.shadowPath = CGPath(rect: CGRect(x: 5, y: 5, width: 50, height: 50), transform: nil)
        root.addSublayer(pathShadowed)
        let far = Helpers.farSquare(in: root)
        return (root, container, pathShadowed, far)
    }

    /// A square moving far from the shadows is patched alone: a shadow no longer makes every
    /// frame a whole redraw.
    @Test func aMovingLayerBesideShadowsIsPatchedAlone() throws {
        CAMediaClock.setManualTime(0)
        let (root, _, _, far) = Self.tree()
        Helpers.moveLeft(far)
        try Helpers.expectOnlyTheMovingSquarePatched(root)
    }

    /// A square moving under the shadows, a shadowed container's sublayer changing, and a
    /// shadow's own properties animating: each frame equals the full redraw byte for byte (a
    /// patch cutting through a shadow would blur it without the pixels beyond its edge).
    @Test func changesUnderAndInsideShadowsRedrawThemWhole() throws {
        CAMediaClock.setManualTime(0)
        let (root, container, pathShadowed, far) = Self.tree()
        CATransaction.flush()
        Helpers.animate(far, "position", by: CGPoint(x: -140, y: -120), duration: 1)     // passes under both shadows
        Helpers.animate(container.sublayers![1], "position.x", by: 8)
        Helpers.animate(pathShadowed, "shadowOpacity", by: -0.4)
        Helpers.animate(container, "shadowOffset", by: CGSize(width: -4, height: 3))
        CATransaction.flush()
        let areas = try Helpers.compare(root, times: (0..<12).map { CFTimeInterval($0) * 0.1 })
        #expect(areas.prefix(9).allSatisfy { $0.width > 0 })   // t = 0.1 … 0.9, while the animations run
    }

    /// Full frames drawn in two bands equal serial ones while a layer moves beside the shadows:
    /// a band where only a shadow shows still draws the sublayers it is cast from (their
    /// footprints carry the shadowed reach; culled by their own boxes, the band's part of the
    /// shadow went missing).
    @Test func bandsDrawTheShadowsOfTrackedTrees() throws {
        CAMediaClock.setManualTime(0)
        let (root, _, _, far) = Self.tree()
        Helpers.moveLeft(far)
        let banded = try CARenderer(width: Int(Self.size.width), height: Int(Self.size.height))
        let serial = try CARenderer(width: Int(Self.size.width), height: Int(Self.size.height))
        banded._renderThreads = 2
        serial._renderThreads = 1
        for renderer in [banded, serial] { renderer.layer = root }
        for t in Helpers.times {
            CAMediaClock.setManualTime(t)
            for renderer in [banded, serial] {
                renderer.beginFrame(atTime: t)
                renderer.addUpdate(CGRect(origin: .zero, size: Self.size))
                renderer.render()
                renderer.endFrame()
            }
            let n = banded.pixmap.width * banded.pixmap.height * 4
            #expect((0..<n).allSatisfy { banded.pixmap.pixels[$0] == serial.pixmap.pixels[$0] }, "t = \(t)")
        }
        #expect(banded._lastFrameBands == 2)
    }

    /// Giving a layer a shadow, changing its radius and taking it away damage its box and its
    /// shadow's; each frame equals the full redraw.
    @Test func shadowPropertyChangesAreDamage() throws {
        CAMediaClock.setManualTime(0)
        let (root, _, _, far) = Self.tree()
        let (patching, full) = try Helpers.renderers(root)
        _ = Helpers.frame(patching, full, at: 0)
        for (opacity, radius) in [(Float(0.7), CGFloat(3)), (0.7, 6), (0, 6)] {
            CATransaction.begin(); CATransaction.setDisableActions(true)
            far.shadowOpacity = opacity
            far.shadowRadius = radius
            CATransaction.commit()
            let area = Helpers.frame(patching, full, at: 0)
            #expect(area.width > 0 && area.width < Self.size.width / 2, "\(opacity) \(radius): \(area)")
        }
    }
}
