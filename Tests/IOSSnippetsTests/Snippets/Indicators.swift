// Loading indicators as open-source iOS code builds them: a
// replicator with an instance delay or alpha offset, rows and rings of shape layers each given
// the same keyframe group at a staggered begin time, stroke and path keyframes, and transforms
// from geometry strings. Written in the project's own words after those patterns. Compiled unchanged in Swift 6 mode (IOSSnippetsTests)
// and Swift 5 mode (IOSSnippetsSwift5Tests links this file).
import UIKit
import QuartzCore

/// A ring of dots that fade one after another: one dot, replicated `dotCount` times round the
/// centre, each copy's fade starting `duration / dotCount` after the previous one's.
func makeFadeRingSpinner(dotCount: Int = 12, duration: CFTimeInterval = 1) -> CAReplicatorLayer {
    let replicator = CAReplicatorLayer()
    replicator.frame = CGRect(x: 0, y: 0, width: 100, height: 100)

    let dot = CALayer()
    dot.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
    dot.position = CGPoint(x: 50, y: 10)
    dot.cornerRadius = 4
    dot.backgroundColor = UIColor.black.cgColor
    replicator.addSublayer(dot)

    replicator.instanceCount = dotCount
    replicator.instanceTransform = CATransform3DMakeRotation(-2 * .pi / CGFloat(dotCount), 0, 0, 1)
    replicator.instanceDelay = duration / Double(dotCount)

    let fade = CABasicAnimation(keyPath: "opacity")
    fade.fromValue = 1
    fade.toValue = 0
    fade.duration = duration
    fade.repeatCount = .greatestFiniteMagnitude
    dot.add(fade, forKey: "fade")
    return replicator
}

/// Bars round a circle, each fainter than the last (an alpha offset instead of a delay), the
/// whole wheel stepping round one bar at a time.
final class StepSpinnerView: UIView {
    let replicator = CAReplicatorLayer()
    let segments = 8

