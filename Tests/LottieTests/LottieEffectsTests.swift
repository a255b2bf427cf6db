import Foundation
import Lottie
import QuartzCore
import Raster
import Testing

/// Layer effects drawn as Core Animation filters: Gaussian blur, fill and tint, with expected
/// pixels from the effects' definitions (lottie-web's SVG filters, the Gaussian's closed form).
@Suite(.serialized) struct LottieEffectsTests {
    typealias T = LottieImportTests

    static func effect(_ ty: Int, _ values: [Any]) -> [String: Any] {
        ["ty": ty, "en": 1, "ef": values.map { ["ty": 0, "v": $0 is [String: Any] ? $0 : Doc.fixed($0)] }]
    }

    /// A 100×100 square of `rgb` at 50…150 with `effects`.
    static func square(_ rgb: [Double], _ effects: [[String: Any]]) -> [String: Any] {
        var layer = Doc.shapeLayer([Doc.rect(center: [100, 100], size: [100, 100]), Doc.fill(rgb)], name: "square")
        layer["ef"] = effects
        return Doc.comp([layer])
    }

    static func image(_ doc: [String: Any], at t: Double = 0) throws -> Pixmap {
        try T.render(try Doc.layer(doc), size: CGSize(width: 200, height: 200), at: t)
    }

    /// Standard normal distribution function, Φ(x) = ½·erfc(−x/√2).
    static func phi(_ x: Double) -> Double { 0.5 * erfc(-x / 2.squareRoot()) }

    /// Blurriness 20 → a Gaussian of σ = 6 (lottie-web's 0.3 per unit): across the square's
    /// left edge (x = 50) a pixel centred d inside it has alpha Φ(d / σ) (the square is wide
    /// enough that the far edge adds nothing there).
    @Test func gaussianBlurSoftensEdgesByItsSigma() throws {
        let doc = Self.square([0, 0, 0], [Self.effect(29, [20, 1, 0])])
        #expect(try Doc.animation(doc).unsupportedFeatures.isEmpty)
        let picture = try Self.image(doc)
        for x in [44, 48, 50, 53, 58] {
            let expected = 255 * Self.phi((Double(x) + 0.5 - 50) / 6)
            let alpha = Double(T.rgba(picture, x, 100)[3])
            #expect(abs(alpha - expected) < 8, "x \(x): \(alpha) vs \(expected)")
        }
        #expect(T.rgba(picture, 100, 100)[3] == 255)
    }

    /// An animated blurriness (0 → 20 over frames 0…30) animates the filter's radius: σ 3 at frame 15.
    @Test func animatedBlurAnimatesTheRadius() throws {
        let doc = Self.square([0, 0, 0], [Self.effect(29, [Doc.keyframed([["t": 0, "s": [0]], ["t": 30, "s": [20]]]), 1, 0])])
        let content = try #require(Doc.find("square", in: try Doc.layer(doc))?.sublayers?.first)
        let radius = try #require(T.presented(content, at: 0.5).value(forKeyPath: "filters.lottie0.inputRadius") as? CGFloat)
        #expect(abs(radius - 3) < 1e-6, "\(radius)")
    }

    /// Fill (ty 21, colour at value 2, opacity at value 6): every opaque pixel takes the colour,
    /// its alpha times the opacity.
    @Test func fillPaintsTheLayerOneColour() throws {
        let full = try Self.image(Self.square([1, 0, 0], [Self.effect(21, [0, 0, [0, 1, 0, 1], 0, 0, 0, 1])]))
        #expect(T.rgba(full, 100, 100) == [0, 255, 0, 255])
        #expect(T.rgba(full, 30, 100) == [0, 0, 0, 0])
        let half = try Self.image(Self.square([1, 0, 0], [Self.effect(21, [0, 0, [0, 0, 1, 1], 0, 0, 0, 0.5])]))
        let p = T.rgba(half, 100, 100)
        #expect(abs(p[3] - 128) <= 1 && p[0] == 0 && p[1] == 0, "\(p)")
    }

