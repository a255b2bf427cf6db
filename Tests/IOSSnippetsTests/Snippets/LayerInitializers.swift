// Layer and animation subclasses with initializers of their own, the shapes open-source iOS
// animation code gives them (a designated initializer taking the layer's look, `required
// init?(coder:)`, with or without `override init(layer:)` or `override init()`). Swift
// requires nothing more of them than it does on iOS. Compiled unchanged in Swift 6 mode
// (IOSSnippetsTests) and Swift 5 mode (IOSSnippetsSwift5Tests links this file).
import Foundation
import QuartzCore

/// A dot whose colour and size are given when it is made: its own designated initializer only.
class ColorDotLayer: CALayer {
    let dotColor: CGColor
    var diameter: CGFloat

    init(color: CGColor, diameter: CGFloat) {
        dotColor = color
        self.diameter = diameter
        super.init()
        bounds = CGRect(x: 0, y: 0, width: diameter, height: diameter)
        cornerRadius = diameter / 2
        backgroundColor = color
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }
}

/// A pulsing ring: its own initializer and `init(layer:)`, no `init()`.
class PulseRingLayer: CAShapeLayer {
    var pulseCount: Int
    var maxRadius: CGFloat

    init(maxRadius: CGFloat, pulses: Int) {
        self.maxRadius = maxRadius
        pulseCount = pulses
        super.init()
        fillColor = CGColor(red: 0.2, green: 0.6, blue: 1, alpha: 1)
        path = CGPath(ellipseIn: CGRect(x: -maxRadius, y: -maxRadius, width: 2 * maxRadius, height: 2 * maxRadius),
                      transform: nil)
    }

    override init(layer: Any) {
        let other = layer as? PulseRingLayer
        maxRadius = other?.maxRadius ?? 0
        pulseCount = other?.pulseCount ?? 0
        super.init(layer: layer)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    func startPulsing() {
        let scale = CABasicAnimation(keyPath: "transform.scale")
        scale.fromValue = 0
        scale.toValue = 1
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0
        let group = CAAnimationGroup()
        group.animations = [scale, fade]
        group.duration = 2
        group.repeatCount = Float(pulseCount)
        add(group, forKey: "pulse")
    }
}

/// Set-up in `override init()`, no `init(layer:)` (on Apple such a layer traps when its
/// presentation copy is made; here its copy is made without one).
class SpinningSquareLayer: CALayer {
    private(set) var setUpCount = 0
    weak var owner: AnyObject?
    lazy var label: String = "square"

    override init() {
        super.init()
        bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        backgroundColor = CGColor(gray: 0.1, alpha: 1)
        setUpCount += 1
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    func spin() {
        let rotation = CABasicAnimation(keyPath: "transform.rotation.z")
        rotation.toValue = CGFloat.pi
        rotation.duration = 1
        rotation.repeatCount = .infinity
        add(rotation, forKey: "spin")
    }
}

/// A custom animatable property in a layer made by its own initializer.
class ArcProgressLayer: CALayer {
    @Animatable var progress: CGFloat = 0
    var trackWidth: CGFloat

    init(trackWidth: CGFloat) {
        self.trackWidth = trackWidth
        super.init()
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "progress" || super.needsDisplay(forKey: key)
    }
}

/// An animation with its own designated initializer only.
class DelayedFadeAnimation: CABasicAnimation {
    let delay: CFTimeInterval

    init(delay: CFTimeInterval) {
        self.delay = delay
        super.init()
        keyPath = "opacity"
        fromValue = 1
        toValue = 0
        duration = 1
        beginTime = delay
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }
}

/// An arc that rebuilds its path when its line width or bounds change (overriding Core
/// Animation's properties with observers, as on iOS).
class ObservedArcLayer: CAShapeLayer {
    private(set) var rebuilds = 0

    override var lineWidth: CGFloat {
        didSet { rebuildPath() }
    }

    override var bounds: CGRect {
        didSet { rebuildPath() }
    }

    override init() {
        super.init()
        fillColor = nil
        strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    }

    override init(layer: Any) {
        super.init(layer: layer)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    private func rebuildPath() {
        rebuilds += 1
        let radius = (min(bounds.width, bounds.height) - lineWidth) / 2
        let arc = CGMutablePath()
        arc.addArc(center: CGPoint(x: bounds.midX, y: bounds.midY), radius: max(radius, 0),
                   startAngle: -.pi / 2, endAngle: .pi, clockwise: false)
        path = arc
    }
}

/// A layer that knows whether it is a copy: its `init(layer:)` says so, as Core Animation calls
/// it for every presentation copy.
class CopyAwareLayer: CALayer {
    let isCopy: Bool

    init(tint: CGColor) {
        isCopy = false
        super.init()
        backgroundColor = tint
    }

    override init(layer: Any) {
        isCopy = true
        super.init(layer: layer)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }
}
