import Testing
import UIKit
import ImageCodecs
import Raster

// `CGImage(contentsOfFile:)` and `CGImage(encodedData:)`, which UIKit declares (CoreGraphics has no
// codecs). Expected values: the pixels written to the file (opaque, so PNG's straight alpha and the
// premultiplied storage agree exactly).

@Test func loadsPNGFilesBySignature() throws {
    let pixmap = try Pixmap(width: 3, height: 2)
    pixmap.setPixel(x: 2, y: 1, PremultipliedColor(r: 10, g: 20, b: 30, a: 255))
    pixmap.setPixel(x: 0, y: 0, PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("citrine-cgimage-\(UInt32.random(in: 0...UInt32.max)).img").path
    try PNGCodec.write(pixmap, to: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let image = try CGImage(contentsOfFile: path)
    #expect(image.width == 3 && image.height == 2)
    #expect(image.pixmap.pixel(x: 2, y: 1) == PremultipliedColor(r: 10, g: 20, b: 30, a: 255))
    #expect(image.pixmap.pixel(x: 0, y: 0) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
    let fromData = try CGImage(encodedData: Data(try PNGCodec.encode(pixmap)))
    #expect(fromData.pixmap.pixel(x: 2, y: 1) == PremultipliedColor(r: 10, g: 20, b: 30, a: 255))
}

@Test func missingOrBadFilesThrow() {
    #expect(throws: ImageCodecError.self) { try CGImage(contentsOfFile: "/nonexistent/citrine.png") }
    #expect(throws: ImageCodecError.self) { try CGImage(encodedData: Data([1, 2, 3])) }
}
