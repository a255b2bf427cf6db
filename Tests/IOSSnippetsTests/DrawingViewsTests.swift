import Foundation
import QuartzCore
import Compositor
import Raster
import Testing
import UIKit

extension SnippetSuite {
    /// Snippets/DrawingViews.swift: views that draw in `draw(_:)` show, at closed-form points,
    /// what their paths cover (the view's y-down coordinates: angles grow clockwise on screen).
    @Suite struct DrawingViewsTests {
        static func render(_ view: UIView, scale: CGFloat = 1) throws -> CGImage {
            try CARenderer.image(of: view.layer, size: view.bounds.size, at: 0, scale: scale)
        }

        static func point(_ c: CGPoint, _ angle: Double, _ r: Double) -> CGPoint {
            CGPoint(x: c.x + r * cos(angle), y: c.y + r * sin(angle))
        }

        static func same(_ a: CGRect?, _ b: CGRect) -> Bool {
            guard let a else { return false }
            return [a.minX - b.minX, a.minY - b.minY, a.width - b.width, a.height - b.height].allSatisfy { abs($0) < 1e-9 }
        }

        static func rgb(_ p: PremultipliedColor) -> [Int] { [Int(p.r), Int(p.g), Int(p.b), Int(p.a)] }

        static func close(_ p: PremultipliedColor, _ expected: [Int], _ tolerance: Int = 2) -> Bool {
            zip(rgb(p), expected).allSatisfy { abs($0 - $1) <= tolerance }
        }

        /// Track: radius 45, width 10, from 3π/4 clockwise through the top to π/4 (a 3π/2 sweep,
        /// open at the bottom). Counter 4 of 8 fills it to 3π/4 + 3π/4 = 3π/2 (the top).
        @Test func gaugeDrawsItsTrackAndRedrawsForTheCounter() throws {
            let gauge = GaugeView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            let c = CGPoint(x: 50, y: 50)
            var image = try Self.render(gauge)
            #expect(Self.close(Probe.pixel(image, Self.point(c, .pi, 45)), [209, 209, 214, 255]))
            #expect(Probe.alpha(image, Self.point(c, .pi / 2, 45)) == 0)
            #expect(gauge.drawCount == 1)
            gauge.counter = 4
            image = try Self.render(gauge)
            #expect(gauge.drawCount == 2)
            #expect(Self.close(Probe.pixel(image, Self.point(c, .pi, 45)), [255, 149, 0, 255]))
            #expect(Self.close(Probe.pixel(image, Self.point(c, 1.4 * .pi, 45)), [255, 149, 0, 255]))
            #expect(Self.close(Probe.pixel(image, Self.point(c, 0, 45)), [209, 209, 214, 255]))
        }

        /// 30 %: the slice from −π/2 clockwise to −π/2 + 0.6π; `.redraw` redraws on a resize.
        @Test func pieFillsItsSliceAndRedrawsOnResize() throws {
            let pie = PieProgressView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            pie.progress = 0.3
            let c = CGPoint(x: 50, y: 50)
            let image = try Self.render(pie)
            #expect(Self.close(Probe.pixel(image, Self.point(c, -.pi / 2 + 0.3 * .pi, 30)), [52, 199, 89, 255]))
            #expect(Probe.alpha(image, Self.point(c, .pi / 2, 30)) == 0)
            #expect(Probe.alpha(image, Self.point(c, -.pi / 2 + 0.7 * .pi, 30)) == 0)
            let draws = pie.drawCount
            pie.frame = CGRect(x: 0, y: 0, width: 120, height: 120)
            _ = try Self.render(pie)
            #expect(pie.drawCount == draws + 1)
        }

        /// Capsule inset by 1 in 200 × 40, filled to x = 100 inside it; corners outside the caps
        /// stay clear, the outline is dark grey (white 1/3).
        @Test func thermometerFillsInsideItsCapsule() throws {
            let thermometer = CapsuleThermometerView(frame: CGRect(x: 0, y: 0, width: 200, height: 40))
            thermometer.isOpaque = false
            let image = try Self.render(thermometer)
            #expect(Self.close(Probe.pixel(image, CGPoint(x: 90, y: 20)), [255, 59, 48, 255]))
            #expect(Self.close(Probe.pixel(image, CGPoint(x: 8, y: 20)), [255, 59, 48, 255]))
            #expect(Probe.alpha(image, CGPoint(x: 110, y: 20)) == 0)
            #expect(Probe.alpha(image, CGPoint(x: 1, y: 1)) == 0 && Probe.alpha(image, CGPoint(x: 197, y: 37)) == 0)
            #expect(Self.close(Probe.pixel(image, CGPoint(x: 150, y: 1)), [85, 85, 85, 255]))
        }