    override init(frame: CGRect) {
        super.init(frame: frame)
        replicator.frame = bounds
        layer.addSublayer(replicator)

        let bar = CALayer()
        bar.frame = CGRect(x: bounds.midX - 2, y: 0, width: 4, height: bounds.height / 4)
        bar.cornerRadius = 2
        bar.backgroundColor = UIColor.black.cgColor
        replicator.addSublayer(bar)

        replicator.instanceCount = segments
        replicator.instanceTransform = CATransform3DMakeRotation(2 * .pi / CGFloat(segments), 0, 0, 1)
        replicator.instanceAlphaOffset = -1 / Float(segments)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    func startAnimating() {
        let step = CAKeyframeAnimation(keyPath: "transform.rotation.z")
        step.values = (0..<segments).map { 2 * CGFloat.pi * CGFloat($0) / CGFloat(segments) }
        step.calculationMode = .discrete
        step.duration = 0.8
        step.repeatCount = HUGE
        replicator.add(step, forKey: "step")
    }
}

/// Eight balls on a circle that shrink and fade in turn: every ball gets the same group, each
/// starting 0.12 s after the previous one.
func addBallSpinFadeLoader(to layer: CALayer, size: CGSize, color: UIColor) -> [CAShapeLayer] {
    let ballSize = size.width / 5
    let radius = size.width / 2 - ballSize / 2
    let beginTime = CACurrentMediaTime()

    let scale = CAKeyframeAnimation(keyPath: "transform.scale")
    scale.keyTimes = [0, 0.5, 1]
    scale.values = [1, 0.4, 1]

    let opacity = CAKeyframeAnimation(keyPath: "opacity")
    opacity.keyTimes = [0, 0.5, 1]
    opacity.values = [1, 0.3, 1]

    let group = CAAnimationGroup()
    group.animations = [scale, opacity]
    group.timingFunction = CAMediaTimingFunction(name: .linear)
    group.duration = 1
    group.repeatCount = HUGE
    group.isRemovedOnCompletion = false

    var balls: [CAShapeLayer] = []
    for i in 0..<8 {
        let angle = CGFloat.pi / 4 * CGFloat(i)
        let ball = CAShapeLayer()
        let circle = UIBezierPath(arcCenter: CGPoint(x: ballSize / 2, y: ballSize / 2), radius: ballSize / 2,
                                  startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        ball.path = circle.cgPath
        ball.fillColor = color.cgColor
        ball.frame = CGRect(x: radius * (cos(angle) + 1), y: radius * (sin(angle) + 1),
                            width: ballSize, height: ballSize)
        group.beginTime = beginTime + 0.12 * Double(i)
        ball.add(group, forKey: "animation")
        layer.addSublayer(ball)
        balls.append(ball)
    }
    return balls
}

/// The overshooting curve three pulsing dots share.
let pulseCurveControlPoints: (Float, Float, Float, Float) = (0.2, 0.68, 0.18, 1.08)

/// Three dots in a row, each shrinking to 0.3 and springing back, one after the other.
func addThreeDotPulse(to layer: CALayer, size: CGSize, color: UIColor) -> [CAShapeLayer] {
    let spacing: CGFloat = 2
    let dotSize = (size.width - 2 * spacing) / 3
    let c = pulseCurveControlPoints
    let curve = CAMediaTimingFunction(controlPoints: c.0, c.1, c.2, c.3)
    let beginTime = CACurrentMediaTime()
    let delays: [CFTimeInterval] = [0.12, 0.24, 0.36]

    let pulse = CAKeyframeAnimation(keyPath: "transform.scale")
    pulse.keyTimes = [0, 0.3, 1]
    pulse.timingFunctions = [curve, curve]
    pulse.values = [1, 0.3, 1]
    pulse.duration = 0.75
    pulse.repeatCount = HUGE
    pulse.isRemovedOnCompletion = false

    return (0..<3).map { i in
        let dot = CAShapeLayer()
        dot.path = UIBezierPath(ovalIn: CGRect(x: 0, y: 0, width: dotSize, height: dotSize)).cgPath
        dot.fillColor = color.cgColor
        dot.frame = CGRect(x: (dotSize + spacing) * CGFloat(i), y: (size.height - dotSize) / 2,
                           width: dotSize, height: dotSize)
        pulse.beginTime = beginTime + delays[i]
        dot.add(pulse, forKey: "pulse")
        layer.addSublayer(dot)
        return dot
    }
}

/// Equalizer bars that grow from their bottom edge (anchor point at the bottom middle).
func addEqualizerBars(to layer: CALayer, count: Int, barSize: CGSize, gap: CGFloat, color: UIColor) -> [CAShapeLayer] {
    let beginTime = CACurrentMediaTime()
    let bounce = CAKeyframeAnimation(keyPath: "transform.scale.y")
    bounce.values = [1, 0.4, 1]
    bounce.keyTimes = [0, 0.5, 1]
    bounce.duration = 1
    bounce.repeatCount = .infinity
    bounce.isRemovedOnCompletion = false

    return (0..<count).map { i in
        let bar = CAShapeLayer()
        bar.path = UIBezierPath(roundedRect: CGRect(origin: .zero, size: barSize), cornerRadius: barSize.width / 2).cgPath
        bar.fillColor = color.cgColor
        bar.anchorPoint = CGPoint(x: 0.5, y: 1)
        bar.bounds = CGRect(origin: .zero, size: barSize)
        bar.position = CGPoint(x: CGFloat(i) * (barSize.width + gap) + barSize.width / 2, y: barSize.height)
        bounce.beginTime = beginTime + 0.1 * Double(i)
        bar.add(bounce, forKey: "bounce")
        layer.addSublayer(bar)
        return bar
    }
}

/// The curve both stroke ends of the material spinner follow.
let strokeCurveControlPoints: (Float, Float, Float, Float) = (0.4, 0, 0.2, 1)

/// A material-style spinner: a ring whose end runs ahead and whose start catches up while the
/// whole ring turns.
func makeStrokeSpinner(size: CGFloat, color: UIColor) -> CAShapeLayer {
    let ring = CAShapeLayer()
    ring.frame = CGRect(x: 0, y: 0, width: size, height: size)
    ring.path = UIBezierPath(arcCenter: CGPoint(x: size / 2, y: size / 2), radius: size / 2 - 2,
                             startAngle: -.pi / 2, endAngle: 3 * .pi / 2, clockwise: true).cgPath
    ring.fillColor = nil
    ring.strokeColor = color.cgColor
    ring.lineWidth = 2

    let c = strokeCurveControlPoints
    let curve = CAMediaTimingFunction(controlPoints: c.0, c.1, c.2, c.3)

    let rotation = CABasicAnimation(keyPath: "transform.rotation")
    rotation.byValue = 2 * Float.pi
    rotation.timingFunction = CAMediaTimingFunction(name: .linear)
    rotation.duration = 1.7

    let end = CABasicAnimation(keyPath: "strokeEnd")
    end.duration = 0.7
    end.fromValue = 0
    end.toValue = 1
    end.timingFunction = curve

    let start = CABasicAnimation(keyPath: "strokeStart")
    start.beginTime = 0.5
    start.duration = 1.2
    start.fromValue = 0
    start.toValue = 1
    start.timingFunction = curve

    let group = CAAnimationGroup()
    group.animations = [rotation, end, start]
    group.duration = 1.7
    group.repeatCount = .infinity
    group.isRemovedOnCompletion = false
    group.fillMode = .forwards
    ring.add(group, forKey: "spin")
    return ring
}

/// A pac-man: a circle stroked as wide as its diameter is a disc, and the mouth is the gap
/// between the stroke's end and its start.
func makePacman(size: CGFloat, color: UIColor) -> CAShapeLayer {
    let pacman = CAShapeLayer()
    pacman.frame = CGRect(x: 0, y: 0, width: size, height: size)
    pacman.path = UIBezierPath(arcCenter: CGPoint(x: size / 2, y: size / 2), radius: size / 4,
                               startAngle: 0, endAngle: 2 * .pi, clockwise: true).cgPath
    pacman.fillColor = nil
    pacman.strokeColor = color.cgColor
    pacman.lineWidth = size / 2

    let start = CAKeyframeAnimation(keyPath: "strokeStart")
    start.values = [0.125, 0.0, 0.125]
    let end = CAKeyframeAnimation(keyPath: "strokeEnd")
    end.values = [0.875, 1.0, 0.875]

    let chomp = CAAnimationGroup()
    chomp.animations = [start, end]
    chomp.duration = 0.5
    chomp.repeatCount = HUGE
    chomp.isRemovedOnCompletion = false
    pacman.add(chomp, forKey: "chomp")
    return pacman
}

/// A three-quarter ring that turns while it shrinks and grows back.
func makeClipRotateRing(size: CGFloat, color: UIColor) -> CAShapeLayer {
    let ring = CAShapeLayer()
    ring.frame = CGRect(x: 0, y: 0, width: size, height: size)
    ring.path = UIBezierPath(arcCenter: CGPoint(x: size / 2, y: size / 2), radius: size / 2 - 1.5,
                             startAngle: -3 * .pi / 4, endAngle: -.pi / 4, clockwise: false).cgPath
    ring.fillColor = nil
    ring.strokeColor = color.cgColor
    ring.lineWidth = 3

    let scale = CAKeyframeAnimation(keyPath: "transform.scale")
    scale.keyTimes = [0, 0.5, 1]
    scale.values = [1, 0.6, 1]

    let rotate = CAKeyframeAnimation(keyPath: "transform.rotation.z")
    rotate.keyTimes = scale.keyTimes
    rotate.values = [0, Double.pi, 2 * Double.pi]

    let group = CAAnimationGroup()
    group.animations = [scale, rotate]
    group.timingFunction = CAMediaTimingFunction(name: .linear)
    group.duration = 0.75
    group.repeatCount = HUGE
    group.isRemovedOnCompletion = false
    ring.add(group, forKey: "animation")
    return ring
}

/// Where each ball of the triangle loader stops, as geometry strings (relative to its start).
let triangleTourStops = ["{0,0}", "{20,-35}", "{40,0}", "{0,0}"]

/// A ball touring the corners of a triangle: translation keyframes from geometry strings.
func makeTriangleTourAnimation() -> CAKeyframeAnimation {
    let tour = CAKeyframeAnimation(keyPath: "transform")
    tour.keyTimes = [0, 0.33, 0.66, 1]
    tour.timingFunctions = Array(repeating: CAMediaTimingFunction(name: .easeInEaseOut), count: 3)
    tour.values = triangleTourStops.map { stop -> NSValue in
        let point = NSCoder.cgPoint(for: stop)
        return NSValue(caTransform3D: CATransform3DMakeTranslation(point.x, point.y, 0))
    }
    tour.duration = 2
    tour.repeatCount = HUGE
    tour.isRemovedOnCompletion = false
    return tour
}

/// Bar heights of the path equalizer, one keyframe each.
let pathEqualizerHeights: [CGFloat] = [10, 30, 20, 40]

/// An equalizer bar whose path itself is keyframed: one rectangle per height, standing on the
/// bottom edge of a 40-point-high layer.
func makePathEqualizerBar(width: CGFloat) -> CAShapeLayer {
    let bar = CAShapeLayer()
    bar.frame = CGRect(x: 0, y: 0, width: width, height: 40)
    bar.fillColor = UIColor.systemGreen.cgColor
    let paths = pathEqualizerHeights.map { h in
        UIBezierPath(rect: CGRect(x: 0, y: 40 - h, width: width, height: h)).cgPath
    }
    bar.path = paths[0]
    let morph = CAKeyframeAnimation(keyPath: "path")
    morph.values = paths
    morph.keyTimes = [0, NSNumber(value: 1.0 / 3), NSNumber(value: 2.0 / 3), 1]
    morph.duration = 3
    morph.repeatCount = .infinity
    bar.add(morph, forKey: "morph")
    return bar
}

/// Ripples: rings that stay invisible for the first 30 % of their cycle, then jump to 0.6 of
/// their size and spread out while fading; three of them a fifth of a second apart.
func addRippleRings(to layer: CALayer, size: CGFloat, color: UIColor) -> [CAShapeLayer] {
    let beginTime = CACurrentMediaTime()
    let scale = CAKeyframeAnimation(keyPath: "transform.scale")
    scale.keyTimes = [0, 0.3, 0.3, 1]
    scale.values = [0, 0, 0.6, 1.2]

    let fade = CAKeyframeAnimation(keyPath: "opacity")
    fade.keyTimes = [0, 0.7, 1]
    fade.timingFunctions = [CAMediaTimingFunction(name: .easeOut), CAMediaTimingFunction(name: .linear)]
    fade.values = [1, 0.7, 0]

    let ripple = CAAnimationGroup()
    ripple.animations = [scale, fade]
    ripple.duration = 1.25
    ripple.repeatCount = HUGE
    ripple.isRemovedOnCompletion = false

    return [0.0, 0.2, 0.4].map { delay in
        let ring = CAShapeLayer()
        ring.frame = CGRect(x: 0, y: 0, width: size, height: size)
        ring.path = UIBezierPath(arcCenter: CGPoint(x: size / 2, y: size / 2), radius: size / 2 - 1,
                                 startAngle: 0, endAngle: 2 * .pi, clockwise: false).cgPath
        ring.fillColor = nil
        ring.strokeColor = color.cgColor
        ring.lineWidth = 2
        ripple.beginTime = beginTime + delay
        ring.add(ripple, forKey: "ripple")
        layer.addSublayer(ring)
        return ring
    }
}

/// A square that flips over its horizontal axis, then its vertical one, under a perspective
/// set on its container.
func makeFlipSquare(in container: CALayer, size: CGFloat) -> CALayer {
    var perspective = CATransform3DIdentity
    perspective.m34 = -1 / 120
    container.sublayerTransform = perspective

    let square = CALayer()
    square.bounds = CGRect(x: 0, y: 0, width: size, height: size)
    square.position = CGPoint(x: container.bounds.midX, y: container.bounds.midY)
    square.backgroundColor = UIColor.systemOrange.cgColor
    container.addSublayer(square)

    let overX = CATransform3DMakeRotation(.pi, 1, 0, 0)
    let flip = CAKeyframeAnimation(keyPath: "transform")
    flip.keyTimes = [0, 0.5, 1]
    flip.values = [
        NSValue(caTransform3D: CATransform3DIdentity),
        NSValue(caTransform3D: overX),
        NSValue(caTransform3D: CATransform3DRotate(overX, .pi, 0, 1, 0)),
    ]
    flip.duration = 3
    flip.repeatCount = HUGE
    square.add(flip, forKey: "flip")
    return square
}
