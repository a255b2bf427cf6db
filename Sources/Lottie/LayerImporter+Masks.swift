import QuartzCore

// Masks (`masksProperties`) and track mattes (`tt`/`td`) as Core Animation mask layers: a
// mask takes only alpha, so subtraction and inverted mattes cut with the "destOut" compositing
// filter inside the mask's own surface, and luma mattes turn luminance into alpha with a colour
// matrix (LottieMaskTests; scripts/lottie-compare against ThorVG on masks.json and mattes.json).

extension LayerImporter {
    /// `drawn` in a group masked by the track matte `matte` (`tt`): by its alpha; by the inverse
    /// of its alpha — an opaque layer with the matte cut out of it (compositing filter "destOut",
    /// Porter-Duff destination-out); or by its luminance or the inverse, through a colour matrix —
    /// since a Core Animation mask takes alpha only.
    func matted(_ drawn: CALayer, by matte: CALayer, _ mode: MatteMode, size: CGSize, path: String) throws(LottieError) -> CALayer {
        try count(path)
        let group = CALayer(), mask = CALayer()
        for layer in [group, mask] {
            layer.anchorPoint = .zero
            layer.bounds = CGRect(origin: .zero, size: size)
        }
        group.addSublayer(drawn)
        switch mode {
        case .alpha:
            mask.addSublayer(matte)
        case .alphaInverted:
            mask.addSublayer(Self.everywhere(size: size))
            matte.compositingFilter = "destOut"
            mask.addSublayer(matte)
        case .luma, .lumaInverted:
            // The matte over opaque black, its luminance (Rec. 709 weights) made the alpha by a
            // colour matrix on the group (opaque, so its colour is the premultiplied one).
            let black = Self.everywhere(size: size)
            mask.addSublayer(black)
            mask.addSublayer(matte)
            let (w, k): (Float, Float) = mode == .luma ? (1, 0) : (-1, 1)
            let filter = CAFilter(type: kCAFilterColorMatrix)
            filter.setValue(CAColorMatrix([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                           0.2126 * w, 0.7152 * w, 0.0722 * w, 0, k]), forKey: kCAFilterInputColorMatrix)
            mask.filters = [filter]
        }
        group.mask = mask
        return group
    }

    /// An opaque layer far larger than a composition of `size` (ten times each side around it).
    static func everywhere(size: CGSize) -> CALayer {
        let layer = CALayer()
        layer.anchorPoint = .zero
        let rect = Self.farRect(size: size)
        layer.position = rect.origin
        layer.bounds = CGRect(origin: .zero, size: rect.size)
        layer.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        return layer
    }

    static func farRect(size: CGSize) -> CGRect {
        CGRect(x: -10 * size.width, y: -10 * size.height, width: 21 * size.width, height: 21 * size.height)
    }

    /// The layer's masks (`masksProperties`) as one mask layer, in its coordinates: each mask a
    /// shape layer of its path at its opacity (inverted: the path cut out of `farRect`, even-odd);
    /// `add` draws it over the masks before it (a union), `intersect` masks them with it, and
    /// `subtract` cuts it out of them (compositing filter "destOut"), from everything when first.
    func maskLayer(_ masks: [LottieMask], size: CGSize, timing: AnimationTiming, path: String) throws(LottieError) -> CALayer? {
        func container(_ sublayers: [CALayer]) throws(LottieError) -> CALayer {
            try count(path)
            let layer = CALayer()
            layer.anchorPoint = .zero
            layer.bounds = CGRect(origin: .zero, size: size)
            for sublayer in sublayers { layer.addSublayer(sublayer) }
            return layer
        }
        var current: CALayer?
        for mask in masks {
            try count(path)
            let shape = CAShapeLayer()
            shape.anchorPoint = .zero
            shape.bounds = CGRect(origin: .zero, size: size)
            shape.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            let far = Self.farRect(size: size)
            let cgPath = { (b: BezierShape) -> CGPath in
                guard mask.inverted else { return b.cgPath }
                let p = CGMutablePath()
                p.addRect(far)
                p.addPath(b.cgPath)
                return p
            }
            if mask.inverted { shape.fillRule = .evenOdd }
            mask.path.apply(to: shape, "path", timing: timing, convert: cgPath, set: { shape.path = cgPath($0) })
            mask.opacity.apply(to: shape, "opacity", timing: timing, convert: { Float($0 / 100) }, set: { shape.opacity = Float($0 / 100) })
            switch (mask.mode, current) {
            case (.add, nil), (.intersect, nil):
                current = try container([shape])
            case (.subtract, nil):
                shape.compositingFilter = "destOut"
                current = try container([Self.everywhere(size: size), shape])
            case let (.add, sofar?):
                current = sofar.mask == nil ? sofar : try container([sofar])
                current?.addSublayer(shape)
            case let (.intersect, sofar?):
                let wrap = try container([sofar])
                wrap.mask = shape
                current = wrap
            case let (.subtract, sofar?):
                shape.compositingFilter = "destOut"
                current = try container([sofar, shape])
            }
        }
        return current
    }
}
