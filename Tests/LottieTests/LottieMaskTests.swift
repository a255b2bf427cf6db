import Compositor
import Foundation
import Lottie
import QuartzCore
import Raster
import Testing

/// Masks (`masksProperties`) and track mattes (`tt`/`td`) on a 200×200 composition whose layer
/// is an opaque red solid covering it. Expected coverage from the Bodymovin definitions: `a`
/// adds a mask's area, `s` subtracts it, `i` keeps only what is inside it, `inv` inverts it; an
/// alpha matte shows the layer where the matte source (the layer above it, not drawn itself) is
/// opaque, an inverted one where it is not.
@Suite(.serialized) struct LottieMaskTests {
    /// A closed rectangle path from (x0, y0) to (x1, y1).
    static func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [String: Any] {
        let v = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
        return ["a": 0, "k": ["v": v, "i": Array(repeating: [0, 0], count: 4), "o": Array(repeating: [0, 0], count: 4), "c": true]]
    }

    static func mask(_ mode: String, _ path: [String: Any], inverted: Bool = false, opacity: Double = 100) -> [String: Any] {
        ["mode": mode, "pt": path, "o": Doc.fixed(opacity), "inv": inverted]
    }

    static func solid(_ masks: [[String: Any]] = [], extra: [String: Any] = [:], color: String = "#FF0000", ind: Int = 1) -> [String: Any] {
        var layer: [String: Any] = ["ty": 1, "ind": ind, "ip": 0, "op": 30, "st": 0, "sc": color, "sw": 200, "sh": 200,
                                    "ks": Doc.ks(), "masksProperties": masks]
        for (k, v) in extra { layer[k] = v }
        return layer
    }

    /// Alpha at (x, y) of frame 0, and whether the pixel is the solid's red where opaque.
    static func alpha(_ layers: [[String: Any]], _ points: [(Int, Int)]) throws -> [Int] {
        let image = try LottieImportTests.render(try Doc.layer(Doc.comp(layers)), size: CGSize(width: 200, height: 200), at: 0)
        return points.map { Int(image.pixel(x: $0.0, y: $0.1).a) }
    }

    static let inside = (100, 100), outside = (20, 20)

    @Test func addKeepsTheInside() throws {
        #expect(try Self.alpha([Self.solid([Self.mask("a", Self.box(50, 50, 150, 150))])], [Self.inside, Self.outside]) == [255, 0])
    }

