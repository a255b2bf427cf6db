import Foundation
import QuartzCore
import Testing
import UIKit

extension SnippetSuite {
    /// Snippets/KnobControl.swift: UIControl's tracking hooks as Apple documents them
    /// (`beginTracking` / `continueTracking` return whether tracking goes on and set
    /// `isTracking`; `endTracking` follows a touch still tracked), colour literals, weighted
    /// and text-style system fonts, `awakeFromNib`, layout margins and a mask view.
    @Suite struct KnobControlTests {
        /// The knob's value is the touch's clockwise angle from 12 o'clock over 2π: at the
        /// right, bottom, left and top of the centre (40 points out) 0.25, 0.5, 0.75 and 0. The knob's own
        /// `continueTracking` stops tracking at its third move: later moves reach neither it
        /// nor `endTracking`, while the control events go on.
        @Test func trackingHooksFollowTheTouch() {
            CAMediaClock.setManualTime(0)
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
            window.makeKeyAndVisible()
            let knob = KnobControl(frame: CGRect(x: 10, y: 10, width: 100, height: 100))
            window.addSubview(knob)
            var changes = 0, upInside = 0
            knob.addAction(UIAction { _ in changes += 1 }, for: .valueChanged)
            knob.addAction(UIAction { _ in upInside += 1 }, for: .touchUpInside)
            let app = UIApplication.shared
            app.sendPointerEvent(.began, at: CGPoint(x: 100, y: 60), timestamp: 0.1, in: window)
            #expect(knob.isTracking && knob.isTouchInside && knob.value == 0.25 && knob.valueLabel.text == "25%")
            app.sendPointerEvent(.moved, at: CGPoint(x: 60, y: 100), timestamp: 0.2, in: window)
            #expect(knob.value == 0.5 && knob.isTracking)
            app.sendPointerEvent(.moved, at: CGPoint(x: 20, y: 60), timestamp: 0.3, in: window)
            #expect(knob.value == 0.75 && knob.isTracking)
            app.sendPointerEvent(.moved, at: CGPoint(x: 60, y: 20), timestamp: 0.4, in: window)
            #expect(knob.value == 0 && !knob.isTracking && knob.trackedMoves == 3)
            app.sendPointerEvent(.moved, at: CGPoint(x: 100, y: 60), timestamp: 0.5, in: window)
            #expect(knob.value == 0 && knob.trackedMoves == 3 && knob.isHighlighted)
            app.sendPointerEvent(.ended, at: CGPoint(x: 100, y: 60), timestamp: 0.6, in: window)
            #expect(!knob.didEndTracking && !knob.isHighlighted && !knob.isTouchInside)
            #expect(changes == 4 && upInside == 1)

            // A touch that lifts while tracked reaches endTracking.
            app.sendPointerEvent(.began, at: CGPoint(x: 60, y: 60), timestamp: 1.1, in: window)
            app.sendPointerEvent(.ended, at: CGPoint(x: 60, y: 60), timestamp: 1.2, in: window)
            #expect(knob.didEndTracking && !knob.isTracking && upInside == 2)
        }

        /// `cancelTracking(with:)`'s default ends tracking and clears the highlight (Apple).
        @Test func cancellingEndsTracking() {
            CAMediaClock.setManualTime(0)
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            window.makeKeyAndVisible()
            let control = UIControl(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
            window.addSubview(control)
            var cancels = 0
            control.addAction(UIAction { _ in cancels += 1 }, for: .touchCancel)
            UIApplication.shared.sendPointerEvent(.began, at: CGPoint(x: 10, y: 10), timestamp: 0.1, in: window)
            #expect(control.isTracking && control.isHighlighted)
            UIApplication.shared.sendPointerEvent(.cancelled, at: CGPoint(x: 10, y: 10), timestamp: 0.2, in: window)
            #expect(!control.isTracking && !control.isHighlighted && cancels == 1)
        }

        /// `#colorLiteral` makes the sRGB `UIColor(red:green:blue:alpha:)` (the literal's
        /// `Float` components widened).
        @Test func colourLiteralsAreSRGBColours() {
            let knob = KnobControl(frame: .zero)
            #expect(knob.trackColor == UIColor(red: CGFloat(Float(0.2)), green: CGFloat(Float(0.4)), blue: CGFloat(Float(0.8)), alpha: 1))
            let literal: UIColor = #colorLiteral(red: 1, green: 0.5, blue: 0, alpha: 1)
            #expect(literal == UIColor(red: 1, green: 0.5, blue: 0, alpha: 1))
        }

        /// The label's font is the 15-point semibold system font; after `awakeFromNib` (which
        /// Citrine never calls itself: no nibs) the headline style, 17-point semibold (Apple's
        /// HIG, Dynamic Type sizes, Large). The label fills the bounds less the default 8-point
        /// layout margins (Apple's documented default for a view that is not a root view).
        @Test func fontsMarginsAndAwakeFromNib() {
            let knob = KnobControl(frame: CGRect(x: 0, y: 0, width: 100, height: 60))
            #expect(knob.valueLabel.font.fontName == ".SFUI-Semibold" && knob.valueLabel.font.pointSize == 15)
            knob.awakeFromNib()
            #expect(knob.valueLabel.font == UIFont.systemFont(ofSize: 17, weight: .semibold))
            knob.layoutIfNeeded()
            #expect(knob.valueLabel.frame == CGRect(x: 8, y: 8, width: 84, height: 44))
            knob.layoutMargins = .zero
            knob.layoutIfNeeded()
            #expect(knob.valueLabel.frame == knob.bounds)
        }

        /// The mask view's layer is the layer's mask: the orange shows only inside the circle
        /// (radius 25 about (25, 25)), clear elsewhere.
        @Test func maskViewShowsContentThroughItsAlpha() throws {
            let view = SpotlightView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            #expect(view.layer.mask === view.spot.layer)
            let image = try CARenderer.image(of: view.layer, size: view.bounds.size, at: 0, scale: 1)
            let inside = Probe.pixel(image, CGPoint(x: 25, y: 25)), outside = Probe.pixel(image, CGPoint(x: 75, y: 75))
            #expect([inside.r, inside.g, inside.b, inside.a] == [255, 128, 0, 255] || [inside.r, inside.g, inside.b, inside.a] == [255, 127, 0, 255])
            #expect(outside.a == 0)
        }
    }
}
