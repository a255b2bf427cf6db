import Scene
import UIKit

// Activity indicator (seed 000): in a red view, a CAReplicatorLayer of 20 green 10 × 10 dots,
// each turned 2π/20 about the centre (instanceTransform) and 1/20 s later (instanceDelay =
// duration / count); the dot starts at scale 0 and its "transform.scale" goes 1 → 0 in 1 s,
// forever.

/// The seed's redView with its replicator.
public final class SeedActivityIndicatorView: UIView {
    public static let count = 20
    public static let duration: CFTimeInterval = 1
    public let replicatorLayer = CAReplicatorLayer()
    public let dot = CALayer()
    /// The dot's animation (added without a key, as in the seed).
    public let animation: CABasicAnimation

    public override init(frame: CGRect) {
        let anim = CABasicAnimation()
        anim.keyPath = "transform.scale"
        anim.fromValue = 1
        anim.toValue = 0
        anim.repeatCount = .greatestFiniteMagnitude
        anim.duration = Self.duration
        animation = anim
        super.init(frame: frame)
        backgroundColor = .red
        replicatorLayer.frame = bounds
        layer.addSublayer(replicatorLayer)
        dot.transform = CATransform3DMakeScale(0, 0, 0)
        dot.position = CGPoint(x: bounds.width / 2, y: 20)
        dot.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        dot.backgroundColor = UIColor.green.cgColor
        replicatorLayer.addSublayer(dot)
        dot.add(anim, forKey: nil)
        let angle = CGFloat.pi * 2 / CGFloat(Self.count)
        replicatorLayer.instanceCount = Self.count
        replicatorLayer.instanceTransform = CATransform3DMakeRotation(angle, 0, 0, 1)
        replicatorLayer.instanceDelay = Self.duration / Double(Self.count)
    }

    public required init?(coder: NSCoder) { return nil }
}

extension SeedDemo {
    /// Activity indicator: no input.
    public static let activityIndicator = SeedDemo(
        name: "activity-indicator", seeds: [0],
        description: "a CAReplicatorLayer of 20 dots turned 2π/20 apart, 1/20 s later each, transform.scale 1 → 0",
        size: CGSize(width: 140, height: 140), span: 1,
        timeline: SceneScript([]),
        build: {
            let window = SeedDemo.window(CGSize(width: 140, height: 140))
            window.addSubview(SeedActivityIndicatorView(frame: CGRect(x: 20, y: 20, width: 100, height: 100)))
            return window
        })
}
