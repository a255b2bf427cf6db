import Scene
import UIKit

// Falling petal (seed 003), the six listings besides pause/resume (SeedDemo+PetalPause.swift).
// Each has the same 10 × 20 petal layer at (50, 150) in a view controller's view:
//   jump back       a touch moves it to the touch point (CABasicAnimation "position", 5 s);
//                   the animation is removed at the end and the petal shows its model
//                   position again (the seed's "why it jumps back");
//   move + rotate   the same move, plus "transform.rotation.z" to 3π/2 (6 s, autoreverses,
//                   forever), anchor point (0.5, 0.6);
//   delegate fix    the move keeps its target with setValue(_:forKey:); animationDidStop sets
//                   the model position inside a transaction with actions disabled;
//   keyframe values at load, values (50, 150) (80, 220) (45, 300) (55, 400), 8 s, beginTime
//                   = CACurrentMediaTime() + 2;
//   keyframe path   at load, a cubic from (50, 150) with controls (160, 280) (−30, 300) to
//                   (55, 400), 8 s, beginTime + 5;
//   group           at load, a group (10 s, beginTime + 5) of the rotation (autoreverses,
//                   forever) and the path move; its delegate sets the final position and
//                   rotation in a transaction with actions disabled.

/// The falling petal's view controller view, for one listing of seed 003.
public final class SeedFallingPetalView: UIView {
    public enum Variant: String, CaseIterable, Sendable {
        case jumpBack = "jump-back", moveAndRotate = "move-rotate", delegateFix = "delegate-fix"
        case keyframeValues = "keyframe-values", keyframePath = "keyframe-path", group
    }

    public static let translationKey = "KCBasicAnimation_Translation"
    public static let rotationKey = "KCBasicAnimation_Rotation"
    public static let keyframeKey = "KCKeyframeAnimation_Position"
    static let locationKey = "KCBasicAnimationLocation"
    static let toValueKey = "KCBasicAnimationProperty_ToValue"
    static let endPositionKey = "KCKeyframeAnimationProperty_EndPosition"

    public let variant: Variant
    public let petal = CALayer()
    /// The group added (without a key, as in the seed), for the group listing.
    public private(set) var groupAnimation: CAAnimationGroup?
    /// Times the delegate's animationDidStop ran.
    public private(set) var stops = 0

    private final class Relay: CAAnimationDelegate {
        weak var view: SeedFallingPetalView?
        func animationDidStart(_ anim: CAAnimation) {}
        func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { view?.animationDidStop(anim, finished: flag) }
    }
    private let relay = Relay()

    public init(frame: CGRect, variant: Variant) {
        self.variant = variant
        super.init(frame: frame)
        relay.view = self
        backgroundColor = UIColor(patternImage: SeedPetalView.backgroundImage())
        petal.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
        petal.position = CGPoint(x: 50, y: 150)
        if variant == .moveAndRotate { petal.anchorPoint = CGPoint(x: 0.5, y: 0.6) }
        petal.contents = SeedPetalView.petalImage().cgImage
        petal.contentsScale = 2
        layer.addSublayer(petal)
        switch variant {
        case .keyframeValues: keyframeValues()
        case .keyframePath: keyframePath()
        case .group: group()
        default: break
        }
    }

    public required init?(coder: NSCoder) { return nil }

