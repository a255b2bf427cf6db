import Testing
import QuartzCore

/// The presentation copy is kept between frames and only its animated properties are
/// re-evaluated while the model is unchanged. These tests pin down that what it shows is still
/// exactly "the model with its animations applied" (Apple's definition of the presentation
/// layer) across frames: model changes, removed and finished animations, additive animations and
/// extra keys. Expected values are closed-form interpolations.
extension MediaClockSuite {
    @Suite struct PresentationReuseTests {
        static func committed(_ setup: (CALayer) -> Void = { _ in }) -> CALayer {
            CAMediaClock.setManualTime(10)
            let layer = CALayer()
            setup(layer)
            CATransaction.flush()
            return layer
        }

        static func add(_ anim: CAAnimation, to layer: CALayer, key: String) {
            CATransaction.begin(); CATransaction.setDisableActions(true)
            layer.add(anim, forKey: key)
            CATransaction.commit()
        }

        static func presentation(_ layer: CALayer, at t: CFTimeInterval) -> CALayer {
            CAMediaClock.setManualTime(t)
            return layer.presentation()!
        }

        static func fade(from: Double, to: Double, duration: CFTimeInterval = 2) -> CABasicAnimation {
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = from; a.toValue = to; a.duration = duration
            return a
        }

        @Test func modelChangesBetweenFramesShowInThePresentation() {
            let layer = Self.committed()
            Self.add(Self.fade(from: 0, to: 1), to: layer, key: "fade")
            #expect(abs(Self.presentation(layer, at: 10.5).opacity - 0.25) < 1e-6)
            CATransaction.begin(); CATransaction.setDisableActions(true)
            layer.position = CGPoint(x: 30, y: 40)
            layer.cornerRadius = 7
            CATransaction.commit()
            let p = Self.presentation(layer, at: 11)
            #expect(p.position == CGPoint(x: 30, y: 40))
            #expect(p.cornerRadius == 7)
            #expect(abs(p.opacity - 0.5) < 1e-6)
        }

        /// Asked twice at one time (a renderer's two passes over a frame), the copy is the same
        /// evaluation; but a write into the copy in between (Apple leaves it undefined; here a
        /// stale value must not survive) and a change of the parent's timing are seen.
        @Test func askingAgainAtTheSameTimeSeesChangesSinceTheFirstAsk() {
            let parent = Self.committed()
            let layer = CALayer()
            parent.addSublayer(layer)
            CATransaction.flush()
            Self.add(Self.fade(from: 0, to: 1), to: layer, key: "fade")
            #expect(abs(Self.presentation(layer, at: 10.5).opacity - 0.25) < 1e-6)
            let p = Self.presentation(layer, at: 10.5)
            #expect(abs(p.opacity - 0.25) < 1e-6)
            p.opacity = 0.9
            #expect(abs(Self.presentation(layer, at: 10.5).opacity - 0.25) < 1e-6)
            // The parent's clock at double speed moves the layer's local time (t_local =
            // (t_parent − beginTime)·speed + timeOffset, Apple), so the fade shows another value.
            CATransaction.begin(); CATransaction.setDisableActions(true)
            parent.speed = 2
            CATransaction.commit()
            #expect(abs(Self.presentation(layer, at: 10.5).opacity - 0.25) > 1e-3)
        }

        /// A shape layer's own properties live outside the state plain layers copy, and its
        /// presentation is reused when asked again at one time (`presentationFollowsModelVersion`):
        /// a change of them in the model in between, or a write into the copy, is still seen.
        /// strokeEnd 0 → 1 over 2 s, asked at 0.5 s: 0.25 (linear timing).
        @Test func aShapeLayersOwnPropertiesChangedAtTheSameTimeShow() throws {
            CAMediaClock.setManualTime(10)
            let layer = CAShapeLayer()
            layer.lineWidth = 2
            CATransaction.flush()
            let draw = CABasicAnimation(keyPath: "strokeEnd")
            draw.fromValue = 0; draw.toValue = 1; draw.duration = 2
            Self.add(draw, to: layer, key: "draw")
            let first = try #require(Self.presentation(layer, at: 10.5) as? CAShapeLayer)
            #expect(abs(first.strokeEnd - 0.25) < 1e-9 && first.lineWidth == 2 && first.path == nil)
            CATransaction.begin(); CATransaction.setDisableActions(true)
            layer.lineWidth = 5
            layer.path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
            CATransaction.commit()
            let second = try #require(Self.presentation(layer, at: 10.5) as? CAShapeLayer)
            #expect(second.lineWidth == 5 && second.path == layer.path)
            #expect(abs(second.strokeEnd - 0.25) < 1e-9)
            second.strokeEnd = 0.9
            let third = try #require(Self.presentation(layer, at: 10.5) as? CAShapeLayer)
            #expect(abs(third.strokeEnd - 0.25) < 1e-9)
        }

