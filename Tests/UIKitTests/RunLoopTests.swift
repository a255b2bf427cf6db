import CoreText
import TestSupport
import Testing
import UIKit
import Raster

/// The run loop (`UIApplication.advance(to:)`): display-link frames, layout before the commit,
/// `draw(_:)` through the layer delegate, and the view tree rendered by CARenderer with the
/// window's layer as the root.
extension UIClockSuite {
    @Suite struct RunLoopTests {
        @Test func advancePumpsDisplayLinksAndLaysOut() {
            final class Layout: UIView {
                var passes: [CFTimeInterval] = []
                override func layoutSubviews() { passes.append(CACurrentMediaTime()) }
            }
            let window = UIClockSuite.makeWindow(at: 300)
            let view = Layout(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            window.addSubview(view)
            UIClockSuite.advance(to: 300)
            let passes = view.passes.count
            var ticks: [CFTimeInterval] = []
            let link = CADisplayLink { ticks.append($0.timestamp) }
            link.add(to: .main, forMode: .common)
            defer { link.invalidate() }
            UIClockSuite.advance(to: 300)
            // Frames are due at every 1/60 s boundary after the link's first turn.
            UIClockSuite.advance(to: 300 + 3.0 / 60)
            #expect(ticks.count == 3)
            view.setNeedsLayout()
            #expect(view.passes.count == passes)
            UIClockSuite.advance(to: 300 + 4.0 / 60)
            #expect(view.passes.count == passes + 1)
        }

        @Test func windowRendersWithCARenderer() throws {
            final class Disc: UIView {
                var drawnWithContext = false
                override func draw(_ rect: CGRect) {
                    drawnWithContext = UIGraphicsGetCurrentContext() != nil
                    UIColor.blue.setFill()
                    UIBezierPath(ovalIn: bounds).fill()
                }
            }
            let window = UIClockSuite.makeWindow(width: 100, height: 60, at: 400)
            let box = UIView(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
            box.backgroundColor = .red
            let disc = Disc(frame: CGRect(x: 50, y: 10, width: 40, height: 40))
            window.addSubview(box)
            window.addSubview(disc)
            UIClockSuite.advance(to: 400)
            let image = try CARenderer.image(of: window.layer, size: window.bounds.size, at: 400, scale: 1)
            let px = image.pixmap
            #expect(disc.drawnWithContext)
            #expect(px.pixel(x: 20, y: 20) == .init(r: 255, g: 0, b: 0, a: 255))
            #expect(px.pixel(x: 70, y: 30) == .init(r: 0, g: 0, b: 255, a: 255))
            // Outside the disc's circle (its corner) the white window shows.
            #expect(px.pixel(x: 51, y: 11) == .init(r: 255, g: 255, b: 255, a: 255))
            #expect(px.pixel(x: 5, y: 55) == .init(r: 255, g: 255, b: 255, a: 255))
        }

        /// UIKit gives a view a backing store only when its class overrides `draw(_:)` (Apple's
        /// performance guidance: do not implement an empty `draw(_:)`, it costs a backing store).
        /// Here a view finds out at its first display: `_drawsContent(of:)` then says whether its
        /// layer needs one (the compositor asks it), and an override that calls `super` and
        /// draws keeps its content.
        @Test func onlyViewsThatDrawKeepABackingStore() throws {
            final class Disc: UIView {
                override func draw(_ rect: CGRect) {
                    UIColor.blue.setFill()
                    UIBezierPath(ovalIn: bounds).fill()
                }
            }
            final class SuperThenDisc: UIView {
                override func draw(_ rect: CGRect) {
                    super.draw(rect)
                    UIColor.green.setFill()
                    UIBezierPath(rect: bounds).fill()
                }
            }
            final class SuperOnly: UIView {
                override func draw(_ rect: CGRect) { super.draw(rect) }
            }
            let window = UIClockSuite.makeWindow(width: 100, height: 40, at: 450)
            let plain = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            plain.backgroundColor = .red
            let disc = Disc(frame: CGRect(x: 20, y: 0, width: 20, height: 20))
            let superThen = SuperThenDisc(frame: CGRect(x: 40, y: 0, width: 20, height: 20))
            let superOnly = SuperOnly(frame: CGRect(x: 60, y: 0, width: 20, height: 20))
            for v in [plain, disc, superThen, superOnly] { window.addSubview(v) }
            UIClockSuite.advance(to: 450)
            let px = try CARenderer.image(of: window.layer, size: window.bounds.size, at: 450, scale: 1).pixmap
            #expect(!plain._drawsContent(of: plain.layer) && !window._drawsContent(of: window.layer))
            #expect(!superOnly._drawsContent(of: superOnly.layer))
            #expect(disc._drawsContent(of: disc.layer) && superThen._drawsContent(of: superThen.layer))
            #expect(px.pixel(x: 10, y: 10) == .init(r: 255, g: 0, b: 0, a: 255))
            #expect(px.pixel(x: 30, y: 10) == .init(r: 0, g: 0, b: 255, a: 255))
            #expect(px.pixel(x: 50, y: 10) == .init(r: 0, g: 255, b: 0, a: 255))
            #expect(px.pixel(x: 70, y: 10) == .init(r: 255, g: 255, b: 255, a: 255))
            // Asking for display asks again: the next display draws and decides anew.
            plain.setNeedsDisplay()
            #expect(plain._drawsContent(of: plain.layer))
        }

        @Test func labelAndImageViewDrawTheirContent() throws {
            let window = UIClockSuite.makeWindow(width: 120, height: 40, at: 500)
            let label = UILabel(frame: CGRect(x: 0, y: 0, width: 120, height: 40))
            label.text = "HI"
            label.font = .boldSystemFont(ofSize: 30)
            label.textColor = .black
            label.textAlignment = .center
            window.addSubview(label)
            #expect(label.textLayer.string as? String == "HI" && label.textLayer.fontSize == 30)
            #expect(label.textLayer.alignmentMode == .center)
            // One line, vertically centred: the drawn font's line height, hhea ascent − descent +
            // line gap (Apple's UIFont.lineHeight), read from its file with fontTools.
            let drawn = try #require(resolvedFont(".SFUI:bold"))
            let tables = try FontTables.read(drawn.file, index: drawn.index, text: "H")
            #expect(abs(label.textLayer.frame.height - tables.lineHeight(30)) < 1e-9)
            #expect(abs(label.textLayer.frame.midY - 20) < 1e-9)
            UIClockSuite.advance(to: 500)
            let px = try CARenderer.image(of: window.layer, size: window.bounds.size, at: 500).pixmap
            var dark = 0
            for y in 0..<40 { for x in 0..<120 where px.pixel(x: x, y: y).r < 100 { dark += 1 } }
            #expect(dark > 50)
            // Glyphs are centred: no dark pixel in the outer quarters.
            var outside = 0
            for y in 0..<40 { for x in Array(0..<25) + Array(95..<120) where px.pixel(x: x, y: y).r < 100 { outside += 1 } }
            #expect(outside == 0)

            let pixels = try Pixmap(width: 2, height: 2)
            pixels.fill(with: .init(r: 0, g: 255, b: 0, a: 255))
            let imageView = UIImageView(image: UIImage(cgImage: CGImage(pixmap: pixels), scale: 2, orientation: .up))
            #expect(imageView.frame == CGRect(x: 0, y: 0, width: 1, height: 1) && !imageView.isUserInteractionEnabled)
            #expect(imageView.layer.contents as? CGImage === imageView.image?.cgImage && imageView.layer.contentsScale == 2)
        }

        @Test func imageViewPlaysAnimationImages() throws {
            let window = UIClockSuite.makeWindow(at: 600)
            let frames = try (0..<8).map { i -> UIImage in
                let p = try Pixmap(width: 1, height: 1)
                p.fill(with: .init(r: UInt8(i * 30), g: 0, b: 0, a: 255))
                return UIImage(cgImage: CGImage(pixmap: p))
            }
            let burst = UIImageView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            window.addSubview(burst)
            burst.animationImages = frames
            burst.animationDuration = 0.5
            burst.animationRepeatCount = 1
            burst.startAnimating()
            UIClockSuite.advance(to: 600)
            #expect(burst.isAnimating)
            let animation = try #require(burst.layer.animation(forKey: "UIImageAnimation") as? CAKeyframeAnimation)
            #expect(animation.values?.count == 8 && animation.calculationMode == .discrete && animation.duration == 0.5)
            UIClockSuite.advance(to: 600.6)
            #expect(!burst.isAnimating)
        }

        @Test func viewControllerLoadsItsViewOnce() {
            final class Controller: UIViewController {
                var loads = 0
                override func viewDidLoad() { loads += 1; view.backgroundColor = .yellow }
            }
            let window = UIClockSuite.makeWindow(width: 200, height: 100, at: 700)
            let controller = Controller()
            #expect(!controller.isViewLoaded)
            window.rootViewController = controller
            #expect(controller.loads == 1 && controller.view.superview === window)
            #expect(controller.view.frame == window.bounds && controller.view.backgroundColor == .yellow)
            _ = controller.view
            #expect(controller.loads == 1)
        }
    }
}
