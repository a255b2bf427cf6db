import UIKit
import Demos
import Foundation
import Testing

@Suite(.serialized) struct SeedReflectionTests {
    @Test func layerClassIsAReplicatorWithTheMirrorTransform() throws {
        let driver = SeedDriver(.reflection)
        let view = try #require(driver.window.subviews.compactMap { $0 as? SeedReflectionView }.first)
        #expect(type(of: view.layer) == CAReplicatorLayer.self)
        let layer = view.replicatorLayer
        #expect(layer.instanceCount == 2)
        let expected = CATransform3DRotate(CATransform3DMakeTranslation(0, 160, 0), .pi, 1, 0, 0)
        #expect(CATransform3DEqualToTransform(layer.instanceTransform, expected))
        #expect(layer.instanceAlphaOffset == -0.1 && layer.instanceRedOffset == -0.1)
        #expect(layer.instanceGreenOffset == -0.1 && layer.instanceBlueOffset == -0.1)
        #expect(view.imageView.layer.superlayer === layer)
    }

    @Test func rendersTheMirroredCopyBelow() throws {
        let demo = SeedDemo.reflection
        let window = demo.play { _, _ in }
        let image = try CARenderer.image(of: window.layer, size: demo.size, at: demo.span, scale: 1, background: Gallery.background)
        let px = image.pixmap.pixels, w = image.width
        func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let i = (y * w + x) * 4
            return (Int(px[i]), Int(px[i + 1]), Int(px[i + 2]))
        }
        // The image spans y 20…180; the reflection 180…340, upside down. The sun (yellow) is at
        // 12 %–37 % of the height from the top of the original, so 12 %–37 % from the bottom of
        // the copy: compare its centre, mirrored, and a sky pixel near the top of the original.
        let sunX = 20 + Int(160 * 0.725)
        let sunY = 20 + Int(160 * 0.245)
        let mirroredSunY = 180 + (180 - sunY)
        let sun = rgb(sunX, sunY), mirroredSun = rgb(sunX, mirroredSunY)
        #expect(sun.0 > 200 && sun.1 > 150 && sun.2 < 100, "sun \(sun)")
        #expect(mirroredSun.0 > 150 && mirroredSun.1 > 100 && mirroredSun.2 < 100, "reflected sun \(mirroredSun)")
        // Colour and alpha offsets −0.1: the copy's colour is 0.9 × the original's at alpha 0.9,
        // so over the background b it shows 0.81·c + 0.1·b.
        let bg = (247.0, 245.0, 237.0)
        let expected = (0.81 * Double(sun.0) + 0.1 * bg.0, 0.81 * Double(sun.1) + 0.1 * bg.1, 0.81 * Double(sun.2) + 0.1 * bg.2)
        // (The instance colour multiplies the un-premultiplied colour and alpha.)
        #expect(abs(Double(mirroredSun.0) - expected.0) <= 4 && abs(Double(mirroredSun.1) - expected.1) <= 4,
                "reflected sun \(mirroredSun), expected \(expected)")
        // The grass at the bottom of the original shows at the top of the copy.
        let grass = rgb(100, 175), mirroredGrass = rgb(100, 185)
        #expect(grass.1 > grass.0 && mirroredGrass.1 > mirroredGrass.0, "grass \(grass), reflected \(mirroredGrass)")
    }
}
