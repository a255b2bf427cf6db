import Compositor
import QuartzCore
import Raster
import Testing

/// CATransition drawing, probed halfway through (progress 0.5, linear): a 100×50 layer in the
/// middle of a 200×50 frame changes from red to blue. Where each picture lies follows from
/// Apple's descriptions of the types (moveIn slides the new content over the old, push pushes
/// the old out, reveal uncovers the new) and subtypes ("fromRight: the transition begins at the
/// right side of the layer"); the fade is the cross-dissolve ½·red + ½·blue.
@Suite(.serialized) struct TransitionTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    /// The frame at t = 0.5 s of a 1 s transition of `type`/`subtype` from red to blue.
    static func halfway(_ type: CATransitionType, _ subtype: CATransitionSubtype? = .fromRight,
                        masksToBounds: Bool = false) throws -> Pixmap {
        CAMediaClock.setManualTime(0)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 50)
        let layer = CALayer()
        layer.frame = CGRect(x: 50, y: 0, width: 100, height: 50)
        layer.backgroundColor = red
        layer.masksToBounds = masksToBounds
        root.addSublayer(layer)
        let size = CGSize(width: 200, height: 50)
        _ = try CARenderer.image(of: root, size: size, at: 0)      // the red picture is shown
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.backgroundColor = blue
        let transition = CATransition()
        transition.type = type
        transition.subtype = subtype
        transition.duration = 1
        layer.add(transition, forKey: nil)
        CATransaction.commit()
        CAMediaClock.setManualTime(0.5)
        return try CARenderer.image(of: root, size: size, at: 0.5).pixmap
    }

    static let r = PremultipliedColor(r: 255, g: 0, b: 0, a: 255)
    static let b = PremultipliedColor(r: 0, g: 0, b: 255, a: 255)
    static let none = PremultipliedColor(r: 0, g: 0, b: 0, a: 0)

    /// Pixels at x = 25, 75, 125, 175 (y = 25).
    static func probes(_ p: Pixmap) -> [PremultipliedColor] { [25, 75, 125, 175].map { p.pixel(x: $0, y: 25) } }

    @Test func pushMovesBothPictures() throws {
        // Old slid left by 50 (0…100), new slid in halfway (100…200); nothing clips them.
        #expect(Self.probes(try Self.halfway(.push)) == [Self.r, Self.r, Self.b, Self.b])
    }

    @Test func pushInsideMasksToBoundsIsClippedToTheLayer() throws {
        #expect(Self.probes(try Self.halfway(.push, masksToBounds: true)) == [Self.none, Self.r, Self.b, Self.none])
    }

    @Test func moveInSlidesTheNewPictureOverTheOld() throws {
        #expect(Self.probes(try Self.halfway(.moveIn)) == [Self.none, Self.r, Self.b, Self.b])
    }

    @Test func revealSlidesTheOldPictureAway() throws {
        #expect(Self.probes(try Self.halfway(.reveal)) == [Self.r, Self.r, Self.b, Self.none])
    }

    @Test func fromTopStartsAtTheTop() throws {
        // Push from the top: the new picture comes down from above; halfway, the layer's top
        // half (y < 25) shows the new one, its bottom half the old one.
        let p = try Self.halfway(.push, .fromTop)
        #expect(p.pixel(x: 100, y: 10) == Self.b && p.pixel(x: 100, y: 40) == Self.r)
    }

    @Test func fadeIsACrossDissolve() throws {
        let c = try Self.halfway(.fade).pixel(x: 100, y: 25)
        // ½·255 each way; the two 8-bit halves may round to 127 or 128.
        #expect(c.a == 255 && c.g == 0)
        #expect(abs(Int(c.r) - 128) <= 1 && abs(Int(c.b) - 128) <= 1 && Int(c.r) + Int(c.b) >= 254)
    }
}
