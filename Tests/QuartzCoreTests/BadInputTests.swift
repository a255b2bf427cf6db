import Testing
import QuartzCore

/// Nonsense values are ignored or evaluated without crashing or hanging.
extension MediaClockSuite {
    @Suite struct BadInputTests {
        @Test func wrongTypesAndNilsInKeyValueCoding() {
            let l = CALayer()
            l.position = CGPoint(x: 1, y: 2)
            l.setValue("not a point", forKey: "position")
            l.setValue(nil, forKeyPath: "transform.rotation.z")
            l.setValue(CGPoint(x: 3, y: 3), forKeyPath: "bounds.size.nonsense")
            l.setValue(5, forKeyPath: "position.z")
            #expect(l.position == CGPoint(x: 1, y: 2))
            #expect(l.value(forKeyPath: "nothing.here") == nil)
        }

        @Test func nonFiniteTimingDoesNotCrash() {
            CAMediaClock.setManualTime(900)
            let l = CALayer()
            CATransaction.flush()
            for (d, r, s) in [(Double.nan, Float(1), Float(1)), (1, Float.nan, 1), (1, 1, Float.nan),
                              (Double.infinity, 1, 1), (-3, 1, 1), (1, -2, -1)] {
                let a = CABasicAnimation(keyPath: "opacity")
                a.fromValue = 0; a.toValue = 1
                a.duration = d; a.repeatCount = r; a.speed = s
                l.add(a, forKey: "a\(d)\(r)\(s)")
            }
            let k = CAKeyframeAnimation(keyPath: "position")
            k.values = []
            k.keyTimes = [2, -1, NSNumber(value: Double.nan)]
            l.add(k, forKey: "k")
            for mode in [CAAnimationCalculationMode.linear, .discrete, .paced, .cubic, .cubicPaced] {
                let m = CAKeyframeAnimation(keyPath: "position.x")
                m.values = [0, CGFloat.nan, 2]
                m.keyTimes = [0, NSNumber(value: Double.nan), 1]
                m.calculationMode = mode
                m.duration = 1
                l.add(m, forKey: mode.rawValue)
            }
            CATransaction.flush()
            CAMediaClock.setManualTime(900.5)
            _ = l.presentation()
            CAMediaClock.setManualTime(.nan)
            _ = l.presentation()
            CAMediaClock.setManualTime(901)
            #expect(l.presentation() != nil)
        }
    }
}
