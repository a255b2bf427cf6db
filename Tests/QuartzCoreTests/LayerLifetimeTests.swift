import Testing
import QuartzCore

/// Lifetimes around the layer tree, as on Apple: a layer does not keep its superlayer, its model
/// (from a presentation copy) or its animated siblings alive, and a layer that goes away takes
/// its pending animation events with it. The back pointers are unowned, so these tests also
/// guard against a pointer outliving the layer it points to.
extension MediaClockSuite {
    @Suite struct LayerLifetimeTests {
        static func fade(tag: String, duration: CFTimeInterval, delegate: StopRecorder) -> CABasicAnimation {
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = 0; a.toValue = 1; a.duration = duration
            a.setValue(tag, forKey: "name")
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
            let recorder = StopRecorder()
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
            #expect(recorder.names.filter { $0 != "dropped" } == ["kept", "later"])
        }

        /// Presenting siblings in order reads ahead into the next ones (prefetching); the tree
        /// changing and layers going away between the calls must not matter: every presentation
        /// is still its own layer's, at the formula's position.
        @Test func siblingsPresentedWhileTheTreeChanges() {
            CAMediaClock.setManualTime(0)
            let root = CALayer()
            var layers: [CALayer] = []
            for i in 0..<40 {
                let l = CALayer()
                l.position = CGPoint(x: Double(i), y: 0)
                root.addSublayer(l)
                layers.append(l)
            }
            CATransaction.flush()
            for l in layers {
                let move = CABasicAnimation(keyPath: "position.y")
                move.fromValue = 0; move.toValue = 100; move.duration = 1
                l.add(move, forKey: "move")
            }
            CATransaction.flush()
            CAMediaClock.setManualTime(0.25)
            var i = 0
            while i < layers.count {
                let p = layers[i].presentation()
                #expect(p?.position == CGPoint(x: layers[i].position.x, y: 25))
                if i % 5 == 0, i + 1 < layers.count { layers.remove(at: i + 1).removeFromSuperlayer() }
                if i % 7 == 0 { root.insertSublayer(CALayer(), at: 0) }
                if i % 9 == 0 { root.addSublayer(layers[i]) }   // moved to the end
                i += 1
            }
        }
    }
}
