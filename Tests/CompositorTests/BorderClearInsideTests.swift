@testable import Compositor
import Foundation
import QuartzCore
import Raster
import Testing

/// `LayerRenderer.borderClearInside`: the rectangle a perspective border's warp does not
/// sample must be transparent in the border's own drawing. Checked by drawing the border
/// (`drawBorder` under the bitmap's scale, as `drawProjected` draws it) and reading every pixel
/// wholly inside the rectangle.
struct BorderClearInsideTests {
    @Test(arguments: [
        (CGFloat(4), CGFloat(0), false, CGFloat(4.5)), (4, 10, false, 4.5), (4, 10, true, 4.5),
        (1, 30, true, 2), (10, 12, true, 1), (2, 40, true, 3), (2, 40, false, 3), (6, 3, true, 2.5),
    ])
    func theClearInsideIsTransparent(width: CGFloat, radius: CGFloat, continuous: Bool, scale: CGFloat) throws {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 90)
        layer.borderWidth = width
        layer.borderColor = CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1)
        layer.cornerRadius = radius
        if continuous { layer.cornerCurve = .continuous }
        let side = Int((100 * scale).rounded(.up))
        let canvas = try Pixmap(width: side, height: side)
        let renderer = LayerRenderer(target: canvas, scale: scale)
        renderer.drawBorder(layer, matrix: CATransform3DMakeScale(scale, scale, 1), into: canvas)
        let clear = try #require(LayerRenderer.borderClearInside(layer, width: width, pixelsPerPoint: scale))
        let x0 = Int((clear.minX * scale).rounded(.up)), x1 = Int((clear.maxX * scale).rounded(.down))
        let y0 = Int((clear.minY * scale).rounded(.up)), y1 = Int((clear.maxY * scale).rounded(.down))
        var drawn = 0
        for y in y0..<y1 { for x in x0..<x1 where canvas.words[y * side + x] != 0 { drawn += 1 } }
        #expect(drawn == 0, "\(drawn) pixels of the border inside its clear rectangle")
        #expect(canvas.words[side * (side / 2)] != 0 || canvas.words[Int(width * scale / 2) * side + side / 2] != 0,
                "the border was drawn")
    }

    /// Corners whose radius reaches the middle leave no rectangle clear (2 + 43 + 2/3 points aside
    /// of a 90-point-high layer).
    @Test func aRoundedThroughBorderLeavesNoClearInside() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 90)
        layer.cornerRadius = 45
        #expect(LayerRenderer.borderClearInside(layer, width: 2, pixelsPerPoint: 3) == nil)
    }
}
