@testable import Compositor
import QuartzCore
import Raster
import Testing

/// A full frame whose first drawing is an opaque rectangle over the whole target is not cleared
/// first (`LayerRenderer.firstDrawCoversTarget`): the bytes are those of a fresh renderer's
/// frame even when the target held other pixels before (here magenta, which a missing clear
/// would leave showing); and every way the first drawing can fall short of covering keeps the
/// clear.
@Suite(.serialized) struct FirstDrawCoverTests {
    static let (width, height) = (64, 48)
    static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    static let grey = CGColor(red: 0.8, green: 0.8, blue: 0.8, alpha: 1)

    /// A root drawing nothing of its own over a background layer the size of the target and a
    /// red square, as an imported Lottie composition is; `dress` changes the background.
    static func tree(_ dress: (CALayer, CALayer) -> Void = { _, _ in }) -> CALayer {
        CAMediaClock.setManualTime(0)
        let root = CALayer(), container = CALayer(), background = CALayer(), square = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: width, height: height)
        container.frame = root.frame
        background.frame = root.frame
        background.backgroundColor = grey
        square.frame = CGRect(x: 10, y: 8, width: 20, height: 16)
        square.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        container.addSublayer(background)
        container.addSublayer(square)
        root.addSublayer(container)
        dress(root, background)
        CATransaction.flush()
        return root
    }

    /// Draws `root` twice through one renderer (the second draw works out the background
    /// bitmap's extents); then fills the target with magenta and draws a third full frame.
    /// Returns whether that frame's first drawing covered the target and whether its bytes
    /// equal a fresh renderer's.
    static func thirdFrame(_ root: CALayer) throws -> (covered: Bool, same: Bool) {
        let r = try CARenderer(width: width, height: height)
        r._renderThreads = 1
        r.layer = root
        r.backgroundColor = white
        let background = PremultipliedColor(r: 255, g: 255, b: 255, a: 255)
        r.beginFrame(atTime: 0); r.render(); r.endFrame()
        r.renderer.renderFullFrame(root, at: 0, footprints: nil, background: background)
        let covered = r.renderer.firstDrawCoversTarget(root, at: 0, footprints: nil)
        r.pixmap.fill(with: PremultipliedColor(r: 255, g: 0, b: 255, a: 255))
        r.renderer.renderFullFrame(root, at: 0, footprints: nil, background: background)
        let fresh = try CARenderer.image(of: root, size: CGSize(width: width, height: height), at: 0, background: white)
        let count = width * height * 4
        let same = (0..<count).allSatisfy { fresh.pixmap.pixels[$0] == r.pixmap.pixels[$0] }
        return (covered, same)
    }

    @Test func anOpaqueBackgroundOverTheFrameIsNotCleared() throws {
        let (covered, same) = try Self.thirdFrame(Self.tree())
        #expect(covered && same)
    }

    /// Larger than the frame and moved by whole points: still covering.
    @Test func aLargerBackgroundMovedByWholePixelsCovers() throws {
        let (covered, same) = try Self.thirdFrame(Self.tree { _, b in b.frame = CGRect(x: -7, y: -3, width: 80, height: 60) })
        #expect(covered && same)
    }

    /// A damaged patch (`CARenderer.redraw`) is asked the same question about its own pixels:
    /// with the square moving over a background that leaves the four left columns bare, every
    /// patched frame equals a full redraw byte for byte; a patch inside the background is
    /// covered, one reaching the bare columns is not.
    @Test func patchesOverTheBackgroundAreNotCleared() throws {
        let root = Self.tree { _, b in b.frame = CGRect(x: 4, y: 0, width: 60, height: 48) }
        let square = try #require(root.sublayers?[0].sublayers?[1])
        AnimatedDamageTests.animate(square, "position", by: CGPoint(x: 9.5, y: 6.25))
        CATransaction.flush()
        let (patching, full) = try AnimatedDamageTests.renderers(root)
        let areas = [0, 0.25, 0.5, 0.75].map { AnimatedDamageTests.frame(patching, full, at: $0) }
        #expect(areas.dropFirst().allSatisfy { $0.width > 0 && $0.maxX <= 64 && $0.maxY <= 48 }, "\(areas)")
        func patchCovered(x: Int) throws -> Bool {
            LayerRenderer(target: try Pixmap(width: 16, height: 12), scale: 1, origin: (x, 20),
                          sharingCachesWith: patching.renderer, footprints: nil).firstDrawCoversTarget(root, at: 0.75, footprints: nil)
        }
        #expect(try patchCovered(x: 20))
        #expect(try !patchCovered(x: 2))
    }

    @Test(arguments: ["translucent", "inset", "fractional", "faded parent", "rounded", "hidden", "turned"])
    func backgroundsThatDoNotCoverKeepTheClear(_ name: String) throws {
        let root = Self.tree { root, b in
            switch name {
            case "translucent": b.backgroundColor = CGColor(red: 0.8, green: 0.8, blue: 0.8, alpha: 0.9)
            case "inset": b.frame = CGRect(x: 1, y: 0, width: 63, height: 48)
            case "fractional": b.frame = CGRect(x: -0.5, y: 0, width: 80, height: 48)
            case "faded parent": root.sublayers![0].opacity = 0.5
            case "rounded": b.cornerRadius = 4
            case "hidden": b.isHidden = true
            case "turned": b.transform = CATransform3DMakeRotation(0.01, 0, 0, 1)
            default: break
            }
        }
        let (covered, same) = try Self.thirdFrame(root)
        #expect(!covered && same, "\(name)")
    }

    /// Among 40 siblings (past the 16 whose depth order the first walk asks about) the
    /// background still covers; with one sibling leaning in depth (turned about y, so that
    /// siblings are drawn by depth, `sublayersNeedDepthOrder`) it no longer counts as first.
    @Test(arguments: [false, true])
    func aBackgroundAmongManySiblings(leaning: Bool) throws {
        let root = Self.tree { root, _ in
            let container = root.sublayers![0]
            for i in 0..<38 {
                let dot = CALayer()
                dot.frame = CGRect(x: CGFloat(i % 10) * 6, y: CGFloat(i / 10) * 6 + 28, width: 4, height: 4)
                dot.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
                if leaning && i == 37 { dot.transform = CATransform3DMakeRotation(0.5, 0, 1, 0) }
                container.addSublayer(dot)
            }
        }
        let (covered, same) = try Self.thirdFrame(root)
        #expect(covered == !leaning && same)
    }
}
