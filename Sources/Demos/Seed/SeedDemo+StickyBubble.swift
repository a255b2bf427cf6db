import Scene
import UIKit

// QQ sticky bubble (seeds 000 and 001): a big circle follows a pan; a small circle stays at the
// origin and shrinks with the distance (r = r₀ − d/10); a CAShapeLayer joins them with two lines
// and two quadratic curves through seed 001's points A B C D and control points E F; past 80 pt
// the small circle hides and the connector goes; released past 80 pt the big circle plays an
// 8-frame burst (UIImageView animationImages, 0.5 s, once) and is removed 0.4 s later, released
// within 80 pt it springs back to the origin (damping 0.2, 0.5 s) and the small circle shows.

/// Seed 001's geometry of the connector between a small circle (centre x1 y1, radius r1) and a
/// big one (x2 y2, r2).
public struct SeedBubbleGeometry: Equatable, Sendable {
    public var distance: CGFloat
    public var sinAlpha: CGFloat
    public var cosAlpha: CGFloat
    public var a: CGPoint, b: CGPoint, c: CGPoint, d: CGPoint, e: CGPoint, f: CGPoint

    public init(small: CGPoint, r1: CGFloat, big: CGPoint, r2: CGFloat) {
        let (x1, y1, x2, y2) = (small.x, small.y, big.x, big.y)
        distance = ((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1)).squareRoot()
        if distance == 0 {
            cosAlpha = 1
            sinAlpha = 0
        } else {
            cosAlpha = (y2 - y1) / distance
            sinAlpha = (x2 - x1) / distance
        }
        a = CGPoint(x: x1 - r1 * cosAlpha, y: y1 + r1 * sinAlpha)
        b = CGPoint(x: x1 + r1 * cosAlpha, y: y1 - r1 * sinAlpha)
        c = CGPoint(x: x2 + r2 * cosAlpha, y: y2 - r2 * sinAlpha)
        d = CGPoint(x: x2 - r2 * cosAlpha, y: y2 + r2 * sinAlpha)
        let half = distance / 2
        e = CGPoint(x: a.x + half * sinAlpha, y: a.y + half * cosAlpha)
        f = CGPoint(x: b.x + half * sinAlpha, y: b.y + half * cosAlpha)
    }

    /// A → B, quadratic to C through F, → D, quadratic back to A through E (seed 000's order).
    public var path: UIBezierPath {
        let path = UIBezierPath()
        path.move(to: a)
        path.addLine(to: b)
        path.addQuadCurve(to: c, controlPoint: f)
        path.addLine(to: d)
        path.addQuadCurve(to: a, controlPoint: e)
        return path
    }
}

/// The draggable big circle (the seed's GooView). Add it to a superview; it puts its small circle
/// and connector there, behind itself.
public final class SeedBubbleView: UIView {
    /// Distance between the centres past which the bubble breaks off.
    public static let maxDistance: CGFloat = 80

    /// The small circle left at the origin.
    public private(set) var smallCircleView: UIView?
    /// The connector, while shown.
    public private(set) var shapeLayer: CAShapeLayer?
    /// The burst, once the bubble was released past `maxDistance`.
    public private(set) var burstView: UIImageView?
    /// The small circle's initial radius (half the big circle's width).
    public private(set) var originalSmallRadius: CGFloat = 0
    /// The geometry of the last connector drawn.
    public private(set) var geometry: SeedBubbleGeometry?
    private var removalLink: CADisplayLink?

    public override init(frame: CGRect) {
        super.init(frame: frame)
        originalSmallRadius = frame.width / 2
        layer.cornerRadius = frame.width / 2
        addGestureRecognizer(UIPanGestureRecognizer { [weak self] pan in self?.pan(pan) })
    }

    public required init?(coder: NSCoder) { return nil }

    public override func didMoveToSuperview() {
        guard let superview, smallCircleView == nil else { return }
        let small = UIView()
        small.backgroundColor = backgroundColor
        superview.insertSubview(small, belowSubview: self)
        small.center = center
        small.bounds = bounds
        small.layer.cornerRadius = bounds.width / 2
        smallCircleView = small
    }

    /// The connector layer, made on first use below this view's layer in the superview's layer.
    private func connector() -> CAShapeLayer {
        if let shapeLayer { return shapeLayer }
        let layer = CAShapeLayer()
        layer.fillColor = backgroundColor?.cgColor
        superview?.layer.insertSublayer(layer, below: self.layer)
        shapeLayer = layer
        return layer
    }

    private func removeConnector() {
        shapeLayer?.removeFromSuperlayer()
        shapeLayer = nil
    }

