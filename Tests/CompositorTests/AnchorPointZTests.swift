import Compositor
import QuartzCore
import Raster
import Testing

/// `anchorPointZ` is part of the pivot. Apple: anchorPointZ is "the anchor point
/// for the layer's position along the z axis"; like anchorPoint in x and y, the anchor (x, y,
/// anchorPointZ) is the point `transform` acts about and the point placed at (position,
/// zPosition), and `sublayerTransform` acts about the same point. Expected widths are closed
/// form: under the perspective m34 = −1/d (d = 500) a plane parallel to the screen at depth z is
/// scaled by 1 / (1 − z/d) about the perspective's centre.
@Suite(.serialized) struct AnchorPointZTests {
    static let d: CGFloat = 500

    /// A 200 × 200 root whose sublayers see the perspective m34 = −1/d about its centre, holding a
    /// black 100 × 100 layer centred on it.
    static func scene(_ configure: (_ root: CALayer, _ child: CALayer) -> Void) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / d
        root.sublayerTransform = perspective
        let child = CALayer()
        child.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        child.position = CGPoint(x: 100, y: 100)
        child.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        root.addSublayer(child)
        configure(root, child)
        return root
    }

    /// The covered width (sum of alpha) of the device row through the centre.
    static func coveredWidth(_ root: CALayer) throws -> Double {
        CAMediaClock.setManualTime(0)
        let img = try CARenderer.image(of: root, size: CGSize(width: 200, height: 200), at: 0, background: nil).pixmap
        return (0..<200).reduce(0.0) { $0 + Double(img.pixel(x: $1, y: 100).a) / 255 }
    }

    /// Identity transform, anchorPointZ = 100: the anchor sits at zPosition 0, so the plane is at
    /// z = −100 and shows 100 / (1 + 100/500) = 83.33 points wide (not 100: the pivot is removed
    /// again when the layer is placed).
    @Test func theAnchorSitsAtZPosition() throws {
        let width = try Self.coveredWidth(Self.scene { _, child in child.anchorPointZ = 100 })
        #expect(abs(width - 100 / (1 + 100 / Double(Self.d))) < 0.5, "width \(width)")
    }

    /// A half turn about y with anchorPointZ = 50: the plane point (x, ·, 0) is −50 from the
    /// pivot in z, turned to +50, and the pivot lands on zPosition 0, so the plane is at z = +50:
    /// 100 / (1 − 50/500) = 111.1 points wide.
    @Test func transformTurnsAboutTheZPivot() throws {
        let width = try Self.coveredWidth(Self.scene { _, child in
            child.anchorPointZ = 50
            child.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
        })
        #expect(abs(width - 100 / (1 - 50 / Double(Self.d))) < 0.5, "width \(width)")
    }

    /// The root's sublayerTransform acts about (100, 100, anchorPointZ = 100): its sublayer's
    /// plane z = 0 is −100 from that pivot, so it shows 100 / (1 + 100/500) = 83.33 points wide.
    @Test func sublayerTransformActsAboutTheZPivot() throws {
        let width = try Self.coveredWidth(Self.scene { root, _ in root.anchorPointZ = 100 })
        #expect(abs(width - 100 / (1 + 100 / Double(Self.d))) < 0.5, "width \(width)")
    }
}
