import Scene
import UIKit

// Volume bars (seed 000): in a dark view, a CAReplicatorLayer of 3 white 30 × 150 bars
// (anchor (0.5, 1), bottom at the view's bottom), each 45 pt right of the previous
// (instanceTransform), 0.1 s later (instanceDelay), tinted green with instanceGreenOffset −0.3;
// the bar's "transform.scale.y" goes 1 → 0.1 in 0.5 s, autoreverses, forever (MAXFLOAT).

/// The seed's lightView with its replicator.
public final class SeedVolumeBarsView: UIView {
    public let replicatorLayer = CAReplicatorLayer()
    public let bar = CALayer()
    /// The bar's animation (added without a key, as in the seed).
    public let animation: CABasicAnimation

    public override init(frame: CGRect) {
        let anim = CABasicAnimation()
        anim.keyPath = "transform.scale.y"
        anim.toValue = 0.1
        anim.duration = 0.5
        anim.repeatCount = .greatestFiniteMagnitude
        anim.autoreverses = true
        animation = anim
        super.init(frame: frame)
        backgroundColor = UIColor(white: 0.15, alpha: 1)
        replicatorLayer.frame = bounds
        layer.addSublayer(replicatorLayer)
        bar.anchorPoint = CGPoint(x: 0.5, y: 1)
        bar.position = CGPoint(x: 15, y: bounds.height)
        bar.bounds = CGRect(x: 0, y: 0, width: 30, height: 150)
        bar.backgroundColor = UIColor.white.cgColor
        replicatorLayer.addSublayer(bar)
        bar.add(anim, forKey: nil)
        replicatorLayer.instanceCount = 3
        replicatorLayer.instanceTransform = CATransform3DMakeTranslation(45, 0, 0)
        replicatorLayer.instanceDelay = 0.1
        replicatorLayer.instanceColor = UIColor.green.cgColor
        replicatorLayer.instanceGreenOffset = -0.3
    }

    public required init?(coder: NSCoder) { return nil }
}

extension SeedDemo {
    /// Volume bars: no input.
    public static let volumeBars = SeedDemo(
        name: "volume-bars", seeds: [0],
        description: "a CAReplicatorLayer of 3 bars, instanceDelay 0.1, transform.scale.y 1 → 0.1 autoreversing",
        size: CGSize(width: 160, height: 180), span: 1,
        timeline: SceneScript([]),
        build: {
            let window = SeedDemo.window(CGSize(width: 160, height: 180))
            window.addSubview(SeedVolumeBarsView(frame: CGRect(x: 10, y: 10, width: 130, height: 160)))
            return window
        })
}
