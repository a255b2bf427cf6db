// iOS-style subclasses of Core Animation classes, written as Apple's documentation and common
// tutorials write them. Compiled unchanged in Swift 6 mode (IOSSnippetsTests)
// and Swift 5 mode (IOSSnippetsSwift5Tests links this file).
import Foundation
import QuartzCore

/// The usual layer subclass: all three initializers, its own property copied in `init(layer:)`.
class Ring: CALayer {
    var lineWidthFactor: CGFloat = 0.1

    override init() {
        super.init()
        needsDisplayOnBoundsChange = true
    }

    override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? Ring {
            lineWidthFactor = other.lineWidthFactor
        }
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }
}

/// A subclass with no initializer of its own inherits them all.
class TaggedLayer: CALayer {
    var tag = 0
}

final class BadgeShapeLayer: CAShapeLayer {
    override init() {
        super.init()
        fillColor = nil
        strokeColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        lineWidth = 4
        lineCap = .round
    }

    override init(layer: Any) {
        super.init(layer: layer)
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}

class SunsetGradientLayer: CAGradientLayer {
    override init() {
        super.init()
        colors = [CGColor(red: 1, green: 0.5, blue: 0, alpha: 1), CGColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)]
        startPoint = CGPoint(x: 0, y: 0)
        endPoint = CGPoint(x: 1, y: 1)
    }

    override init(layer: Any) {
        super.init(layer: layer)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }
}

class SpinnerLayer: CAReplicatorLayer {
    let dot = CALayer()

    override init() {
        super.init()
        dot.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
        dot.position = CGPoint(x: 50, y: 10)
        dot.backgroundColor = CGColor(gray: 0.2, alpha: 1)
        addSublayer(dot)
        instanceCount = 12
        instanceTransform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        instanceDelay = 1.0 / 12
    }

    override init(layer: Any) {
        super.init(layer: layer)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }
}

/// An animation subclass with a property of its own, copied the way iOS code does it.
class TaggedAnimation: CABasicAnimation {
    var tag = ""

    override init() {
        super.init()
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! TaggedAnimation
        copy.tag = tag
        return copy
    }
}

class FadeOutAnimation: CABasicAnimation {
    override init() {
        super.init()
        keyPath = "opacity"
        fromValue = 1
        toValue = 0
        duration = 0.5
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}

/// A plain `CAAnimation` subclass (an animation used only for its timing and delegate).
class TimerAnimation: CAAnimation {
    override init() {
        super.init()
        duration = 1
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }
}
