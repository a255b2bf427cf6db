import Compositor
import QuartzCore
import Raster
import Testing

/// `allowsGroupOpacity`. Apple: "When the value is true and the layer's opacity
/// property value is less than 1.0, the layer is allowed to composite itself as a group separate
/// from its parent. This gives correct results when the layer contains multiple opaque
/// components"; the default is true for apps linked against iOS 7 or later. With false, each
/// sublayer is composited at the opacity by itself. Expected colours by source-over in closed
/// form: a red then a blue opaque sublayer overlapping, under a parent of opacity 0.5, on white.
@Suite(.serialized) struct GroupOpacityTests {
    static func render(groups: Bool?) throws -> Pixmap {
        let parent = CALayer()
        parent.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
        parent.opacity = 0.5
        if let groups { parent.allowsGroupOpacity = groups }
        for (x, color) in [(0, CGColor(red: 1, green: 0, blue: 0, alpha: 1)), (20, CGColor(red: 0, green: 0, blue: 1, alpha: 1))] {
            let l = CALayer()
            l.frame = CGRect(x: CGFloat(x), y: 0, width: 40, height: 40)
            l.backgroundColor = color
            parent.addSublayer(l)
        }
        CAMediaClock.setManualTime(0)
        return try CARenderer.image(of: parent, size: CGSize(width: 60, height: 40), at: 0,
                                    background: CGColor(red: 1, green: 1, blue: 1, alpha: 1)).pixmap
    }

    static func rgb(_ img: Pixmap, _ x: Int) -> [Int] {
        let p = img.pixel(x: x, y: 20)
        return [Int(p.r), Int(p.g), Int(p.b)]
    }

    static func close(_ a: [Int], _ b: [Double]) -> Bool { zip(a, b).allSatisfy { abs(Double($0) - $1) <= 2 } }

    /// Default (a group): the overlap shows only the blue layer at 0.5 over white: (127.5, 127.5, 255).
    @Test func groupOpacityIsTheDefault() throws {
        #expect(CALayer().allowsGroupOpacity)
        let img = try Self.render(groups: nil)
        #expect(Self.close(Self.rgb(img, 30), [127.5, 127.5, 255]), "\(Self.rgb(img, 30))")
    }

    /// false: red at 0.5 over white is (255, 127.5, 127.5); blue at 0.5 over that is
    /// (127.5, 63.75, 191.25) — the red shows through the overlap. Outside it, each is as in a group.
    @Test func withoutGroupOpacityEachSublayerIsCompositedAlone() throws {
        let img = try Self.render(groups: false)
        #expect(Self.close(Self.rgb(img, 30), [127.5, 63.75, 191.25]), "overlap \(Self.rgb(img, 30))")
        #expect(Self.close(Self.rgb(img, 10), [255, 127.5, 127.5]) && Self.close(Self.rgb(img, 50), [127.5, 127.5, 255]))
    }
}
