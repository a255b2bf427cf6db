// More custom layers as iOS code writes them: initializers of the
// layer's own with or without `init(layer:)`, a separate delegate that supplies actions,
// custom animatable properties drawn in `draw(in:)` (Apple's `@NSManaged`, Citrine's
// `@Animatable`), a layer that makes its own contents in `display()`, sublayers laid out in
// `layoutSublayers()`, actions switched off, and an orbit along a path. Written in the
// project's own words after patterns common in open-source iOS code. Compiled unchanged in
// Swift 6 mode (IOSSnippetsTests) and Swift 5 mode (IOSSnippetsSwift5Tests links this file).
import Foundation
import QuartzCore
import UIKit

/// A spinner arc: a shape layer made with `init(frame:)` only, spinning forever.
class SpinnerArcLayer: CAShapeLayer {
    init(frame: CGRect, color: UIColor) {
        super.init()
        self.frame = frame
        let radius = frame.height / 4
        let circle = UIBezierPath(arcCenter: CGPoint(x: frame.height / 2, y: frame.height / 2), radius: radius,
                                  startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        path = circle.cgPath
        fillColor = nil
        strokeColor = color.cgColor
        lineWidth = 2
        strokeEnd = 0.4
        isHidden = true
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    func startAnimation() {
        isHidden = false
        let rotate = CABasicAnimation(keyPath: "transform.rotation.z")
        rotate.fromValue = 0
        rotate.toValue = 2 * Double.pi
        rotate.duration = 0.4
        rotate.timingFunction = CAMediaTimingFunction(name: .linear)
        rotate.repeatCount = HUGE
        rotate.fillMode = .forwards
        rotate.isRemovedOnCompletion = false
        add(rotate, forKey: rotate.keyPath)
    }

    func stopAnimation() {
        isHidden = true
        removeAllAnimations()
    }
}

/// A pulse: a disc that grows and fades, made with its own initializer and `init(layer:)`.
class PulseLayer: CALayer {
    var radius: CGFloat
    var numberOfPulses: Float
    var animationDuration: TimeInterval = 3

    init(numberOfPulses: Float = .infinity, radius: CGFloat, position: CGPoint) {
        self.radius = radius
        self.numberOfPulses = numberOfPulses
        super.init()
        backgroundColor = UIColor.systemRed.cgColor
        contentsScale = 2
        opacity = 0
        bounds = CGRect(x: 0, y: 0, width: radius * 2, height: radius * 2)
        cornerRadius = radius
        self.position = position
        add(makePulse(), forKey: "pulse")
    }

    override init(layer: Any) {
        let pulse = layer as! PulseLayer
        radius = pulse.radius
        numberOfPulses = pulse.numberOfPulses
        animationDuration = pulse.animationDuration
        super.init(layer: layer)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    private func makePulse() -> CAAnimationGroup {
        let scale = CABasicAnimation(keyPath: "transform.scale")
        scale.fromValue = 0
        scale.toValue = 1
        scale.duration = animationDuration

        let opacity = CAKeyframeAnimation(keyPath: "opacity")
        opacity.duration = animationDuration
        opacity.values = [0.45, 0.45, 0]
        opacity.keyTimes = [0, 0.2, 1]

        let group = CAAnimationGroup()
        group.duration = animationDuration
        group.repeatCount = numberOfPulses
        group.timingFunction = CAMediaTimingFunction(name: .linear)
        group.animations = [scale, opacity]
        return group
    }
}

/// A ring that breathes, set up entirely in `override init()`; no `init(layer:)`.
class BreathingRingLayer: CAShapeLayer {
    override init() {
        super.init()
        path = UIBezierPath(ovalIn: CGRect(x: -10, y: -10, width: 20, height: 20)).cgPath
        fillColor = UIColor.systemTeal.cgColor

        let grow = CABasicAnimation(keyPath: "transform.scale")
        grow.fromValue = 1
        grow.toValue = 2
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0
        let breathe = CAAnimationGroup()
        breathe.animations = [grow, fade]
        breathe.duration = 1
        breathe.repeatCount = .infinity
        add(breathe, forKey: "breathe")
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }
}

/// A progress arc whose animations come from a separate delegate object: the layer only says
/// which of its properties need redrawing.
class DelegatedArcLayer: CAShapeLayer {
    @Animatable var angle: CGFloat = 0

    var progress: CGFloat = 0 {
        didSet { angle = 2 * .pi * progress }
    }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "angle" || super.needsDisplay(forKey: key)
    }
}

/// Supplies the arc's `angle` animation, starting from what is on screen.
final class ArcActionProvider: NSObject, CALayerDelegate {
    let duration: CFTimeInterval = 0.4

    func action(for layer: CALayer, forKey event: String) -> CAAction? {
        guard event == "angle" else { return nil }
        let animation = CABasicAnimation(keyPath: event)
        animation.fromValue = layer.presentation()?.value(forKey: event)
        animation.duration = duration
        return animation
    }
}

/// A two-ring countdown timer: two custom animatable values, both redrawn while they animate.
class TwinArcTimerLayer: CALayer {
    @Animatable var innerValue: CGFloat = 0
    @Animatable var outerValue: CGFloat = 0
    var innerColor = UIColor.systemGreen.cgColor
    var outerColor = UIColor.systemBlue.cgColor

    override init() {
        super.init()
    }

    override init(layer: Any) {
        let other = layer as? TwinArcTimerLayer
        innerColor = other?.innerColor ?? UIColor.systemGreen.cgColor
        outerColor = other?.outerColor ?? UIColor.systemBlue.cgColor
        super.init(layer: layer)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override class func needsDisplay(forKey key: String) -> Bool {
        if key == "innerValue" || key == "outerValue" {
            return true
        }
        return super.needsDisplay(forKey: key)
    }

    override func draw(in ctx: CGContext) {
        let centre = CGPoint(x: bounds.midX, y: bounds.midY)
        let outerRadius = min(bounds.width, bounds.height) / 2 - 5
        let start = -CGFloat.pi / 2
        ctx.setLineWidth(10)
        ctx.setLineCap(.butt)

        ctx.addArc(center: centre, radius: outerRadius, startAngle: start,
                   endAngle: start + 2 * .pi * outerValue, clockwise: false)
        ctx.setStrokeColor(outerColor)
        ctx.strokePath()

        ctx.addArc(center: centre, radius: outerRadius - 15, startAngle: start,
                   endAngle: start + 2 * .pi * innerValue, clockwise: false)
        ctx.setStrokeColor(innerColor)
        ctx.strokePath()
    }
}

/// A swatch whose colour is a custom animatable property (`@NSManaged var color: CGColor` on iOS).
class ColorMorphLayer: CALayer {
    @Animatable var color: CGColor = UIColor.red.cgColor

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "color" || super.needsDisplay(forKey: key)
    }

    override func draw(in ctx: CGContext) {
        ctx.setFillColor(color)
        ctx.fill(bounds)
    }
}

/// A layer that renders its own bitmap in `display()` instead of drawing in `draw(in:)`: a
/// band along its bottom edge, at its contents scale.
class BottomBandLayer: CALayer {
    var bandFraction: CGFloat = 0.25

    override func display() {
        let width = Int(bounds.width * contentsScale)
        let height = Int(bounds.height * contentsScale)
        guard width > 0, height > 0,
              let context = CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
                                      space: CGColorSpaceCreateDeviceRGB(),
                                      bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
        else { return }
        // A bitmap context's origin is its bottom-left corner.
        context.setFillColor(UIColor.systemIndigo.cgColor)
        context.fill(CGRect(x: 0, y: 0, width: CGFloat(width), height: CGFloat(height) * bandFraction))
        contents = context.makeImage()
    }
}

/// A shimmer mask: a gradient layer with a fade sublayer that follows its bounds.
class ShimmerMaskLayer: CAGradientLayer {
    let fadeLayer = CALayer()

    override init() {
        super.init()
        fadeLayer.backgroundColor = UIColor.white.cgColor
        addSublayer(fadeLayer)
        colors = [UIColor(white: 1, alpha: 0.3).cgColor, UIColor.white.cgColor, UIColor(white: 1, alpha: 0.3).cgColor]
        startPoint = CGPoint(x: 0, y: 0.5)
        endPoint = CGPoint(x: 1, y: 0.5)
    }

    override init(layer: Any) {
        super.init(layer: layer)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func layoutSublayers() {
        super.layoutSublayers()
        fadeLayer.bounds = bounds
        fadeLayer.position = CGPoint(x: bounds.midX, y: bounds.midY)
    }
}

/// A layer that moves without implicit animation but still fades with one.
class NoImplicitMoveLayer: CALayer {
    override func action(forKey event: String) -> CAAction? {
        if event == "position" || event == "bounds" {
            return NSNull()
        }
        return super.action(forKey: event)
    }
}

/// A satellite orbiting its model position along a circle, turned to face its direction of
/// travel, at constant speed.
func addOrbit(to satellite: CALayer, radius: CGFloat, duration: CFTimeInterval) {
    let orbit = CAKeyframeAnimation(keyPath: "position")
    orbit.path = CGPath(ellipseIn: CGRect(x: -radius, y: -radius, width: 2 * radius, height: 2 * radius), transform: nil)
    orbit.isAdditive = true
    orbit.calculationMode = .paced
    orbit.rotationMode = .rotateAuto
    orbit.duration = duration
    orbit.repeatCount = HUGE
    satellite.add(orbit, forKey: "orbit")
}
