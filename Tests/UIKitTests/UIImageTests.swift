import Testing
import Foundation
import UIKit
import ImageCodecs
import Raster

/// UIImage from PNG files written with ImageCodecs, named-image lookup, and image contexts
/// (UIGraphicsBeginImageContextWithOptions / UIGraphicsGetImageFromCurrentImageContext).
struct UIImageTests {
    /// A scratch directory removed after the test.
    func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
        let dir = NSTemporaryDirectory() + "citrineui-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(dir)
    }

    /// A 4 × 2 image: top row red, bottom row blue, except a half-transparent green last pixel.
    func sample() throws -> Pixmap {
        let p = try Pixmap(width: 4, height: 2)
        for x in 0..<4 {
            p.setPixel(x: x, y: 0, .init(r: 255, g: 0, b: 0, a: 255))
            p.setPixel(x: x, y: 1, .init(r: 0, g: 0, b: 255, a: 255))
        }
        p.setPixel(x: 3, y: 1, .init(r: 0, g: 128, b: 0, a: 128))
        return p
    }

    @Test func contentsOfFileDecodesAPNG() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/sample.png"
            try PNGCodec.write(try sample(), to: path)
            let image = try #require(UIImage(contentsOfFile: path))
            #expect(image.scale == 1 && image.size == CGSize(width: 4, height: 2))
            let px = try #require(image.cgImage).pixmap
            #expect(px.pixel(x: 0, y: 0) == .init(r: 255, g: 0, b: 0, a: 255))
            #expect(px.pixel(x: 1, y: 1) == .init(r: 0, g: 0, b: 255, a: 255))
            #expect(px.pixel(x: 3, y: 1).a == 128)
            // PNG data round trip.
            let data = try #require(image.pngData())
            let again = try #require(UIImage(data: data))
            #expect(again.cgImage?.pixmap.pixel(x: 3, y: 1) == px.pixel(x: 3, y: 1))
            #expect(UIImage(contentsOfFile: dir + "/missing.png") == nil)
        }
    }

    @Test func scaleSuffixAndNamedLookup() throws {
        try withTemporaryDirectory { dir in
            try PNGCodec.write(try sample(), to: dir + "/sprite@2x.png")
            let image = try #require(UIImage(contentsOfFile: dir + "/sprite@2x.png"))
            // Apple: size in points = pixels / scale.
            #expect(image.scale == 2 && image.size == CGSize(width: 2, height: 1))
            let saved = UIImage._resourceDirectories
            defer { UIImage._resourceDirectories = saved }
            UIImage._resourceDirectories = [dir]
            #expect(UIImage(named: "sprite")?.scale == 2)
            #expect(UIImage(named: "sprite@2x.png")?.size == CGSize(width: 2, height: 1))
            #expect(UIImage(named: "nothing") == nil)
        }
    }

    @Test func cgImageInitializerKeepsScale() throws {
        let cg = CGImage(pixmap: try sample())
        #expect(UIImage(cgImage: cg).size == CGSize(width: 4, height: 2))
        let retina = UIImage(cgImage: cg, scale: 2, orientation: .up)
        #expect(retina.size == CGSize(width: 2, height: 1) && retina.cgImage === cg)
    }

    @Test func imageContextDrawsUprightAtItsScale() throws {
        let image = UIImage(cgImage: CGImage(pixmap: try sample()))
        // At scale 1 each pixel centre is a texel centre: exact colours, the top row on top.
        UIGraphicsBeginImageContextWithOptions(CGSize(width: 4, height: 2), false, 1)
        #expect(UIGraphicsGetCurrentContext() != nil)
        image.draw(in: CGRect(x: 0, y: 0, width: 4, height: 2))
        let drawn = try #require(UIGraphicsGetImageFromCurrentImageContext())
        UIGraphicsEndImageContext()
        #expect(UIGraphicsGetCurrentContext() == nil)
        let px = try #require(drawn.cgImage).pixmap
        #expect(px.pixel(x: 1, y: 0) == .init(r: 255, g: 0, b: 0, a: 255))
        #expect(px.pixel(x: 1, y: 1) == .init(r: 0, g: 0, b: 255, a: 255))
        // At scale 2 the same points make 8 × 4 pixels, and the image keeps scale 2.
        UIGraphicsBeginImageContextWithOptions(CGSize(width: 4, height: 2), false, 2)
        image.draw(at: .zero)
        let retina = try #require(UIGraphicsGetImageFromCurrentImageContext())
        UIGraphicsEndImageContext()
        #expect(retina.scale == 2 && retina.size == CGSize(width: 4, height: 2))
        #expect(retina.cgImage?.width == 8 && retina.cgImage?.height == 4)
        let top = try #require(retina.cgImage).pixmap.pixel(x: 3, y: 0), bottom = try #require(retina.cgImage).pixmap.pixel(x: 3, y: 3)
        #expect(top.r > top.b && bottom.b > bottom.r)
        // A context with no pixels: none is current, and ending it still pops it.
        UIGraphicsBeginImageContextWithOptions(.zero, false, 1)
        #expect(UIGraphicsGetCurrentContext() == nil && UIGraphicsGetImageFromCurrentImageContext() == nil)
        UIGraphicsEndImageContext()
    }

    @Test func rendererImageUsesBoundsOrigin() throws {
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        let renderer = UIGraphicsImageRenderer(bounds: CGRect(x: 10, y: 10, width: 4, height: 4), format: format)
        let image = renderer.image { ctx in
            UIColor.green.setFill()
            ctx.fill(CGRect(x: 10, y: 10, width: 2, height: 2))
        }
        let px = try #require(image.cgImage).pixmap
        #expect(px.pixel(x: 0, y: 0) == .init(r: 0, g: 255, b: 0, a: 255))
        #expect(px.pixel(x: 3, y: 3).a == 0)
    }
}
