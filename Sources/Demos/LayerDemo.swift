import Compositor
import QuartzCore
import Raster

// Layer-only scenes of seven seed examples, on the public QuartzCore API alone: a plain layer
// tree with its animations, which any number of threads can build at once (the seed demos share
// `UIApplication.shared`). The export benchmark's wall and the renderer's golden images use
// them; the `citrine` commands use `SeedDemo.all`.

/// One layer-only scene: a layer tree with its animations.
public struct LayerDemo: Sendable {
    public let name: String
    /// The seed tutorials the scene comes from (`../shared/seeds/`), by number.
    public let seeds: [Int]
    /// Size of the scene in points.
    public let size: CGSize
    /// Seconds of the scene's natural span: one period of its repeating animations (a seamless
    /// loop when sampled half-open), or the whole of a one-shot animation.
    public let span: CFTimeInterval
    /// Builds the layer tree and adds its animations at media time 0.
    public let build: @Sendable () -> CALayer

    public init(name: String, seeds: [Int], size: CGSize, span: CFTimeInterval, build: @escaping @Sendable () -> CALayer) {
        self.name = name
        self.seeds = seeds
        self.size = size
        self.span = span
        self.build = build
    }

    public static let all: [LayerDemo] = [
        LayerDemo(name: "falling-petal", seeds: [3], size: CGSize(width: 160, height: 240), span: 4, build: fallingPetal),
        LayerDemo(name: "volume-bars", seeds: [0], size: CGSize(width: 160, height: 120), span: 0.6, build: volumeBars),
        LayerDemo(name: "activity-indicator", seeds: [0], size: CGSize(width: 120, height: 120), span: 1, build: activityIndicator),
        LayerDemo(name: "ball-loader", seeds: [2], size: CGSize(width: 200, height: 120), span: 1.5, build: ballLoader),
        LayerDemo(name: "sticky-bubble", seeds: [0, 1], size: CGSize(width: 200, height: 200), span: 1, build: stickyBubble),
        LayerDemo(name: "reflection", seeds: [0], size: CGSize(width: 200, height: 240), span: 2, build: reflection),
        LayerDemo(name: "fold-image", seeds: [0], size: CGSize(width: 200, height: 220), span: 2, build: foldImage),
    ]

    /// Builds `demo` at media time 0 and returns its root layer, committed.
    public static func start(_ demo: LayerDemo) -> CALayer {
        CAMediaClock.setManualTime(0)
        let root = demo.build()
        CATransaction.flush()
        return root
    }

    /// One frame of a started scene at media time `t`, over the gallery's background.
    public static func frame(_ demo: LayerDemo, root: CALayer, at t: CFTimeInterval, scale: CGFloat) throws -> CGImage {
        CAMediaClock.setManualTime(t)
        return try CARenderer.image(of: root, size: demo.size, at: t, scale: scale, background: Gallery.background)
    }

    static func color(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor {
        CGColor(red: r, green: g, blue: b, alpha: a)
    }

    static func root(_ size: CGSize) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        return root
    }

    // MARK: - Scenes

    static func fallingPetal() -> CALayer {
        let root = root(CGSize(width: 160, height: 240))
        let petal = CAShapeLayer()
        petal.bounds = CGRect(x: 0, y: 0, width: 24, height: 36)
        petal.position = CGPoint(x: 40, y: 30)
        let shape = CGMutablePath()
        shape.move(to: CGPoint(x: 12, y: 0))
        shape.addCurve(to: CGPoint(x: 12, y: 36), control1: CGPoint(x: 30, y: 8), control2: CGPoint(x: 24, y: 30))
        shape.addCurve(to: CGPoint(x: 12, y: 0), control1: CGPoint(x: 0, y: 30), control2: CGPoint(x: -6, y: 8))
        petal.path = shape
        petal.fillColor = color(0.93, 0.45, 0.6)
        root.addSublayer(petal)
        let path = CGMutablePath()
        path.move(to: petal.position)
        path.addCurve(to: CGPoint(x: 110, y: 210), control1: CGPoint(x: 150, y: 60), control2: CGPoint(x: 0, y: 150))
        let fall = CAKeyframeAnimation(keyPath: "position")
        fall.path = path
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0
        spin.toValue = 2 * CGFloat.pi
        let group = CAAnimationGroup()
        group.animations = [fall, spin]
        group.duration = 4
        group.fillMode = .forwards
        group.isRemovedOnCompletion = false
        petal.add(group, forKey: "fall")
        return root
    }

