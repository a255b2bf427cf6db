import Testing
import QuartzCore

/// Keyframe calculation modes and rotation mode against closed forms.
extension MediaClockSuite {
    @Suite struct KeyframeModesTests {
        static func present(_ anim: CAAnimation, at t: CFTimeInterval) -> CALayer {
            CAMediaClock.setManualTime(500)
            let layer = CALayer()
            CATransaction.flush()
            layer.add(anim, forKey: "k")
            CATransaction.flush()
            CAMediaClock.setManualTime(500 + t)
            return layer.presentation()!
        }

        @Test func cubicModeIsCatmullRom() {
            // Values 0, 10, 0 over 2 s: at 0.5 s (t = 0.5 in the first segment) the Catmull-Rom
            // spline with end points repeated has tangents m1 = (10 − 0)/2 = 5 at 0 and
            // m2 = (0 − 0)/2 = 0 at 10, so Hermite gives 0.125·5 + 0.5·10 = 5.625.
            let k = CAKeyframeAnimation(keyPath: "position.x")
            k.values = [0, 10, 0]
            k.calculationMode = .cubic
            k.duration = 2
            #expect(abs(Self.present(k, at: 0.5).position.x - 5.625) < 1e-9)
        }

        @Test func rotateAutoFollowsTheTangent() {
            // Along the line from (0, 0) to (100, 100) the tangent angle is π/4.
            let path = CGMutablePath()
            path.move(to: .zero)
            path.addLine(to: CGPoint(x: 100, y: 100))
            let k = CAKeyframeAnimation(keyPath: "position")
            k.path = path
            k.rotationMode = .rotateAuto
            k.duration = 1
            let p = Self.present(k, at: 0.5)
            #expect(abs(p.position.x - 50) < 1e-9 && abs(p.position.y - 50) < 1e-9)
            let angle = p.value(forKeyPath: "transform.rotation.z") as! CGFloat
            #expect(abs(angle - .pi / 4) < 1e-9)
        }

        @Test func timingFunctionsPerSegment() {
            // Two segments, the first eased in: at a quarter of the duration (half of segment 1)
            // the value is 10 · easeIn(0.5) = 3.15357 (Apple's easeIn at 0.5).
            let k = CAKeyframeAnimation(keyPath: "position.x")
            k.values = [0, 10, 20]
            k.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .linear)]
            k.duration = 4
            #expect(abs(Self.present(k, at: 1).position.x - 3.15357) < 1e-5)
        }
    }
}
