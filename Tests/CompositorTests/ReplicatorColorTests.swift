import Compositor
import QuartzCore
import Raster
import Testing

/// A replicator's instance colour multiplies the instance's un-premultiplied
/// colour and alpha (Apple, instanceColor: "The color used to multiply the source object";
/// the alpha offset changes the instance's alpha). On premultiplied pixels (c·α, α) that is a
/// multiplication by (r·a, g·a, b·a, a); expected values below by that formula and source-over.
@Suite(.serialized) struct ReplicatorColorTests {
    /// A replicator of one instance tinted (1, 0.5, 0, 0.5) holding an opaque white square.
    static func scene() -> CAReplicatorLayer {
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        r.instanceColor = CGColor(red: 1, green: 0.5, blue: 0, alpha: 0.5)
        let square = CALayer()
        square.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        square.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        r.addSublayer(square)
        return r
    }

    static func render(_ l: CALayer, background: CGColor?) throws -> PremultipliedColor {
        CAMediaClock.setManualTime(0)
        return try CARenderer.image(of: l, size: CGSize(width: 40, height: 40), at: 0, background: background)
            .pixmap.pixel(x: 20, y: 20)
    }

    /// Un-premultiplied white × (1, 0.5, 0) at alpha 0.5 is premultiplied (127.5, 63.75, 0, 127.5):
    /// every channel at most alpha.
    @Test func tintedPixelsStayPremultiplied() throws {
        let p = try Self.render(Self.scene(), background: nil)
        #expect(abs(Int(p.a) - 128) <= 1 && abs(Int(p.r) - 128) <= 1 && abs(Int(p.g) - 64) <= 1 && p.b == 0, "\(p)")
        #expect(p.r <= p.a && p.g <= p.a && p.b <= p.a)
    }

    /// Over opaque blue: (127.5, 63.75, 0) + 0.5 · (0, 0, 255) = (127.5, 63.75, 127.5).
    @Test func tintedInstanceComposites() throws {
        let p = try Self.render(Self.scene(), background: CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        #expect(abs(Int(p.r) - 128) <= 1 && abs(Int(p.g) - 64) <= 1 && abs(Int(p.b) - 128) <= 1 && p.a == 255, "\(p)")
    }
}
