import Testing
import CoreGraphics
import Raster

// Expected values: Apple's CGImage documentation (8-bit RGBA premultiplied-last layout;
// cropping rect in pixel coordinates from the top-left, made integral and clipped to bounds).

private func numberedImage(width: Int, height: Int) throws -> CGImage {
    let pixmap = try Pixmap(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width { pixmap.setPixel(x: x, y: y, PremultipliedColor(r: UInt8(x), g: UInt8(y), b: 0, a: 255)) }
    }
    return CGImage(pixmap: pixmap)
}

@Test func imageDescribesItsLayout() throws {
    let image = try numberedImage(width: 7, height: 3)
    #expect(image.width == 7 && image.height == 3)
    #expect(image.bitsPerComponent == 8 && image.bitsPerPixel == 32)
    #expect(image.bytesPerRow == 28)
    #expect(image.alphaInfo == .premultipliedLast)
    #expect(image.bitmapInfo.intersection(.alphaInfoMask).rawValue == CGImageAlphaInfo.premultipliedLast.rawValue)
    let c = image.color(atX: 2, y: 1).rgba
    #expect(isClose(c.r, 2.0 / 255, 1e-6) && isClose(c.g, 1.0 / 255, 1e-6) && c.b == 0 && c.a == 1)
}

@Test func croppingUsesTopLeftPixelCoordinates() throws {
    let image = try numberedImage(width: 10, height: 8)
    let crop = try #require(image.cropping(to: CGRect(x: 2.5, y: 3, width: 4, height: 2)))
    // integral: x 2…7 (6.5 rounds out to 7), y 3…5
    #expect(crop.width == 5 && crop.height == 2)
    #expect(crop.pixmap.pixel(x: 0, y: 0) == PremultipliedColor(r: 2, g: 3, b: 0, a: 255))
    #expect(crop.pixmap.pixel(x: 4, y: 1) == PremultipliedColor(r: 6, g: 4, b: 0, a: 255))
    let clipped = try #require(image.cropping(to: CGRect(x: 8, y: -5, width: 100, height: 7)))
    #expect(clipped.width == 2 && clipped.height == 2)
    #expect(image.cropping(to: CGRect(x: 20, y: 20, width: 5, height: 5)) == nil)
    #expect(image.cropping(to: .null) == nil)
}
