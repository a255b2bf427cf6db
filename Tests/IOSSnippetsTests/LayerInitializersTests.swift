import Foundation
import QuartzCore
import Testing
import UIKit

extension SnippetSuite {
    /// Snippets/LayerInitializers.swift: subclasses with initializers of their own compile as on
    /// iOS, and their presentation copies are of their class with their stored properties.
    @Suite struct LayerInitializersTests {
        @Test func aLayerWithItsOwnInitializerAnimatesAndCopiesItsProperties() throws {
            CAMediaClock.setManualTime(0)
            let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            let dot = ColorDotLayer(color: red, diameter: 12)
            dot.diameter = 14
            let move = CABasicAnimation(keyPath: "position.x")
            move.fromValue = 0
            move.toValue = 100
            move.duration = 1
            dot.add(move, forKey: "move")
            CATransaction.flush()
            let p = try #require(SnippetSuite.at(0.25) { dot.presentation() })
            // Linear timing is not the default: the default curve at 0.25 of the way.
            #expect(p !== dot && p.dotColor == red && p.diameter == 14 && p.cornerRadius == 6)
            #expect(p.position.x > 0 && p.position.x < 100)
            #expect(p.model() === dot)
        }

        @Test func aLayerWithItsOwnInitLayerKeepsWhatItCopies() throws {
            CAMediaClock.setManualTime(0)
            let ring = PulseRingLayer(maxRadius: 30, pulses: 3)
            ring.startPulsing()
            CATransaction.flush()
            let p = try #require(SnippetSuite.at(1) { ring.presentation() })
            #expect(p.maxRadius == 30 && p.pulseCount == 3 && p.path?.boundingBox.width == 60)
            // Halfway through a linear scale 0 → 1 and opacity 1 → 0 (closed form of the
            // default timing is not needed: both run on the group's one clock).
            let scale = try #require(p.value(forKeyPath: "transform.scale") as? CGFloat)
            #expect(scale > 0 && scale < 1)
            let group = try #require(ring.animation(forKey: "pulse") as? CAAnimationGroup)
            #expect(group.repeatCount == 3 && group.duration == 2)
        }

        @Test func presentationCopiesAreMadeThroughTheClassesInitLayer() throws {
            CAMediaClock.setManualTime(0)
            let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            let layer = CopyAwareLayer(tint: red)
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 1
            fade.toValue = 0
            fade.duration = 1
            layer.add(fade, forKey: "fade")
            CATransaction.flush()
            let copy = try #require(SnippetSuite.at(0.5) { layer.presentation() })
            // Apple: Core Animation makes presentation copies through init(layer:).
            #expect(!layer.isCopy && copy.isCopy && copy.backgroundColor == red)
            // A class that inherits init(layer:) gets Apple's: its own plain stored properties
            // keep their initial values in the copy (copying them is what an override is for).
            let tagged = TaggedLayer()
            tagged.tag = 7
            CATransaction.flush()
            #expect(try #require(tagged.presentation()).tag == 0)
        }

        @Test func aLayerSetUpInInitWithoutInitLayerIsCopiedWithoutRunningInitAgain() throws {
            CAMediaClock.setManualTime(0)
            let square = SpinningSquareLayer()
            let owner = NSObject()
            square.owner = owner
            square.label = "spinner"
            square.spin()
            CATransaction.flush()
            let p = try #require(SnippetSuite.at(0.5) { square.presentation() })
            // The copy holds the model's stored values (a weak reference and a lazy value
            // included); its `init()` was not run again.
            #expect(p.setUpCount == 1 && p.owner === owner && p.label == "spinner")
            #expect(p.bounds.width == 20)
            let angle = try #require(p.value(forKeyPath: "transform.rotation.z") as? CGFloat)
            #expect(angle > 0 && angle < .pi)
        }

        @Test func aCustomPropertyAnimatesInALayerWithItsOwnInitializer() throws {
            CAMediaClock.setManualTime(0)
            let arc = ArcProgressLayer(trackWidth: 6)
            let fill = CABasicAnimation(keyPath: "progress")
            fill.fromValue = 0
            fill.toValue = 1
            fill.duration = 2
            fill.timingFunction = CAMediaTimingFunction(name: .linear)
            arc.add(fill, forKey: "fill")
            CATransaction.flush()
            let p = try #require(SnippetSuite.at(0.5) { arc.presentation() })
            // Linear 0 → 1 over 2 s, at 0.5 s: 0.25.
            #expect(abs(p.progress - 0.25) < 1e-9 && p.trackWidth == 6)
            #expect(ArcProgressLayer.defaultValue(forKey: "progress") as? CGFloat == 0)
            #expect(arc._drawsAnimatedContent)
        }

        @Test func overriddenPropertiesRunTheirObservers() throws {
            let arc = ObservedArcLayer()
            arc.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
            arc.lineWidth = 10
            #expect(arc.rebuilds == 2)
            // Radius (100 − 10) / 2 = 45 about (50, 50): three quarters from the top (−π/2)
            // counterclockwise in y-up terms to π, so its box reaches x = 5 and y = 95.
            let box = try #require(arc.path?.boundingBox)
            #expect(abs(box.minX - 5) < 1e-6 && abs(box.maxX - 95) < 1e-6)
            // Setting through key-value coding reaches the override too.
            arc.setValue(20, forKey: "lineWidth")
            #expect(arc.rebuilds == 3 && arc.lineWidth == 20)
        }

        @Test func aViewMakesItsLayerThroughTheLayerClassInit() throws {
            final class SquareView: UIView {
                override class var layerClass: AnyClass { SpinningSquareLayer.self }
            }
            let view = SquareView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
            let layer = try #require(view.layer as? SpinningSquareLayer)
            // SpinningSquareLayer's `override init()` ran once, then the view set the frame.
            #expect(layer.setUpCount == 1 && layer.bounds.width == 40)
        }

        @Test func anAnimationWithItsOwnInitializerIsCopiedWhenAdded() throws {
            CAMediaClock.setManualTime(0)
            let layer = CALayer()
            layer.add(DelayedFadeAnimation(delay: 0.5), forKey: "fade")
            let added = try #require(layer.animation(forKey: "fade") as? DelayedFadeAnimation)
            #expect(added.delay == 0.5 && added.keyPath == "opacity" && added.toValue as? Int == 0)
            CATransaction.flush()
            // Opacity stays 1 until the delay has passed, then fades linearly… with the default
            // curve: strictly between 0 and 1 at 1 s.
            #expect(SnippetSuite.at(0.25) { layer.presentation()?.opacity } == 1)
            let mid = try #require(SnippetSuite.at(1) { layer.presentation()?.opacity })
            #expect(mid > 0 && mid < 1)
        }
    }
}
