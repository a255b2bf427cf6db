import Testing
import QuartzCore

/// Layer time conversion and animation timing, from Apple's CAMediaTiming definitions
/// (local = (parent − beginTime) · speed + timeOffset) and the numbers in each test's comment.
extension MediaClockSuite {
    @Suite struct LayerTimingTests {
        @Test func convertTimeThroughTheHierarchy() {
            let root = CALayer(), mid = CALayer(), leaf = CALayer()
            mid.beginTime = 2; mid.speed = 3; mid.timeOffset = 0.25
            leaf.beginTime = 1; leaf.speed = 2; leaf.timeOffset = 0.5
            root.addSublayer(mid); mid.addSublayer(leaf)
            #expect(leaf.convertTime(10, from: mid) == 18.5)
            #expect(leaf.convertTime(10, from: nil) == 47)
            #expect(abs(mid.convertTime(18.5, from: leaf) - 10) < 1e-12)
        }

        static func animatedLayer(_ anim: CAAnimation, at start: CFTimeInterval = 100) -> CALayer {
            CAMediaClock.setManualTime(start)
            let layer = CALayer()
            CATransaction.flush()
            layer.add(anim, forKey: "a")
            CATransaction.flush()
            return layer
        }

        static func x(_ layer: CALayer, at t: CFTimeInterval) -> CGFloat {
            CAMediaClock.setManualTime(t)
            return layer.presentation()!.position.x
        }

        @Test func basicAnimationIsLinearWithoutTimingFunction() {
            let a = CABasicAnimation(keyPath: "position.x")
            a.fromValue = 0; a.toValue = 100; a.duration = 2
            let layer = Self.animatedLayer(a)
            #expect(abs(Self.x(layer, at: 100.5) - 25) < 1e-9)
            #expect(abs(Self.x(layer, at: 101.5) - 75) < 1e-9)
            // No fill: after the end the model value shows again — the seed's "jump back".
            #expect(Self.x(layer, at: 102.5) == 0)
            #expect(layer.animationKeys() == nil)   // removed on completion
        }

        @Test func fillForwardsHoldsTheEndValue() {
            let a = CABasicAnimation(keyPath: "position.x")
            a.fromValue = 0; a.toValue = 100; a.duration = 1
            a.fillMode = .forwards; a.isRemovedOnCompletion = false
            let layer = Self.animatedLayer(a)
            #expect(Self.x(layer, at: 105) == 100)
            #expect(layer.position.x == 0)   // the model is unchanged
        }

        @Test func repeatAndAutoreverse() {
            let a = CABasicAnimation(keyPath: "position.x")
            a.fromValue = 0; a.toValue = 100; a.duration = 1
            a.autoreverses = true; a.repeatCount = 2
            let layer = Self.animatedLayer(a)
            #expect(abs(Self.x(layer, at: 100.25) - 25) < 1e-9)
            #expect(abs(Self.x(layer, at: 101.25) - 75) < 1e-9)   // coming back
            #expect(abs(Self.x(layer, at: 102.5) - 50) < 1e-9)    // second cycle
            #expect(Self.x(layer, at: 104.5) == 0)                // active duration 4 s is over
        }

        @Test func fractionalRepeatCountAndBeginTimeDelay() {
            let a = CABasicAnimation(keyPath: "position.x")
            a.fromValue = 0; a.toValue = 100; a.duration = 1
            a.repeatCount = 1.5
            a.fillMode = .both
            a.isRemovedOnCompletion = false
            CAMediaClock.setManualTime(50)
            a.beginTime = CACurrentMediaTime() + 2   // the seed's "CACurrentMediaTime() + 2"
            let layer = Self.animatedLayer(a, at: 50)
            #expect(Self.x(layer, at: 51) == 0)                   // backwards fill: the start value
            #expect(abs(Self.x(layer, at: 53.25) - 25) < 1e-9)    // second play
            #expect(abs(Self.x(layer, at: 60) - 50) < 1e-9)       // stops half-way through it
        }

