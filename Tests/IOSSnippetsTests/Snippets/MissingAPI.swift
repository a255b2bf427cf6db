// API iOS code uses every day, written as in Apple's documentation.
import Foundation
import QuartzCore

func nsValueAnimations(on layer: CALayer) {
    let move = CABasicAnimation(keyPath: "position")
    move.fromValue = NSValue(cgPoint: CGPoint(x: 0, y: 0))
    move.toValue = NSValue(cgPoint: CGPoint(x: 100, y: 50))
    move.duration = 1
    move.repeatCount = HUGE_VALF
    layer.add(move, forKey: "move")

    let spin = CABasicAnimation(keyPath: "transform")
    spin.fromValue = NSValue(caTransform3D: CATransform3DIdentity)
    spin.toValue = NSValue(caTransform3D: CATransform3DMakeRotation(.pi, 0, 0, 1))
    spin.duration = 1
    spin.repeatCount = MAXFLOAT
    layer.add(spin, forKey: "spin")

    let grow = CABasicAnimation(keyPath: "bounds")
    grow.toValue = NSValue(cgRect: CGRect(x: 0, y: 0, width: 200, height: 100))
    layer.add(grow, forKey: "grow")
    let shadow = CABasicAnimation(keyPath: "shadowOffset")
    shadow.toValue = NSValue(cgSize: CGSize(width: 0, height: 6))
    layer.add(shadow, forKey: "shadow")
}

func readBoxedValues(_ animation: CABasicAnimation) -> (CGPoint, CATransform3D) {
    let point = (animation.fromValue as? NSValue)?.cgPointValue ?? .zero
    let transform = (animation.toValue as? NSValue)?.caTransform3DValue ?? CATransform3DIdentity
    return (point, transform)
}

func frameRates() -> Bool {
    let animation = CABasicAnimation(keyPath: "opacity")
    animation.preferredFrameRateRange = CAFrameRateRange(minimum: 30, maximum: 120, preferred: 60)
    let same = CAFrameRateRangeIsEqualToRange(animation.preferredFrameRateRange, CAFrameRateRangeMake(30, 120, 60))
    return same && CAFrameRateRange() == .default
}

func perceptualSpring() -> CASpringAnimation {
    let spring = CASpringAnimation(perceptualDuration: 0.5, bounce: 0.3)
    spring.keyPath = "position.y"
    spring.fromValue = 0
    spring.toValue = 100
    spring.duration = spring.settlingDuration
    return spring
}

final class FadeController {
    var finished = 0
    let layer = CALayer()

    func fadeOut() {
        CATransaction.begin()
        CATransaction.setAnimationDuration(0.5)
        CATransaction.setCompletionBlock {
            self.finished += 1
        }
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0
        layer.add(fade, forKey: "fade")
        CATransaction.commit()
    }
}

func keyValueCoding(shape: CAShapeLayer) -> Any? {
    shape.setValue("round", forKey: "lineCap")
    shape.setValue(CAShapeLayerLineJoin.bevel, forKey: "lineJoin")
    shape.setValue([4, 2], forKey: "lineDashPattern")
    shape.setValue(NSNumber(value: 0.5), forKey: "strokeEnd")
    return shape.value(forKey: "lineCap")
}

func copies(_ animation: CABasicAnimation, _ path: CGPath) -> (CABasicAnimation, CABasicAnimation, CGPath?, CGMutablePath?) {
    let copy = animation.copy() as! CABasicAnimation
    let mutable = animation.mutableCopy() as! CABasicAnimation
    return (copy, mutable, path.copy(), path.mutableCopy())
}

/// Delegates as iOS code writes them: `NSObject` subclasses (Apple's delegate protocols refine
/// `NSObjectProtocol`), implementing only the methods they need.
final class FadeObserver: NSObject, CAAnimationDelegate, CALayerDelegate {
    var stops = 0
    var completions = 0

    /// Fades `layer` out in a transaction with a completion block, this object as the delegate.
    func fadeOut(_ layer: CALayer, duration: CFTimeInterval) {
        CATransaction.begin()
        CATransaction.setCompletionBlock { [weak self] in self?.completions += 1 }
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.toValue = 0
        fade.duration = duration
        fade.delegate = self
        layer.add(fade, forKey: "fade")
        CATransaction.commit()
    }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        if flag { stops += 1 }
    }

    func draw(_ layer: CALayer, in ctx: CGContext) {
        ctx.setFillColor(CGColor(red: 0, green: 1, blue: 0, alpha: 1))
        ctx.fill(layer.bounds)
    }
}
