import Compositor
import Foundation
import ImageCodecs
import Lottie
import QuartzCore
import Raster
import Testing

/// Image layers (`ty` 2) and image assets, embedded (base64) or in a file beside the animation:
/// a 2×1 PNG (a red pixel, a blue one) shown at 100×50 points puts red on the left half and
/// blue on the right (CALayer `contents` with the default gravity, resize).
@Suite(.serialized) struct LottieImageTests {
    static func png() throws -> [UInt8] {
        let pixmap = try Pixmap(width: 2, height: 1)
        pixmap.setPixel(x: 0, y: 0, PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
        pixmap.setPixel(x: 1, y: 0, PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        return try PNGCodec.encode(pixmap)
    }

    static func doc(_ asset: [String: Any]) -> [String: Any] {
        Doc.comp([["ty": 2, "ind": 1, "refId": "img", "ip": 0, "op": 30, "st": 0, "ks": Doc.ks(p: Doc.fixed([50, 50]))]],
                 assets: [asset])
    }

    static func check(_ layer: CALayer) throws {
        let image = try LottieImportTests.render(layer, size: CGSize(width: 200, height: 200), at: 0)
        #expect(LottieImportTests.rgba(image, 60, 70) == [255, 0, 0, 255])
        #expect(LottieImportTests.rgba(image, 140, 70) == [0, 0, 255, 255])
        #expect(LottieImportTests.rgba(image, 60, 110)[3] == 0)
    }

    @Test func anEmbeddedImageIsShownAtItsSize() throws {
        let uri = "data:image/png;base64," + Data(try Self.png()).base64EncodedString()
        try Self.check(try Doc.layer(Self.doc(["id": "img", "w": 100, "h": 50, "u": "", "p": uri, "e": 1])))
    }

    @Test func anImageFileIsFoundBesideTheAnimation() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("lottie-image-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(try Self.png()).write(to: folder.appendingPathComponent("images/img_0.png"))
        let file = folder.appendingPathComponent("anim.json")
        try Doc.data(Self.doc(["id": "img", "w": 100, "h": 50, "u": "images/", "p": "img_0.png", "e": 0])).write(to: file)
        let animation = try #require(LottieAnimation.filepath(file.path))
        let layer = LottieAnimationLayer(animation: animation)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.anchorPoint = .zero
        layer.position = .zero
        layer.runFreely(from: 0)
        CATransaction.commit()
        try Self.check(layer)
    }

    @Test func badImagesAreErrorsNamingTheAsset() {
        #expect(LottieErrorTests.error(Self.doc(["id": "img", "w": 100, "h": 50, "p": "data:image/png;base64,@@@not base64", "e": 1]))
                == "assets[0].p: expected an embedded image as data:image/…;base64,… (this is not base64 data)")
        #expect(LottieErrorTests.error(Self.doc(["id": "img", "w": 100, "h": 50, "p": "data:image/png;base64,aGVsbG8=", "e": 1]))
                == "assets[0].p: not a PNG or JPEG image that can be decoded")
        #expect(LottieErrorTests.error(Self.doc(["id": "img", "w": 100, "h": 50, "u": "nowhere/", "p": "x.png"]))?
            .hasPrefix("assets[0].p: no image file at ") == true)
    }
}