    public override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first else { return }
        let location = touch.location(in: self)
        switch variant {
        case .jumpBack, .delegateFix, .moveAndRotate:
            let move = CABasicAnimation(keyPath: "position")
            move.toValue = location
            move.duration = 5
            if variant == .delegateFix {
                move.delegate = relay
                move.setValue(location, forKey: Self.locationKey)
            }
            petal.add(move, forKey: Self.translationKey)
            if variant == .moveAndRotate { petal.add(rotation(duration: 6), forKey: Self.rotationKey) }
        default:
            break
        }
    }

    private func rotation(duration: CFTimeInterval) -> CABasicAnimation {
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.toValue = CGFloat.pi / 2 * 3
        if duration > 0 { spin.duration = duration }
        spin.autoreverses = true
        spin.repeatCount = .infinity  // HUGE_VALF
        spin.isRemovedOnCompletion = false
        spin.setValue(CGFloat.pi / 2 * 3, forKey: Self.toValueKey)
        return spin
    }

    /// The seed's Bézier curve from the petal's position to (55, 400).
    public static func fallPath(from start: CGPoint) -> CGPath {
        let path = CGMutablePath()
        path.move(to: start)
        path.addCurve(to: CGPoint(x: 55, y: 400), control1: CGPoint(x: 160, y: 280), control2: CGPoint(x: -30, y: 300))
        return path
    }

    private func keyframeValues() {
        let keyframes = CAKeyframeAnimation(keyPath: "position")
        keyframes.values = [petal.position, CGPoint(x: 80, y: 220), CGPoint(x: 45, y: 300), CGPoint(x: 55, y: 400)]
        keyframes.duration = 8
        keyframes.beginTime = CACurrentMediaTime() + 2
        petal.add(keyframes, forKey: Self.keyframeKey)
    }

    private func keyframePath() {
        let keyframes = CAKeyframeAnimation(keyPath: "position")
        keyframes.path = Self.fallPath(from: petal.position)
        keyframes.duration = 8
        keyframes.beginTime = CACurrentMediaTime() + 5
        petal.add(keyframes, forKey: Self.keyframeKey)
    }

    private func group() {
        let move = CAKeyframeAnimation(keyPath: "position")
        move.path = Self.fallPath(from: petal.position)
        move.setValue(CGPoint(x: 55, y: 400), forKey: Self.endPositionKey)
        let group = CAAnimationGroup()
        group.animations = [rotation(duration: 0), move]
        group.delegate = relay
        group.duration = 10
        group.beginTime = CACurrentMediaTime() + 5
        petal.add(group, forKey: nil)
        groupAnimation = group
    }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        stops += 1
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        if let group = anim as? CAAnimationGroup, let parts = group.animations, parts.count == 2 {
            let toValue = parts[0].value(forKey: Self.toValueKey) as? CGFloat ?? 0
            if let end = parts[1].value(forKey: Self.endPositionKey) as? CGPoint { petal.position = end }
            petal.transform = CATransform3DMakeRotation(toValue, 0, 0, 1)
        } else if let location = anim.value(forKey: Self.locationKey) as? CGPoint {
            petal.position = location
        }
        CATransaction.commit()
    }
}

extension SeedDemo {
    static func fallingPetal(_ variant: SeedFallingPetalView.Variant, span: CFTimeInterval, taps: [SceneScript.Step],
                             description: String) -> SeedDemo {
        SeedDemo(name: "falling-petal-\(variant.rawValue)", seeds: [3], description: description,
                 size: CGSize(width: 320, height: 480), span: span, timeline: SceneScript(taps), build: {
            let window = SeedDemo.window(CGSize(width: 320, height: 480))
            window.addSubview(SeedFallingPetalView(frame: window.bounds, variant: variant))
            return window
        })
    }

    /// The six falling-petal listings (touch ones tapped at (200, 400) at 0.2 s).
    public static let fallingPetals: [SeedDemo] = [
        fallingPetal(.jumpBack, span: 6, taps: [.tap(CGPoint(x: 200, y: 400), at: 0.2)],
                     description: "tap: the petal moves to the touch (position, 5 s), then jumps back to its model position"),
        fallingPetal(.moveAndRotate, span: 6, taps: [.tap(CGPoint(x: 200, y: 400), at: 0.2)],
                     description: "tap: the petal moves to the touch while transform.rotation.z turns it to 3π/2 and back"),
        fallingPetal(.delegateFix, span: 6, taps: [.tap(CGPoint(x: 200, y: 400), at: 0.2)],
                     description: "tap: the petal moves and stays: animationDidStop sets its position with actions disabled"),
        fallingPetal(.keyframeValues, span: 11, taps: [],
                     description: "the petal falls through four keyframe values in 8 s, from 2 s after loading"),
        fallingPetal(.keyframePath, span: 14, taps: [],
                     description: "the petal falls along a cubic Bézier keyframe path in 8 s, from 5 s after loading"),
        fallingPetal(.group, span: 16, taps: [],
                     description: "a CAAnimationGroup of the path and the rotation (10 s, from 5 s); the delegate sets the final state"),
    ]
}
