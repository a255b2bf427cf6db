import Scene
import UIKit

// A keyframe bounce (the `animateKeyframes` lesson of UIKit tutorials): a tap drops the ball onto
// the floor, where it squashes, bounces twice, lower each time, and lifts back up at the other
// side — one `UIView.animateKeyframes` block of 2.4 s. The roll across is a change of the ball's
// carrier made outside any keyframe (it spans the whole block); the ball's falls, squashes and
// hops within the carrier are `addKeyframe` calls at relative times. The options' curve bits ask
// for a linear timeline (UIKit eases the whole keyframe timeline unless told otherwise) and the
// calculation mode is linear; each fall and rise is two keyframes, a quarter of the height in the
// slow half, so the motion reads as gravity (a cubic spline through the keyframes would dip
// below the floor before each squash).

/// The floor and the ball.
public final class SeedKeyframeBounceView: UIView {
    /// The ball's radius and the floor's top, in points.
    public static let radius: CGFloat = 18
    public let floorY: CGFloat
    /// The ball, inside a clear carrier as tall as the space above the floor: the carrier rolls
    /// across (one change for the whole block) while keyframes move the ball up and down in it —
    /// two properties, since changes of one property in a block all become keyframes of it.
    public let ball = UIView()
    public let carrier = UIView()
    /// Which side the ball rests on: false left, true right.
    public private(set) var onRight = false
    /// Whether a bounce is running (taps are ignored meanwhile).
    public private(set) var isBouncing = false

    public override init(frame: CGRect) {
        floorY = frame.height - 30
        super.init(frame: frame)
        let floor = UIView(frame: CGRect(x: 0, y: floorY, width: frame.width, height: 30))
        floor.backgroundColor = UIColor(white: 0.35, alpha: 1)
        addSubview(floor)
        let r = Self.radius
        carrier.frame = CGRect(x: 30 - r, y: 0, width: 2 * r, height: floorY)
        addSubview(carrier)
        ball.frame = CGRect(x: 0, y: 50 - r, width: 2 * r, height: 2 * r)
        ball.backgroundColor = UIColor(red: 0.9, green: 0.3, blue: 0.3, alpha: 1)
        ball.layer.cornerRadius = r
        carrier.addSubview(ball)
        addGestureRecognizer(UITapGestureRecognizer { [weak self] tap in
            if tap.state == .ended { self?.bounce() }
        })
    }

    public required init?(coder: NSCoder) { return nil }

    /// Two keyframes from `y0` down to `y1` in the relative span `start` … `start + length`: a
    /// quarter of the way in the first half (speeding up, as under gravity).
    private func fall(to y1: CGFloat, from y0: CGFloat, at start: Double, for length: Double) {
        UIView.addKeyframe(withRelativeStartTime: start, relativeDuration: length / 2) { self.ball.center.y = y0 + 0.25 * (y1 - y0) }
        UIView.addKeyframe(withRelativeStartTime: start + length / 2, relativeDuration: length / 2) { self.ball.center.y = y1 }
    }

    /// The rise: three quarters of the way in the first half (slowing down).
    private func rise(to y1: CGFloat, from y0: CGFloat, at start: Double, for length: Double) {
        UIView.addKeyframe(withRelativeStartTime: start, relativeDuration: length / 2) { self.ball.center.y = y0 + 0.75 * (y1 - y0) }
        UIView.addKeyframe(withRelativeStartTime: start + length / 2, relativeDuration: length / 2) { self.ball.center.y = y1 }
    }

    /// The keyframes: fall, squash, hop to 55 % of the drop, fall, small squash, hop to 20 %,
    /// settle on the floor, then lift back to the start height at the other side.
    public func bounce() {
        guard !isBouncing else { return }
        isBouncing = true
        let r = Self.radius
        let top: CGFloat = 50, ground = floorY - r
        let drop = ground - top
        let endX = onRight ? 30 : bounds.width - 30
        let squash = CGAffineTransform(translationX: 0, y: r * 0.25).scaledBy(x: 1.3, y: 0.75)
        let options = UIView.KeyframeAnimationOptions(rawValue: UIView.AnimationOptions.curveLinear.rawValue)
            .union(.calculationModeLinear)
        UIView.animateKeyframes(withDuration: 2.4, delay: 0, options: options, animations: { [self] in
            carrier.center.x = endX
            fall(to: ground, from: top, at: 0, for: 0.22)
            UIView.addKeyframe(withRelativeStartTime: 0.22, relativeDuration: 0.04) { self.ball.transform = squash }
            UIView.addKeyframe(withRelativeStartTime: 0.26, relativeDuration: 0.04) { self.ball.transform = .identity }
            rise(to: ground - 0.55 * drop, from: ground, at: 0.26, for: 0.16)
            fall(to: ground, from: ground - 0.55 * drop, at: 0.42, for: 0.16)
            UIView.addKeyframe(withRelativeStartTime: 0.58, relativeDuration: 0.03) { self.ball.transform = CGAffineTransform(scaleX: 1.15, y: 0.88) }
            UIView.addKeyframe(withRelativeStartTime: 0.61, relativeDuration: 0.03) { self.ball.transform = .identity }
            rise(to: ground - 0.2 * drop, from: ground, at: 0.61, for: 0.09)
            fall(to: ground, from: ground - 0.2 * drop, at: 0.70, for: 0.09)
            rise(to: top, from: ground, at: 0.80, for: 0.20)
            UIView.addKeyframe(withRelativeStartTime: 0.0, relativeDuration: 1.0) {
                self.ball.backgroundColor = self.onRight ? UIColor(red: 0.9, green: 0.3, blue: 0.3, alpha: 1)
                                                         : UIColor(red: 0.3, green: 0.6, blue: 0.9, alpha: 1)
            }
        }, completion: { [weak self] _ in
            guard let self else { return }
            onRight.toggle()
            isBouncing = false
        })
    }
}

extension SeedDemo {
    /// Two taps: the ball bounces to the right, then back.
    public static let keyframeBounce = SeedDemo(
        name: "keyframe-bounce", seeds: [],
        description: "tap: the ball drops, squashes and bounces across the floor — one UIView.animateKeyframes block",
        size: CGSize(width: 280, height: 200), span: 5.8,
        timeline: SceneScript([
            .tap(CGPoint(x: 140, y: 100), at: 0.2),
            .tap(CGPoint(x: 140, y: 100), at: 3.0),
        ]),
        build: {
            let window = SeedDemo.window(CGSize(width: 280, height: 200))
            window.addSubview(SeedKeyframeBounceView(frame: window.bounds))
            return window
        })
}

extension SeedDemo {
    /// The demos of UIKit's animation toolbox: property animators and keyframe blocks.
    public static let animators: [SeedDemo] = [scrubbableCard, keyframeBounce]
}
