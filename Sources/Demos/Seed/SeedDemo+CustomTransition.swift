import Scene
import UIKit

// A custom present/dismiss transition (the classic "zoom from a card" lesson): tapping a card
// presents a detail controller with `modalPresentationStyle = .custom` and a transitioning
// delegate whose animator grows the detail view from the card's frame (and rounds its corners
// down) with UIView.animate; tapping the detail dismisses it, shrinking back into the card. With
// `.custom` the list stays on screen underneath, as on iOS.

/// The zoom animator: presenting, the to-view goes from `originFrame` to its final frame;
/// dismissing, the from-view goes back to `originFrame` and fades.
public final class SeedZoomAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    /// Length of both transitions (seconds).
    public static let duration: TimeInterval = 0.6
    public var presenting = true
    /// The card's frame in window coordinates (the container's).
    public var originFrame: CGRect = .zero

    public func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { Self.duration }

    public func animateTransition(using context: UIViewControllerContextTransitioning) {
        let container = context.containerView
        if presenting, let detail = context.view(forKey: .to), let controller = context.viewController(forKey: .to) {
            let final = context.finalFrame(for: controller)
            detail.frame = originFrame
            detail.layer.cornerRadius = 14
            detail.clipsToBounds = true
            container.addSubview(detail)
            UIView.animate(withDuration: Self.duration, delay: 0, usingSpringWithDamping: 0.8, initialSpringVelocity: 0,
                           options: [], animations: {
                detail.frame = final
                detail.layer.cornerRadius = 0
            }, completion: { _ in context.completeTransition(!context.transitionWasCancelled) })
        } else if let detail = context.view(forKey: .from) {
            UIView.animate(withDuration: Self.duration, animations: {
                detail.frame = self.originFrame
                detail.layer.cornerRadius = 14
                detail.alpha = 0
            }, completion: { _ in context.completeTransition(!context.transitionWasCancelled) })
        }
    }
}

/// The detail screen: a coloured panel with a title; a tap dismisses it.
public final class SeedDetailViewController: UIViewController {
    let color: UIColor

    init(color: UIColor) {
        self.color = color
        super.init(nibName: nil, bundle: nil)
        modalPresentationStyle = .custom
    }

    public required init?(coder: NSCoder) { return nil }

    public override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = color
        let title = UILabel(frame: CGRect(x: 20, y: 40, width: 200, height: 30))
        title.text = "Details"
        title.font = .boldSystemFont(ofSize: 24)
        title.textColor = .white
        view.addSubview(title)
        for i in 0..<4 {
            let line = UIView(frame: CGRect(x: 20, y: 100 + CGFloat(i) * 26, width: 180 - CGFloat(i % 2) * 50, height: 12))
            line.backgroundColor = UIColor(white: 1, alpha: 0.6)
            line.layer.cornerRadius = 6
            view.addSubview(line)
        }
        view.addGestureRecognizer(UITapGestureRecognizer { [weak self] _ in self?.dismiss(animated: true) })
    }
}

/// The list: three cards; a tap on one presents its detail with the zoom.
public final class SeedCardListViewController: UIViewController, UIViewControllerTransitioningDelegate {
    let animator = SeedZoomAnimator()
    static let colors = [UIColor(red: 0.95, green: 0.45, blue: 0.35, alpha: 1),
                         UIColor(red: 0.3, green: 0.6, blue: 0.9, alpha: 1),
                         UIColor(red: 0.45, green: 0.75, blue: 0.45, alpha: 1)]

    private var cards: [UIView] = []

    public override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = UIColor(white: 0.95, alpha: 1)
        for color in Self.colors {
            let card = UIView()
            cards.append(card)
            card.backgroundColor = color
            card.layer.cornerRadius = 14
            card.addGestureRecognizer(UITapGestureRecognizer { [weak self, weak card] _ in
                guard let self, let card else { return }
                self.open(card, color: color)
            })
            view.addSubview(card)
        }
    }

    /// The cards span the view's width (it is the screen's size when loaded, the window's after).
    public override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        for (i, card) in cards.enumerated() {
            card.frame = CGRect(x: 20, y: 30 + CGFloat(i) * 105, width: view.bounds.width - 40, height: 90)
        }
    }

    private func open(_ card: UIView, color: UIColor) {
        animator.originFrame = card.convert(card.bounds, to: nil)
        let detail = SeedDetailViewController(color: color)
        detail.transitioningDelegate = self
        present(detail, animated: true)
    }

    public func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                                    source: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        animator.presenting = true
        return animator
    }

    public func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        animator.presenting = false
        return animator
    }
}

extension SeedDemo {
    /// Tap the second card at 0.3 s, the detail at 1.8 s, the third card at 3.1 s.
    public static let customTransition = SeedDemo(
        name: "custom-transition", seeds: [],
        description: "a custom present/dismiss transition: tap a card and its detail zooms out of it (.custom, a transitioning delegate's animator); tap to zoom back",
        size: CGSize(width: 240, height: 360), span: 4.6,
        timeline: SceneScript([
            .tap(CGPoint(x: 120, y: 180), at: 0.3),
            .tap(CGPoint(x: 120, y: 180), at: 1.8),
            .tap(CGPoint(x: 120, y: 290), at: 3.1),
        ]),
        build: {
            let window = SeedDemo.window(CGSize(width: 240, height: 360))
            window.rootViewController = SeedCardListViewController()
            return window
        })

    /// The scroll and view-controller transition demos.
    public static let scrollAndTransitions = [parallaxScroll, customTransition]
}