    /// Distance between the two centres.
    public var centreDistance: CGFloat {
        guard let small = smallCircleView else { return 0 }
        return hypot(center.x - small.center.x, center.y - small.center.y)
    }

    private func pan(_ pan: UIPanGestureRecognizer) {
        guard let small = smallCircleView else { return }
        let translation = pan.translation(in: self)
        center = CGPoint(x: center.x + translation.x, y: center.y + translation.y)
        pan.setTranslation(.zero, in: self)

        let d = centreDistance
        // Deviation: the radius is kept ≥ 0 (the seed lets it go negative while hidden).
        let smallRadius = max(0, originalSmallRadius - d / 10)
        small.bounds = CGRect(x: 0, y: 0, width: smallRadius * 2, height: smallRadius * 2)
        small.layer.cornerRadius = smallRadius

        if d > Self.maxDistance {
            small.isHidden = true
            removeConnector()
        } else if d > 0 && !small.isHidden {
            let g = SeedBubbleGeometry(small: small.center, r1: small.bounds.width / 2, big: center, r2: bounds.width / 2)
            geometry = g
            // The connector is a layer no view owns: set its path without an implicit animation.
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            connector().path = g.path.cgPath
            CATransaction.commit()
        }

        guard pan.state == .ended else { return }
        if d > Self.maxDistance {
            burst()
        } else {
            removeConnector()
            UIView.animate(withDuration: 0.5, delay: 0, usingSpringWithDamping: 0.2, initialSpringVelocity: 0,
                           options: .curveLinear, animations: { self.center = small.center },
                           completion: { _ in small.isHidden = false })
        }
    }

    /// The 8-frame burst, then the bubble goes 0.4 s later.
    private func burst() {
        let imageView = UIImageView(frame: bounds)
        imageView.animationImages = Self.burstFrames(size: bounds.size, color: backgroundColor ?? .red)
        imageView.animationRepeatCount = 1
        imageView.animationDuration = 0.5
        imageView.startAnimating()
        addSubview(imageView)
        burstView = imageView
        let start = CACurrentMediaTime()
        let link = CADisplayLink { [weak self] link in
            guard link.timestamp >= start + 0.4 - 1e-9 else { return }
            link.invalidate()
            self?.removeFromSuperview()
        }
        link.add(to: .main, forMode: .common)
        removalLink = link
    }

    /// Eight frames of a burst drawn procedurally: eight drops flying out and fading.
    public static func burstFrames(size: CGSize, color: UIColor) -> [UIImage] {
        let renderer = UIGraphicsImageRenderer(size: size)
        let centre = CGPoint(x: size.width / 2, y: size.height / 2)
        let maxRadius = min(size.width, size.height) / 2
        return (1...8).map { frame in
            renderer.image { _ in
                let progress = CGFloat(frame) / 8
                let alpha = 1 - progress * 0.85
                UIColor(cgColor: color.cgColor.copy(alpha: alpha) ?? color.cgColor).setFill()
                let reach = maxRadius * (0.2 + 0.7 * progress)
                let dropRadius = maxRadius * 0.3 * (1 - progress * 0.7)
                for k in 0..<8 {
                    let angle = CGFloat(k) * .pi / 4 + progress * 0.3
                    let p = CGPoint(x: centre.x + reach * cos(angle), y: centre.y + reach * sin(angle))
                    UIBezierPath(ovalIn: CGRect(x: p.x - dropRadius, y: p.y - dropRadius,
                                                width: dropRadius * 2, height: dropRadius * 2)).fill()
                }
            }
        }
    }
}

extension SeedDemo {
    /// Where the bubble sits before any drag.
    static let bubbleOrigin = CGPoint(x: 100, y: 120)

    /// The QQ sticky bubble: drag it 60 pt and release (it springs back), then drag it 120 pt and
    /// release (it breaks off with the burst).
    public static let stickyBubble = SeedDemo(
        name: "sticky-bubble", seeds: [0, 1],
        description: "the QQ sticky bubble: drag it; past 80 pt it breaks off with an 8-frame burst, within 80 pt it springs back",
        size: CGSize(width: 320, height: 240), span: 3.5,
        timeline: SceneScript([
            .drag(from: bubbleOrigin, to: CGPoint(x: 160, y: 120), at: 0.1, duration: 0.5, steps: 15),
            .drag(from: bubbleOrigin, to: CGPoint(x: 200, y: 180), at: 2.0, duration: 0.6, steps: 18),
        ]),
        build: {
            let window = SeedDemo.window(CGSize(width: 320, height: 240))
            let bubble = SeedBubbleView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
            bubble.backgroundColor = .red
            bubble.center = bubbleOrigin
            window.addSubview(bubble)
            return window
        })
}