    /// Tint (ty 20): black → value 0, white → value 1 by the grey (r + g + b)/3, mixed by the
    /// amount: red (1, 0, 0) with black → black and white → green is green at 1/3 (85) at
    /// amount 100, and (½, ⅙, 0) → (128, 43, 0) at amount 50.
    @Test func tintMapsGreysBetweenTwoColours() throws {
        let full = try Self.image(Self.square([1, 0, 0], [Self.effect(20, [[0, 0, 0, 1], [0, 1, 0, 1], 100])]))
        let p = T.rgba(full, 100, 100)
        #expect(abs(p[0] - 0) <= 1 && abs(p[1] - 85) <= 1 && p[2] == 0 && p[3] == 255, "\(p)")
        let half = try Self.image(Self.square([1, 0, 0], [Self.effect(20, [[0, 0, 0, 1], [0, 1, 0, 1], 50])]))
        let q = T.rgba(half, 100, 100)
        #expect(abs(q[0] - 128) <= 1 && abs(q[1] - 43) <= 1 && q[2] == 0, "\(q)")
    }

    /// Stroke (ty 22) strokes the mask paths (here a mode "n" mask, drawn by no mask): blue,
    /// brush size 5 (a line 10 wide centred on the path), from 0 to `end` percent of the path
    /// (the square 60…140 from its top left corner clockwise: 50 % is the top and right edges),
    /// over the layer (paint style 1) or instead of it (2).
    @Test func strokeEffectStrokesTheMaskPaths() throws {
        func image(end: Double, style: Int) throws -> Pixmap {
            var doc = Self.square([1, 0, 0], [Self.effect(22, [1, 1, 0, [0, 0, 1, 1], 5, 100, 1, 0, end, 0, style])])
            var layers = doc["layers"] as! [[String: Any]]
            layers[0]["masksProperties"] = [["mode": "n", "inv": false, "o": Doc.fixed(100),
                                             "pt": Doc.fixed(["c": true, "v": [[60, 60], [140, 60], [140, 140], [60, 140]],
                                                              "i": [[0, 0], [0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0], [0, 0]]])]]
            doc["layers"] = layers
            #expect(try Doc.animation(doc).unsupportedFeatures.isEmpty)
            return try Self.image(doc)
        }
        let over = try image(end: 100, style: 1)
        #expect(T.rgba(over, 60, 100) == [0, 0, 255, 255] && T.rgba(over, 56, 100) == [0, 0, 255, 255] && T.rgba(over, 140, 100) == [0, 0, 255, 255])
        #expect(T.rgba(over, 100, 100) == [255, 0, 0, 255] && T.rgba(over, 53, 100) == [255, 0, 0, 255] && T.rgba(over, 67, 100) == [255, 0, 0, 255])
        let half = try image(end: 50, style: 1)
        #expect(T.rgba(half, 140, 100) == [0, 0, 255, 255] && T.rgba(half, 100, 60) == [0, 0, 255, 255])
        #expect(T.rgba(half, 60, 100) == [255, 0, 0, 255] && T.rgba(half, 100, 140) == [255, 0, 0, 255])
        let alone = try image(end: 100, style: 2)
        #expect(T.rgba(alone, 100, 100)[3] == 0 && T.rgba(alone, 60, 100) == [0, 0, 255, 255])
    }

    /// Effects Core Animation cannot draw are listed by their names (lottie-docs' effect types),
    /// and a blur in one direction (value 1: 2 horizontal, 3 vertical) as drawn in both.
    @Test func otherEffectsAreListedByName() throws {
        let doc = Self.square([1, 0, 0], [["ty": 23, "ef": []], ["ty": 5, "ef": []], ["ty": 99, "ef": []], ["ty": 23, "ef": []],
                                          Self.effect(29, [10, 2, 0])])
        #expect(try Doc.animation(doc).unsupportedFeatures.map(\.feature)
                == ["tritone effects", "expression control effects", "effects of type 99", "Gaussian blurs in one direction (drawn in both)"])
    }
}
