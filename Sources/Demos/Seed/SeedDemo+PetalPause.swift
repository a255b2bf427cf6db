import Scene
import UIKit

// Falling petal with pause and resume (seed 003): a 10 × 20 petal layer at (50, 150), anchor
// (0.5, 0.6). The first touch starts a 5 s move to the touch point (CABasicAnimation of
// "position", not removed on completion, the target kept on the animation with setValue) and a
// rotation to 3π/2 (6 s, autoreverses, forever). Later touches pause the layer (timeOffset =
// the layer's time now, speed 0) or resume it (beginTime = now − timeOffset, timeOffset 0,
// speed 1). When the move ends, the delegate sets the model position to the target inside a
// transaction with actions disabled, then pauses.

/// The petal view controller view.
public final class SeedPetalView: UIView {
    public let petal = CALayer()
    public static let translationKey = "KCBasicAnimation_Translation"
    public static let rotationKey = "KCBasicAnimation_Rotation"
    public static let locationKey = "KCBasicAnimationLocation"
    /// Move animations that stopped (the delegate's count).
    public private(set) var stops = 0

    private final class Relay: CAAnimationDelegate {
        weak var view: SeedPetalView?
        func animationDidStart(_ anim: CAAnimation) {}
        func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { view?.animationDidStop(anim, finished: flag) }
    }
    private let relay = Relay()

    public override init(frame: CGRect) {
        super.init(frame: frame)
        relay.view = self
        backgroundColor = UIColor(patternImage: Self.backgroundImage())
        petal.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
        petal.position = CGPoint(x: 50, y: 150)
        petal.anchorPoint = CGPoint(x: 0.5, y: 0.6)
        petal.contents = Self.petalImage().cgImage
        petal.contentsScale = 2
        layer.addSublayer(petal)
    }

    public required init?(coder: NSCoder) { return nil }

    /// The seed's `background.jpg`, set as the view's pattern colour ("the picture is in fact in
    /// the root layer"): a 32-point tile drawn procedurally — pale sky with two soft blossoms —
    /// at 2×.
    static func backgroundImage() -> UIImage {
        let format = UIGraphicsImageRendererFormat()
        format.scale = 2
        return UIGraphicsImageRenderer(size: CGSize(width: 32, height: 32), format: format).image { context in
            UIColor(red: 0.86, green: 0.93, blue: 0.98, alpha: 1).setFill()
            context.fill(CGRect(x: 0, y: 0, width: 32, height: 32))
            UIColor(red: 0.97, green: 0.86, blue: 0.9, alpha: 1).setFill()
            UIBezierPath(ovalIn: CGRect(x: 4, y: 5, width: 7, height: 7)).fill()
            UIBezierPath(ovalIn: CGRect(x: 20, y: 19, width: 6, height: 6)).fill()
        }
    }

    /// A pink petal drawn procedurally (10 × 20 points at 2×).
    static func petalImage() -> UIImage {
        let format = UIGraphicsImageRendererFormat()
        format.scale = 2
        return UIGraphicsImageRenderer(size: CGSize(width: 10, height: 20), format: format).image { _ in
            UIColor(red: 0.95, green: 0.55, blue: 0.7, alpha: 1).setFill()
            let path = UIBezierPath()
            path.move(to: CGPoint(x: 5, y: 0))
            path.addQuadCurve(to: CGPoint(x: 5, y: 20), controlPoint: CGPoint(x: 14, y: 8))
            path.addQuadCurve(to: CGPoint(x: 5, y: 0), controlPoint: CGPoint(x: -4, y: 8))
            path.fill()
        }
    }

    public override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first else { return }
        let location = touch.location(in: self)
        if petal.animation(forKey: Self.translationKey) != nil {
            if petal.speed == 0 { animationResume() } else { animationPause() }
        } else {
            translationAnimation(to: location)
            rotationAnimation()
        }
    }

    private func translationAnimation(to location: CGPoint) {
        let animation = CABasicAnimation(keyPath: "position")
        animation.toValue = location
        animation.duration = 5
        animation.isRemovedOnCompletion = false
        animation.delegate = relay
        animation.setValue(location, forKey: Self.locationKey)
        petal.add(animation, forKey: Self.translationKey)
    }

    private func rotationAnimation() {
        let animation = CABasicAnimation(keyPath: "transform.rotation.z")
        animation.toValue = CGFloat.pi / 2 * 3
        animation.duration = 6
        animation.autoreverses = true
        animation.repeatCount = .infinity  // HUGE_VALF
        animation.isRemovedOnCompletion = false
        petal.add(animation, forKey: Self.rotationKey)
    }

    /// Freezes the petal's animations where they are.
    public func animationPause() {
        let interval = petal.convertTime(CACurrentMediaTime(), from: nil)
        petal.timeOffset = interval
        petal.speed = 0
    }

    /// Lets them run on from where they were frozen.
    public func animationResume() {
        let beginTime = CACurrentMediaTime() - petal.timeOffset
        petal.timeOffset = 0
        petal.beginTime = beginTime
        petal.speed = 1
    }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        stops += 1
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        if let location = anim.value(forKey: Self.locationKey) as? CGPoint { petal.position = location }
        CATransaction.commit()
        animationPause()
    }
}

extension SeedDemo {
    /// Tap at (200, 400) to start, pause at 2 s, resume at 3 s; the move ends at 6.2 s.
    public static let petalPause = SeedDemo(
        name: "petal-pause", seeds: [3],
        description: "tap: a petal falls to the touch while turning; later taps pause and resume it (speed, timeOffset, beginTime)",
        size: CGSize(width: 320, height: 480), span: 7,
        timeline: SceneScript([
            .tap(CGPoint(x: 200, y: 400), at: 0.2),
            .tap(CGPoint(x: 100, y: 100), at: 2.0),
            .tap(CGPoint(x: 100, y: 100), at: 3.0),
        ]),
        build: {
            let window = SeedDemo.window(CGSize(width: 320, height: 480))
            window.addSubview(SeedPetalView(frame: window.bounds))
            return window
        })
}
