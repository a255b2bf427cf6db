import Testing
import QuartzCore

/// The seed tutorials' examples as numbers (seeds 000–003).
extension MediaClockSuite {
    @Suite struct SeedBehaviourTests {
        /// Seed 003: the petal's delegate stores the end value on the animation with
        /// setValue(_:forKey:) and, in animationDidStop, sets the model inside a transaction with
        /// actions disabled, so the layer stays at the end instead of jumping back.
        final class PetalDelegate: CAAnimationDelegate {
            let layer: CALayer
            var stops: [(String?, Bool)] = []
            var starts = 0
            init(layer: CALayer) { self.layer = layer }
            func animationDidStart(_ anim: CAAnimation) { starts += 1 }
            func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
                stops.append((anim.value(forKey: "tag") as? String, flag))
                CATransaction.begin()
                CATransaction.setDisableActions(true)
                layer.position = anim.value(forKey: "endPosition") as! CGPoint
                CATransaction.commit()
            }
        }

        @Test func petalStaysWhereTheAnimationEnds() {
            CAMediaClock.setManualTime(0)
            let petal = CALayer()
            petal.position = CGPoint(x: 50, y: 150)
            CATransaction.flush()
            let end = CGPoint(x: 50, y: 460)
            let fall = CABasicAnimation(keyPath: "position")
            fall.toValue = end
            fall.duration = 5
            fall.setValue(end, forKey: "endPosition")
            fall.setValue("fall", forKey: "tag")
            let delegate = PetalDelegate(layer: petal)
            fall.delegate = delegate
            petal.add(fall, forKey: "fall")
            CATransaction.flush()
            CAMediaClock.setManualTime(2.5)
            #expect(petal.presentation()!.position == CGPoint(x: 50, y: 305))
            #expect(delegate.starts == 1)
            CAMediaClock.setManualTime(6)
            CATransaction.flush()
            #expect(delegate.stops.count == 1 && delegate.stops[0].0 == "fall" && delegate.stops[0].1)
            #expect(petal.position == end)
            #expect(petal.presentation()!.position == end)   // no implicit animation back
            #expect(petal.animationKeys() == nil)
        }

        @Test func replacingAnAnimationStopsTheOldOneUnfinished() {
            CAMediaClock.setManualTime(0)
            let layer = CALayer()
            CATransaction.flush()
            let d = PetalDelegate(layer: layer)
            let a = CABasicAnimation(keyPath: "position")
            a.toValue = CGPoint(x: 1, y: 1); a.duration = 10; a.delegate = d
            a.setValue(CGPoint(x: 9, y: 9), forKey: "endPosition")
            layer.add(a, forKey: "k")
            layer.add(CABasicAnimation(keyPath: "opacity"), forKey: "k")
            #expect(d.stops.count == 1 && d.stops[0].1 == false)
            #expect(layer.animationKeys() == ["k"])
        }

        @Test func implicitAnimationFromThePresentationValue() {
            CAMediaClock.setManualTime(0)
            let layer = CALayer()
            layer.opacity = 1
            CATransaction.flush()                 // now committed: changes animate implicitly
            layer.opacity = 0
            CATransaction.flush()
            #expect(layer.animationKeys() == ["opacity"])
            // Default duration 0.25 s with the default curve (0.25, 0.1, 0.25, 1).
            CAMediaClock.setManualTime(0.125)
            let eased = CAMediaTimingFunction(name: .default)._solve(forInput: 0.5)
            #expect(abs(Double(layer.presentation()!.opacity) - (1 - eased)) < 1e-6)
            // disableActions suppresses the action.
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            layer.position = CGPoint(x: 10, y: 10)
            CATransaction.commit()
            #expect(layer.animation(forKey: "position") == nil)
            // NSNull in `actions` stops the search.
            layer.actions = ["bounds": NSNull()]
            layer.bounds = CGRect(x: 0, y: 0, width: 5, height: 5)
            #expect(layer.animation(forKey: "bounds") == nil)
            // A layer never committed does not animate.
            let fresh = CALayer()
            fresh.opacity = 0.5
            #expect(fresh.animationKeys() == nil)
        }

