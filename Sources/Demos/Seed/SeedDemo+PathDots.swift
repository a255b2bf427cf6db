import Scene
import UIKit

// Path dots (seed 000): a finger draws a UIBezierPath (move on touch down, a line per move)
// stroked in draw(_:); "start" adds a CAKeyframeAnimation of "position" along that path
// (3 s, repeating) to a 10 pt blue dot inside a CAReplicatorLayer whose instanceCount is the
// number of moves and whose instanceDelay is 0.2, so the copies trail along the path; "redraw"
// clears the path and the dot.

/// The seed's DrawView.
public final class SeedPathDotsView: UIView {
    /// The path drawn so far.
    public private(set) var path = UIBezierPath()
    /// The replicator the dot lives in (the view's bounds).
    public let replicatorLayer = CAReplicatorLayer()
    /// The dot, once `startAnimation()` made it.
    public private(set) var dotLayer: CALayer?
    /// The animation given to the dot (it was added without a key, as in the seed, so the layer
    /// does not list it in `animationKeys()`).
    public private(set) var dotAnimation: CAKeyframeAnimation?
    /// Moves since the last redraw (the replicator's instance count).
    public private(set) var moveCount = 0
    /// The points of the path, in order (for tests and callers).
    public private(set) var points: [CGPoint] = []

    public override init(frame: CGRect) {
        super.init(frame: frame)
        replicatorLayer.frame = bounds
        layer.addSublayer(replicatorLayer)
    }

    public required init?(coder: NSCoder) { return nil }

    private func dot() -> CALayer {
        if let dotLayer { return dotLayer }
        let layer = CALayer()
        let wh: CGFloat = 10
        layer.frame = CGRect(x: 0, y: -1000, width: wh, height: wh)
        layer.cornerRadius = wh / 2
        layer.backgroundColor = UIColor.blue.cgColor
        replicatorLayer.addSublayer(layer)
        dotLayer = layer
        return layer
    }

    public override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first else { return }
        let p = touch.location(in: self)
        path.move(to: p)
        points.append(p)
    }

    public override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first else { return }
        let p = touch.location(in: self)
        path.addLine(to: p)
        points.append(p)
        setNeedsDisplay()
        moveCount += 1
    }

    public override func draw(_ rect: CGRect) {
        UIColor.black.setStroke()
        path.stroke()
    }

    /// The seed's startAnim: the dot follows the path, copied `moveCount` times 0.2 s apart.
    public func startAnimation() {
        let animation = CAKeyframeAnimation()
        animation.keyPath = "position"
        animation.path = path.cgPath
        animation.duration = 3
        animation.repeatCount = .greatestFiniteMagnitude  // MAXFLOAT
        dot().add(animation, forKey: nil)
        dotAnimation = animation
        // Add the animation first, then replicate.
        replicatorLayer.instanceCount = moveCount
        replicatorLayer.instanceDelay = 0.2
    }

    /// The seed's reDraw: clears the path and removes the dot (and so its copies).
    public func redraw() {
        path = UIBezierPath()
        points = []
        setNeedsDisplay()
        dotLayer?.removeFromSuperlayer()
        dotLayer = nil
        dotAnimation = nil
        moveCount = 0
    }
}

extension SeedDemo {
    /// Points of the default scripted stroke (window coordinates): a wave across the view.
    static let pathDotsStroke: [CGPoint] = (0...24).map { i in
        let x = 30 + CGFloat(i) * 10
        return CGPoint(x: x, y: 130 + 60 * sin(CGFloat(i) / 24 * 2 * .pi))
    }

    /// Path dots: draw a wave, tap "Start" at 1 s, let the dots run.
    public static let pathDots = SeedDemo(
        name: "path-dots", seeds: [0],
        description: "draw a path with a finger; dots follow it in a CAReplicatorLayer with instanceDelay 0.2",
        size: CGSize(width: 320, height: 320), span: 5,
        timeline: SceneScript(
            [SceneScript.Step.down(pathDotsStroke[0], at: 0.1)]
                + pathDotsStroke.dropFirst().enumerated().map { SceneScript.Step.move(to: $0.element, at: 0.1 + 0.02 * Double($0.offset + 1)) }
                + [SceneScript.Step.up(at: 0.7), SceneScript.Step.tap(CGPoint(x: 80, y: 295), at: 1.0)]),
        build: {
            let window = SeedDemo.window(CGSize(width: 320, height: 320))
            let draw = SeedPathDotsView(frame: CGRect(x: 0, y: 0, width: 320, height: 270))
            draw.backgroundColor = .white
            window.addSubview(draw)
            window.addSubview(button("Start", frame: CGRect(x: 20, y: 280, width: 120, height: 30)) { [weak draw] in
                draw?.startAnimation()
            })
            window.addSubview(button("Redraw", frame: CGRect(x: 180, y: 280, width: 120, height: 30)) { [weak draw] in
                draw?.redraw()
            })
            return window
        })
}

extension SeedDemo {
    /// One of the seed's two buttons (its storyboard's startAnim: and reDraw: actions): white
    /// title on blue, running `action` on a tap.
    static func button(_ title: String, frame: CGRect, action: @escaping () -> Void) -> UIButton {
        let button = UIButton(type: .custom, primaryAction: UIAction(title: title) { _ in action() })
        button.frame = frame
        button.backgroundColor = UIColor(red: 0.2, green: 0.45, blue: 0.85, alpha: 1)
        button.layer.cornerRadius = 6
        return button
    }
}
