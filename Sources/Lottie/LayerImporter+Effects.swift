import QuartzCore

// Layer effects → the content layer's `filters` (Core Animation applies them to the layer and
// its sublayers as one group, and casts the layer's shadow — a drop shadow effect — from the
// filtered group), in the file's order:
// - Gaussian blur → `gaussianBlur`, standard deviation 0.3 × blurriness: lottie-web's
//   empirical match of After Effects (SVGGaussianBlurEffect), the one published mapping;
// - fill → `colorMatrix` that paints every pixel the colour with its alpha times the opacity
//   (lottie-web's SVGFillFilter matrix);
// - tint → `colorMatrix`: grey g = (r + g + b) / 3, mapped to black + (white − black) · g,
//   mixed with the original by the amount (lottie-web's SVGTintFilter, which averages in linear
//   RGB; Citrine's filters act on sRGB values, so mid-greys differ a little).
// - stroke → a CAShapeLayer per mask path it names, over the content (or instead of it), in
//   its colour, width twice the brush size, opacity, strokeStart/strokeEnd from the start and
//   end, round caps, and with spacing a dash pattern of dots (lottie-web's SVGStrokeEffect:
//   dashes of length 1 and gaps of width × spacing; the layer's masks are not applied then, as
//   lottie-web removes them).
// Keyframed values animate the filter's input through `filters.<name>.<input>`, sampled once
// per frame for the matrices (20 numbers, interpolated between frames).

extension LayerImporter {
    func addEffects(_ effects: [LayerEffect], to content: CALayer, timing: AnimationTiming) {
        guard !effects.isEmpty else { return }
        var filters: [Any] = []
        var animations: [(KeyframedValue<[Double]>, String, ([Double]) -> Any)] = []
        for (n, effect) in effects.enumerated() {
            let name = "lottie\(n)"
            switch effect {
            case let .gaussianBlur(blurriness):
                let filter = CAFilter(type: kCAFilterGaussianBlur)
                filter.name = name
                filter.setValue(Self.blurRadius(blurriness.initial), forKey: "inputRadius")
                filters.append(filter)
                animations.append((blurriness.map { [$0] }, "filters.\(name).inputRadius", { Self.blurRadius($0[0]) }))
            case let .fill(color, opacity):
                let matrix = KeyframedValue<[Double]>.sampled([color, opacity.map { [$0] }]) { Self.fillMatrix($0[0], opacity: $0[1][0]) }
                filters.append(Self.colorMatrixFilter(name, matrix.initial))
                animations.append((matrix, "filters.\(name).inputColorMatrix", Self.numbers))
            case let .tint(black, white, amount):
                let matrix = KeyframedValue<[Double]>.sampled([black, white, amount.map { [$0] }]) {
                    Self.tintMatrix(black: $0[0], white: $0[1], amount: $0[2][0])
                }
                filters.append(Self.colorMatrixFilter(name, matrix.initial))
                animations.append((matrix, "filters.\(name).inputColorMatrix", Self.numbers))
            case .stroke:
                break
            }
        }
        guard !filters.isEmpty else { return }
        content.filters = filters
        for (value, keyPath, convert) in animations where value.isAnimated {
            value.apply(to: content, keyPath, timing: timing, convert: convert, set: { _ in })
        }
    }

    /// Blurriness (After Effects) → standard deviation (points): × 0.3, as lottie-web.
    static func blurRadius(_ blurriness: Double) -> Double { max(blurriness, 0) * 0.3 }

    /// Rows R, G, B, A of 5 (columns r, g, b, a, bias): the colour, alpha × opacity.
    static func fillMatrix(_ color: [Double], opacity: Double) -> [Double] {
        [0, 0, 0, 0, color[0], 0, 0, 0, 0, color[1], 0, 0, 0, 0, color[2], 0, 0, 0, min(max(opacity, 0), 1), 0]
    }

    /// Each channel c → (1 − k)·c + k·(black + (white − black)·(r + g + b)/3), k = amount / 100.
    static func tintMatrix(black: [Double], white: [Double], amount: Double) -> [Double] {
        let k = min(max(amount / 100, 0), 1)
        var rows: [Double] = []
        for c in 0..<3 {
            let grey = k * (white[c] - black[c]) / 3
            var row = [grey, grey, grey, 0, k * black[c]]
            row[c] += 1 - k
            rows += row
        }
        return rows + [0, 0, 0, 1, 0]
    }

    static func colorMatrixFilter(_ name: String, _ values: [Double]) -> CAFilter {
        let filter = CAFilter(type: kCAFilterColorMatrix)
        filter.name = name
        filter.setValue(numbers(values), forKey: "inputColorMatrix")
        return filter
    }

    static func numbers(_ values: [Double]) -> Any { values.map { NSNumber(value: $0) } }
}

extension LayerImporter {
    /// The layers of `layer`'s stroke effects, added to `content` (its drawing removed first by
    /// one that paints on transparent); whether any was added (the masks are then left out).
    func addStrokeEffects(of layer: LottieLayer, to content: CALayer, timing: AnimationTiming) throws(LottieError) -> Bool {
        var added = false
        for case let .stroke(masks, color, brushSize, opacity, start, end, spacing, onTransparent) in layer.effects {
            if onTransparent { content.sublayers = nil }
            for index in masks {
                try count(layer.path)
                let shape = CAShapeLayer()
                shape.anchorPoint = .zero
                shape.bounds = content.bounds
                layer.maskPaths[index].apply(to: shape, "path", timing: timing, convert: { $0.cgPath }, set: { shape.path = $0.cgPath })
                shape.fillColor = nil
                shape.lineCap = .round
                color.apply(to: shape, "strokeColor", timing: timing, convert: ShapeImporter.cgColor,
                            set: { shape.strokeColor = ShapeImporter.cgColor($0) })
                let width = { (brush: Double) in CGFloat(max(brush, 0) * 2) }
                brushSize.apply(to: shape, "lineWidth", timing: timing, convert: width, set: { shape.lineWidth = width($0) })
                let alpha = { (o: Double) in Float(min(max(o, 0), 1)) }
                opacity.apply(to: shape, "opacity", timing: timing, convert: alpha, set: { shape.opacity = alpha($0) })
                let fraction = { (p: Double) in CGFloat(min(max(p / 100, 0), 1)) }
                start.apply(to: shape, "strokeStart", timing: timing, convert: fraction, set: { shape.strokeStart = fraction($0) })
                end.apply(to: shape, "strokeEnd", timing: timing, convert: fraction, set: { shape.strokeEnd = fraction($0) })
                if spacing > 0 {
                    shape.lineDashPattern = [1, NSNumber(value: max(brushSize.initial, 0) * 2 * spacing / 100)]
                }
                content.addSublayer(shape)
                added = true
            }
        }
        return added
    }
}
