@testable import Compositor
import Foundation
import QuartzCore
import Raster
import Testing

/// Cost of a transition frame (run by hand, in a release build):
///
///     CITRINE_TRANSITION_COST=1 swift test -c release --scratch-path .build-transition-release \
///         --no-parallel --filter TransitionCostTests
///
/// A 1280×720 frame of a screen-like tree (a full-size photo-like image layer with rounded
/// cards, borders, a shape and text on it) with a transition of each type at progress 0.5 on the
/// image layer, against a plain frame of the same tree, both drawn whole (`renderFullFrame`),
/// interleaved, medians of 25 frames after warm-up. Prints the ratios; asserts nothing (times on
/// a shared machine are noise; see BENCHMARKS.md for the methodology of the project's numbers).
@Suite(.serialized) struct TransitionCostTests {
    static let enabled = ProcessInfo.processInfo.environment["CITRINE_TRANSITION_COST"] == "1"
    static let types = ["fade", "moveIn", "push", "reveal", "cube", "oglFlip", "pageCurl", "pageUnCurl", "rippleEffect",
                        "suckEffect", "cameraIris", "cameraIrisHollowOpen", "cameraIrisHollowClose"]

    static func photo() throws -> CGImage {
        let p = try Pixmap(width: 1280, height: 720)
        var seed: UInt32 = 12345
        for y in 0..<720 {
            for x in 0..<1280 {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let n = Int(seed >> 28)
                p.setPixel(x: x, y: y, PremultipliedColor(r: UInt8((x * 200 / 1280 + n) & 255), g: UInt8((y * 180 / 720 + n) & 255),
                                                          b: UInt8(((x + y) * 120 / 2000 + 60 + n) & 255), a: 255))
            }
        }
        return CGImage(pixmap: p)
    }

    /// The tree: root → screen (image) → cards, shape, text. `after`: the second state.
    static func tree(image: CGImage, after: Bool) -> (root: CALayer, screen: CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
        let screen = CALayer()
        screen.frame = root.bounds
        screen.contents = image
        for i in 0..<8 {
            let card = CALayer()
            card.frame = CGRect(x: 60 + (i % 4) * 300, y: 120 + (i / 4) * 280, width: 260, height: 220)
            card.backgroundColor = after ? CGColor(red: 0.2, green: 0.5, blue: 0.3, alpha: 0.9) : CGColor(red: 0.95, green: 0.95, blue: 1, alpha: 0.9)
            card.cornerRadius = 16
            card.borderWidth = 2
            card.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.3)
            screen.addSublayer(card)
        }
        let shape = CAShapeLayer()
        shape.path = CGPath(ellipseIn: CGRect(x: 1100, y: 20, width: 80, height: 80), transform: nil)
        shape.fillColor = CGColor(red: 1, green: 0.6, blue: 0, alpha: 1)
        screen.addSublayer(shape)
        let text = CATextLayer()
        text.frame = CGRect(x: 60, y: 30, width: 900, height: 60)
        text.string = after ? "Second page" : "First page"
        text.fontSize = 40
        screen.addSublayer(text)
        root.addSublayer(screen)
        return (root, screen)
    }

    static func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

    @Test(.enabled(if: enabled)) func transitionFrameAgainstPlainFrame() throws {
        let image = try Self.photo()
        CAMediaClock.setManualTime(0)
        let plain = Self.tree(image: image, after: true).root
        let plainRenderer = try CARenderer(width: 1280, height: 720)
        var lines: [String] = []
        let only = ProcessInfo.processInfo.environment["CITRINE_TRANSITION_COST_TYPES"]?.split(separator: ",").map(String.init)
        let progress = Double(ProcessInfo.processInfo.environment["CITRINE_TRANSITION_COST_PROGRESS"] ?? "") ?? 0.5
        for name in only ?? Self.types {
            CAMediaClock.setManualTime(0)
            let (root, screen) = Self.tree(image: image, after: false)
            let renderer = try CARenderer(width: 1280, height: 720)
            renderer.layer = root
            renderer.beginFrame(atTime: 0); renderer.render(); renderer.endFrame()   // "before" presented
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            let t = CATransition()
            t.type = CATransitionType(rawValue: name)
            t.subtype = .fromRight
            t.duration = 1
            screen.add(t, forKey: nil)
            for (i, card) in (screen.sublayers ?? []).enumerated() where i < 8 {
                card.backgroundColor = CGColor(red: 0.2, green: 0.5, blue: 0.3, alpha: 0.9)
            }
            (screen.sublayers?.last as? CATextLayer)?.string = "Second page"
            CATransaction.commit()
            CAMediaClock.setManualTime(progress)
            CATransaction.flush()
            func frame(_ r: CARenderer, _ layer: CALayer) -> Double {
                let start = DispatchTime.now().uptimeNanoseconds
                r.pixmap.fill(with: PremultipliedColor(r: 0, g: 0, b: 0, a: 255))
                r.renderer.renderFullFrame(layer, at: progress, footprints: nil)
                return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            }
            for _ in 0..<3 { _ = frame(renderer, root); _ = frame(plainRenderer, plain) }
            var a: [Double] = [], b: [Double] = []
            for _ in 0..<25 {
                b.append(frame(plainRenderer, plain))
                a.append(frame(renderer, root))
            }
            let ratio = Self.median(a) / Self.median(b)
            lines.append("\(name.padding(toLength: 22, withPad: " ", startingAt: 0)) transition \(String(format: "%7.2f", Self.median(a))) ms  plain \(String(format: "%7.2f", Self.median(b))) ms  ratio \(String(format: "%.2f", ratio))")
        }
        print("TRANSITION COST (1280×720, progress \(progress), fromRight)\n" + lines.joined(separator: "\n"))
    }
}
