import Scene
import UIKit

// Page curl (seed 000): each tap shows the next of three pictures (1, 2, 3, 1, …; the seed's
// counter starts at 2) through a page-curl transition of 2 s, here with UIView's
// `transition(with:duration:options: .transitionCurlUp, …)` (a CATransition "pageCurl").

/// The page-curl view controller view.
public final class SeedPageCurlView: UIView {
    public let imageView = UIImageView()
    /// The picture shown next (the seed's `static int i = 2`).
    public private(set) var nextPicture = 2
    /// Pictures 1…3, drawn procedurally.
    public let pictures: [Int: UIImage]
    /// Transitions finished (completion ran with `finished`).
    public private(set) var completedTransitions = 0

    public override init(frame: CGRect) {
        let inset = CGRect(origin: .zero, size: frame.size).insetBy(dx: 20, dy: 20)
        pictures = Dictionary(uniqueKeysWithValues: (1...3).map { ($0, SeedCarouselView.makeImage(index: $0 + 1, size: inset.size)) })
        super.init(frame: frame)
        imageView.frame = inset
        imageView.image = pictures[1]
        addSubview(imageView)
    }

    public required init?(coder: NSCoder) { return nil }

    public override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        if nextPicture == 4 { nextPicture = 1 }
        let picture = pictures[nextPicture]
        nextPicture += 1
        UIView.transition(with: imageView, duration: 2, options: .transitionCurlUp, animations: {
            self.imageView.image = picture
        }, completion: { finished in if finished { self.completedTransitions += 1 } })
    }
}

extension SeedDemo {
    /// Tap at 0.2 s and at 2.6 s.
    public static let pageCurl = SeedDemo(
        name: "page-curl", seeds: [0],
        description: "tap to turn the page: UIView.transition with .transitionCurlUp (a pageCurl CATransition, 2 s)",
        size: CGSize(width: 200, height: 240), span: 5,
        timeline: SceneScript([.tap(CGPoint(x: 100, y: 120), at: 0.2), .tap(CGPoint(x: 100, y: 120), at: 2.6)]),
        build: {
            let window = SeedDemo.window(CGSize(width: 200, height: 240))
            window.addSubview(SeedPageCurlView(frame: window.bounds))
            return window
        })
}