        /// Along the circle (radius 30, from angle 0 clockwise on screen) the stroke is on where
        /// arc length mod 9 < 6: on at s = 3 and s = 93 (the far side), off at s = 7.5 and 97.5.
        @Test func dashedRingFollowsItsPatternRoundTheWholeCircle() throws {
            let ring = DashedRingView(frame: CGRect(x: 0, y: 0, width: 80, height: 80))
            ring.isOpaque = false
            let image = try Self.render(ring)
            let c = CGPoint(x: 40, y: 40)
            for (s, on) in [(3.0, true), (7.5, false), (93.0, true), (97.5, false), (174.0, true)] {
                let a = Probe.alpha(image, Self.point(c, s / 30, 30))
                #expect(on ? a > 0.9 : a == 0, "s = \(s)")
            }
        }

        /// The gradient runs from the first colour at y = 0 to the second at y = 60, the middle
        /// row is their mean; the rounded corners are clipped away.
        @Test func gradientCardIsClippedAndInterpolated() throws {
            let card = GradientCardView(frame: CGRect(x: 0, y: 0, width: 100, height: 60))
            card.isOpaque = false
            let image = try Self.render(card)
            #expect(Self.close(Probe.pixel(image, CGPoint(x: 50, y: 0)), [0, 122, 255, 255], 3))
            #expect(Self.close(Probe.pixel(image, CGPoint(x: 50, y: 59)), [175, 82, 222, 255], 3))
            // Row 29's centre is at y = 29.5: t = 29.5/60.
            let t = 29.5 / 60
            let mid = [0 + 175 * t, 122 - 40 * t, 255 - 33 * t].map { Int($0.rounded()) } + [255]
            #expect(Self.close(Probe.pixel(image, CGPoint(x: 50, y: 29)), mid, 3))
            #expect(Probe.alpha(image, CGPoint(x: 0, y: 0)) == 0 && Probe.alpha(image, CGPoint(x: 99, y: 59)) == 0)
        }

        /// The text's origin is the centre less half its measured size, and its ink lies inside
        /// that box; the ring (radius 47, width 6) is blue at the top.
        @Test func percentIsCentredInTheRing() throws {
            let view = PercentRingView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            view.isOpaque = false
            let image = try Self.render(view)
            let size = ("42 %" as NSString).size(withAttributes: [.font: UIFont.systemFont(ofSize: 17)])
            #expect(view.textOrigin == CGPoint(x: 50 - size.width / 2, y: 50 - size.height / 2))
            #expect(Self.close(Probe.pixel(image, CGPoint(x: 50, y: 3)), [0, 122, 255, 255]))
            var inkInside = 0, inkOutside = 0
            // Inside the ring's inner edge (radius 44): the square 25…75 holds only the text.
            for y in 25..<75 {
                for x in 25..<75 where image.pixmap.pixel(x: x, y: y).a > 127 {
                    let box = CGRect(origin: view.textOrigin, size: size).insetBy(dx: -1, dy: -1)
                    if box.contains(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)) { inkInside += 1 } else { inkOutside += 1 }
                }
            }
            #expect(inkInside > 20 && inkOutside == 0)
        }

        /// The shape layer is the view's layer; its oval follows the bounds inset by half the
        /// line width after each layout.
        @Test func shapeBackedViewLaysOutItsPath() throws {
            let view = OvalOutlineView(frame: CGRect(x: 0, y: 0, width: 60, height: 40))
            view.layoutIfNeeded()
            #expect(view.layer is CAShapeLayer)
            #expect(Self.same(view.shapeLayer.path?.boundingBox, CGRect(x: 2, y: 2, width: 56, height: 36)))
            view.frame = CGRect(x: 10, y: 10, width: 100, height: 50)
            view.layoutIfNeeded()
            #expect(Self.same(view.shapeLayer.path?.boundingBox, CGRect(x: 2, y: 2, width: 96, height: 46)))
            view.lineWidth = 10
            view.layoutIfNeeded()
            #expect(Self.same(view.shapeLayer.path?.boundingBox, CGRect(x: 5, y: 5, width: 90, height: 40)))
            #expect(view.shapeLayer.lineWidth == 10)
        }

        /// Dots of diameter 8 every 16 points, drawn as full-circle arcs; the current one in the
        /// tint colour (systemBlue by default), the others systemGray3.
        @Test func pageDotsDrawFullCircles() throws {
            let dots = PageDotsView(frame: CGRect(x: 0, y: 0, width: 80, height: 10))
            dots.isOpaque = false
            var image = try Self.render(dots)
            #expect(Self.close(Probe.pixel(image, dots.dotCentre(0)), [0, 122, 255, 255]))
            #expect(Self.close(Probe.pixel(image, dots.dotCentre(1)), [199, 199, 204, 255]))
            #expect(Self.close(Probe.pixel(image, CGPoint(x: 1.5, y: 4)), [0, 122, 255, 255]))
            #expect(Probe.alpha(image, CGPoint(x: 12, y: 5)) == 0)
            dots.currentPage = 2
            image = try Self.render(dots)
            #expect(Self.close(Probe.pixel(image, dots.dotCentre(2)), [0, 122, 255, 255]))
            #expect(Self.close(Probe.pixel(image, dots.dotCentre(0)), [199, 199, 204, 255]))
        }
    }
}
