import Scene
import UIKit

// Fold image (seed 000): one image shown by two image views, the top half through contentsRect
// (0, 0, 1, 0.5) hinged at its bottom edge (anchorPoint (0.5, 1)), the bottom half through
// (0, 0.5, 1, 0.5) hinged at its top edge (anchorPoint (0.5, 0)). A transparent drag view over
// both takes a vertical pan: the top half turns about x by −translation.y / 200 · π with
// perspective m34 = −1/500, and a CAGradientLayer (clear → black) on the bottom half takes the
// opacity translation.y / 200. On release the top half springs back to the identity
// (0.6 s, damping 0.2, initial velocity 10). As in the seed, the shadow keeps its last opacity.

/// The fold image's view controller view.
public final class SeedFoldImageView: UIView {
    public let topView: UIImageView
    public let bottomView: UIImageView
    public let dragView: UIView
    public let gradientLayer: CAGradientLayer

    /// Size of the image (points).
    public static let imageSize = CGSize(width: 160, height: 160)

    public override init(frame: CGRect) {
        let image = Self.makeImage(size: Self.imageSize)
        topView = UIImageView(image: image)
        bottomView = UIImageView(image: image)
        dragView = UIView()
        gradientLayer = CAGradientLayer()
        super.init(frame: frame)

        let hinge = CGPoint(x: frame.width / 2, y: frame.height / 2)
        let half = CGRect(x: 0, y: 0, width: Self.imageSize.width, height: Self.imageSize.height / 2)
        topView.layer.contentsRect = CGRect(x: 0, y: 0, width: 1, height: 0.5)
        topView.layer.anchorPoint = CGPoint(x: 0.5, y: 1)
        bottomView.layer.contentsRect = CGRect(x: 0, y: 0.5, width: 1, height: 0.5)
        bottomView.layer.anchorPoint = CGPoint(x: 0.5, y: 0)
        for view in [topView, bottomView] {
            view.bounds = half
            view.center = hinge
            addSubview(view)
        }
        dragView.frame = CGRect(x: hinge.x - Self.imageSize.width / 2, y: hinge.y - Self.imageSize.height / 2,
                                width: Self.imageSize.width, height: Self.imageSize.height)
        addSubview(dragView)
        dragView.addGestureRecognizer(UIPanGestureRecognizer { [weak self] pan in self?.pan(pan) })

        gradientLayer.frame = bottomView.bounds
        gradientLayer.opacity = 0
        gradientLayer.colors = [UIColor.clear.cgColor, UIColor.black.cgColor]
        bottomView.layer.addSublayer(gradientLayer)
    }

    public required init?(coder: NSCoder) { return nil }

    /// The top half's rotation for a vertical drag of `dy` points (the seed's formula).
    public static func angle(forDrag dy: CGFloat) -> CGFloat { -dy / 200 * .pi }

    private func pan(_ pan: UIPanGestureRecognizer) {
        let translation = pan.translation(in: dragView)
        let angle = Self.angle(forDrag: translation.y)
        var transform = CATransform3DIdentity
        transform.m34 = -1 / 500
        transform = CATransform3DRotate(transform, angle, 1, 0, 0)
        topView.layer.transform = transform
        gradientLayer.opacity = Float(translation.y / 200)
        if pan.state == .ended {
            UIView.animate(withDuration: 0.6, delay: 0, usingSpringWithDamping: 0.2, initialSpringVelocity: 10,
                           options: .curveEaseInOut, animations: {
                               self.topView.layer.transform = CATransform3DIdentity
                           })
        }
    }

    /// A procedural picture: a sky gradient in bands, a sun, hills and a border, so that the
    /// two halves and the fold read clearly.
    public static func makeImage(size: CGSize) -> UIImage {
        UIGraphicsImageRenderer(size: size).image { context in
            let bands = 16
            for i in 0..<bands {
                let f = CGFloat(i) / CGFloat(bands - 1)
                UIColor(red: 0.35 + 0.5 * f, green: 0.6 + 0.25 * f, blue: 0.95 - 0.2 * f, alpha: 1).setFill()
                context.fill(CGRect(x: 0, y: size.height * CGFloat(i) / CGFloat(bands),
                                    width: size.width, height: size.height / CGFloat(bands) + 1))
            }
            UIColor(red: 1, green: 0.8, blue: 0.2, alpha: 1).setFill()
            UIBezierPath(ovalIn: CGRect(x: size.width * 0.6, y: size.height * 0.12,
                                        width: size.width * 0.25, height: size.width * 0.25)).fill()
            UIColor(red: 0.2, green: 0.55, blue: 0.3, alpha: 1).setFill()
            let hills = UIBezierPath()
            hills.move(to: CGPoint(x: 0, y: size.height))
            hills.addLine(to: CGPoint(x: 0, y: size.height * 0.7))
            hills.addQuadCurve(to: CGPoint(x: size.width * 0.5, y: size.height * 0.65),
                               controlPoint: CGPoint(x: size.width * 0.25, y: size.height * 0.45))
            hills.addQuadCurve(to: CGPoint(x: size.width, y: size.height * 0.6),
                               controlPoint: CGPoint(x: size.width * 0.8, y: size.height * 0.8))
            hills.addLine(to: CGPoint(x: size.width, y: size.height))
            hills.close()
            hills.fill()
            UIColor.white.setStroke()
            let border = UIBezierPath(rect: CGRect(origin: .zero, size: size).insetBy(dx: 2, dy: 2))
            border.lineWidth = 4
            border.stroke()
        }
    }
}

extension SeedDemo {
    /// Fold image: drag down 100 pt over 0.5 s and release (springs back).
    public static let foldImage = SeedDemo(
        name: "fold-image", seeds: [0],
        description: "drag down to fold the image's top half (m34 = −1/500) with a gradient shadow; it springs back with damping 0.2",
        size: CGSize(width: 240, height: 240), span: 2,
        timeline: SceneScript([
            .drag(from: CGPoint(x: 120, y: 70), to: CGPoint(x: 120, y: 170), at: 0.1, duration: 0.5, steps: 20),
        ]),
        build: {
            let window = SeedDemo.window(CGSize(width: 240, height: 240))
            window.addSubview(SeedFoldImageView(frame: window.bounds))
            return window
        })

    /// Fold image past 90°: drag down 170 pt in 0.5 s and hold for a second,
    /// so the top half turns by −170/200·π = −153° and lies folded over the bottom half (drawn
    /// by depth, not array order); then release (springs back).
    public static let foldImagePast90 = SeedDemo(
        name: "fold-image-past-90", seeds: [0],
        description: "the fold image dragged 170 pt: the top half turns 153° and lies over the bottom half (depth order), then springs back",
        size: CGSize(width: 240, height: 240), span: 2.6,
        timeline: foldPast90Drag(), build: foldImage.build)

    /// Down at (120, 70) at 0.1 s, ten moves of 17 pt reaching (120, 240) at 0.6 s, up at 1.6 s.
    static func foldPast90Drag() -> SceneScript {
        var steps: [SceneScript.Step] = [.down(CGPoint(x: 120, y: 70), at: 0.1)]
        for k in 1 ... 10 {
            steps.append(.move(to: CGPoint(x: 120, y: 70 + 17 * CGFloat(k)), at: 0.1 + 0.05 * Double(k)))
        }
        steps.append(.up(at: 1.6))
        return SceneScript(steps)
    }
}
