import Scene
import UIKit

// UIKit Dynamics, the lesson every tutorial starts with: boxes and balls fall under
// UIGravityBehavior, collide with each other and with the reference view's bounds
// (UICollisionBehavior, translatesReferenceBoundsIntoBoundary), bounce a little and rub
// (UIDynamicItemBehavior elasticity 0.35, friction 0.6) and turn as they land on each other.
// A tap on empty space drops a new box (or every third time a ball) at the tap; a tap on an
// item kicks it up and spins it (an instantaneous UIPushBehavior aimed off its centre). When the
// pile has settled the animator pauses and says so on the label (dynamicAnimatorDidPause).

/// A ball: a view that collides as the ellipse in its bounds.
public final class DynamicsBallView: UIView {
    public override var collisionBoundsType: UIDynamicItemCollisionBoundsType { .ellipse }
}

/// The pile: the reference view of its animator.
public final class DynamicsPileView: UIView, UIDynamicAnimatorDelegate {
    public private(set) var animator: UIDynamicAnimator!
    public let gravity = UIGravityBehavior()
    public let collision = UICollisionBehavior()
    public let material = UIDynamicItemBehavior()
    /// The boxes and balls, in the order they were added.
    public private(set) var items: [UIView] = []
    /// How many times the animator paused (every item at rest).
    public private(set) var pauses = 0
    public let statusLabel = UILabel()
    private var drops = 0

    static let palette: [UIColor] = [
        UIColor(red: 0.94, green: 0.42, blue: 0.35, alpha: 1), UIColor(red: 0.98, green: 0.74, blue: 0.27, alpha: 1),
        UIColor(red: 0.36, green: 0.70, blue: 0.52, alpha: 1), UIColor(red: 0.29, green: 0.56, blue: 0.89, alpha: 1),
        UIColor(red: 0.58, green: 0.44, blue: 0.83, alpha: 1), UIColor(red: 0.95, green: 0.55, blue: 0.70, alpha: 1),
    ]

    public override init(frame: CGRect) {
        super.init(frame: frame)
        statusLabel.frame = CGRect(x: 12, y: 10, width: frame.width - 24, height: 20)
        statusLabel.font = UIFont.systemFont(ofSize: 13)
        statusLabel.textColor = UIColor(white: 0.35, alpha: 1)
        statusLabel.text = "tap to drop a box, tap a box to kick it"
        addSubview(statusLabel)
        animator = UIDynamicAnimator(referenceView: self)
        animator.delegate = self
        collision.translatesReferenceBoundsIntoBoundary = true
        material.elasticity = 0.35
        material.friction = 0.6
        for behavior in [gravity, collision, material] { animator.addBehavior(behavior) }
        // The first pile: three rows, staggered and turned, so that they land on corners.
        let sizes: [CGSize] = [CGSize(width: 60, height: 44), CGSize(width: 46, height: 46), CGSize(width: 80, height: 30),
                               CGSize(width: 40, height: 56), CGSize(width: 54, height: 38)]
        for k in 0..<10 {
            let row = k / 4, column = k % 4
            let center = CGPoint(x: 50 + CGFloat(column) * 70 + CGFloat(row % 2) * 12, y: 90 + CGFloat(row) * 70)
            add(ball: k == 6, size: sizes[k % sizes.count], at: center, angle: CGFloat(k % 3 - 1) * 0.35)
        }
    }

    public required init?(coder: NSCoder) { return nil }

    /// Adds a box (or a ball) of `size` centred at `center`, turned by `angle`, to every behavior.
    public func add(ball: Bool, size: CGSize, at center: CGPoint, angle: CGFloat) {
        let view = ball ? DynamicsBallView() : UIView()
        view.bounds = CGRect(origin: .zero, size: size)
        view.center = center
        view.transform = CGAffineTransform(rotationAngle: angle)
        view.backgroundColor = Self.palette[items.count % Self.palette.count]
        view.layer.cornerRadius = ball ? size.width / 2 : 6
        view.layer.borderWidth = 1
        view.layer.borderColor = UIColor(white: 0, alpha: 0.15).cgColor
        addSubview(view)
        items.append(view)
        gravity.addItem(view)
        collision.addItem(view)
        material.addItem(view)
    }

    public override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first else { return }
        if let item = touch.view, item !== self, items.contains(where: { $0 === item }) {
            // Kick it up at 800 points/s (an impulse of 100 × magnitude on mass w·h/10 000), off
            // centre so that it spins.
            let push = UIPushBehavior(items: [item], mode: .instantaneous)
            let side: CGFloat = touch.location(in: item).x < item.bounds.midX ? -1 : 1
            push.setAngle(-.pi / 2, magnitude: 8 * item.bounds.width * item.bounds.height / 10_000)
            push.setTargetOffsetFromCenter(UIOffset(horizontal: side * item.bounds.width / 3, vertical: 0), for: item)
            push.action = { [weak self, weak push] in
                if let push, !push.active { self?.animator.removeBehavior(push) }
            }
            animator.addBehavior(push)
        } else {
            drops += 1
            let p = touch.location(in: self)
            let ball = drops % 3 == 0
            add(ball: ball, size: ball ? CGSize(width: 44, height: 44) : CGSize(width: 50, height: 40),
                at: CGPoint(x: p.x, y: min(p.y, 120)), angle: CGFloat(drops % 2 == 0 ? 0.4 : -0.3))
        }
    }

    public func dynamicAnimatorWillResume(_ animator: UIDynamicAnimator) {
        statusLabel.text = "tap to drop a box, tap a box to kick it"
    }

    public func dynamicAnimatorDidPause(_ animator: UIDynamicAnimator) {
        pauses += 1
        statusLabel.text = String(format: "at rest after %.1f s of physics", animator.elapsedTime())
    }
}

extension SeedDemo {
    /// The pile falls and settles; drops at 2.2 and 2.8 s, a ball at 3.4 s that lands on top,
    /// kicks of that ball (4.6 s) and of a box (5.0 s); everything rests before the end.
    public static let dynamicsPile = SeedDemo(
        name: "dynamics-pile", seeds: [],
        description: "UIKit Dynamics: boxes and balls fall, collide and settle (gravity, collision, elasticity, friction); tap drops a box, tap a box kicks it",
        size: CGSize(width: 320, height: 480), span: 9,
        timeline: SceneScript([
            .tap(CGPoint(x: 90, y: 60), at: 2.2),
            .tap(CGPoint(x: 230, y: 60), at: 2.8),
            .tap(CGPoint(x: 160, y: 50), at: 3.4),
            .tap(CGPoint(x: 158, y: 330), at: 4.6),
            .tap(CGPoint(x: 90, y: 362), at: 5.0),
        ]),
        build: {
            let window = SeedDemo.window(CGSize(width: 320, height: 480))
            window.addSubview(DynamicsPileView(frame: window.bounds))
            return window
        })
}