        @Test func byValueCombinations() {
            func run(_ configure: (CABasicAnimation) -> Void, model: CGFloat) -> (CGFloat, CGFloat) {
                let a = CABasicAnimation(keyPath: "position.x")
                a.duration = 1
                configure(a)
                CAMediaClock.setManualTime(10)
                let layer = CALayer()
                layer.position.x = model
                CATransaction.flush()
                layer.add(a, forKey: "a")
                CATransaction.flush()
                return (Self.x(layer, at: 10), Self.x(layer, at: 10.5))
            }
            // Apple: from+by interpolates from → from+by; by+to: to−by → to; to only: current → to;
            // by only: current → current+by; from only: from → current.
            #expect(run({ $0.fromValue = 10; $0.byValue = 20 }, model: 0) == (10, 20))
            #expect(run({ $0.byValue = 20; $0.toValue = 50 }, model: 0) == (30, 40))
            #expect(run({ $0.toValue = 50 }, model: 10) == (10, 30))
            #expect(run({ $0.byValue = 20 }, model: 10) == (10, 20))
            #expect(run({ $0.fromValue = 30 }, model: 10) == (30, 20))
        }

        @Test func pacedKeyframesMoveAtConstantSpeed() {
            // Paced over (0,0), (10,0), (110,0) in 2 s is at x = 55 after 1 s.
            let k = CAKeyframeAnimation(keyPath: "position")
            k.values = [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 110, y: 0)]
            k.calculationMode = .paced
            k.duration = 2
            let layer = Self.animatedLayer(k)
            #expect(abs(Self.x(layer, at: 101) - 55) < 1e-9)
        }

        @Test func linearKeyframesWithKeyTimes() {
            let k = CAKeyframeAnimation(keyPath: "position.x")
            k.values = [0, 10, 110]
            k.keyTimes = [0, 0.8, 1]
            k.duration = 10
            let layer = Self.animatedLayer(k)
            #expect(abs(Self.x(layer, at: 104) - 5) < 1e-9)      // half of the first segment
            #expect(abs(Self.x(layer, at: 109) - 60) < 1e-9)     // half of the second
            let d = CAKeyframeAnimation(keyPath: "position.x")
            d.values = [1, 2, 3, 4]
            d.calculationMode = .discrete
            d.duration = 4
            let l2 = Self.animatedLayer(d)
            #expect(Self.x(l2, at: 102.5) == 3)                 // each value for 1/4 of the time
        }

        @Test func keyframePathFollowsTheCurve() {
            // A straight path of two lines, 100 and 300 long: without keyTimes each element gets
            // half of the time; position advances along each element's length.
            let path = CGMutablePath()
            path.move(to: CGPoint(x: 0, y: 0))
            path.addLine(to: CGPoint(x: 100, y: 0))
            path.addLine(to: CGPoint(x: 100, y: 300))
            let k = CAKeyframeAnimation(keyPath: "position")
            k.path = path
            k.duration = 2
            let layer = Self.animatedLayer(k)
            CAMediaClock.setManualTime(100.5)
            #expect(layer.presentation()!.position == CGPoint(x: 50, y: 0))
            CAMediaClock.setManualTime(101.5)
            #expect(layer.presentation()!.position == CGPoint(x: 100, y: 150))
        }

        @Test func groupChildrenAreRelativeAndClipped() {
            let move = CABasicAnimation(keyPath: "position.x")
            move.fromValue = 0; move.toValue = 100; move.duration = 4; move.beginTime = 1
            let g = CAAnimationGroup()
            g.animations = [move]
            g.duration = 3
            let layer = Self.animatedLayer(g)
            #expect(abs(Self.x(layer, at: 102) - 25) < 1e-9)     // child time 1 s into its 4 s
            #expect(Self.x(layer, at: 103.5) == 0)               // group over after 3 s
        }