    static func volumeBars() -> CALayer {
        let root = root(CGSize(width: 160, height: 120))
        let replicator = CAReplicatorLayer()
        replicator.frame = CGRect(x: 20, y: 10, width: 130, height: 100)
        replicator.instanceCount = 3
        replicator.instanceTransform = CATransform3DMakeTranslation(45, 0, 0)
        replicator.instanceDelay = 0.1
        replicator.instanceColor = color(0.2, 0.55, 0.95)
        replicator.instanceGreenOffset = -0.2
        let bar = CALayer()
        bar.backgroundColor = color(1, 1, 1)
        bar.anchorPoint = CGPoint(x: 0.5, y: 1)
        bar.bounds = CGRect(x: 0, y: 0, width: 30, height: 100)
        bar.position = CGPoint(x: 15, y: 100)
        let bounce = CABasicAnimation(keyPath: "transform.scale.y")
        bounce.fromValue = 1
        bounce.toValue = 0.1
        bounce.duration = 0.3
        bounce.autoreverses = true
        bounce.repeatCount = .infinity
        bar.add(bounce, forKey: "bounce")
        replicator.addSublayer(bar)
        root.addSublayer(replicator)
        return root
    }

    static func activityIndicator() -> CALayer {
        let root = root(CGSize(width: 120, height: 120))
        let replicator = CAReplicatorLayer()
        replicator.frame = CGRect(x: 10, y: 10, width: 100, height: 100)
        let count = 20
        replicator.instanceCount = count
        replicator.instanceTransform = CATransform3DMakeRotation(2 * .pi / CGFloat(count), 0, 0, 1)
        let dot = CALayer()
        dot.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        dot.position = CGPoint(x: 50, y: 8)
        dot.cornerRadius = 5
        dot.backgroundColor = color(0.25, 0.3, 0.45)
        let shrink = CABasicAnimation(keyPath: "transform.scale")
        shrink.fromValue = 1
        shrink.toValue = 0
        shrink.duration = 1
        shrink.repeatCount = .infinity
        replicator.instanceDelay = shrink.duration / Double(count)
        dot.add(shrink, forKey: "shrink")
        replicator.addSublayer(dot)
        root.addSublayer(replicator)
        return root
    }

    static func ballLoader() -> CALayer {
        let root = root(CGSize(width: 200, height: 120))
        let centre = CGPoint(x: 100, y: 60), radius: CGFloat = 30
        for x in [centre.x - radius, centre.x, centre.x + radius] {
            let ball = CALayer()
            ball.bounds = CGRect(x: 0, y: 0, width: 16, height: 16)
            ball.cornerRadius = 8
            ball.position = CGPoint(x: x, y: centre.y)
            ball.backgroundColor = x == centre.x ? color(0.95, 0.6, 0.2) : color(0.3, 0.5, 0.9)
            root.addSublayer(ball)
            guard x != centre.x else { continue }
            // Half of the big circle, half a circle around the centre ball, then a line back.
            let path = CGMutablePath()
            let start = ball.position
            path.move(to: start)
            let leftward = x > centre.x
            path.addArc(center: centre, radius: radius, startAngle: leftward ? 0 : .pi,
                        endAngle: leftward ? .pi : 2 * .pi, clockwise: false)
            let small = CGPoint(x: (centre.x + (leftward ? -radius : radius) + centre.x) / 2, y: centre.y)
            path.addArc(center: small, radius: radius / 2, startAngle: leftward ? .pi : 0,
                        endAngle: leftward ? 2 * .pi : .pi, clockwise: true)
            path.addLine(to: start)
            let move = CAKeyframeAnimation(keyPath: "position")
            move.path = path
            move.duration = 1.5
            move.repeatCount = .infinity
            move.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
            ball.add(move, forKey: "loop")
        }
        return root
    }

    static func stickyBubble() -> CALayer {
        let root = root(CGSize(width: 200, height: 200))
        let (c1, r1) = (CGPoint(x: 70, y: 70), CGFloat(22))
        let (c2, r2) = (CGPoint(x: 130, y: 150), CGFloat(30))
        let d = hypot(c2.x - c1.x, c2.y - c1.y)
        let cosT = (c2.y - c1.y) / d, sinT = (c2.x - c1.x) / d
        let a = CGPoint(x: c1.x - r1 * cosT, y: c1.y + r1 * sinT), b = CGPoint(x: c1.x + r1 * cosT, y: c1.y - r1 * sinT)
        let c = CGPoint(x: c2.x + r2 * cosT, y: c2.y - r2 * sinT), dd = CGPoint(x: c2.x - r2 * cosT, y: c2.y + r2 * sinT)
        let o = CGPoint(x: a.x + d / 2 * sinT, y: a.y + d / 2 * cosT), p = CGPoint(x: b.x + d / 2 * sinT, y: b.y + d / 2 * cosT)
        let path = CGMutablePath()
        path.move(to: a); path.addLine(to: b)
        path.addQuadCurve(to: c, control: p)
        path.addLine(to: dd)
        path.addQuadCurve(to: a, control: o)
        path.closeSubpath()
        let red = color(0.9, 0.22, 0.27)
        let shape = CAShapeLayer()
        shape.frame = root.bounds
        shape.path = path
        shape.fillColor = red
        root.addSublayer(shape)
        for (centre, r) in [(c1, r1), (c2, r2)] {
            let circle = CALayer()
            circle.bounds = CGRect(x: 0, y: 0, width: 2 * r, height: 2 * r)
            circle.position = centre
            circle.cornerRadius = r
            circle.backgroundColor = red
            root.addSublayer(circle)
        }
        let pulse = CABasicAnimation(keyPath: "opacity")
        pulse.fromValue = 1
        pulse.toValue = 0.6
        pulse.duration = 0.5
        pulse.autoreverses = true
        pulse.repeatCount = .infinity
        shape.add(pulse, forKey: "pulse")
        return root
    }

