import Foundation
import QuartzCore
import Compositor
import Raster
import Testing
import UIKit

/// Shared by the snippet tests: pixels at closed-form points, and the cubic Bézier
/// timing curve solved independently of Citrine (bisection on x(u), then y(u)).
enum Probe {
    /// The pixel covering point `p` (the pixel square [x, x + 1) × [y, y + 1)), rows from the top.
    static func pixel(_ image: CGImage, _ p: CGPoint, scale: CGFloat = 1) -> PremultipliedColor {
        image.pixmap.pixel(x: Int((p.x * scale).rounded(.down)), y: Int((p.y * scale).rounded(.down)))
    }

    /// Alpha 0…1 of the pixel at `p`.
    static func alpha(_ image: CGImage, _ p: CGPoint, scale: CGFloat = 1) -> Double {
        Double(pixel(image, p, scale: scale).a) / 255
    }

    /// y of the timing curve through (0,0), (x1,y1), (x2,y2), (1,1) at x.
    static func bezier(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func b(_ u: Double, _ p1: Double, _ p2: Double) -> Double {
            3 * (1 - u) * (1 - u) * u * p1 + 3 * (1 - u) * u * u * p2 + u * u * u
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<80 {
            let mid = (lo + hi) / 2
            if b(mid, x1, x2) < x { lo = mid } else { hi = mid }
        }
        return b((lo + hi) / 2, y1, y2)
    }

    /// The curve of a tuple of control points.
    static func bezier(_ x: Double, _ c: (Float, Float, Float, Float)) -> Double {
        bezier(x, Double(c.0), Double(c.1), Double(c.2), Double(c.3))
    }

    static func keyPath(_ layer: CALayer, _ key: String, at t: CFTimeInterval) -> CGFloat? {
        CAMediaClock.setManualTime(t)
        return layer.presentation()?.value(forKeyPath: key) as? CGFloat
    }
}

extension SnippetSuite {
    /// Snippets/Indicators.swift: replicated and staggered indicator animations show, at each
    /// time, what their geometry and timing give in closed form.
    @Suite struct IndicatorsTests {
        /// Instance i sits at angle 2πi/n (counterclockwise on screen: the transform turns by
        /// −2π/n) on radius 40 about the centre, (50 − 40 sin θ, 50 − 40 cos θ); its linear fade
        /// has run t − i·D/n, so its alpha is 1 − frac((t − i/12)/1) (Apple, `instanceDelay`).
        @Test func fadeRingDotsFadeOneAfterAnother() throws {
            CAMediaClock.setManualTime(0)
            let ring = makeFadeRingSpinner()
            CATransaction.flush()
            let t = 2.3
            let image = try CARenderer.image(of: ring, size: CGSize(width: 100, height: 100), at: t)
            for i in 0..<12 {
                let theta = 2 * Double.pi * Double(i) / 12
                let centre = CGPoint(x: 50 - 40 * sin(theta), y: 50 - 40 * cos(theta))
                let elapsed = (t - Double(i) / 12)
                let expected = 1 - (elapsed - elapsed.rounded(.down))
                #expect(abs(Probe.alpha(image, centre) - expected) < 0.02, "dot \(i)")
            }
        }

        /// Instance i is turned by iπ/4 (clockwise on screen) and has alpha 1 − i/8; the wheel's
        /// discrete rotation holds each of its 8 values for 0.8/8 s.
        @Test func stepSpinnerFadesByOffsetAndStepsDiscretely() throws {
            CAMediaClock.setManualTime(0)
            let view = StepSpinnerView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
            let image = try CARenderer.image(of: view.layer, size: CGSize(width: 40, height: 40), at: 0)
            for i in [0, 2, 4, 6] {
                let theta = Double.pi / 4 * Double(i)
                let centre = CGPoint(x: 20 + 15 * sin(theta), y: 20 - 15 * cos(theta))
                #expect(abs(Probe.alpha(image, centre) - (1 - Double(i) / 8)) < 0.02, "bar \(i)")
            }
            view.startAnimating()
            CATransaction.flush()
            for t in [0.05, 0.35, 0.79] {
                let step = (t * 8 / 0.8).rounded(.down)
                // Read back from the matrix, the angle is in (−π, π]: compare modulo 2π.
                let angle = try #require(Probe.keyPath(view.replicator, "transform.rotation.z", at: t))
                let difference = remainder(Double(angle) - 2 * .pi * step / 8, 2 * .pi)
                #expect(abs(difference) < 1e-9, "t = \(t)")
            }
        }

