import Foundation
import QuartzCore
import Compositor
import Raster
import Testing
import UIKit

extension SnippetSuite {
    /// Snippets/CustomLayers2.swift: custom layers written as on iOS compile, keep their own
    /// properties in presentation copies, and present closed-form values.
    @Suite struct CustomLayers2Tests {
        /// The arc is a circle of radius h/4 about (h/2, h/2); the linear spin is 2π·t/0.4 (mod 2π).
        @Test func spinnerArcLayerMadeWithInitFrameSpins() throws {
            CAMediaClock.setManualTime(0)
            let spinner = SpinnerArcLayer(frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: .systemBlue)
            let box = try #require(spinner.path?.boundingBox)
            #expect(abs(box.minX - 10) < 1e-9 && abs(box.width - 20) < 1e-9 && abs(box.midY - 20) < 1e-9)
            #expect(spinner.isHidden && spinner.strokeEnd == 0.4)
            spinner.startAnimation()
            CATransaction.flush()
            #expect(!spinner.isHidden && spinner.animation(forKey: "transform.rotation.z")?.repeatCount == HUGE)
            let p = try #require(SnippetSuite.at(0.5) { spinner.presentation() })
            #expect(p is SpinnerArcLayer && p.strokeEnd == 0.4)
            // 0.5 s is 1.25 turns: π/2.
            let angle = try #require(p.value(forKeyPath: "transform.rotation.z") as? CGFloat)
            #expect(abs(angle - .pi / 2) < 1e-6)
            spinner.stopAnimation()
            #expect(spinner.animationKeys() == nil && spinner.isHidden)
        }

        /// Bounds 2r, corner radius r; opacity holds 0.45 for the first 20 % and then falls
        /// linearly to 0; the scale grows linearly 0 → 1.
        @Test func pulseLayerPulsesAndCopiesItsProperties() throws {
            CAMediaClock.setManualTime(0)
            let pulse = PulseLayer(numberOfPulses: 2, radius: 30, position: CGPoint(x: 100, y: 80))
            CATransaction.flush()
            #expect(pulse.bounds.size == CGSize(width: 60, height: 60) && pulse.cornerRadius == 30)
            #expect(pulse.position == CGPoint(x: 100, y: 80))
            let early = try #require(SnippetSuite.at(0.3) { pulse.presentation() })
            #expect(abs(early.opacity - 0.45) < 1e-6 && early.radius == 30 && early.numberOfPulses == 2)
            let later = try #require(SnippetSuite.at(1.8) { pulse.presentation() })
            // 1.8 s of 3: (0.6 − 0.2)/0.8 = 0.5 of the way from 0.45 to 0.
            #expect(abs(later.opacity - 0.225) < 1e-6)
            #expect(abs((later.value(forKeyPath: "transform.scale") as? CGFloat ?? -1) - 0.6) < 1e-6)
            // Two pulses, then the model's opacity (0).
            #expect(SnippetSuite.at(6.5) { pulse.presentation()?.opacity } == 0)
        }

        /// Made in `override init()` with no `init(layer:)`: its copy shows the group's default
        /// (nil = linear) timing: scale 1 + t, opacity 1 − t.
        @Test func breathingRingSetUpInInitAnimates() throws {
            CAMediaClock.setManualTime(0)
            let ring = BreathingRingLayer()
            CATransaction.flush()
            let p = try #require(SnippetSuite.at(1.25) { ring.presentation() })
            #expect(p is BreathingRingLayer && p.fillColor == UIColor.systemTeal.cgColor)
            #expect(abs(p.opacity - 0.75) < 1e-6)
            #expect(abs((p.value(forKeyPath: "transform.scale") as? CGFloat ?? 0) - 1.25) < 1e-6)
        }

        /// The delegate's action animates `angle` from the presented value to the new model
        /// value over 0.4 s, linearly: π/2 at 0.2 s of 0 → π. Without the delegate a custom
        /// property does not animate implicitly.
        @Test func delegateSuppliesTheArcsAction() throws {
            CAMediaClock.setManualTime(0)
            let arc = DelegatedArcLayer()
            let provider = ArcActionProvider()
            arc.delegate = provider
            CATransaction.flush()
            arc.progress = 0.5
            #expect(arc.angle == .pi)
            let animation = try #require(arc.animation(forKey: "angle") as? CABasicAnimation)
            #expect(animation.keyPath == "angle" && animation.duration == 0.4)
            CATransaction.flush()
            let mid = try #require(SnippetSuite.at(0.2) { arc.presentation()?.angle })
            #expect(abs(mid - .pi / 2) < 1e-9)
            CAMediaClock.setManualTime(1)
            arc.removeAllAnimations()
            arc.delegate = nil
            arc.progress = 0.25
            #expect(arc.animation(forKey: "angle") == nil && arc.angle == .pi / 2)
        }

        /// The outer ring (radius 45, width 10) runs from 12 o'clock clockwise on screen to −π/2 + 2π·value; at 0.25 s of
        /// a linear 0 → 1 over 1 s it reaches 3 o'clock: filled at −π/4, clear at +π/4. The inner
        /// ring (radius 30, model value 0.5) is filled at π/4 and clear at 3π/4.
        @Test func twinArcTimerDrawsBothRingsAsTheyAnimate() throws {
            CAMediaClock.setManualTime(0)
            let timer = TwinArcTimerLayer()
            timer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
            timer.innerValue = 0.5
            let run = CABasicAnimation(keyPath: "outerValue")
            run.fromValue = 0
            run.toValue = 1
            run.duration = 1
            timer.add(run, forKey: "run")
            CATransaction.flush()
            let image = try CARenderer.image(of: timer, size: CGSize(width: 100, height: 100), at: 0.25)
            func point(_ angle: Double, _ r: Double) -> CGPoint { CGPoint(x: 50 + r * cos(angle), y: 50 + r * sin(angle)) }
            #expect(Probe.alpha(image, point(-.pi / 4, 45)) == 1 && Probe.pixel(image, point(-.pi / 4, 45)).b == 255)
            #expect(Probe.alpha(image, point(.pi / 4, 45)) == 0)
            #expect(Probe.alpha(image, point(.pi / 4, 30)) == 1 && Probe.pixel(image, point(.pi / 4, 30)).g > 150)
            #expect(Probe.alpha(image, point(3 * .pi / 4, 30)) == 0)
            let copy = try #require(SnippetSuite.at(0.25) { timer.presentation() })
            #expect(copy.innerColor == timer.innerColor && abs(copy.outerValue - 0.25) < 1e-9)
        }

