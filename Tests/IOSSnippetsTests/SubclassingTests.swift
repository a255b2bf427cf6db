import Foundation
import QuartzCore
import Testing

extension SnippetSuite {
    /// Item 1: subclasses written as on iOS compile (Snippets/Subclassing.swift) and behave:
    /// presentation copies are instances of the subclass made through its `init(layer:)`.
    @Suite struct SubclassingTests {
        @Test func presentationCopiesAreMadeThroughTheSubclassInitLayer() throws {
            CAMediaClock.setManualTime(0)
            let ring = Ring()
            ring.lineWidthFactor = 0.3
            CATransaction.flush()
            let first = try #require(ring.presentation())
            // `lineWidthFactor` is a plain stored property: only Ring's init(layer:) copies it.
            #expect(first.lineWidthFactor == 0.3 && first !== ring)
            #expect(first.model() === ring && ring.needsDisplayOnBoundsChange)
            ring.lineWidthFactor = 0.6
            #expect(try #require(ring.presentation()).lineWidthFactor == 0.6)
            // A copy taken earlier stays usable after its model is gone.
            weak var gone: Ring?
            let kept: Ring = try {
                let r = Ring()
                gone = r
                CATransaction.flush()
                let p = try #require(r.presentation())
                _ = r.presentation()
                return p
            }()
            #expect(gone != nil && kept.model() === gone)
        }

        @Test func everyKindOfSubclassKeepsItsClassAndValues() throws {
            CAMediaClock.setManualTime(0)
            let tagged = TaggedLayer(), badge = BadgeShapeLayer(), sunset = SunsetGradientLayer(), spinner = SpinnerLayer()
            CATransaction.flush()
            #expect(type(of: try #require(tagged.presentation())) == TaggedLayer.self)
            let b = try #require(badge.presentation())
            #expect(b.lineCap == .round && b.lineWidth == 4 && b.fillColor == nil)
            let s = try #require(sunset.presentation())
            #expect(s.colors?.count == 2 && s.endPoint == CGPoint(x: 1, y: 1))
            let r = try #require(spinner.presentation())
            #expect(r.instanceCount == 12 && abs(r.instanceDelay - 1.0 / 12) < 1e-12)
            // Apple's default values reach subclasses.
            #expect(Ring.defaultValue(forKey: "opacity") as? Float == 1)
        }

        @Test func animationSubclassesCopyAsOnIOS() throws {
            CAMediaClock.setManualTime(0)
            let tagged = TaggedAnimation()
            tagged.keyPath = "opacity"
            tagged.tag = "fade"
            let layer = CALayer()
            layer.add(tagged, forKey: "t")
            // add(_:forKey:) copies the animation: through the subclass's copy(with:) override.
            let added = try #require(layer.animation(forKey: "t") as? TaggedAnimation)
            #expect(added !== tagged && added.tag == "fade")
            let fade = FadeOutAnimation()
            let copy = try #require(fade.copy() as? FadeOutAnimation)
            #expect(copy.keyPath == "opacity" && copy.toValue as? Int == 0 && copy.duration == 0.5)
            let made = FadeOutAnimation.animation()
            #expect(made.keyPath == "opacity")
            #expect((TimerAnimation().mutableCopy() as? TimerAnimation)?.duration == 1)
        }
    }
}