        /// Ball i's frame origin is (R(cos a + 1), R(sin a + 1)) with a = iπ/4, R = 25 − 5; a
        /// quarter into its cycle (begun 0.12·i s late) it is halfway along the first linear
        /// segment: opacity 1 + (0.3 − 1)/2 = 0.65, scale 1 + (0.4 − 1)/2 = 0.7. A ball drawn by
        /// a full-circle arc is a filled disc.
        @Test func ballSpinFadeLoaderStaggersItsBalls() throws {
            CAMediaClock.setManualTime(0)
            let host = CALayer()
            host.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
            let balls = addBallSpinFadeLoader(to: host, size: host.bounds.size, color: .black)
            CATransaction.flush()
            for (i, ball) in balls.enumerated() {
                let a = Double.pi / 4 * Double(i)
                #expect(abs(ball.frame.minX - 20 * (cos(a) + 1)) < 1e-9 && abs(ball.frame.minY - 20 * (sin(a) + 1)) < 1e-9)
                #expect(ball.frame.size == CGSize(width: 10, height: 10))
                let t = 0.12 * Double(i) + 0.25
                let opacity = try #require(SnippetSuite.at(t) { ball.presentation()?.opacity })
                let scale = try #require(Probe.keyPath(ball, "transform.scale", at: t))
                #expect(abs(opacity - 0.65) < 1e-6 && abs(scale - 0.7) < 1e-9, "ball \(i)")
            }
            // At 0 s ball 2 (bottom middle) has not begun: opaque, unscaled, a full disc.
            let image = try CARenderer.image(of: host, size: host.bounds.size, at: 0)
            #expect(Probe.alpha(image, CGPoint(x: 25, y: 45)) == 1)
            #expect(Probe.alpha(image, CGPoint(x: 22, y: 42)) == 1 && Probe.alpha(image, CGPoint(x: 27, y: 47)) == 1)
        }

        /// Scale is exactly 0.3 at keyTime 0.3 and 1 at 0 and 1; inside the first segment it is
        /// 1 + (0.3 − 1)·B(u), B the overshooting curve, u the segment's fraction.
        @Test func threeDotPulseFollowsItsTimingFunctions() throws {
            CAMediaClock.setManualTime(0)
            let host = CALayer()
            host.frame = CGRect(x: 0, y: 0, width: 64, height: 20)
            let dots = addThreeDotPulse(to: host, size: host.bounds.size, color: .systemBlue)
            CATransaction.flush()
            #expect(dots.map(\.frame.minX) == [0, 22, 44] && dots[0].frame.width == 20)
            let begin = 0.24   // the second dot
            let atKey = try #require(Probe.keyPath(dots[1], "transform.scale", at: begin + 0.3 * 0.75))
            #expect(abs(atKey - 0.3) < 1e-9)
            let mid = try #require(Probe.keyPath(dots[1], "transform.scale", at: begin + 0.5 * 0.3 * 0.75))
            #expect(abs(Double(mid) - (1 - 0.7 * Probe.bezier(0.5, pulseCurveControlPoints))) < 1e-6)
            // In the second segment (u = 0.5 of 0.7 of the cycle): 0.3 + 0.7·B(0.5).
            let back = try #require(Probe.keyPath(dots[1], "transform.scale", at: begin + (0.3 + 0.35) * 0.75))
            #expect(abs(Double(back) - (0.3 + 0.7 * Probe.bezier(0.5, pulseCurveControlPoints))) < 1e-6)
            // The curve overshoots: y > 1 before the end of the segment.
            #expect(Probe.bezier(0.8, pulseCurveControlPoints) > 1)
        }

