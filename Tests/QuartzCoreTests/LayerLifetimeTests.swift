import Testing
import QuartzCore

/// Lifetimes around the layer tree, as on Apple: a layer does not keep its superlayer, its model
/// (from a presentation copy) or its animated siblings alive, and a layer that goes away takes
/// its pending animation events with it. The back pointers are unowned, so these tests also
/// guard against a pointer outliving the layer it points to.
extension MediaClockSuite {
    @Suite struct LayerLifetimeTests {
        final class Recorder: CAAnimationDelegate {
            var stopped: [String] = []
            func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
                stopped.append(anim.value(forKey: "tag") as? String ?? "?")
            }
        }

        static func fade(tag: String, duration: CFTimeInterval, delegate: Recorder) -> CABasicAnimation {
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = 0; a.toValue = 1; a.duration = duration
            a.setValue(tag, forKey: "tag")
            a.delegate = delegate
            return a
        }

        @Test func aSublayerOutlivingItsSuperlayerHasNone() {
            weak var gone: CALayer?
            let child = CALayer()
            do {
                let parent = CALayer()
                parent.addSublayer(child)
                #expect(child.superlayer === parent)
                gone = parent
            }
            #expect(gone == nil)
            #expect(child.superlayer == nil)
            // Its timing no longer goes through the old parent: local time is media time.
            #expect(child.convertTime(7, from: nil) == 7)
        }

        @Test func aPresentationCopyOutlivingItsModelIsItsOwnModel() {
            CAMediaClock.setManualTime(3)
            var presentation: CALayer?
            do {
                let model = CALayer()
                model.opacity = 0.5
                CATransaction.flush()
                presentation = model.presentation()
                #expect(presentation?.model() === model)
            }
            let p = try! #require(presentation)
            #expect(p.model() === p)
            #expect(p.opacity == 0.5)
        }

        @Test func aDeallocatedAnimatedLayerDropsOutOfEventDelivery() {
            CAMediaClock.setManualTime(100)
            let recorder = Recorder()
            let kept = CALayer()
            weak var gone: CALayer?
            do {
                let dropped = CALayer()
                gone = dropped
                CATransaction.flush()
                dropped.add(Self.fade(tag: "dropped", duration: 1, delegate: recorder), forKey: "f")
                kept.add(Self.fade(tag: "kept", duration: 1, delegate: recorder), forKey: "f")
                CATransaction.flush()
            }
            #expect(gone == nil)
            // Layers registered after the deallocated one are still reached, in order.
            let later = CALayer()
            later.add(Self.fade(tag: "later", duration: 1, delegate: recorder), forKey: "f")
            CATransaction.flush()
            CAMediaClock.setManualTime(102)
            CATransaction.flush()
            // (Whether a deallocated layer's own animations report a stop is not what this checks.)
            #expect(recorder.stopped.filter { $0 != "dropped" } == ["kept", "later"])
        }
    }
}
