import Scene
import UIKit

// A scrubbable card (the interactive-animation lesson of Apple's WWDC16 "Advances in UIKit
// Animations and Transitions"): a card docked at the bottom opens into a panel. A pan makes a
// paused `UIViewPropertyAnimator` (0.6 s, damping ratio 0.8) and scrubs its `fractionComplete`
// with the finger (linear scrubbing, Apple's default); on release the animator continues to the
// end when the card is past half way, and reverses back otherwise. A tap runs the same animator
// without a finger. The backdrop dims with the card, and the card's corners round as it opens.

/// The card and its backdrop, filling their superview.
public final class SeedScrubbableCardView: UIView {
    /// The card's frame docked (closed) and open, in this view's coordinates.
    public let closedFrame: CGRect
    public let openFrame: CGRect
    /// The moving card.
    public let card = UIView()
    /// The dimming backdrop behind the card.
    public let backdrop = UIView()
    /// Whether the card is open (changes when an animator finishes at its end).
    public private(set) var isOpen = false
    /// The animator of the transition in progress, if any.
    public private(set) var animator: UIViewPropertyAnimator?

    public override init(frame: CGRect) {
        closedFrame = CGRect(x: 20, y: frame.height - 70, width: frame.width - 40, height: 60)
        openFrame = CGRect(x: 20, y: 40, width: frame.width - 40, height: frame.height - 60)
        super.init(frame: frame)
        backdrop.frame = bounds
        backdrop.backgroundColor = .black
        backdrop.alpha = 0
        addSubview(backdrop)
        card.frame = closedFrame
        card.backgroundColor = UIColor(red: 0.25, green: 0.45, blue: 0.85, alpha: 1)
        card.layer.cornerRadius = 10
        let handle = UIView(frame: CGRect(x: closedFrame.width / 2 - 20, y: 8, width: 40, height: 6))
        handle.backgroundColor = UIColor(white: 1, alpha: 0.8)
        handle.layer.cornerRadius = 3
        card.addSubview(handle)
        let stripe = UIView(frame: CGRect(x: 16, y: 26, width: closedFrame.width - 32, height: 18))
        stripe.backgroundColor = UIColor(white: 1, alpha: 0.35)
        stripe.layer.cornerRadius = 4
        card.addSubview(stripe)
        addSubview(card)
        card.addGestureRecognizer(UIPanGestureRecognizer { [weak self] pan in self?.pan(pan) })
        card.addGestureRecognizer(UITapGestureRecognizer { [weak self] tap in
            if tap.state == .ended { self?.toggle() }
        })
    }

    public required init?(coder: NSCoder) { return nil }

    /// A new animator towards the other state, paused or not.
    private func makeAnimator() -> UIViewPropertyAnimator {
        let opening = !isOpen
        let animator = UIViewPropertyAnimator(duration: 0.6, dampingRatio: 0.8) { [unowned self] in
            card.frame = opening ? openFrame : closedFrame
            card.layer.cornerRadius = opening ? 22 : 10
            card.backgroundColor = opening ? UIColor(red: 0.95, green: 0.55, blue: 0.25, alpha: 1)
                                           : UIColor(red: 0.25, green: 0.45, blue: 0.85, alpha: 1)
            backdrop.alpha = opening ? 0.45 : 0
        }
        animator.addCompletion { [weak self] position in
            guard let self else { return }
            if position == .end { isOpen = opening }
            self.animator = nil
        }
        self.animator = animator
        return animator
    }

    private func toggle() {
        guard animator == nil else { return }
        makeAnimator().startAnimation()
    }

    private func pan(_ pan: UIPanGestureRecognizer) {
        switch pan.state {
        case .began:
            (animator ?? makeAnimator()).pauseAnimation()
        case .changed:
            guard let animator else { return }
            let travel = closedFrame.minY - openFrame.minY
            let dy = pan.translation(in: self).y
            animator.fractionComplete = min(max((isOpen ? dy : -dy) / travel, 0), 1)
        case .ended, .cancelled:
            guard let animator else { return }
            if animator.fractionComplete < 0.5 { animator.isReversed = true }
            animator.continueAnimation(withTimingParameters: nil, durationFactor: 0)
        default:
            break
        }
    }
}

extension SeedDemo {
    /// A short drag that snaps back, a long one that opens the card, then a tap that closes it.
    public static let scrubbableCard = SeedDemo(
        name: "scrubbable-card", seeds: [],
        description: "drag the card up: a paused UIViewPropertyAnimator follows the finger, then finishes or reverses; tap to toggle",
        size: CGSize(width: 240, height: 320), span: 6,
        timeline: SceneScript([
            .drag(from: CGPoint(x: 120, y: 280), to: CGPoint(x: 120, y: 200), at: 0.3, duration: 0.8, steps: 12),
            .drag(from: CGPoint(x: 120, y: 280), to: CGPoint(x: 120, y: 90), at: 2.0, duration: 0.9, steps: 14),
            .tap(CGPoint(x: 120, y: 200), at: 4.2),
        ]),
        build: {
            let window = SeedDemo.window(CGSize(width: 240, height: 320))
            window.addSubview(SeedScrubbableCardView(frame: window.bounds))
            return window
        })
}