        /// Bar i's y-scale at time t is the keyframe value at local time t − 0.1·i; anchored at
        /// its bottom, its top edge sits at 40 − 40·scale.
        @Test func equalizerBarsScaleFromTheirBottomEdge() throws {
            CAMediaClock.setManualTime(0)
            let host = CALayer()
            host.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
            let bars = addEqualizerBars(to: host, count: 5, barSize: CGSize(width: 6, height: 40), gap: 2, color: .black)
            CATransaction.flush()
            let t = 0.35
            for (i, bar) in bars.enumerated() {
                let local = t - 0.1 * Double(i)
                let u = local / 0.5
                // Before its begin time (bar 4) the model value, 1, shows.
                let expected = local < 0 ? 1 : local < 0.5 ? 1 - 0.6 * u : 0.4 + 0.6 * (u - 1)
                let transform = try #require(SnippetSuite.at(t) { bar.presentation()?.transform })
                #expect(abs(Double(transform.m22) - expected) < 1e-9 && transform.m11 == 1, "bar \(i)")
            }
            // Bar 0: scale 1 − 0.6·0.7 = 0.58, top at 40 − 23.2 = 16.8.
            let image = try CARenderer.image(of: host, size: host.bounds.size, at: t)
            #expect(Probe.alpha(image, CGPoint(x: 3, y: 19)) == 1)
            #expect(Probe.alpha(image, CGPoint(x: 3, y: 15)) == 0)
            #expect(Probe.alpha(image, CGPoint(x: 3, y: 37)) == 1)
        }

        /// At group time 0.3 the start's child has not begun (model 0) and the end is B(0.3/0.7);
        /// at 1.1 the end's child is over (model 1) and the start is B(0.6/1.2). The rotation is
        /// linear over the group: 2π·t/1.7.
        @Test func strokeSpinnerRunsItsEndsOnOneClock() throws {
            CAMediaClock.setManualTime(0)
            let ring = makeStrokeSpinner(size: 40, color: .systemBlue)
            CATransaction.flush()
            let c = strokeCurveControlPoints
            let early = try #require(SnippetSuite.at(0.3) { ring.presentation() })
            #expect(early.strokeStart == 0)
            #expect(abs(Double(early.strokeEnd) - Probe.bezier(0.3 / 0.7, c)) < 1e-6)
            let late = try #require(SnippetSuite.at(1.1) { ring.presentation() })
            #expect(late.strokeEnd == 1)
            #expect(abs(Double(late.strokeStart) - Probe.bezier(0.6 / 1.2, c)) < 1e-6)
            let angle = try #require(Probe.keyPath(ring, "transform.rotation.z", at: 0.425))
            #expect(abs(Double(angle) - 2 * .pi * 0.425 / 1.7) < 1e-6)
        }

        /// The stroke (width 20 on radius 10 about (20, 20)) is a disc less its mouth, angles
        /// ±π/4 about 3 o'clock at t = 0; halfway the mouth is shut.
        @Test func pacmanOpensAndShutsItsMouth() throws {
            CAMediaClock.setManualTime(0)
            let pacman = makePacman(size: 40, color: .systemYellow)
            CATransaction.flush()
            let size = CGSize(width: 40, height: 40)
            let open = try CARenderer.image(of: pacman, size: size, at: 0)
            // Angle 0.2 on radius 12: inside the mouth (|angle| < π/4), away from the seam at 0.
            let mouth = CGPoint(x: 20 + 12 * cos(0.2), y: 20 + 12 * sin(0.2))
            #expect(Probe.alpha(open, mouth) == 0)
            #expect(Probe.alpha(open, CGPoint(x: 8, y: 20)) == 1)      // angle π
            #expect(Probe.alpha(open, CGPoint(x: 20, y: 31)) == 1)     // angle π/2
            let shut = try CARenderer.image(of: pacman, size: size, at: 0.25)
            #expect(Probe.alpha(shut, mouth) == 1)
        }

        /// A quarter into its cycle the ring has turned π/2 and shrunk to 0.8 (linear keyframes).
        @Test func clipRotateRingTurnsAndShrinks() throws {
            CAMediaClock.setManualTime(0)
            let ring = makeClipRotateRing(size: 30, color: .black)
            CATransaction.flush()
            let angle = try #require(Probe.keyPath(ring, "transform.rotation.z", at: 0.75 / 4))
            let scale = try #require(Probe.keyPath(ring, "transform.scale", at: 0.75 / 4))
            #expect(abs(angle - .pi / 2) < 1e-6 && abs(scale - 0.8) < 1e-6)
        }