    static func reflection() -> CALayer {
        let root = root(CGSize(width: 200, height: 240))
        // The view whose layer class is CAReplicatorLayer (seed 000's RepView).
        let replicator = CAReplicatorLayer()
        replicator.frame = CGRect(x: 20, y: 10, width: 160, height: 110)
        replicator.instanceCount = 2
        var transform = CATransform3DMakeTranslation(0, replicator.bounds.size.height, 0)
        transform = CATransform3DRotate(transform, .pi, 1, 0, 0)
        replicator.instanceTransform = transform
        replicator.instanceAlphaOffset = -0.1
        replicator.instanceBlueOffset = -0.1
        replicator.instanceGreenOffset = -0.1
        replicator.instanceRedOffset = -0.1
        let picture = CALayer()
        picture.frame = replicator.bounds
        picture.contents = checkerImage()
        picture.contentsGravity = .resizeAspectFill
        picture.masksToBounds = true
        replicator.addSublayer(picture)
        let ball = CALayer()
        ball.bounds = CGRect(x: 0, y: 0, width: 24, height: 24)
        ball.cornerRadius = 12
        ball.backgroundColor = color(0.95, 0.6, 0.2)
        ball.position = CGPoint(x: 30, y: 30)
        replicator.addSublayer(ball)
        let bounce = CAKeyframeAnimation(keyPath: "position")
        bounce.values = [CGPoint(x: 30, y: 30), CGPoint(x: 80, y: 85), CGPoint(x: 130, y: 30)]
        bounce.duration = 2
        bounce.repeatCount = .infinity
        ball.add(bounce, forKey: "bounce")
        root.addSublayer(replicator)
        return root
    }

    static func foldImage() -> CALayer {
        let root = root(CGSize(width: 200, height: 220))
        let image = checkerImage()
        let top = CALayer(), bottom = CALayer()
        for (layer, half) in [(top, 0.0), (bottom, 0.5)] {
            layer.contents = image
            layer.contentsRect = CGRect(x: 0, y: half, width: 1, height: 0.5)
            layer.bounds = CGRect(x: 0, y: 0, width: 160, height: 80)
            layer.anchorPoint = CGPoint(x: 0.5, y: half == 0 ? 1 : 0)
            layer.position = CGPoint(x: 100, y: 110)
            root.addSublayer(layer)
        }
        top.zPosition = 1
        let shadow = CAGradientLayer()
        shadow.frame = top.bounds
        shadow.colors = [color(0, 0, 0, 0), color(0, 0, 0, 0.8)]
        top.addSublayer(shadow)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        let fold = CABasicAnimation(keyPath: "transform")
        fold.fromValue = perspective
        fold.toValue = CATransform3DRotate(perspective, -CGFloat.pi * 0.45, 1, 0, 0)
        fold.duration = 1
        fold.autoreverses = true
        fold.repeatCount = .infinity
        top.add(fold, forKey: "fold")
        let darken = CABasicAnimation(keyPath: "opacity")
        darken.fromValue = 0
        darken.toValue = 1
        darken.duration = 1
        darken.autoreverses = true
        darken.repeatCount = .infinity
        shadow.add(darken, forKey: "shadow")
        return root
    }

    /// A 160×160 test picture: a 20-px checkerboard with a diagonal gradient.
    static func checkerImage() -> CGImage {
        let size = 160
        let pm = try! Pixmap(width: size, height: size)
        for y in 0..<size {
            for x in 0..<size {
                let on = (x / 20 + y / 20) % 2 == 0
                let t = Double(x + y) / Double(2 * size)
                let base = on ? 230.0 : 60.0
                pm.setPixel(x: x, y: y, PremultipliedColor(r: UInt8(base * (1 - t) + 40 * t), g: UInt8(base * 0.8),
                                                           b: UInt8(base * t + 90 * (1 - t)), a: 255))
            }
        }
        return CGImage(pixmap: pm)
    }
}
