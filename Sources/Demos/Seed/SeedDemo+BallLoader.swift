import Scene
import UIKit

// Three-ball loader (seed 002): in a container of width w, ball 1 (radius r = ball width ·
// ballScale / 2) travels half of a big circle (centre (R + r, w/2), R = (w/2 + r)/2, from π to
// 2π counter-clockwise), half a circle of radius 2r around the centre ball (2π to π), then a line
// back (UIBezierPath addArc / append / addLine), followed with a CAKeyframeAnimation of
// "position" (easeInEaseOut); ball 3 does the same mirrored. The path animation's
// animationDidStart starts the scale: the balls grow to ballScale (ease-out, delay 0.3,
// duration T/2 − 0.3), then shrink back the same way; animationDidStop restarts the loop unless
// the user stopped it.

/// The loader's container view.
public final class SeedBallLoaderView: UIView {
    public static let ballWidth: CGFloat = 16
    public static let ballScale: CGFloat = 1.5
    /// Seconds of one loop (the seed's `animationDuration`).
    public static let animationDuration: CFTimeInterval = 1.5

    public let balls: [UIView]
    /// How many times the path animation started / stopped (the loop's count).
    public private(set) var startCount = 0
    public private(set) var stopCount = 0
    /// Set by `stopAnimating()`: the next stop does not restart the loop.
    public private(set) var stoppedByUser = false

    /// Forwards the animation events to the view without retaining it (animations retain their
    /// delegate, as on iOS).
    private final class Relay: CAAnimationDelegate {
        weak var view: SeedBallLoaderView?
        func animationDidStart(_ anim: CAAnimation) { view?.animationDidStart(anim) }
        func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { view?.animationDidStop(anim, finished: flag) }
    }
    private let relay = Relay()

    public override init(frame: CGRect) {
        let w = frame.width, y = frame.height / 2
        let r = Self.ballWidth * Self.ballScale / 2
        let colors: [UIColor] = [UIColor(red: 0.3, green: 0.5, blue: 0.9, alpha: 1),
                                 UIColor(red: 0.6, green: 0.6, blue: 0.6, alpha: 1),
                                 UIColor(red: 0.95, green: 0.6, blue: 0.2, alpha: 1)]
        balls = zip([r, w / 2, w - r], colors).map { x, color in
            let ball = UIView(frame: CGRect(x: 0, y: 0, width: Self.ballWidth, height: Self.ballWidth))
            ball.center = CGPoint(x: x, y: y)
            ball.layer.cornerRadius = Self.ballWidth / 2
            ball.backgroundColor = color
            return ball
        }
        super.init(frame: frame)
        relay.view = self
        for ball in balls { addSubview(ball) }
    }

    public required init?(coder: NSCoder) { return nil }

    /// The path of ball 1 (`mirrored`: ball 3), in the container's coordinates.
    public func path(mirrored: Bool) -> UIBezierPath {
        let width = bounds.width, midY = bounds.height / 2
        let r = Self.ballWidth * Self.ballScale / 2
        let R = (width / 2 + r) / 2
        let path = UIBezierPath()
        let ball = mirrored ? balls[2] : balls[0]
        path.move(to: ball.center)
        path.addArc(withCenter: CGPoint(x: mirrored ? width - R - r : R + r, y: midY), radius: R,
                    startAngle: mirrored ? 0 : .pi, endAngle: mirrored ? .pi : .pi * 2, clockwise: false)
        let around = UIBezierPath()
        around.addArc(withCenter: CGPoint(x: width / 2, y: midY), radius: r * 2,
                      startAngle: mirrored ? .pi : .pi * 2, endAngle: mirrored ? .pi * 2 : .pi, clockwise: false)
        path.append(around)
        path.addLine(to: ball.center)
        return path
    }

    /// Starts one loop: the path animations of balls 1 and 3.
    public func startPathAnimate() {
        for (index, mirrored) in [(0, false), (2, true)] {
            let animation = CAKeyframeAnimation(keyPath: "position")
            animation.path = path(mirrored: mirrored).cgPath
            animation.isRemovedOnCompletion = true
            animation.duration = Self.animationDuration
            animation.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
            if index == 0 { animation.delegate = relay }
            balls[index].layer.add(animation, forKey: "animation\(index + 1)")
        }
    }

    /// Stops looping after the current loop.
    public func stopAnimating() { stoppedByUser = true }

    func animationDidStart(_ anim: CAAnimation) {
        startCount += 1
        let delay = 0.3
        let duration = Self.animationDuration / 2 - delay
        UIView.animate(withDuration: duration, delay: delay, options: [.curveEaseOut, .beginFromCurrentState], animations: {
            for ball in self.balls { ball.transform = CGAffineTransform(scaleX: Self.ballScale, y: Self.ballScale) }
        }, completion: { _ in
            UIView.animate(withDuration: duration, delay: delay, options: [.curveEaseInOut, .beginFromCurrentState], animations: {
                for ball in self.balls { ball.transform = .identity }
            })
        })
    }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        stopCount += 1
        if stoppedByUser { return }
        startPathAnimate()
    }
}

extension SeedDemo {
    /// The loader: starts at once, no input; two loops.
    public static let ballLoader = SeedDemo(
        name: "ball-loader", seeds: [2],
        description: "three balls: the outer two travel arcs around the middle one (keyframe path), growing from animationDidStart",
        size: CGSize(width: 200, height: 120), span: 3,
        timeline: SceneScript([]),
        build: {
            let window = SeedDemo.window(CGSize(width: 200, height: 120))
            let loader = SeedBallLoaderView(frame: CGRect(x: 40, y: 0, width: 120, height: 120))
            window.addSubview(loader)
            loader.startPathAnimate()
            return window
        })
}
