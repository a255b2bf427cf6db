import Compositor
import QuartzCore
import Raster
import Testing

/// A CATransformLayer draws nothing of its own. Apple (CATransformLayer):
/// "Only the sublayers of a transform layer are rendered. The CALayer properties that are rendered
/// by a layer are ignored, including: backgroundColor, contents, border style properties …";
/// "The properties that assume 2D image processing are also ignored, including: … mask,
/// masksToBounds, and shadow style properties"; "The opacity property is applied to each
/// sublayer individually, the transform layer does not form a compositing group."
@Suite(.serialized) struct TransformLayerTests {
    static func layer(_ frame: CGRect, _ color: CGColor) -> CALayer {
        let l = CALayer()
        l.frame = frame
        l.backgroundColor = color
        return l
    }

    static func render(_ root: CALayer) throws -> Pixmap {
        CAMediaClock.setManualTime(0)
        return try CARenderer.image(of: root, size: CGSize(width: 100, height: 100), at: 0,
                                    background: CGColor(red: 1, green: 1, blue: 1, alpha: 1)).pixmap
    }

    @Test func ownPropertiesAreNotDrawn() throws {
        let t = CATransformLayer()
        t.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        t.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        t.borderWidth = 10
        t.borderColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        let image = try Pixmap(width: 4, height: 4)
        image.fill(with: PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        t.contents = CGImage(pixmap: image)
        t.shadowOpacity = 1
        t.masksToBounds = true
        t.mask = Self.layer(CGRect(x: 0, y: 0, width: 10, height: 10), CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        // A sublayer reaching past the bounds: not clipped (masksToBounds and mask are ignored).
        t.addSublayer(Self.layer(CGRect(x: 40, y: 40, width: 80, height: 20), CGColor(red: 0, green: 0, blue: 0, alpha: 1)))
        let img = try Self.render(t)
        #expect(img.pixel(x: 2, y: 2) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255))   // border, contents, mask area
        #expect(img.pixel(x: 30, y: 80) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255)) // background
        #expect(img.pixel(x: 50, y: 50) == PremultipliedColor(r: 0, g: 0, b: 0, a: 255))       // the sublayer
        #expect(img.pixel(x: 99, y: 50) == PremultipliedColor(r: 0, g: 0, b: 0, a: 255))       // not clipped, not masked
    }

    /// Two overlapping opaque sublayers (red, then blue) under a transform layer of opacity 0.5 on
    /// white: each sublayer is composited at 0.5 on its own, so in the overlap red·0.5 over white
    /// gives (255, 127.5, 127.5) and blue·0.5 over that (127.5, 63.75, 191.25) — a compositing
    /// group would show blue·0.5 over white, (127.5, 127.5, 255).
    @Test func opacityAppliesToEachSublayer() throws {
        let t = CATransformLayer()
        t.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        t.opacity = 0.5
        t.addSublayer(Self.layer(CGRect(x: 10, y: 10, width: 50, height: 50), CGColor(red: 1, green: 0, blue: 0, alpha: 1)))
        t.addSublayer(Self.layer(CGRect(x: 30, y: 30, width: 50, height: 50), CGColor(red: 0, green: 0, blue: 1, alpha: 1)))
        let overlap = try Self.render(t).pixel(x: 45, y: 45)
        #expect(abs(Int(overlap.r) - 128) <= 1 && abs(Int(overlap.g) - 64) <= 1 && abs(Int(overlap.b) - 191) <= 1,
                "\(overlap)")
    }

    /// A plain layer flattens its sublayers into its own plane before its transform applies
    /// (Apple, CATransformLayer: transform layers make "true 3D layer hierarchies, rather than
    /// the flattened hierarchy rendering model used by other layer types"). So a face pushed
    /// 60 points out of a CATransformLayer's plane, inside a plain layer turned 50° about y
    /// with perspective, lands where the same face at z = 0 lands: its depth is flattened away
    /// in the plain layer's plane (orthographically: the plain layer has no sublayerTransform)
    /// and must not reach the plain layer's own perspective.
    @Test func depthUnderATransformLayerIsFlattenedByAPlainAncestor() throws {
        func scene(faceZ: CGFloat) throws -> Pixmap {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
            let plain = CALayer()
            plain.frame = root.frame
            var turn = CATransform3DIdentity
            turn.m34 = -1 / 200
            plain.transform = CATransform3DRotate(turn, 50 * .pi / 180, 0, 1, 0)
            let t = CATransformLayer()
            t.frame = root.frame
            let face = Self.layer(CGRect(x: 30, y: 30, width: 40, height: 40), CGColor(red: 1, green: 0, blue: 0, alpha: 1))
            face.transform = CATransform3DMakeTranslation(0, 0, faceZ)
            t.addSublayer(face)
            plain.addSublayer(t)
            root.addSublayer(plain)
            return try Self.render(root)
        }
        func bytes(_ p: Pixmap) -> [UInt8] { Array(UnsafeBufferPointer(start: p.pixels, count: p.width * p.height * 4)) }
        let flat = try scene(faceZ: 0), raised = try scene(faceZ: 60)
        #expect(flat.pixel(x: 50, y: 50) != PremultipliedColor(r: 255, g: 255, b: 255, a: 255))   // the face shows
        let differing = zip(bytes(flat), bytes(raised)).filter { $0 != $1 }.count
        #expect(differing == 0)
    }
}
