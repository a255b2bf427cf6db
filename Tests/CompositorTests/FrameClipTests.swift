@testable import Compositor
import QuartzCore
import Raster
import Testing

/// A masksToBounds clip that holds the whole frame (`LayerRenderer.clipHoldsCanvas`) clips
/// nothing, so the sublayers are drawn straight onto the frame, without the offscreen surface
/// and clip mask a clip costs; a clip that cuts into the frame still clips.
@Suite struct FrameClipTests {
    static let width = 120, height = 80
    static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)

    /// A frame-sized parent that clips, holding a red sublayer that reaches past the frame.
    static func tree(clipFrame: CGRect, cornerRadius: CGFloat = 0, turned: CGFloat = 0) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: width, height: height)
        let clip = CALayer()
        clip.frame = clipFrame
        clip.masksToBounds = true
        clip.cornerRadius = cornerRadius
        clip.transform = CATransform3DMakeRotation(turned, 0, 0, 1)
        let child = CALayer()
        child.frame = CGRect(x: -20, y: -20, width: 200, height: 60)
        child.backgroundColor = red
        clip.addSublayer(child)
        root.addSublayer(clip)
        CATransaction.flush()
        return root
    }

    static func render(_ root: CALayer) throws -> (image: Pixmap, highWater: Int) {
        try OffscreenBudgetTests.render(root, width: width, height: height)
    }

    /// Bounds exactly the frame's, or larger: no surface, and the pixels of the same tree
    /// without masksToBounds, byte for byte (the clip holds every pixel whole).
    @Test(arguments: [CGRect(x: 0, y: 0, width: 120, height: 80), CGRect(x: -10, y: -5, width: 150, height: 100)])
    func aClipHoldingTheFrameDrawsNoSurface(clipFrame: CGRect) throws {
        let clipped = try Self.render(Self.tree(clipFrame: clipFrame))
        let open = Self.tree(clipFrame: clipFrame)
        open.sublayers![0].masksToBounds = false
        CATransaction.flush()
        let unclipped = try Self.render(open)
        #expect(clipped.highWater == 0)
        #expect(OffscreenBudgetTests.bytesDiffering(clipped.image, unclipped.image) == 0)
        #expect(clipped.image.pixel(x: 5, y: 5) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
    }

    /// Round corners that cut into the frame, a clip one pixel inside it, and a clip turned so
    /// that its corners leave the frame's: each still clips (a surface is made, and the frame's
    /// top-left pixel, outside the clip, keeps the white background).
    @Test func clipsThatCutIntoTheFrameStillClip() throws {
        let cases: [(String, CALayer)] = [
            ("rounded", Self.tree(clipFrame: CGRect(x: 0, y: 0, width: 120, height: 80), cornerRadius: 20)),
            ("inset", Self.tree(clipFrame: CGRect(x: 1, y: 1, width: 118, height: 78))),
            ("turned", Self.tree(clipFrame: CGRect(x: -5, y: -5, width: 130, height: 90), turned: 0.3)),
        ]
        for (name, root) in cases {
            let (image, highWater) = try Self.render(root)
            #expect(highWater > 0, "\(name)")
            #expect(image.pixel(x: 0, y: 0) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255), "\(name)")
        }
    }
}
