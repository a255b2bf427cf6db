import Compositor
import QuartzCore
import Raster
import Testing

/// `cornerCurve = .continuous`. Apple publishes no formula; the expected
/// shape is the community reconstruction measured against iOS 7+ `UIBezierPath(roundedRect:
/// cornerRadius:)` (PaintCode, "Drawing Code for iOS 7 Rounded Rectangles"; the control points as
/// circulated in open-source ports such as github.com/LinBowen9656/ChainableUIKit
/// `UIBezierPath+ContinuousCorner.swift`): each corner reaches 1.52866483·r along both edges,
/// and the radius is clamped to min(w, h) / (2 · 1.52866483). The expected area each corner cuts
/// off is integrated here from those published points (Green's theorem over the cubics, sampled
/// finely) — not from the renderer's path.
@Suite(.serialized) struct CornerCurveTests {
    /// The published corner for r = 1 as seen from the corner (a along one edge, b along the
    /// other): start, then per element a line's end or a cubic's (c1, c2, end).
    static let published: [[(Double, Double)]] = [
        [(1.52866483, 0)],
        [(1.08849299, 0), (0.86840701, 0), (0.66993427, 0.06549600)],
        [(0.63149399, 0.07491100)],
        [(0.37282401, 0.16906001), (0.16906001, 0.37282401), (0.07491100, 0.63149399)],
        [(0.06549600, 0.66993427)],
        [(0, 0.86840701), (0, 1.08849299), (0, 1.52866483)],
    ]

    /// Area between one corner of radius r and the square corner it rounds: the polygon
    /// (corner, the curve's points) integrated with the shoelace formula over 20 000 samples.
    static func cutArea(radius r: Double) -> Double {
        var points: [(Double, Double)] = [(0, 0)]
        var last = published[0][0]
        points.append(last)
        for element in published.dropFirst() {
            if element.count == 1 {
                last = element[0]
                points.append(last)
                continue
            }
            let (p0, p1, p2, p3) = (last, element[0], element[1], element[2])
            for i in 1...20_000 {
                let t = Double(i) / 20_000, u = 1 - t
                let a = u * u * u * p0.0 + 3 * u * u * t * p1.0 + 3 * u * t * t * p2.0 + t * t * t * p3.0
                let b = u * u * u * p0.1 + 3 * u * u * t * p1.1 + 3 * u * t * t * p2.1 + t * t * t * p3.1
                points.append((a, b))
            }
            last = p3
        }
        var twice = 0.0
        for i in 0..<points.count {
            let p = points[i], q = points[(i + 1) % points.count]
            twice += p.0 * q.1 - q.0 * p.1
        }
        return abs(twice) / 2 * r * r
    }

    static func coverage(_ l: CALayer, size: CGSize) throws -> (area: Double, image: Pixmap) {
        CAMediaClock.setManualTime(0)
        let img = try CARenderer.image(of: l, size: size, at: 0, background: nil).pixmap
        var area = 0.0
        for y in 0..<img.height { for x in 0..<img.width { area += Double(img.pixel(x: x, y: y).a) / 255 } }
        return (area, img)
    }

    static func layer(_ w: CGFloat, _ h: CGFloat, radius: CGFloat, curve: CALayerCornerCurve) -> CALayer {
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: w, height: h)
        l.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        l.cornerRadius = radius
        l.cornerCurve = curve
        return l
    }

    /// A 100 × 80 layer with radius 20: the four continuous corners cut off 4 · cutArea(20) of
    /// the rectangle (0.2247·r² each, 4.7 % more than a circular corner's (1 − π/4)·r²).
    @Test func continuousCornersCutThePublishedArea() throws {
        let (area, img) = try Self.coverage(Self.layer(100, 80, radius: 20, curve: .continuous), size: CGSize(width: 100, height: 80))
        let expected = 8000 - 4 * Self.cutArea(radius: 20)
        #expect(abs(area - expected) < 2, "covered \(area), expected \(expected)")
        // The curve leaves the top edge 1.5287 · 20 = 30.6 pt from the corner (and very flatly).
        #expect(img.pixel(x: 31, y: 0).a >= 254 && img.pixel(x: 50, y: 0).a == 255)
        let (circular, _) = try Self.coverage(Self.layer(100, 80, radius: 20, curve: .circular), size: CGSize(width: 100, height: 80))
        #expect(abs(circular - (8000 - 4 * (1 - Double.pi / 4) * 400)) < 2)
    }

    /// The radius is clamped so that two corners meet at most at a side's middle: a 40 × 40
    /// layer with radius 100 gets r = 40 / (2 · 1.52866483) = 13.08.
    @Test func largeRadiusIsClamped() throws {
        let (area, img) = try Self.coverage(Self.layer(40, 40, radius: 100, curve: .continuous), size: CGSize(width: 40, height: 40))
        let r = 40 / (2 * 1.52866483)
        let expected = 1600 - 4 * Self.cutArea(radius: r)
        #expect(abs(area - expected) < 2, "covered \(area), expected \(expected)")
        #expect(img.pixel(x: 19, y: 0).a >= 250 && img.pixel(x: 0, y: 19).a >= 250)
    }

    /// The masksToBounds clip (here of contents) and the border follow the continuous curve.
    @Test func clipAndBorderFollowTheCurve() throws {
        let pm = try Pixmap(width: 4, height: 4)
        pm.fill(with: PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        let l = Self.layer(100, 80, radius: 20, curve: .continuous)
        l.backgroundColor = nil
        l.contents = CGImage(pixmap: pm)
        l.masksToBounds = true
        let (clipped, _) = try Self.coverage(l, size: CGSize(width: 100, height: 80))
        let expected = 8000 - 4 * Self.cutArea(radius: 20)
        #expect(abs(clipped - expected) < 2, "clipped contents cover \(clipped), expected \(expected)")
        // The border is the band between the outline and the outline inset by the width with
        // radius r − width (concentric, as a circular border's inner edge): 4 wide, its area is
        // (100·80 − 4·cut(20)) − (92·72 − 4·cut(16)).
        let b = Self.layer(100, 80, radius: 20, curve: .continuous)
        b.backgroundColor = nil
        b.borderWidth = 4
        b.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let (ring, ringImage) = try Self.coverage(b, size: CGSize(width: 100, height: 80))
        let expectedRing = (8000 - 4 * Self.cutArea(radius: 20)) - (92 * 72 - 4 * Self.cutArea(radius: 16))
        #expect(abs(ring - expectedRing) < 2, "ring \(ring), expected \(expectedRing)")
        #expect(ringImage.pixel(x: 50, y: 40).a == 0)
    }
}
