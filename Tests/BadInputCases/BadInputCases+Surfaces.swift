import UIKit
import Compositor
import CoreText
import Export
import Foundation
import QuartzCore
import WindowHost

/// Values handed to the modules around the engine — the exporter, the window hosts, the
/// UIKit-style layer, Core Text — that once trapped or ran without bound (found by reading the
/// code, session 14): each is now refused with an error naming it, or tolerated as documented.
extension BadInputCase {
    static let surfaceCases: [BadInputCase] = [
        BadInputCase("exporter-1e19-points-at-scale-1e-16", area: "numbers", expected: "refused: ") {
            let exporter = CAAnimationExporter(layer: CALayer(), size: CGSize(width: 1e19, height: 1e19), scale: 1e-16)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-bad-input-\(getpid()).png")
            defer { try? FileManager.default.removeItem(at: file) }
            try exporter.export(to: file, duration: 0, includeEnd: true)
            return "exported"
        },
        BadInputCase("headless-host-scene-1e19-points", area: "numbers", expected: "refused: ") {
            _ = try HeadlessHost(scene: LayerScene(rootLayer: CALayer(), size: CGSize(width: 1e19, height: 10)))
            return "accepted"
        },
        BadInputCase("display-frame-times-through-infinity-and-a-billion-seconds", area: "numbers",
                     expected: "0 through infinity, 0 from -infinity, 1000000 through 1e9") {
            let toInfinity = HeadlessHost.displayFrameTimes(from: 0, through: .infinity).count
            let fromMinusInfinity = HeadlessHost.displayFrameTimes(from: -.infinity, through: 0).count
            let billion = HeadlessHost.displayFrameTimes(from: 0, through: 1e9).count
            return "\(toInfinity) through infinity, \(fromMinusInfinity) from -infinity, \(billion) through 1e9"
        },
        BadInputCase("uicolor-hue-nan-and-infinity", area: "numbers", expected: "red, red") {
            func name(_ c: UIColor) -> String { c.cgColor.components == [1, 0, 0, 1] ? "red" : "\(c.cgColor)" }
            return name(UIColor(hue: .nan, saturation: 1, brightness: 1, alpha: 1)) + ", "
                + name(UIColor(hue: .infinity, saturation: 1, brightness: 1, alpha: 1))
        },
        BadInputCase("screen-scale-1e19-then-image-named", area: "numbers", expected: "scale stays 2.0, no image") {
            UIScreen.main._setBounds(UIScreen.main.bounds, scale: 1e19)
            return "scale stays \(UIScreen.main.scale), " + (UIImage(named: "no-such-image") == nil ? "no image" : "an image")
        },
        BadInputCase("core-text-ranges-of-int-max-length", area: "numbers", expected: "1 line, fit 5 characters from 1, 1 origin") {
            let framesetter = CTFramesetterCreateWithAttributedString(NSAttributedString(string: "hello!"))
            let everything = CFRange(location: 1, length: .max)
            var fit = CFRange(location: 0, length: 0)
            _ = CTFramesetterSuggestFrameSizeWithConstraints(framesetter, everything, nil, CGSize(width: 500, height: 500), &fit)
            let frame = CTFramesetterCreateFrame(framesetter, everything, CGPath(rect: CGRect(x: 0, y: 0, width: 500, height: 100),
                                                                                 transform: nil), nil)
            let lines = CTFrameGetLines(frame).count
            var origins = [CGPoint](repeating: .zero, count: 4)
            CTFrameGetLineOrigins(frame, CFRange(location: 0, length: .max), &origins)
            let placed = origins.filter { $0 != .zero }.count
            return "\(lines) line, fit \(fit.length) characters from \(fit.location), \(placed) origin"
        },
        BadInputCase("bitmap-context-int-max-width", area: "numbers", expected: "refused") {
            CGContext(data: nil, width: .max / 2, height: 1, bitsPerComponent: 8, bytesPerRow: 1,
                      space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) == nil
                ? "refused" : "made"
        },
        BadInputCase("tint-color-of-a-100k-deep-view", area: "depth", expected: "the root's tint") {
            let root = viewChain(depth: 100_000, in: nil)
            root.tintColor = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
            return deepestView(root).tintColor.cgColor == root.tintColor.cgColor ? "the root's tint" : "another tint"
        },
        // Every character a colour of its own, wrapped: styles, colour paths and the outlines
        // gathered per glyph were each searched or copied in full (O(n²)).
        BadInputCase("text-layer-100k-characters-each-its-own-colour", area: "cost", expected: "drew", seconds: 120) {
            let letters = Array("ab c")
            let text = NSMutableAttributedString(string: "")
            for i in 0..<100_000 {
                let colour = CGColor(red: CGFloat(i % 1000) / 1000, green: CGFloat(i / 1000) / 100, blue: 0.5, alpha: 1)
                text.append(NSAttributedString(string: String(letters[i % 4]),
                                               attributes: [NSAttributedString.Key(kCTForegroundColorAttributeName): colour]))
            }
            let layer = CATextLayer()
            layer.frame = CGRect(x: 0, y: 0, width: 1000, height: 1000)
            layer.string = text
            layer.isWrapped = true
            layer.fontSize = 4
            let image = try CARenderer.image(of: layer, size: CGSize(width: 1000, height: 1000), at: 0)
            return (0..<100).contains { image.pixmap.pixel(x: 2 + $0, y: 3).a > 0 } ? "drew" : "drew nothing"
        },
        BadInputCase("text-in-10k-distinct-font-names", area: "memory", expected: "drew 10000 names") {
            var drawn = 0
            for i in 0..<10_000 {
                let layer = CATextLayer()
                layer.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
                layer.string = "Hi"
                layer.font = "NoSuchFont\(i)" as NSString
                let image = try CARenderer.image(of: layer, size: CGSize(width: 40, height: 20), at: 0)
                if (0..<40).contains(where: { x in (0..<20).contains { image.pixmap.pixel(x: x, y: $0).a > 0 } }) { drawn += 1 }
            }
            return "drew \(drawn) names"
        },
    ]
}