    @Test func subtractAndInvertedAddKeepTheOutside() throws {
        #expect(try Self.alpha([Self.solid([Self.mask("s", Self.box(50, 50, 150, 150))])], [Self.inside, Self.outside]) == [0, 255])
        #expect(try Self.alpha([Self.solid([Self.mask("a", Self.box(50, 50, 150, 150), inverted: true)])],
                               [Self.inside, Self.outside]) == [0, 255])
    }

    /// (0…120) intersected with (80…200) leaves 80…120; a subtract after an add cuts its part out.
    @Test func intersectAndSubtractCombineInOrder() throws {
        let intersect = Self.solid([Self.mask("a", Self.box(0, 0, 120, 120)), Self.mask("i", Self.box(80, 80, 200, 200))])
        #expect(try Self.alpha([intersect], [(100, 100), (60, 60), (160, 160)]) == [255, 0, 0])
        let subtract = Self.solid([Self.mask("a", Self.box(0, 0, 120, 120)), Self.mask("s", Self.box(80, 80, 200, 200))])
        #expect(try Self.alpha([subtract], [(100, 100), (60, 60), (160, 160)]) == [0, 255, 0])
    }

    /// A mask at 50 % opacity lets half the layer through: alpha 127.5 (±1).
    @Test func maskOpacityScalesCoverage() throws {
        let a = try Self.alpha([Self.solid([Self.mask("a", Self.box(50, 50, 150, 150), opacity: 50)])], [Self.inside])
        #expect(abs(a[0] - 128) <= 1, "\(a)")
    }

    /// The matte source (a blue square 50…150, `td`) above a red solid with `tt` 1 and 2.
    @Test func trackMattesUseTheLayerAbove() throws {
        let source = Doc.shapeLayer([Doc.rect(center: [100, 100], size: [100, 100]), Doc.fill([0, 0, 1])], ind: 1)
        var matteSource = source
        matteSource["td"] = 1
        for (mode, expected) in [(1, [255, 0]), (2, [0, 255])] {
            let layers = [matteSource, Self.solid(extra: ["tt": mode], ind: 2)]
            #expect(try Self.alpha(layers, [Self.inside, Self.outside]) == expected, "tt \(mode)")
        }
        let image = try LottieImportTests.render(try Doc.layer(Doc.comp([matteSource, Self.solid(extra: ["tt": 1], ind: 2)])),
                                                 size: CGSize(width: 200, height: 200), at: 0)
        let p = image.pixel(x: 100, y: 100)
        #expect([p.r, p.g, p.b] == [255, 0, 0], "the layer's red, not the matte's blue")
    }

    /// Luma mattes (`tt` 3, 4): the matte source's luminance over black (Rec. 709 weights) is the
    /// coverage — a white square shows the layer inside it, a grey 0.5 one half of it, and
    /// outside (transparent, so black) nothing; inverted, the opposite.
    @Test func lumaMattesUseTheLuminance() throws {
        func layers(_ rgb: [Double], _ mode: Int) -> [[String: Any]] {
            var source = Doc.shapeLayer([Doc.rect(center: [100, 100], size: [100, 100]), Doc.fill(rgb)], ind: 1)
            source["td"] = 1
            return [source, Self.solid(extra: ["tt": mode], ind: 2)]
        }
        #expect(try Self.alpha(layers([1, 1, 1], 3), [Self.inside, Self.outside]) == [255, 0])
        #expect(try Self.alpha(layers([1, 1, 1], 4), [Self.inside, Self.outside]) == [0, 255])
        let grey = try Self.alpha(layers([0.5, 0.5, 0.5], 3), [Self.inside])
        #expect(abs(grey[0] - 128) <= 1, "\(grey)")
    }

    /// Masks and mattes follow the layer's timeline when it is paused and scrubbed
    /// (`currentFrame`, lottie-ios: speed 0 and timeOffset on the root) long after media time
    /// passed the composition's end: a mask box keyframed linearly from 50…150 (frame 0) to
    /// 0…100 (frame 30) is 25…125 at frame 15, and a matte source with out point 30 still
    /// shows the layer at frame 15 when the media time is 100 s (3 000 frames).
    @Test func masksAndMattesFollowAScrubbedTimeline() throws {
        func keyframe(_ t: Double, _ box: [String: Any]) -> [String: Any] {
            ["t": t, "s": [box["k"]!], "o": ["x": [0], "y": [0]], "i": ["x": [1], "y": [1]]]
        }
        let moving: [String: Any] = ["a": 1, "k": [keyframe(0, Self.box(50, 50, 150, 150)), keyframe(30, Self.box(0, 0, 100, 100))]]
        var source = Doc.shapeLayer([Doc.rect(center: [100, 100], size: [100, 100]), Doc.fill([0, 0, 1])], ind: 1)
        source["td"] = 1
        let cases: [([[String: Any]], [(Int, Int)], [Int])] = [
            ([Self.solid([Self.mask("a", moving)])], [(110, 110), (40, 40), (20, 20), (130, 130)], [255, 255, 0, 0]),
            ([source, Self.solid(extra: ["tt": 1], ind: 2)], [Self.inside, Self.outside], [255, 0]),
        ]
        for (layers, points, expected) in cases {
            let layer = LottieAnimationLayer(animation: try Doc.animation(Doc.comp(layers)))
            CATransaction.begin(); CATransaction.setDisableActions(true)
            layer.anchorPoint = .zero
            layer.position = .zero
            layer.currentFrame = 15
            CATransaction.commit()
            let image = try LottieImportTests.render(layer, size: CGSize(width: 200, height: 200), at: 100)
            #expect(points.map { Int(image.pixel(x: $0.0, y: $0.1).a) } == expected)
        }
    }
}
