import Scene
import UIKit

// Image carousel with a cube transition (seed 003): an image view shows image k of 5; a left
// swipe shows the next (k + 1 mod 5) and a right swipe the previous (k − 1 mod 5), each through
// a CATransition of type "cube" (subtype fromRight for next, fromLeft for previous, 1 s) added
// to the image view's layer under "KCTransitionAnimation" (Core Animation files every
// transition under kCATransition).

/// The carousel's view controller view.
public final class SeedCarouselView: UIView {
    public static let imageCount = 5
    public let imageView = UIImageView()
    public private(set) var currentIndex = 0
    /// The five images, drawn procedurally.
    public let images: [UIImage]

    public override init(frame: CGRect) {
        images = (0..<Self.imageCount).map { Self.makeImage(index: $0, size: frame.size) }
        super.init(frame: frame)
        imageView.frame = bounds
        imageView.contentMode = .scaleAspectFit
        imageView.image = images[0]
        addSubview(imageView)
        let left = UISwipeGestureRecognizer { [weak self] swipe in if swipe.state == .ended { self?.transitionAnimation(next: true) } }
        left.direction = .left
        addGestureRecognizer(left)
        let right = UISwipeGestureRecognizer { [weak self] swipe in if swipe.state == .ended { self?.transitionAnimation(next: false) } }
        right.direction = .right
        addGestureRecognizer(right)
    }

    public required init?(coder: NSCoder) { return nil }

    private func transitionAnimation(next: Bool) {
        let transition = CATransition()
        transition.type = CATransitionType(rawValue: "cube")
        transition.subtype = next ? .fromRight : .fromLeft
        transition.duration = 1
        imageView.image = image(next: next)
        imageView.layer.add(transition, forKey: "KCTransitionAnimation")
    }

    private func image(next: Bool) -> UIImage {
        currentIndex = next ? (currentIndex + 1) % Self.imageCount : (currentIndex - 1 + Self.imageCount) % Self.imageCount
        return images[currentIndex]
    }

    /// Picture `index`: its own hue, with `index + 1` white discs so each reads apart.
    static func makeImage(index: Int, size: CGSize) -> UIImage {
        UIGraphicsImageRenderer(size: size).image { context in
            UIColor(hue: CGFloat(index) / CGFloat(imageCount), saturation: 0.6, brightness: 0.85, alpha: 1).setFill()
            context.fill(CGRect(origin: .zero, size: size))
            UIColor.white.setFill()
            let r = min(size.width, size.height) / 14
            for k in 0...index {
                let x = size.width * CGFloat(k + 1) / CGFloat(index + 2)
                UIBezierPath(ovalIn: CGRect(x: x - r, y: size.height / 2 - r, width: 2 * r, height: 2 * r)).fill()
            }
        }
    }
}

extension SeedDemo {
    /// Swipe left twice, then right three times (wrapping to image 4).
    public static let carousel = SeedDemo(
        name: "carousel", seeds: [3],
        description: "swipe the image carousel: a cube CATransition to the next or previous image",
        size: CGSize(width: 240, height: 180), span: 7,
        timeline: SceneScript([
            .drag(from: CGPoint(x: 200, y: 90), to: CGPoint(x: 60, y: 90), at: 0.2, duration: 0.2, steps: 6),
            .drag(from: CGPoint(x: 200, y: 90), to: CGPoint(x: 60, y: 90), at: 1.5, duration: 0.2, steps: 6),
            .drag(from: CGPoint(x: 40, y: 90), to: CGPoint(x: 180, y: 90), at: 2.8, duration: 0.2, steps: 6),
            .drag(from: CGPoint(x: 40, y: 90), to: CGPoint(x: 180, y: 90), at: 4.1, duration: 0.2, steps: 6),
            .drag(from: CGPoint(x: 40, y: 90), to: CGPoint(x: 180, y: 90), at: 5.4, duration: 0.2, steps: 6),
        ]),
        build: {
            let window = SeedDemo.window(CGSize(width: 240, height: 180))
            window.addSubview(SeedCarouselView(frame: window.bounds))
            return window
        })
}
