import Scene
import UIKit

// Reflection (seed 000): a view whose layer class is CAReplicatorLayer, holding an image view;
// 2 instances, the second turned π about x and moved down by the view's height (so it hangs
// mirrored below the original), with its colour and alpha 0.1 lower.

/// The seed's RepView: backed by a `CAReplicatorLayer`.
public final class SeedReflectionView: UIView {
    public override class var layerClass: AnyClass { CAReplicatorLayer.self }

    public let imageView: UIImageView

    /// The view's layer, as the replicator it is.
    public var replicatorLayer: CAReplicatorLayer { layer as! CAReplicatorLayer }

    public override init(frame: CGRect) {
        imageView = UIImageView(image: SeedFoldImageView.makeImage(size: frame.size))
        super.init(frame: frame)
        imageView.frame = bounds
        addSubview(imageView)
        let layer = replicatorLayer
        layer.instanceCount = 2
        var transform = CATransform3DMakeTranslation(0, bounds.height, 0)
        transform = CATransform3DRotate(transform, .pi, 1, 0, 0)
        layer.instanceTransform = transform
        layer.instanceAlphaOffset = -0.1
        layer.instanceBlueOffset = -0.1
        layer.instanceGreenOffset = -0.1
        layer.instanceRedOffset = -0.1
    }

    public required init?(coder: NSCoder) { return nil }
}

extension SeedDemo {
    /// Reflection: no input.
    public static let reflection = SeedDemo(
        name: "reflection", seeds: [0],
        description: "a view whose layer is a CAReplicatorLayer: an image and its mirror below, colour and alpha 0.1 lower",
        size: CGSize(width: 200, height: 360), span: 0.5,
        timeline: SceneScript([]),
        build: {
            let window = SeedDemo.window(CGSize(width: 200, height: 360))
            window.addSubview(SeedReflectionView(frame: CGRect(x: 20, y: 20, width: 160, height: 160)))
            return window
        })
}
