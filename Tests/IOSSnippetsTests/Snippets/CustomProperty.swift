// A layer with a custom animatable property: Apple's form is
// `@NSManaged var progress: CGFloat`; Citrine's is `@Animatable var progress: CGFloat = 0`
// (README, "Where Linux forces a difference"). Everything else is as on iOS.
import Foundation
import QuartzCore

class ProgressBarLayer: CALayer {
    @Animatable var progress: CGFloat = 0

    /// What `draw(in:)` saw, in order (for the tests).
    var drawnProgress: [CGFloat] = []

    override init() {
        super.init()
    }

    override init(layer: Any) {
        super.init(layer: layer)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override class func needsDisplay(forKey key: String) -> Bool {
        if key == "progress" {
            return true
        }
        return super.needsDisplay(forKey: key)
    }

    override func action(forKey event: String) -> CAAction? {
        if event == "progress" {
            let animation = CABasicAnimation(keyPath: event)
            animation.fromValue = presentation()?.progress ?? progress
            animation.duration = 0.25
            return animation
        }
        return super.action(forKey: event)
    }

    override func draw(in ctx: CGContext) {
        (model() as ProgressBarLayer).drawnProgress.append(progress)
        ctx.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: bounds.width * progress, height: bounds.height))
    }
}

/// Other value types work the same way.
class PieLayer: CALayer {
    @Animatable var startAngle: Double = 0
    @Animatable var endAngle: Double = .pi / 2
    @Animatable var center = CGPoint(x: 50, y: 50)
}