        @Test func removingAnAnimationRestoresTheModelValue() {
            let layer = Self.committed { $0.opacity = 0.8 }
            Self.add(Self.fade(from: 0, to: 1), to: layer, key: "fade")
            #expect(abs(Self.presentation(layer, at: 11).opacity - 0.5) < 1e-6)
            layer.removeAnimation(forKey: "fade")
            #expect(Self.presentation(layer, at: 11.5).opacity == 0.8)
        }

        @Test func aFinishedKeptAnimationWithoutFillShowsTheModelValue() {
            let layer = Self.committed { $0.position = CGPoint(x: 5, y: 5) }
            let move = CABasicAnimation(keyPath: "position")
            move.fromValue = CGPoint(x: 0, y: 0); move.toValue = CGPoint(x: 100, y: 0); move.duration = 1
            move.isRemovedOnCompletion = false     // stays attached, fill mode .removed
            Self.add(move, to: layer, key: "move")
            #expect(Self.presentation(layer, at: 10.5).position == CGPoint(x: 50, y: 0))
            #expect(Self.presentation(layer, at: 12).position == CGPoint(x: 5, y: 5))
            #expect(layer.animation(forKey: "move") != nil)
        }

        @Test func additiveAnimationsDoNotAccumulateAcrossFrames() {
            let layer = Self.committed { $0.position = CGPoint(x: 100, y: 0) }
            let nudge = CABasicAnimation(keyPath: "position.x")
            nudge.fromValue = 0; nudge.toValue = 20; nudge.duration = 2; nudge.isAdditive = true
            Self.add(nudge, to: layer, key: "nudge")
            for _ in 0..<3 {
                // Same time, three evaluations: 100 + 20 · 0.5 each time, not 110, 120, 130.
                #expect(Self.presentation(layer, at: 11).position.x == 110)
            }
            #expect(Self.presentation(layer, at: 11.5).position.x == 115)
        }

        @Test func twoAnimationsOfOneKeyComposeInOrderEveryFrame() {
            let layer = Self.committed { $0.opacity = 1 }
            Self.add(Self.fade(from: 0, to: 1), to: layer, key: "a")
            let half = CABasicAnimation(keyPath: "opacity")
            half.fromValue = 0; half.toValue = -0.5; half.duration = 2; half.isAdditive = true
            Self.add(half, to: layer, key: "b")
            // a gives 0.25 at 0.5 s; b adds its own −0.5 · 0.25 on top of it.
            #expect(abs(Self.presentation(layer, at: 10.5).opacity - (0.25 - 0.125)) < 1e-6)
            #expect(abs(Self.presentation(layer, at: 11).opacity - (0.5 - 0.25)) < 1e-6)
        }

        @Test func extraKeysAnimateAndFollowModelChanges() {
            let layer = Self.committed { $0.setValue(1.0, forKey: "progress") }
            let grow = CABasicAnimation(keyPath: "progress")
            grow.toValue = 3.0; grow.duration = 2
            Self.add(grow, to: layer, key: "grow")
            #expect(Self.presentation(layer, at: 11).value(forKey: "progress") as? CGFloat == 2)
            layer.setValue(5.0, forKey: "progress")
            // From the new model value 5 towards 3.
            #expect(Self.presentation(layer, at: 11).value(forKey: "progress") as? CGFloat == 4)
        }

        @Test func subKeyPathAnimationKeepsTheOtherComponents() {
            let layer = Self.committed { $0.transform = CATransform3DMakeScale(2, 2, 1) }
            let spin = CABasicAnimation(keyPath: "transform.rotation.z")
            spin.fromValue = 0; spin.toValue = CGFloat.pi; spin.duration = 2
            Self.add(spin, to: layer, key: "spin")
            for t in [10.5, 11.0, 11.0] {
                let p = Self.presentation(layer, at: t)
                let angle = CGFloat.pi * (t - 10) / 2
                // Scale 2 rotated by angle: m11 = 2 cos, m12 = 2 sin (row vectors, Apple's layout).
                #expect(abs(p.transform.m11 - 2 * cos(angle)) < 1e-9)
                #expect(abs(p.transform.m12 - 2 * sin(angle)) < 1e-9)
            }
        }
    }
}