        @Test func springSettlesAsMeasured() {
            // Mass 1, stiffness 100, damping 5 settles in about 2.85 s.
            let s = CASpringAnimation(keyPath: "position.x")
            s.mass = 1; s.stiffness = 100; s.damping = 5
            #expect(abs(s.settlingDuration - 2.85) < 0.1)
            // Critically damped with no initial velocity never overshoots: x(t) = e^(−ω0 t)(1 + ω0 t).
            let c = CASpringAnimation(keyPath: "position.x")
            c.stiffness = 100; c.damping = 20; c.fromValue = 0; c.toValue = 100; c.duration = 2
            let layer = Self.animatedLayer(c)
            let expected = 100 * (1 - exp(-10 * 0.3) * (1 + 10 * 0.3))
            #expect(abs(Self.x(layer, at: 100.3) - expected) < 1e-6)
        }

        @Test func pauseAndResumeKeepTheRotation() {
            // Seed 000/003: pause = speed 0 + timeOffset = convertTime(now, from: nil);
            // resume = speed 1, timeOffset 0, beginTime = convertTime(now, from: nil) − paused.
            CAMediaClock.setManualTime(200)
            let layer = CALayer()
            CATransaction.flush()
            let spin = CABasicAnimation(keyPath: "transform.rotation.z")
            spin.fromValue = 0; spin.toValue = 2 * CGFloat.pi; spin.duration = 4; spin.repeatCount = .infinity
            layer.add(spin, forKey: "spin")
            CATransaction.flush()
            func angle() -> CGFloat { layer.presentation()!.value(forKeyPath: "transform.rotation.z") as! CGFloat }
            CAMediaClock.setManualTime(201)
            #expect(abs(angle() - .pi / 2) < 1e-9)
            let paused = layer.convertTime(CACurrentMediaTime(), from: nil)
            layer.speed = 0
            layer.timeOffset = paused
            CAMediaClock.setManualTime(230)
            #expect(abs(angle() - .pi / 2) < 1e-9)            // frozen while paused
            let pausedTime = layer.timeOffset
            layer.speed = 1
            layer.timeOffset = 0
            layer.beginTime = 0
            layer.beginTime = layer.convertTime(CACurrentMediaTime(), from: nil) - pausedTime
            #expect(abs(angle() - .pi / 2) < 1e-9)            // resumes where it stopped
            CAMediaClock.setManualTime(231)
            #expect(abs(angle() - .pi) < 1e-9)
        }

        /// A mask layer, which has no superlayer, lives in the time of the layer it masks: a
        /// timeline paused and scrubbed at its root (lottie-ios's Core Animation engine: root
        /// speed 0, timeOffset = frame / frame rate, keyframed mask paths in `MaskCompositionLayer`)
        /// moves the mask's animations with the rest. Local times by CAMediaTiming's
        /// (parent − beginTime) · speed + timeOffset; unmasked, the layer is a root again.
        @Test func aMaskFollowsTheTimeOfTheLayerItMasks() {
            CAMediaClock.setManualTime(100)
            let root = CALayer(), owner = CALayer(), mask = CALayer()
            root.addSublayer(owner)
            owner.mask = mask
            root.speed = 0; root.timeOffset = 0.5
            owner.beginTime = 0.25
            CATransaction.flush()
            #expect(mask.convertTime(CACurrentMediaTime(), from: nil) == 0.25)   // (0.5 − 0.25) · 1
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 0; fade.toValue = 1; fade.duration = 1; fade.beginTime = 0.25
            fade.fillMode = .both; fade.isRemovedOnCompletion = false
            mask.add(fade, forKey: "fade")
            CATransaction.flush()
            func opacity() -> Float { mask.presentation()!.opacity }
            CAMediaClock.setManualTime(150)
            #expect(opacity() == 0)                 // paused at local 0.25: the start
            root.timeOffset = 1
            #expect(abs(opacity() - 0.5) < 1e-6)    // scrubbed: local 0.75, half-way
            owner.mask = nil
            #expect(mask.convertTime(CACurrentMediaTime(), from: nil) == 150)
        }
    }
}
