import QuartzCore

/// Layer filter demo: `filters`, `backgroundFilters` and
/// `compositingFilter` written as iOS code writes them (`CAFilter` types, blend-mode strings).
/// A layer-only scene (not from a seed); `SeedDemo.all` shows it as a window.
public enum FilterDemos {
    public static let demos: [LayerDemo] = [
        LayerDemo(name: "filters", seeds: [], size: CGSize(width: 240, height: 160), span: 2, build: filters),
    ]

    static func filter(_ type: String, name: String? = nil, _ inputs: [String: Any] = [:]) -> CAFilter {
        let f = CAFilter(type: type)
        if let name { f.name = name }
        for (key, value) in inputs { f.setValue(value, forKey: key) }
        return f
    }

    /// A striped gradient backdrop; left, a star whose blur radius breathes 0 → 6 → 0 through
    /// `filters.blur.inputRadius`; middle, a frosted-glass card (`backgroundFilters`: blur and
    /// saturation); right, two discs composited with `multiplyBlendMode` and `screenBlendMode`,
    /// and a square of stripes turned grey by `colorMonochrome` and hue-rotated by half a turn.
    static func filters() -> CALayer {
        let root = LayerDemo.root(CGSize(width: 240, height: 160))
        let backdrop = CAGradientLayer()
        backdrop.frame = root.bounds
        backdrop.colors = [LayerDemo.color(0.95, 0.3, 0.25), LayerDemo.color(0.98, 0.8, 0.2), LayerDemo.color(0.2, 0.5, 0.95)]
        backdrop.startPoint = CGPoint(x: 0, y: 0)
        backdrop.endPoint = CGPoint(x: 1, y: 1)
        root.addSublayer(backdrop)
        for i in 0..<8 {
            let stripe = CALayer()
            stripe.frame = CGRect(x: CGFloat(i) * 30 + 8, y: 0, width: 6, height: 160)
            stripe.backgroundColor = LayerDemo.color(0.1, 0.1, 0.15, 0.8)
            root.addSublayer(stripe)
        }
        root.addSublayer(blurredStar())
        root.addSublayer(frostedCard())
        for (x, y, color, mode) in [(170.0, 20.0, LayerDemo.color(0.2, 0.9, 0.9), kCAFilterMultiplyBlendMode),
                                    (195.0, 45.0, LayerDemo.color(0.6, 0.2, 0.8), kCAFilterScreenBlendMode)] {
            let disc = CALayer()
            disc.frame = CGRect(x: x, y: y, width: 40, height: 40)
            disc.cornerRadius = 20
            disc.backgroundColor = color
            disc.compositingFilter = mode
            root.addSublayer(disc)
        }
        let tinted = CALayer()
        tinted.frame = CGRect(x: 170, y: 100, width: 60, height: 50)
        tinted.masksToBounds = true
        let inner = CAGradientLayer()
        inner.frame = tinted.bounds
        inner.colors = [LayerDemo.color(1, 0.2, 0.2), LayerDemo.color(0.2, 1, 0.2)]
        tinted.addSublayer(inner)
        let grey = CALayer()
        grey.frame = CGRect(x: 0, y: 0, width: 30, height: 50)
        grey.backgroundColor = LayerDemo.color(0.2, 0.4, 1)
        grey.filters = [filter(kCAFilterColorMonochrome, [kCAFilterInputAmount: 1])]
        tinted.addSublayer(grey)
        tinted.filters = [filter(kCAFilterColorHueRotate, [kCAFilterInputAngle: Double.pi])]
        root.addSublayer(tinted)
        return root
    }

    static func blurredStar() -> CALayer {
        let star = CAShapeLayer()
        star.frame = CGRect(x: 10, y: 30, width: 70, height: 70)
        let path = CGMutablePath()
        for k in 0..<10 {
            let angle = CGFloat(k) * .pi / 5 - .pi / 2, r: CGFloat = k % 2 == 0 ? 34 : 14
            let p = CGPoint(x: 35 + r * cos(angle), y: 35 + r * sin(angle))
            if k == 0 { path.move(to: p) } else { path.addLine(to: p) }
        }
        path.closeSubpath()
        star.path = path
        star.fillColor = LayerDemo.color(1, 1, 1)
        star.strokeColor = LayerDemo.color(0.1, 0.1, 0.3)
        star.lineWidth = 2
        star.filters = [filter(kCAFilterGaussianBlur, name: "blur", [kCAFilterInputRadius: 0])]
        let breathe = CABasicAnimation(keyPath: "filters.blur.inputRadius")
        breathe.fromValue = 0
        breathe.toValue = 6
        breathe.duration = 1
        breathe.autoreverses = true
        breathe.repeatCount = .infinity
        star.add(breathe, forKey: "breathe")
        return star
    }

    static func frostedCard() -> CALayer {
        let card = CALayer()
        card.frame = CGRect(x: 90, y: 20, width: 70, height: 120)
        card.cornerRadius = 16
        card.backgroundColor = LayerDemo.color(1, 1, 1, 0.25)
        card.borderWidth = 1
        card.borderColor = LayerDemo.color(1, 1, 1, 0.6)
        card.backgroundFilters = [filter(kCAFilterGaussianBlur, [kCAFilterInputRadius: 6]),
                                  filter(kCAFilterColorSaturate, [kCAFilterInputAmount: 1.8])]
        return card
    }
}
