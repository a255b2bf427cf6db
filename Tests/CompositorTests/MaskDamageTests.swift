import Compositor
import QuartzCore
import Raster
import Testing

/// Damage tracking through mask layers and compositing filters (`LayerRenderer.footprints`).
/// Every frame of a patching renderer is compared byte for byte with a twin made to redraw the
/// whole frame (`AnimatedDamageTests.frame`); the expected areas follow from the layers' frames
/// (scale 1) plus the damage margin of 2 pixels and 1 for rounding out on each side.
@Suite(.serialized) struct MaskDamageTests {
    static let size = AnimatedDamageTests.size
    typealias Helpers = AnimatedDamageTests

    /// A white root; a 100×80 container at (40, 40) holding two coloured squares, masked by an
    /// ellipse inset in it; and a small square far from it, at (250, 180).
    static func tree() -> (root: CALayer, owner: CALayer, mask: CAShapeLayer, far: CALayer) {
        let root = Helpers.whiteRoot()
        let owner = CALayer()
        owner.frame = CGRect(x: 40, y: 40, width: 100, height: 80)
        for (i, rect) in [CGRect(x: 0, y: 0, width: 60, height: 80), CGRect(x: 50, y: 10, width: 50, height: 60)].enumerated() {
            let square = CALayer()
            square.frame = rect
            square.backgroundColor = Helpers.color(i + 1)
            owner.addSublayer(square)
        }
        let mask = CAShapeLayer()
        mask.frame = owner.bounds
        mask.path = CGPath(ellipseIn: CGRect(x: 10, y: 10, width: 80, height: 60), transform: nil)
        owner.mask = mask
        root.addSublayer(owner)
        let far = Helpers.farSquare(in: root)
        return (root, owner, mask, far)
    }

    /// The owner's reach: its 100×80 frame at (40, 40), 3 pixels more on each side.
    static let ownerReach = CGRect(x: 37, y: 37, width: 106, height: 86)

    /// A square moving beside a masked group damages only its own box: the masked group no
    /// longer makes every frame a whole redraw.
    @Test func aMaskedGroupIsPatchedAroundIt() throws {
        CAMediaClock.setManualTime(0)
        let (root, _, _, far) = Self.tree()
        Helpers.moveLeft(far)
        try Helpers.expectOnlyTheMovingSquarePatched(root)
    }

    /// A mask whose path animates, and one cut by a "destOut" layer inside it (how a Lottie
    /// subtract mask is built), damage what the masked layer can draw: every patch lies within
    /// its reach and equals the full redraw.
    @Test func aChangingMaskDamagesItsOwnersReach() throws {
        for cut in [false, true] {
            CAMediaClock.setManualTime(0)
            let (root, owner, ellipse, _) = Self.tree()
            var moving = ellipse
            if cut {
                // The ellipse cut out of an opaque layer larger than the owner.
                let holder = CALayer(), everything = CALayer(), hole = CAShapeLayer()
                holder.frame = owner.bounds
                everything.frame = owner.bounds.insetBy(dx: -50, dy: -50)
                everything.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
                hole.frame = owner.bounds
                hole.path = ellipse.path
                hole.compositingFilter = "destOut"
                holder.addSublayer(everything)
                holder.addSublayer(hole)
                owner.mask = holder
                moving = hole
            }
            CATransaction.flush()
            Helpers.animate(moving, "position", by: CGPoint(x: 15, y: -10))
            CATransaction.flush()
            let areas = try Helpers.compare(root, times: Helpers.times)
            #expect(areas.allSatisfy { $0.width > 0 && Self.ownerReach.contains($0) }, "cut \(cut): \(areas)")
        }
    }

    /// Giving a layer a compositing filter, changing it and taking it away each damage the
    /// layer's box alone when the blend mode leaves the destination outside the source
    /// (multiply, destination-out); a mode that clears it (source-in, Porter-Duff: the
    /// destination is kept only where the source is) makes the tree untracked: the whole frame.
    @Test func compositingFilterChangesAreDamage() throws {
        CAMediaClock.setManualTime(0)
        let (root, _, _, far) = Self.tree()
        let (patching, full) = try Helpers.renderers(root)
        _ = Helpers.frame(patching, full, at: 0)
        let farReach = CGRect(x: 247, y: 177, width: 26, height: 26), whole = CGRect(origin: .zero, size: Self.size)
        for filter in ["multiplyBlendMode", "destOut", nil] as [String?] {
            CATransaction.begin(); CATransaction.setDisableActions(true)
            far.compositingFilter = filter
            CATransaction.commit()
            let area = Helpers.frame(patching, full, at: 0)
            #expect(area.width > 0 && farReach.contains(area), "\(filter ?? "nil"): \(area)")
        }
        CATransaction.begin(); CATransaction.setDisableActions(true)
        far.compositingFilter = "sourceIn"
        CATransaction.commit()
        #expect(Helpers.frame(patching, full, at: 0) == whole)
    }
}
