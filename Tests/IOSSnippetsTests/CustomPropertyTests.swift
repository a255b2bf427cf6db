import Compositor
import Foundation
import QuartzCore
import Raster
import Testing

extension SnippetSuite {
    /// Item 2: an `@Animatable` property animates like Apple's `@NSManaged` one. Expected values
    /// are closed-form: linear interpolation, the keyframe segment, the damped spring's
    /// x(t) = e^(−ζω0t)(cos ωd t + ζω0/ωd sin ωd t).
    @Suite struct CustomPropertyTests {
        static func committedBar() -> ProgressBarLayer {
            let bar = ProgressBarLayer()
            bar.bounds = CGRect(x: 0, y: 0, width: 100, height: 10)
            bar.position = CGPoint(x: 50, y: 5)
            CATransaction.flush()
            return bar
        }

        @Test func keyValueCodingReachesTheProperty() throws {
            CAMediaClock.setManualTime(0)
            let bar = ProgressBarLayer()
            #expect(bar.value(forKey: "progress") as? CGFloat == 0)
            #expect(ProgressBarLayer.defaultValue(forKey: "progress") as? CGFloat == 0)
            bar.setValue(0.5, forKey: "progress")
            #expect(bar.progress == 0.5)
            bar.progress = 0.75
            #expect(bar.value(forKey: "progress") as? CGFloat == 0.75)
            CATransaction.flush()
            // Copied into presentation copies without code in init(layer:).
            #expect(try #require(bar.presentation()).progress == 0.75)
            let pie = PieLayer()
            #expect(pie.endAngle == .pi / 2 && pie.center == CGPoint(x: 50, y: 50))
        }

        @Test func basicKeyframeAndSpringAnimationsDriveThePresentationProperty() throws {
            CAMediaClock.setManualTime(0)
            let bar = Self.committedBar()
            let basic = CABasicAnimation(keyPath: "progress")
            basic.fromValue = 0
            basic.toValue = 1
            basic.duration = 1
            bar.add(basic, forKey: "basic")
            CATransaction.flush()
            CAMediaClock.setManualTime(0.25)
            #expect(abs(try #require(bar.presentation()).progress - 0.25) < 1e-9)

            let keyframes = CAKeyframeAnimation(keyPath: "progress")
            keyframes.values = [0, 1, 0.5]
            keyframes.duration = 1
            bar.removeAllAnimations()
            CAMediaClock.setManualTime(10)
            bar.add(keyframes, forKey: "keyframes")
            CATransaction.flush()
            CAMediaClock.setManualTime(10.75)
            #expect(abs(try #require(bar.presentation()).progress - 0.75) < 1e-9)

            let spring = CASpringAnimation(keyPath: "progress")
            spring.fromValue = 0
            spring.toValue = 1
            spring.duration = spring.settlingDuration
            bar.removeAllAnimations()
            CAMediaClock.setManualTime(20)
            bar.add(spring, forKey: "spring")
            CATransaction.flush()
            CAMediaClock.setManualTime(20.2)
            // mass 1, stiffness 100, damping 10: ω0 = 10, ζ = 0.5.
            let w0 = 10.0, zeta = 0.5, wd = w0 * (1 - zeta * zeta).squareRoot(), t = 0.2
            let x = exp(-zeta * w0 * t) * (cos(wd * t) + zeta * w0 / wd * sin(wd * t))
            #expect(abs(Double(try #require(bar.presentation()).progress) - (1 - x)) < 1e-6)
            // The model keeps its own value throughout.
            #expect(bar.progress == 0)
            bar.removeAllAnimations()

            let pie = PieLayer()
            CATransaction.flush()
            let move = CABasicAnimation(keyPath: "center")
            move.toValue = CGPoint(x: 100, y: 100)
            move.duration = 1
            pie.add(move, forKey: nil)
            CATransaction.flush()
            CAMediaClock.setManualTime(20.7)
            #expect(try #require(pie.presentation()).center == CGPoint(x: 75, y: 75))
        }

        @Test func changingThePropertyRunsTheLayersAction() throws {
            CAMediaClock.setManualTime(0)
            let bar = Self.committedBar()
            bar.progress = 1   // ProgressBarLayer.action(forKey:): 0.25 s, linear, from the presentation value
            CATransaction.flush()
            #expect(bar.animation(forKey: "progress") != nil && bar.needsDisplay())
            CAMediaClock.setManualTime(0.125)
            #expect(abs(try #require(bar.presentation()).progress - 0.5) < 1e-9)
            // Without an action (disabled), no animation; and a plain CALayer subclass's custom key
            // has no built-in default action (Apple's rule for custom properties).
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            let pie = PieLayer()
            CATransaction.commit()
            pie.startAngle = 1
            CATransaction.flush()
            #expect(pie.animationKeys() == nil)
        }

        /// The renderer draws the presentation copy through `draw(in:)` at every frame while
        /// `progress` (a `needsDisplay(forKey:)` key) animates, and the model again afterwards.
        @Test func drawInContextRedrawsThePresentationCopyEveryFrame() throws {
            CAMediaClock.setManualTime(0)
            let bar = Self.committedBar()
            let renderer = try CARenderer(width: 100, height: 10)
            renderer.layer = bar
            let animation = CABasicAnimation(keyPath: "progress")
            animation.fromValue = 0
            animation.toValue = 1
            animation.duration = 1
            bar.add(animation, forKey: nil)
            CATransaction.flush()
            func blueColumns(at t: CFTimeInterval) -> Int {
                CAMediaClock.setManualTime(t)
                renderer.beginFrame(atTime: t); renderer.render(); renderer.endFrame()
                return (0..<100).filter { renderer.pixmap.pixel(x: $0, y: 5).b > 128 }.count
            }
            #expect(blueColumns(at: 0.25) == 25)
            #expect(blueColumns(at: 0.5) == 50)
            #expect(blueColumns(at: 0.8) == 80)
            #expect(bar.drawnProgress.suffix(3).map { ($0 * 100).rounded() } == [25, 50, 80])
            // Removed at its end: the model's progress (0) is drawn again.
            #expect(blueColumns(at: 2) == 0)
        }
    }
}
