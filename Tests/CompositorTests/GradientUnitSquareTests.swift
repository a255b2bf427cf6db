import Compositor
import QuartzCore
import Raster
import Testing

/// CAGradientLayer's startPoint and endPoint live in the unit square.
/// CAGradientLayer.h: "Both points are defined in a unit coordinate space that is then mapped to
/// the layer's bounds rectangle when drawn." So the gradient is laid out in unit space and then
/// stretched: on a w × h layer, the axial gradient from (0, 0) to (1, 1) has at layer point
/// (x, y) the parameter t = (x/w + y/h) / 2 — the projection of (u, v) on the unit diagonal —
/// not the projection on the diagonal in points.
@Suite(.serialized) struct GradientUnitSquareTests {
    @Test func diagonalGradientIsStretchedFromTheUnitSquare() throws {
        let g = CAGradientLayer()
        g.frame = CGRect(x: 0, y: 0, width: 200, height: 50)
        g.colors = [CGColor(red: 0, green: 0, blue: 0, alpha: 1), CGColor(red: 1, green: 1, blue: 1, alpha: 1)]
        g.startPoint = CGPoint(x: 0, y: 0)
        g.endPoint = CGPoint(x: 1, y: 1)
        CAMediaClock.setManualTime(0)
        let img = try CARenderer.image(of: g, size: CGSize(width: 200, height: 50), at: 0, background: nil).pixmap
        for (x, y) in [(20, 40), (100, 25), (150, 10), (180, 2), (5, 45)] {
            let t = ((Double(x) + 0.5) / 200 + (Double(y) + 0.5) / 50) / 2
            let level = Double(img.pixel(x: x, y: y).r)
            #expect(abs(level - 255 * t) <= 2, "pixel (\(x), \(y)): \(level), expected \(255 * t)")
        }
    }
}
