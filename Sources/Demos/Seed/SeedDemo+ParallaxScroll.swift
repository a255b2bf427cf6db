import Scene
import UIKit

// A parallax scroll (the well-known "stretchy parallax header" lesson): a UIScrollView whose
// header picture moves at half the scrolling speed, and, pulled down past the top, stretches to
// fill the gap (the header's frame follows the negative offset). Everything is set in
// `scrollViewDidScroll`, which the scroll view sends each frame of a drag, its deceleration and
// its bounce back.

/// The parallax list: a header of hills under a sky, then rows.
public final class SeedParallaxView: UIScrollView, UIScrollViewDelegate {
    /// Height of the header at rest (points).
    public static let headerHeight: CGFloat = 150
    /// The part of the offset the picture follows: ½ (it moves at half speed).
    public static let parallaxFactor: CGFloat = 0.5

    public let header = UIView()
    /// The picture inside the header, taller than it so that it can move.
    public let picture = UIView()

    public override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = UIColor(white: 0.96, alpha: 1)
        alwaysBounceVertical = true
        header.clipsToBounds = true
        header.backgroundColor = UIColor(red: 0.45, green: 0.7, blue: 0.95, alpha: 1)
        picture.frame = CGRect(x: 0, y: 0, width: frame.width, height: Self.headerHeight * 1.5)
        for (i, color) in [UIColor(red: 0.35, green: 0.6, blue: 0.35, alpha: 1), UIColor(red: 0.25, green: 0.5, blue: 0.3, alpha: 1)].enumerated() {
            let hill = UIView(frame: CGRect(x: CGFloat(i) * frame.width * 0.45 - 60, y: 80 + CGFloat(i) * 25,
                                            width: frame.width * 0.9 + 60, height: 260))
            hill.backgroundColor = color
            hill.layer.cornerRadius = 130
            picture.addSubview(hill)
        }
        let sun = UIView(frame: CGRect(x: frame.width - 70, y: 24, width: 36, height: 36))
        sun.backgroundColor = UIColor(red: 1, green: 0.85, blue: 0.3, alpha: 1)
        sun.layer.cornerRadius = 18
        picture.insertSubview(sun, at: 0)
        header.addSubview(picture)
        addSubview(header)
        let rowHeight: CGFloat = 56
        for i in 0..<14 {
            let row = UIView(frame: CGRect(x: 10, y: Self.headerHeight + 10 + CGFloat(i) * (rowHeight + 8),
                                           width: frame.width - 20, height: rowHeight))
            row.backgroundColor = .white
            row.layer.cornerRadius = 10
            let swatch = UIView(frame: CGRect(x: 10, y: 10, width: 36, height: 36))
            swatch.backgroundColor = UIColor(hue: CGFloat(i) / 14, saturation: 0.55, brightness: 0.9, alpha: 1)
            swatch.layer.cornerRadius = 18
            row.addSubview(swatch)
            let label = UILabel(frame: CGRect(x: 58, y: 16, width: frame.width - 90, height: 24))
            label.text = "Row \(i + 1)"
            label.textColor = .darkGray
            row.addSubview(label)
            addSubview(row)
        }
        contentSize = CGSize(width: frame.width, height: Self.headerHeight + 10 + 14 * (rowHeight + 8) + 2)
        delegate = self
        layoutHeader()
    }

    public required init?(coder: NSCoder) { return nil }

    public func scrollViewDidScroll(_ scrollView: UIScrollView) { layoutHeader() }

    /// Scrolled down (offset y > 0) the picture moves by half the offset inside the header, so it
    /// goes up at half speed; pulled down (y < 0) the header starts at the offset and grows.
    private func layoutHeader() {
        let y = contentOffset.y
        if y < 0 {
            header.frame = CGRect(x: 0, y: y, width: bounds.width, height: Self.headerHeight - y)
            picture.frame.origin.y = 0
        } else {
            header.frame = CGRect(x: 0, y: 0, width: bounds.width, height: Self.headerHeight)
            picture.frame.origin.y = y * Self.parallaxFactor
        }
    }
}

extension SeedDemo {
    /// A flick up at 0.3 s (the list decelerates), a flick down at 3.3 s (it runs into the top
    /// and bounces, stretching the header), a slow pull down past the top from 5.2 s, released at
    /// 6 s (it bounces back).
    public static let parallaxScroll = SeedDemo(
        name: "parallax-scroll", seeds: [],
        description: "UIScrollView: flick the list (deceleration 0.998/ms); the header picture moves at half speed and stretches when pulled past the top",
        size: CGSize(width: 240, height: 360), span: 7,
        timeline: SceneScript([
            .drag(from: CGPoint(x: 120, y: 300), to: CGPoint(x: 120, y: 180), at: 0.3, duration: 0.15, steps: 6),
            .drag(from: CGPoint(x: 120, y: 100), to: CGPoint(x: 120, y: 260), at: 3.3, duration: 0.12, steps: 6),
            .drag(from: CGPoint(x: 120, y: 80), to: CGPoint(x: 120, y: 300), at: 5.2, duration: 0.8, steps: 24),
        ]),
        build: {
            let window = SeedDemo.window(CGSize(width: 240, height: 360))
            window.addSubview(SeedParallaxView(frame: window.bounds))
            return window
        })
}
