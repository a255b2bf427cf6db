import Compositor
import QuartzCore
import Raster
import Testing

/// `contentsGravity` on iOS.
///
/// CALayer.h (the contentsGravity constants): "bottom" always means "Minimum Y" and "top" always
/// means "Maximum Y"; Apple's contentsGravity documentation warns that gravities with a vertical
/// component depend on the layer's y direction (`contentsAreFlipped()`). iOS's layer space grows
/// y downwards, so `.top` puts the contents at the visual bottom of the layer and `.bottom` at the
/// visual top (seen on iOS by github.com/ynaoto/iOSCALayer: "kCAGravityBottom … goes to the top").
/// Expected rectangles below are that rule in closed form: a 10 × 10 image in 40 × 40 bounds.
@Suite(.serialized) struct ContentsGravityTests {
    /// The visual (device, y-down) top-left corner of the 10 × 10 image for each gravity.
    static let expected: [(CALayerContentsGravity, x: Int, y: Int)] = [
        (.center, 15, 15), (.top, 15, 30), (.bottom, 15, 0), (.left, 0, 15), (.right, 30, 15),
        (.topLeft, 0, 30), (.topRight, 30, 30), (.bottomLeft, 0, 0), (.bottomRight, 30, 0),
    ]

    @Test func verticalGravityNamesFollowTheLayersYAxis() throws {
        let pm = try Pixmap(width: 10, height: 10)
        pm.fill(with: PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        l.contents = CGImage(pixmap: pm)
        CAMediaClock.setManualTime(0)
        for (gravity, x, y) in Self.expected {
            l.contentsGravity = gravity
            let img = try CARenderer.image(of: l, size: CGSize(width: 40, height: 40), at: 0, background: nil).pixmap
            var covered: [Int] = []   // the covered pixels' bounding box: x0, y0, x1, y1
            for py in 0..<40 { for px in 0..<40 where img.pixel(x: px, y: py).a == 255 {
                covered = covered.isEmpty ? [px, py, px, py]
                    : [min(covered[0], px), min(covered[1], py), max(covered[2], px), max(covered[3], py)]
            } }
            #expect(covered == [x, y, x + 9, y + 9], "\(gravity.rawValue)")
        }
    }
}
