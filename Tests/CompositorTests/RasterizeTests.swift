@testable import Compositor
import QuartzCore
import Raster
import Testing

/// `shouldRasterize` / rasterizationScale. Apple, shouldRasterize: "the layer is
/// rendered as a bitmap in its local coordinate space and then composited to the destination";
/// rasterizationScale: "The scale at which to rasterize content, relative to the coordinate
/// space of the layer", default 1.0. A step between two colours at a point boundary, rasterized
/// at 1 pixel per point and shown at 2 pixels per point, is magnified bilinearly (texel centres
/// at half-points): the device pixels on either side of the step take 1/4 and 3/4 of it —
/// 63.75 and 191.25 between black and white (closed form).
@Suite(.serialized) struct RasterizeTests {
    /// A white 40 × 20 layer whose left half is a black sublayer.
    static func scene() -> CALayer {
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
        l.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let left = CALayer()
        left.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        left.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        l.addSublayer(left)
        return l
    }

    static func row(_ l: CALayer) throws -> [UInt8] {
        CAMediaClock.setManualTime(0)
        let img = try CARenderer.image(of: l, size: CGSize(width: 40, height: 20), at: 0, scale: 2).pixmap
        return [38, 39, 40, 41].map { img.pixel(x: $0, y: 20).r }
    }

    @Test func defaultsAreApples() {
        let l = CALayer()
        #expect(!l.shouldRasterize && l.rasterizationScale == 1)
    }

    @Test func aBitmapAtScaleOneIsMagnifiedOnATwoTimesTarget() throws {
        #expect(try Self.row(Self.scene()) == [0, 0, 255, 255])
        let l = Self.scene()
        l.shouldRasterize = true
        let blurred = try Self.row(l).map(Double.init)
        let expected = [0, 63.75, 191.25, 255]
        #expect(zip(blurred, expected).allSatisfy { abs($0 - $1) <= 2 }, "\(blurred)")
        l.rasterizationScale = 2
        #expect(try Self.row(l) == [0, 0, 255, 255])
    }

    /// The bitmap is kept while the subtree does not change: moving or fading the rasterized
    /// layer reuses it; changing a sublayer draws it again (and shows the change).
    @Test func theBitmapIsKeptUntilTheSubtreeChanges() throws {
        CAMediaClock.setManualTime(0)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 80, height: 40)
        let l = Self.scene()
        l.shouldRasterize = true
        root.addSublayer(l)
        let r = try CARenderer(width: 80, height: 40)
        r.layer = root
        func frame() { r.beginFrame(atTime: 0); r.render(); r.endFrame() }
        func change(_ body: () -> Void) {
            CATransaction.begin(); CATransaction.setDisableActions(true); body(); CATransaction.commit()
        }
        frame()
        let first = r.renderer.leaves.rasterizations
        change { l.position = CGPoint(x: 50, y: 20); l.opacity = 0.5; l.transform = CATransform3DMakeRotation(0.3, 0, 0, 1) }
        frame()
        #expect(r.renderer.leaves.rasterizations == first)
        change { l.sublayers?.first?.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1) }
        frame()
        #expect(r.renderer.leaves.rasterizations == first + 1)
        let fresh = try CARenderer(width: 80, height: 40)
        fresh.layer = root
        fresh.beginFrame(atTime: 0); fresh.render(); fresh.endFrame()
        let n = 80 * 40 * 4
        let worst = (0..<n).reduce(0) { max($0, abs(Int(fresh.pixmap.pixels[$1]) - Int(r.pixmap.pixels[$1]))) }
        #expect(worst <= 1)
    }
}
