import Testing
import UIKit
import Raster

/// `UIColor(patternImage:)` (seed 003 sets it as the root view's background): the image tiled
/// from the view's top-left corner, each tile `image.size` points, upright. Expected pixels by
/// closed form: a tile whose left half is red and right half blue, so a view pixel at x shows
/// red exactly when (x − view.x) mod tileWidth < tileWidth / 2.
extension UIClockSuite {
    @Suite struct PatternColorTests {
        static let red = PremultipliedColor(r: 255, g: 0, b: 0, a: 255)
        static let blue = PremultipliedColor(r: 0, g: 0, b: 255, a: 255)

        /// A 4 × 2-point tile, red on the left half and blue on the right, at `scale` pixels per point.
        static func tile(scale: CGFloat) -> UIImage {
            UIGraphicsBeginImageContextWithOptions(CGSize(width: 4, height: 2), true, scale)
            UIColor.red.setFill()
            UIRectFill(CGRect(x: 0, y: 0, width: 2, height: 2))
            UIColor.blue.setFill()
            UIRectFill(CGRect(x: 2, y: 0, width: 2, height: 2))
            defer { UIGraphicsEndImageContext() }
            return UIGraphicsGetImageFromCurrentImageContext()!
        }

        @Test(arguments: [1.0, 2.0])
        func backgroundTilesFromTheViewsCorner(scale: Double) throws {
            let window = UIClockSuite.makeWindow(width: 40, height: 20, at: 600)
            let view = UIView(frame: CGRect(x: 3, y: 5, width: 30, height: 10))
            view.backgroundColor = UIColor(patternImage: Self.tile(scale: scale))
            window.addSubview(view)
            UIClockSuite.advance(to: 600)
            let px = try CARenderer.image(of: window.layer, size: window.bounds.size, at: 600, scale: scale).pixmap
            let s = Int(scale)
            var mismatches = 0
            for y in 5 * s..<15 * s {
                for x in 3 * s..<33 * s {
                    let pointInTile = (Double(x) / scale - 3).truncatingRemainder(dividingBy: 4)
                    let expected = pointInTile < 2 ? Self.red : Self.blue
                    if px.pixel(x: x, y: y) != expected { mismatches += 1 }
                }
            }
            #expect(mismatches == 0)
            // Outside the view the window's white shows.
            #expect(px.pixel(x: 1, y: 1) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
        }

        @Test func patternColourIsAPatternSpaceColourWithAlphaOne() {
            let colour = UIColor(patternImage: Self.tile(scale: 1)).cgColor
            // Apple: a pattern colour's space has the pattern model and its components are the alpha.
            #expect(colour.colorSpace?.model == .pattern)
            #expect(colour.components == [1])
            #expect(colour != UIColor(patternImage: Self.tile(scale: 1)).cgColor)
            #expect(colour == colour)
        }

        @Test func fillInDrawTilesFromTheViewsCorner() throws {
            final class Patterned: UIView {
                var tile: UIImage?
                override func draw(_ rect: CGRect) {
                    UIColor(patternImage: tile!).setFill()
                    UIRectFill(bounds)
                }
            }
            let window = UIClockSuite.makeWindow(width: 40, height: 20, at: 700)
            let view = Patterned(frame: CGRect(x: 6, y: 4, width: 16, height: 8))
            view.tile = Self.tile(scale: 1)
            window.addSubview(view)
            UIClockSuite.advance(to: 700)
            let px = try CARenderer.image(of: window.layer, size: window.bounds.size, at: 700, scale: 1).pixmap
            var mismatches = 0
            for y in 4..<12 {
                for x in 6..<22 where px.pixel(x: x, y: y) != ((x - 6) % 4 < 2 ? Self.red : Self.blue) {
                    mismatches += 1
                }
            }
            #expect(mismatches == 0)
        }
    }
}