        /// A colour property animates component by component (RGBA, linearly here): red → blue is
        /// (0.5, 0, 0.5, 1) halfway, and that is what `draw(in:)` fills with.
        @Test func colorPropertyInterpolatesAndRedraws() throws {
            CAMediaClock.setManualTime(0)
            let swatch = ColorMorphLayer()
            swatch.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
            let morph = CABasicAnimation(keyPath: "color")
            morph.fromValue = UIColor.red.cgColor
            morph.toValue = UIColor.blue.cgColor
            morph.duration = 1
            swatch.add(morph, forKey: "morph")
            CATransaction.flush()
            let color = try #require(SnippetSuite.at(0.5) { swatch.presentation()?.color })
            let c = try #require(color.components)
            #expect(c.count == 4 && abs(c[0] - 0.5) < 1e-9 && c[1] == 0 && abs(c[2] - 0.5) < 1e-9 && c[3] == 1)
            let image = try CARenderer.image(of: swatch, size: CGSize(width: 10, height: 10), at: 0.5)
            let px = Probe.pixel(image, CGPoint(x: 5, y: 5))
            #expect(abs(Int(px.r) - 128) <= 1 && px.g == 0 && abs(Int(px.b) - 128) <= 1 && px.a == 255)
        }

        /// `display()` makes a bitmap of bounds × contentsScale pixels; a bitmap context's origin
        /// is bottom-left, so its band shows along the layer's bottom edge.
        @Test func layerMakesItsOwnContentsInDisplay() throws {
            let band = BottomBandLayer()
            band.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
            band.contentsScale = 2
            band.setNeedsDisplay()
            band.displayIfNeeded()
            let contents = try #require(band.contents.map { $0 as! CGImage })
            #expect(contents.width == 80 && contents.height == 40)
            let image = try CARenderer.image(of: band, size: CGSize(width: 40, height: 20), at: 0, scale: 2)
            #expect(Probe.alpha(image, CGPoint(x: 20, y: 18), scale: 2) == 1)
            #expect(Probe.alpha(image, CGPoint(x: 20, y: 2), scale: 2) == 0)
            #expect(Probe.alpha(image, CGPoint(x: 20, y: 14), scale: 2) == 0)
        }

        @Test func shimmerMaskLaysOutItsFadeLayer() {
            let mask = ShimmerMaskLayer()
            mask.bounds = CGRect(x: 0, y: 0, width: 120, height: 30)
            mask.layoutIfNeeded()
            #expect(mask.fadeLayer.bounds == mask.bounds && mask.fadeLayer.position == CGPoint(x: 60, y: 15))
            mask.bounds = CGRect(x: 0, y: 0, width: 200, height: 50)
            mask.layoutIfNeeded()
            #expect(mask.fadeLayer.bounds.size == CGSize(width: 200, height: 50) && mask.fadeLayer.position == CGPoint(x: 100, y: 25))
            #expect(mask.sublayers?.count == 1 && mask.colors?.count == 3)
        }

        /// `NSNull` as an action means none: a move is immediate; an opacity change still gets
        /// the default implicit animation (0.25 s).
        @Test func nullActionTurnsOffImplicitMoves() throws {
            CAMediaClock.setManualTime(0)
            let layer = NoImplicitMoveLayer()
            CATransaction.flush()
            layer.position = CGPoint(x: 40, y: 40)
            layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            #expect(layer.animationKeys() == nil)
            layer.opacity = 0.5
            let fade = try #require(layer.animation(forKey: "opacity") as? CABasicAnimation)
            #expect(fade.duration == 0.25)
            CATransaction.flush()
        }

        /// A circle path from `CGPath(ellipseIn:)` starts at (r, 0) and runs in the direction of
        /// increasing angle; paced over 4 s, after 1 s the offset is (0, r) (below, on screen) and
        /// after 0.5 s (r cos π/4, r sin π/4); auto-rotation turns the layer to the tangent
        /// (angle + π/2).
        @Test func orbitFollowsTheCircleAtConstantSpeed() throws {
            CAMediaClock.setManualTime(0)
            let satellite = CALayer()
            satellite.position = CGPoint(x: 100, y: 100)
            addOrbit(to: satellite, radius: 50, duration: 4)
            CATransaction.flush()
            let quarter = try #require(SnippetSuite.at(1) { satellite.presentation()?.position })
            #expect(abs(quarter.x - 100) < 0.05 && abs(quarter.y - 150) < 0.05)
            let eighth = try #require(SnippetSuite.at(0.5) { satellite.presentation()?.position })
            #expect(abs(eighth.x - (100 + 50 * cos(.pi / 4))) < 0.05 && abs(eighth.y - (100 + 50 * sin(.pi / 4))) < 0.05)
            let heading = try #require(Probe.keyPath(satellite, "transform.rotation.z", at: 0.5))
            #expect(abs(heading - 3 * .pi / 4) < 0.01)
        }
    }
}
