// Apple's documented timing details: the examples as Apple's documentation gives them.
import Foundation
import QuartzCore

/// The worked example of `CASpringAnimation.settlingDuration` ("approximately 2.85 seconds").
func documentedSpring(damping: CGFloat) -> CASpringAnimation {
    let spring = CASpringAnimation()

    spring.keyPath = "position.x"
    spring.fromValue = 0
    spring.toValue = 640
    spring.damping = damping
    spring.duration = 2
    return spring
}

/// Paced keyframes of a number: constant speed, keyTimes and timingFunctions ignored.
func pacedOpacity(mode: CAAnimationCalculationMode) -> CAKeyframeAnimation {
    let animation = CAKeyframeAnimation(keyPath: "zPosition")
    animation.values = [0, 10, 40, 50]
    animation.keyTimes = [0, 0.9, 0.95, 1]
    animation.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeOut),
                                 CAMediaTimingFunction(name: .easeInEaseOut)]
    animation.calculationMode = mode
    animation.duration = 5
    return animation
}

/// A basic animation with no values: from the previous value to the current one.
func implicitStyleFade(_ layer: CALayer) {
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    layer.opacity = 0
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.duration = 1
    layer.add(fade, forKey: "fade")
    CATransaction.commit()
}
