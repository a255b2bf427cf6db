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
            }
        }
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
