import Testing
import QuartzCore

/// Commit semantics (DESIGN.md §3, Apple's CAMediaTiming/CALayer docs): beginTime 0 becomes the
/// layer's local time at commit; key order; delegate events in time order; removal.
extension MediaClockSuite {
    @Suite struct PresentationTests {
        final class Events: CAAnimationDelegate {
            var log: [String] = []
            func animationDidStart(_ anim: CAAnimation) { log.append("start \(anim.value(forKey: "id") as! String)") }
            func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
                log.append("stop \(anim.value(forKey: "id") as! String) \(flag)")
            }
        }

        func animation(_ id: String, _ key: String, duration: CFTimeInterval, _ d: Events) -> CABasicAnimation {
            let a = CABasicAnimation(keyPath: key)
            a.fromValue = 0
            a.toValue = 1
            a.duration = duration
            a.delegate = d
            a.setValue(id, forKey: "id")
            return a
        }

        /// Local time of a root layer with speed 2 at media time 5 is (5 − 0)·2 + 0 = 10.
        @Test func beginTimeZeroBecomesLocalTimeAtCommit() {
            CAMediaClock.setManualTime(5)
            let l = CALayer()
            l.speed = 2
            let d = Events()
            l.add(animation("a", "opacity", duration: 1, d), forKey: "fade")
            CATransaction.flush()
            #expect(l.animation(forKey: "fade")?.beginTime == 10)
            // Half way through in layer time (0.25 s media = 0.5 s local).
            CAMediaClock.setManualTime(5.25)
            #expect(abs(Double(l.presentation()!.opacity) - 0.5) < 1e-9)
        }

        @Test func eventsInTimeOrderAndRemovalOnCompletion() {
            CAMediaClock.setManualTime(50)
            let l = CALayer()
            let d = Events()
            l.add(animation("short", "opacity", duration: 1, d), forKey: "b")
            l.add(animation("long", "zPosition", duration: 3, d), forKey: "a")
            l.add(animation("mid", "cornerRadius", duration: 2, d), forKey: "c")
            #expect(l.animationKeys() == ["b", "a", "c"])
            CATransaction.flush()
            CAMediaClock.setManualTime(52.5)      // short and mid are over, long is running
            let p = l.presentation()!
            #expect(d.log == ["start short", "start long", "start mid", "stop short true", "stop mid true"])
            #expect(l.animationKeys() == ["a"])
            #expect(abs(p.zPosition - 2.5 / 3) < 1e-9 && p.opacity == 1 && p.cornerRadius == 0)
            l.removeAnimation(forKey: "a")
            #expect(d.log.last == "stop long false" && l.animationKeys() == nil)
        }

        /// CAAnimation.h: `animationDidStart` is sent "when the animation begins its active
        /// duration", and Core Animation sends delegate callbacks after the commit, from the run
        /// loop — never inside `commit()`. So: nothing during the commit, the start at the next
        /// delivery (here a flush at the same time), a delayed animation's start at its
        /// beginTime, and a removal before the start was reported reports start then stop.
        @Test func startIsReportedAfterTheCommitAtTheBeginTime() {
            CAMediaClock.setManualTime(60)
            let l = CALayer()
            CATransaction.flush()
            let d = Events()
            CATransaction.begin()
            l.add(animation("now", "opacity", duration: 1, d), forKey: "now")
            let later = animation("later", "zPosition", duration: 1, d)
            later.beginTime = l.convertTime(CACurrentMediaTime(), from: nil) + 0.5
            l.add(later, forKey: "later")
            CATransaction.commit()
            #expect(d.log.isEmpty)
            CATransaction.flush()
            #expect(d.log == ["start now"])
            CAMediaClock.setManualTime(60.4)
            CATransaction.flush()
            #expect(d.log == ["start now"])
            CAMediaClock.setManualTime(60.5)
            CATransaction.flush()
            #expect(d.log == ["start now", "start later"])
            CATransaction.begin()
            l.add(animation("gone", "cornerRadius", duration: 1, d), forKey: "gone")
            CATransaction.commit()
            l.removeAnimation(forKey: "gone")
            #expect(d.log.suffix(2) == ["start gone", "stop gone false"])
        }

        /// Replacing an animation under its key stops the old one once: `finished: false` while
        /// it runs, nothing more when it had finished (and was kept by isRemovedOnCompletion).
        @Test func replacingAnAnimationStopsTheOldOneOnce() {
            CAMediaClock.setManualTime(70)
            let l = CALayer()
            CATransaction.flush()
            let d = Events()
            let kept = animation("kept", "opacity", duration: 1, d)
            kept.isRemovedOnCompletion = false
            l.add(kept, forKey: "k")
            CATransaction.flush()
            CAMediaClock.setManualTime(72)
            CATransaction.flush()
            #expect(d.log == ["start kept", "stop kept true"])
            l.add(animation("running", "opacity", duration: 1, d), forKey: "k")
            CATransaction.flush()
            CATransaction.flush()
            l.add(animation("next", "opacity", duration: 1, d), forKey: "k")
            #expect(d.log == ["start kept", "stop kept true", "start running", "stop running false"])
        }

        /// Apple's custom-property pattern: a key the class does not declare is stored per layer
        /// and animates like any other (the presentation copy carries the interpolated value).
        @Test func extraKeysAnimate() {
            CAMediaClock.setManualTime(80)
            let l = CALayer()
            l.setValue(CGFloat(0), forKey: "progress")
            let a = CABasicAnimation(keyPath: "progress")
            a.fromValue = CGFloat(0)
            a.toValue = CGFloat(10)
            a.duration = 2
            l.add(a, forKey: "p")
            CATransaction.flush()
            CAMediaClock.setManualTime(81)      // linear (no timing function): half way
            #expect(l.presentation()!.value(forKey: "progress") as? CGFloat == 5)
            #expect(l.value(forKey: "progress") as? CGFloat == 0)
        }

        @Test func presentationIsReusedAndPointsBackToTheModel() {
            CAMediaClock.setManualTime(70)
            let l = CALayer()
            CATransaction.flush()
            let p1 = l.presentation()!, p2 = l.presentation()!
            #expect(p1 === p2 && p1.model() === l && p1 !== l)
        }

        @Test func removeAllAnimationsStopsEachUnfinished() {
            CAMediaClock.setManualTime(90)
            let l = CALayer()
            let d = Events()
            l.add(animation("x", "opacity", duration: 1, d), forKey: "x")
            l.add(animation("y", "zPosition", duration: 1, d), forKey: "y")
            CATransaction.flush()                 // both begin now: started at the commit
            l.removeAllAnimations()
            #expect(d.log == ["start x", "start y", "stop x false", "stop y false"])
            #expect(l.animationKeys() == nil)
        }
    }
}