        /// `NSCoder.cgPoint(for:)` reads "{x,y}" (Apple's example "{3.0,2.5}"); a malformed
        /// string gives `.zero`. The tour is at stop k at keyTime k.
        @Test func triangleTourVisitsTheCornersAtItsKeyTimes() throws {
            #expect(NSCoder.cgPoint(for: "{3.0,2.5}") == CGPoint(x: 3, y: 2.5))
            #expect(NSCoder.cgPoint(for: "three, two") == .zero)
            CAMediaClock.setManualTime(0)
            let ball = CALayer()
            ball.add(makeTriangleTourAnimation(), forKey: "tour")
            CATransaction.flush()
            for (k, time) in [(1, 0.66), (2, 1.32)] {
                let stop = NSCoder.cgPoint(for: triangleTourStops[k])
                let m = try #require(SnippetSuite.at(time) { ball.presentation()?.transform })
                #expect(abs(m.m41 - stop.x) < 1e-6 && abs(m.m42 - stop.y) < 1e-6, "stop \(k)")
            }
        }

        /// The presented path is rectangle k at keyTime k, and halfway between two keys its
        /// height is the mean of theirs.
        @Test func pathEqualizerInterpolatesItsRectangles() throws {
            CAMediaClock.setManualTime(0)
            let bar = makePathEqualizerBar(width: 8)
            CATransaction.flush()
            for (k, h) in pathEqualizerHeights.enumerated() where k < 3 {
                let box = try #require(SnippetSuite.at(Double(k)) { bar.presentation()?.path?.boundingBox })
                #expect(abs(box.height - h) < 1e-9 && abs(box.maxY - 40) < 1e-9, "key \(k)")
            }
            let half = try #require(SnippetSuite.at(1.5) { bar.presentation()?.path?.boundingBox })
            #expect(abs(half.height - 25) < 1e-9 && abs(half.minY - 15) < 1e-9)
        }

        /// A repeated key time is a jump: 0 just before 30 % of the cycle, 0.6 just after; then
        /// linear to 1.2. Each ring starts 0.2 s after the previous; each fades to 0.
        @Test func rippleRingsJumpAtTheirRepeatedKeyTime() throws {
            CAMediaClock.setManualTime(0)
            let host = CALayer()
            let rings = addRippleRings(to: host, size: 40, color: .black)
            CATransaction.flush()
            let d = 1.25
            for (i, ring) in rings.enumerated() {
                let begin = 0.2 * Double(i)
                #expect(try #require(Probe.keyPath(ring, "transform.scale", at: begin + 0.29 * d)) == 0)
                let after = try #require(Probe.keyPath(ring, "transform.scale", at: begin + 0.31 * d))
                #expect(abs(after - (0.6 + 0.6 * 0.01 / 0.7)) < 1e-6)
                let mid = try #require(Probe.keyPath(ring, "transform.scale", at: begin + 0.65 * d))
                #expect(abs(mid - 0.9) < 1e-6)
                let end = try #require(SnippetSuite.at(begin + 0.999 * d) { ring.presentation()?.opacity })
                #expect(end < 0.01)
            }
        }

        /// At the key times the presented transform is the keyframe's; a quarter through, the
        /// square has turned π/2 about x (its rows collapse: m22 = cos π/2 = 0).
        @Test func flipSquareTurnsOverItsAxes() throws {
            CAMediaClock.setManualTime(0)
            let container = CALayer()
            container.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
            let square = makeFlipSquare(in: container, size: 30)
            CATransaction.flush()
            #expect(container.sublayerTransform.m34 == -1.0 / 120)
            let half = try #require(SnippetSuite.at(1.5) { square.presentation()?.transform })
            #expect(abs(half.m11 - 1) < 1e-6 && abs(half.m22 + 1) < 1e-6 && abs(half.m33 + 1) < 1e-6)
            let quarter = try #require(SnippetSuite.at(0.75) { square.presentation()?.transform })
            #expect(abs(quarter.m11 - 1) < 1e-6 && abs(quarter.m22) < 1e-6)
            let end = try #require(SnippetSuite.at(2.999_999) { square.presentation()?.transform })
            // Rx(π)·Ry(π) = diag(−1, −1, 1).
            #expect(abs(end.m11 + 1) < 1e-4 && abs(end.m22 + 1) < 1e-4 && abs(end.m33 - 1) < 1e-4)
        }
    }
}