        @Test func transactionDurationAndNesting() {
            CAMediaClock.setManualTime(0)
            let layer = CALayer()
            CATransaction.flush()
            CATransaction.begin()
            CATransaction.setAnimationDuration(2)
            CATransaction.begin()
            #expect(CATransaction.animationDuration() == 2)      // inherited
            CATransaction.setAnimationDuration(5)
            CATransaction.commit()
            #expect(CATransaction.animationDuration() == 2)      // restored
            layer.position = CGPoint(x: 100, y: 0)
            CATransaction.commit()
            #expect(layer.animation(forKey: "position")?.duration == 2)
            #expect(CATransaction.animationDuration() == 0.25)
        }

        /// Seed 000: the volume bars replicate one bar 3 times, 45 pt apart, each instance's
        /// animation 0.1 s later; instance i's colour is instanceColor + i·offsets.
        @Test func replicatorInstanceFormulas() {
            let r = CAReplicatorLayer()
            r.instanceCount = 3
            r.instanceTransform = CATransform3DMakeTranslation(45, 0, 0)
            r.instanceDelay = 0.1
            r.instanceColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            r.instanceGreenOffset = -0.1
            r.instanceRedOffset = -0.2
            let c2 = r._instanceColorComponents(2)
            #expect(abs(c2.r - 0.6) < 1e-6 && c2.g == 0 && c2.b == 0 && c2.a == 1)
            #expect(r.value(forKey: "instanceCount") as? Int == 3)
        }

        /// Seed 001: the sticky bubble's points. For circle 1 at (x1, y1) radius r1 and circle 2
        /// at (x2, y2) radius r2, d = distance, cosθ = (y2 − y1)/d, sinθ = (x2 − x1)/d;
        /// A = (x1 − r1·cosθ, y1 + r1·sinθ), B = (x1 + r1·cosθ, y1 − r1·sinθ),
        /// C = (x2 + r2·cosθ, y2 − r2·sinθ), D = (x2 − r2·cosθ, y2 + r2·sinθ),
        /// O = A + d/2·(sinθ, cosθ), P = B + d/2·(sinθ, cosθ). The shape layer's path is
        /// A→B, quad to C around P, D, quad back to A around O.
        @Test func stickyBubblePath() {
            let (x1, y1, r1) = (100.0, 100.0, 20.0), (x2, y2, r2) = (160.0, 180.0, 30.0)
            let d = ((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1)).squareRoot()   // 100
            let cosT = (y2 - y1) / d, sinT = (x2 - x1) / d                            // 0.8, 0.6
            let a = CGPoint(x: x1 - r1 * cosT, y: y1 + r1 * sinT)
            let b = CGPoint(x: x1 + r1 * cosT, y: y1 - r1 * sinT)
            let c = CGPoint(x: x2 + r2 * cosT, y: y2 - r2 * sinT)
            let dd = CGPoint(x: x2 - r2 * cosT, y: y2 + r2 * sinT)
            let o = CGPoint(x: a.x + d / 2 * sinT, y: a.y + d / 2 * cosT)
            let p = CGPoint(x: b.x + d / 2 * sinT, y: b.y + d / 2 * cosT)
            #expect(a == CGPoint(x: 84, y: 112) && b == CGPoint(x: 116, y: 88))
            #expect(c == CGPoint(x: 184, y: 162) && dd == CGPoint(x: 136, y: 198))
            #expect(o == CGPoint(x: 114, y: 152) && p == CGPoint(x: 146, y: 128))
            let path = CGMutablePath()
            path.move(to: a); path.addLine(to: b)
            path.addQuadCurve(to: c, control: p)
            path.addLine(to: dd)
            path.addQuadCurve(to: a, control: o)
            path.closeSubpath()
            let shape = CAShapeLayer()
            shape.path = path
            shape.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            #expect(shape.path!.contains(CGPoint(x: 130, y: 140)))     // between the circles
            #expect(!shape.path!.contains(CGPoint(x: 100, y: 180)))
            #expect(shape.strokeEnd == 1 && shape.lineWidth == 1)
        }
    }
}
