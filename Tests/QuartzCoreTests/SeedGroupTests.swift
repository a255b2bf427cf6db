import Testing
import QuartzCore

/// Seed 003 ("CAAnimationGroup动画组"): a petal at (50, 150) gets a group, delayed 5 s, of a
/// rotation to 3π/2 (autoreverses, repeats forever) and a keyframe path to (55, 400), duration
/// 10 s; the group's delegate writes the end values to the model with actions disabled.
/// Seed 000: a replicator's instance i runs its sublayers' animations i·instanceDelay late.
extension MediaClockSuite {
    @Suite struct SeedGroupTests {
        final class GroupDelegate: CAAnimationDelegate {
            let layer: CALayer
            var stops: [Bool] = []
            init(layer: CALayer) { self.layer = layer }
            func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
                stops.append(flag)
                let group = anim as! CAAnimationGroup
                let toValue = group.animations![0].value(forKey: "KCBasicAnimationProperty_ToValue") as! CGFloat
                let end = group.animations![1].value(forKey: "KCKeyframeAnimationProperty_EndPosition") as! CGPoint
                CATransaction.begin()
                CATransaction.setDisableActions(true)
                layer.position = end
                layer.transform = CATransform3DMakeRotation(toValue, 0, 0, 1)
                CATransaction.commit()
            }
        }

        @Test func groupDelegateSetsTheFinalModelValues() {
            let now = 1000.0
            CAMediaClock.setManualTime(now)
            let root = CALayer()
            let petal = CALayer()
            petal.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
            petal.position = CGPoint(x: 50, y: 150)
            root.addSublayer(petal)
            CATransaction.flush()

            let rotation = CABasicAnimation(keyPath: "transform.rotation.z")
            rotation.toValue = NSNumber(value: Float.pi * 1.5)
            rotation.autoreverses = true
            rotation.repeatCount = .infinity
            rotation.isRemovedOnCompletion = false
            rotation.setValue(CGFloat.pi * 1.5, forKey: "KCBasicAnimationProperty_ToValue")
            let move = CAKeyframeAnimation(keyPath: "position")
            let path = CGMutablePath()
            path.move(to: petal.position)
            path.addCurve(to: CGPoint(x: 55, y: 400), control1: CGPoint(x: 160, y: 280), control2: CGPoint(x: -30, y: 300))
            move.path = path
            move.setValue(CGPoint(x: 55, y: 400), forKey: "KCKeyframeAnimationProperty_EndPosition")
            let group = CAAnimationGroup()
            group.animations = [rotation, move]
            let delegate = GroupDelegate(layer: petal)
            group.delegate = delegate
            group.duration = 10
            group.beginTime = CACurrentMediaTime() + 5
            petal.add(group, forKey: nil)
            CATransaction.flush()

            // During the 5 s delay (fill mode removed) the petal shows its model values.
            CAMediaClock.setManualTime(now + 4)
            #expect(petal.presentation()!.position == CGPoint(x: 50, y: 150))
            #expect(delegate.stops.isEmpty)
            // Past the end: stopped, finished, model at the end, no implicit animation, no jump.
            CAMediaClock.setManualTime(now + 15.5)
            let p = petal.presentation()!
            #expect(delegate.stops == [true])
            #expect(petal.position == CGPoint(x: 55, y: 400) && p.position == CGPoint(x: 55, y: 400))
            // A 3π/2 turn about z: x ↦ (cos, sin) = (0, −1).
            #expect(abs(p.transform.m11) < 1e-9 && abs(p.transform.m12 + 1) < 1e-9)
            #expect(petal.animationKeys() == nil)
        }

        /// Instance i of a replicator evaluates its sublayers at now − i·instanceDelay: with an
        /// opacity animation 0 → 1 over 1 s (linear) and instanceDelay 0.1, at 0.5 s instance 0
        /// shows 0.5, instance 2 shows 0.3.
        @Test func replicatorInstanceDelayShiftsEachInstance() {
            let now = 2000.0
            CAMediaClock.setManualTime(now)
            let replicator = CAReplicatorLayer()
            replicator.instanceCount = 3
            replicator.instanceDelay = 0.1
            let bar = CALayer()
            replicator.addSublayer(bar)
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = 0
            a.toValue = 1
            a.duration = 1
            a.timingFunction = CAMediaTimingFunction(name: .linear)
            bar.add(a, forKey: "fade")
            CATransaction.flush()
            let t = now + 0.5
            for i in 0..<3 {
                let shown = bar._presentation(atMediaTime: t - Double(i) * replicator.instanceDelay)!.opacity
                #expect(abs(Double(shown) - (0.5 - 0.1 * Double(i))) < 1e-6)
            }
        }
    }
}
