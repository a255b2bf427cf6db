import Compositor
import QuartzCore
import Raster
import Testing

/// `allowsEdgeAntialiasing` / edgeAntialiasingMask. Apple (CALayer.h):
/// allowsEdgeAntialiasing — "When true, the layer is allowed to antialias its edges, as requested
/// by the value of the edgeAntialiasingMask property"; the mask's kCALayerLeftEdge is the minX
/// edge, kCALayerRightEdge maxX, kCALayerBottomEdge minY, kCALayerTopEdge maxY. An aliased edge
/// is rasterized as a GPU rasterizes a quad without multisampling: a pixel is in when its centre
/// is (expected values below from that rule, point in polygon, closed form). Citrine's default
/// is true (documented in `LayerRenderer+EdgeAntialiasing`; iOS's is false unless the Info.plist
/// sets UIViewEdgeAntialiasing).
@Suite(.serialized) struct EdgeAntialiasingTests {
    static let angle: CGFloat = 0.5

    /// A 40 × 40 black square turned by `angle` about the centre of an 80 × 80 canvas.
    static func render(_ configure: (CALayer) -> Void) throws -> Pixmap {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        l.position = CGPoint(x: 40, y: 40)
        l.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        l.transform = CATransform3DMakeRotation(angle, 0, 0, 1)
        configure(l)
        CAMediaClock.setManualTime(0)
        return try CARenderer.image(of: l, size: CGSize(width: 80, height: 80), at: 0, background: nil).pixmap
    }

    /// The signed distance (points, positive inside) of (x, y) from each edge of the turned
    /// square, in the order minX, maxX, minY, maxY edge: the layer-space coordinates of the point.
    static func layerPoint(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let c = cos(-Double(angle)), s = sin(-Double(angle))
        let dx = x - 40, dy = y - 40
        return (dx * c - dy * s + 20, dx * s + dy * c + 20)
    }

    @Test func citrineAntialiasesEdgesByDefault() {
        let l = CALayer()
        #expect(l.allowsEdgeAntialiasing)
        #expect(l.edgeAntialiasingMask == [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge])
    }

    /// With allowsEdgeAntialiasing false every pixel is in (opaque) exactly when its centre lies
    /// in the turned square, else transparent: no partial pixel.
    @Test func withoutEdgeAntialiasingPixelsAreInWhenTheirCentreIs() throws {
        let img = try Self.render { $0.allowsEdgeAntialiasing = false }
        var wrong = 0, partial = 0
        for y in 0..<80 { for x in 0..<80 {
            let p = Self.layerPoint(Double(x) + 0.5, Double(y) + 0.5)
            let inside = p.x >= 0 && p.x <= 40 && p.y >= 0 && p.y <= 40
            let a = img.pixel(x: x, y: y).a
            if a != 0 && a != 255 { partial += 1 }
            if (a >= 128) != inside { wrong += 1 }
        } }
        #expect(partial == 0 && wrong == 0, "partial \(partial), wrong \(wrong)")
        let smooth = try Self.render { _ in }
        var smoothPartial = 0
        for y in 0..<80 { for x in 0..<80 where smooth.pixel(x: x, y: y).a != 0 && smooth.pixel(x: x, y: y).a != 255 { smoothPartial += 1 } }
        #expect(smoothPartial > 100, "the default antialiases: \(smoothPartial) partial pixels")
    }

    /// With only kCALayerLeftEdge (minX) in the mask, partial pixels lie only along that edge:
    /// within a pixel of layer x = 0, with 0 ≤ y ≤ 40.
    @Test func theMaskSelectsTheAntialiasedEdges() throws {
        let img = try Self.render { $0.edgeAntialiasingMask = [.layerLeftEdge] }
        var alongLeft = 0, elsewhere = 0
        for y in 0..<80 { for x in 0..<80 {
            let a = img.pixel(x: x, y: y).a
            guard a != 0 && a != 255 else { continue }
            let p = Self.layerPoint(Double(x) + 0.5, Double(y) + 0.5)
            if abs(p.x) < 1.0 && p.y > -1 && p.y < 41 { alongLeft += 1 } else { elsewhere += 1 }
        } }
        #expect(alongLeft > 20 && elsewhere == 0, "along the minX edge \(alongLeft), elsewhere \(elsewhere)")
    }
}
