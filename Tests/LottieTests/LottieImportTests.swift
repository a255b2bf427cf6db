import Compositor
import Foundation
import Lottie
import QuartzCore
import Raster
import Testing

/// Hand-written Bodymovin files with known geometry and timing; expected values from the
/// Bodymovin format's definitions (lottie-web's docs, the Lottie spec) and closed-form maths.
@Suite(.serialized) struct LottieImportTests {
    static func render(_ layer: CALayer, size: CGSize, at time: CFTimeInterval) throws -> Pixmap {
        CAMediaClock.setManualTime(time)
        defer { CAMediaClock.useSystemTime() }
        return try CARenderer.image(of: layer, size: size, at: time).pixmap
    }

    static func rgba(_ p: Pixmap, _ x: Int, _ y: Int) -> [Int] {
        let c = p.pixel(x: x, y: y)
        return [Int(c.r), Int(c.g), Int(c.b), Int(c.a)]
    }

    /// Media time `t`: the presentation of `layer`.
    static func presented(_ layer: CALayer, at t: CFTimeInterval) -> CALayer {
        CAMediaClock.setManualTime(t)
        defer { CAMediaClock.useSystemTime() }
        return layer.presentation() ?? layer
    }

    /// A red 100×100 rectangle centred at (100, 80): it covers pixels x 50…149, y 30…129 exactly.
    @Test func aRectangleCoversItsPixelsExactly() throws {
        let doc = Doc.comp([Doc.shapeLayer([["ty": "gr", "it": [Doc.rect(center: [100, 80], size: [100, 100]), Doc.fill([1, 0, 0]),
                                                                 ["ty": "tr", "p": Doc.fixed([0, 0]), "a": Doc.fixed([0, 0]),
                                                                  "s": Doc.fixed([100, 100]), "r": Doc.fixed(0), "o": Doc.fixed(100)]]]])])
        let image = try Self.render(try Doc.layer(doc), size: CGSize(width: 200, height: 200), at: 0)
        for (x, y) in [(50, 30), (149, 30), (50, 129), (149, 129), (100, 80)] {
            #expect(Self.rgba(image, x, y) == [255, 0, 0, 255], "(\(x), \(y))")
        }
        for (x, y) in [(49, 80), (150, 80), (100, 29), (100, 130)] {
            #expect(Self.rgba(image, x, y) == [0, 0, 0, 0], "(\(x), \(y))")
        }
    }

    /// The closed-form cubic Bézier easing: x(u) = 3(1−u)²u·x1 + 3(1−u)u²·x2 + u³ (y alike),
    /// solved for x by bisection.
    static func ease(_ x: Double, _ c: (Double, Double, Double, Double)) -> Double {
        func b(_ u: Double, _ p1: Double, _ p2: Double) -> Double { 3 * (1 - u) * (1 - u) * u * p1 + 3 * (1 - u) * u * u * p2 + u * u * u }
        var (lo, hi) = (0.0, 1.0)
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if b(mid, c.0, c.2) < x { lo = mid } else { hi = mid }
        }
        return b((lo + hi) / 2, c.1, c.3)
    }

    /// Position keyframes from x 0 at frame 0 to x 300 at frame 30 eased by o (0.7, 0) i (0.2, 1):
    /// at each time x = 300 · ease(t / 1 s).
    @Test func keyframesFollowTheirBezierEasing() throws {
        let p = Doc.keyframed([["t": 0, "s": [0, 50], "o": ["x": [0.7], "y": [0]], "i": ["x": [0.2], "y": [1]]],
                               ["t": 30, "s": [300, 50]]])
        let root = try Doc.layer(Doc.comp([Doc.shapeLayer([], ks: Doc.ks(p: p), name: "mover")], op: 30))
        let mover = try #require(Doc.find("mover", in: root))
        for t in [0.1, 0.25, 0.5, 0.8, 0.95] {
            let expected = 300 * Self.ease(t, (0.7, 0, 0.2, 1))
            let x = Self.presented(mover, at: t).position.x
            #expect(abs(x - expected) < 1e-3, "t \(t): \(x) vs \(expected)")
        }
        #expect(abs(Self.presented(mover, at: 2).position.x - 300) < 1e-9, "held after the last keyframe")
    }

    /// Hold keyframes: the value stays until the next keyframe's frame, then jumps
    /// (`calculationMode` discrete when every segment holds).
    @Test func holdKeyframesJump() throws {
        let o = Doc.keyframed([["t": 0, "s": [100], "h": 1], ["t": 15, "s": [20], "h": 1], ["t": 24, "s": [60]]])
        let root = try Doc.layer(Doc.comp([Doc.shapeLayer([Doc.rect(center: [10, 10], size: [10, 10]), Doc.fill([0, 0, 1])],
                                                          ks: Doc.ks(o: o), name: "blink")]))
        let content = try #require(Doc.find("blink", in: root)?.sublayers?.first)
        let animation = try #require(content.animation(forKey: "opacity") as? CAKeyframeAnimation)
        #expect(animation.calculationMode == .discrete)
        for (frame, expected) in [(0.0, 1.0), (14.9, 1.0), (15.0, 0.2), (23.9, 0.2), (24.0, 0.6), (29.0, 0.6)] {
            let opacity = Double(Self.presented(content, at: frame / 30).opacity)
            #expect(abs(opacity - expected) < 1e-6, "frame \(frame): \(opacity)")
        }
    }

    /// Layers are visible for frames [ip, op) only.
    @Test func inAndOutPointsShowTheLayer() throws {
        let root = try Doc.layer(Doc.comp([Doc.shapeLayer([], ip: 10, op: 20, name: "brief")]))
        let content = try #require(Doc.find("brief", in: root)?.sublayers?.first)
        for (frame, hidden) in [(5.0, true), (9.9, true), (10.0, false), (19.9, false), (20.0, true), (25.0, true)] {
            #expect(Self.presented(content, at: frame / 30).isHidden == hidden, "frame \(frame)")
        }
    }

    /// A trim from 0 to 50 % of a circle (which starts at its top and runs clockwise, lottie-web)
    /// strokes its right half only.
    @Test func trimToHalfStrokesHalfTheCircle() throws {
        let shapes: [[String: Any]] = [
            ["ty": "el", "p": Doc.fixed([100, 100]), "s": Doc.fixed([120, 120])],
            ["ty": "tm", "s": Doc.fixed(0), "e": Doc.fixed(50), "o": Doc.fixed(0), "m": 1],
            ["ty": "st", "c": Doc.fixed([0, 0, 0]), "o": Doc.fixed(100), "w": Doc.fixed(8), "lc": 1, "lj": 1],
        ]
        let image = try Self.render(try Doc.layer(Doc.comp([Doc.shapeLayer(shapes)])), size: CGSize(width: 200, height: 200), at: 0)
        #expect(Self.rgba(image, 160, 100)[3] == 255, "right")
        #expect(Self.rgba(image, 40, 100)[3] == 0, "left")
        #expect(Self.rgba(image, 142, 58)[3] == 255, "upper right")
        #expect(Self.rgba(image, 58, 142)[3] == 0, "lower left")
    }

    /// A child's transform composes with its parent's: parent at (50, 50) turned 90° clockwise,
    /// child at (10, 0) in the parent's space → the child's origin at (50, 60) in the composition.
    @Test func parentingComposesTransforms() throws {
        let parent = Doc.shapeLayer([], ks: Doc.ks(p: Doc.fixed([50, 50]), r: Doc.fixed(90)), ind: 1, name: "parent")
        let child = Doc.shapeLayer([Doc.rect(center: [0, 0], size: [4, 4]), Doc.fill([0, 1, 0])],
                                   ks: Doc.ks(p: Doc.fixed([10, 0])), ind: 2, parent: 1, name: "child")
        let root = try Doc.layer(Doc.comp([child, parent]))
        let content = try #require(Doc.find("child", in: root)?.sublayers?.first)
        let origin = content.convert(CGPoint.zero, to: root)
        #expect(abs(origin.x - 50) < 1e-9 && abs(origin.y - 60) < 1e-9, "\(origin)")
        let image = try Self.render(root, size: CGSize(width: 200, height: 200), at: 0)
        #expect(Self.rgba(image, 50, 60) == [0, 255, 0, 255])
    }

    /// A precomp layer with start time 10 and stretch 2 shows its frame (f − 10) / 2 at frame f.
    @Test func precompTimeFollowsStartAndStretch() throws {
        let inner = Doc.shapeLayer([], ks: Doc.ks(p: Doc.keyframed([["t": 0, "s": [0, 0]], ["t": 20, "s": [200, 0]]])),
                                   op: 100, name: "inner")
        let doc = Doc.comp([["ty": 0, "ind": 1, "refId": "pre", "ip": 0, "op": 60, "st": 10, "sr": 2, "w": 200, "h": 200,
                             "ks": Doc.ks()]], op: 60, assets: [["id": "pre", "layers": [inner]]])
        let root = try Doc.layer(doc)
        let layer = try #require(Doc.find("inner", in: root))
        // At comp frame f the inner frame is (f − 10) / 2; x = 10 · inner frame, clamped to 0…200.
        for f in [10.0, 20.0, 30.0, 40.0] {
            let expected = min(max((f - 10) / 2, 0), 20) * 10
            let x = Self.presented(layer, at: f / 30).position.x
            #expect(abs(x - expected) < 1e-6, "frame \(f): \(x) vs \(expected)")
        }
    }

    /// Time remapping: `tm` gives the precomp's time in seconds at each frame of the layer. Here
    /// it runs from 0.6 s at frame 0 down to 0 s at frame 30 (10 fps): frame f shows the
    /// precomp's frame 6 − f/5, where the inner layer (x = 10 · its frame, visible before its
    /// frame 5) is at x = 60 − 2f, and shown only from f > 5.
    @Test func timeRemappingMapsFramesThroughTm() throws {
        let inner = Doc.shapeLayer([], ks: Doc.ks(p: Doc.keyframed([["t": 0, "s": [0, 0]], ["t": 20, "s": [200, 0]]])),
                                   op: 5, name: "inner")
        let tm = Doc.keyframed([["t": 0, "s": [0.6]], ["t": 30, "s": [0]]])
        let doc = Doc.comp([["ty": 0, "ind": 1, "refId": "pre", "ip": 0, "op": 30, "st": 0, "w": 200, "h": 200, "tm": tm,
                             "ks": Doc.ks()]], fr: 10, op: 30, assets: [["id": "pre", "layers": [inner]]])
        let animation = try Doc.animation(doc)
        #expect(animation.unsupportedFeatures.isEmpty)
        let root = try Doc.layer(doc)
        let layer = try #require(Doc.find("inner", in: root))
        let content = try #require(layer.sublayers?.first)
        for f in [0.0, 5.0, 10.0, 12.5, 20.0, 29.0] {
            let x = Self.presented(layer, at: f / 10).position.x
            #expect(abs(x - (60 - 2 * f)) < 1e-6, "frame \(f): \(x)")
        }
        for (f, hidden) in [(3.0, true), (5.0, true), (6.0, false), (10.0, false)] {
            #expect(Self.presented(content, at: f / 10).isHidden == hidden, "frame \(f)")
        }
    }

    /// A style paints the paths of the groups before it too, under their transforms (the Lottie
    /// shape model: a style applies to every shape before it in its scope, groups included),
    /// below a group's own styles: group A (a rect moved by its transform to 40…80, no style) and
    /// group B (a rect at 120…160 with its own green fill), then a red fill.
    @Test func aStylePaintsThePathsOfEarlierGroups() throws {
        func tr(_ p: [Double]) -> [String: Any] {
            ["ty": "tr", "p": Doc.fixed(p), "a": Doc.fixed([0, 0]), "s": Doc.fixed([100, 100]), "r": Doc.fixed(0), "o": Doc.fixed(100)]
        }
        let a: [String: Any] = ["ty": "gr", "it": [Doc.rect(center: [0, 0], size: [40, 40]), tr([60, 100])]]
        let b: [String: Any] = ["ty": "gr", "it": [Doc.rect(center: [140, 100], size: [40, 40]), Doc.fill([0, 1, 0]), tr([0, 0])]]
        let image = try Self.render(try Doc.layer(Doc.comp([Doc.shapeLayer([a, b, Doc.fill([1, 0, 0])])])),
                                    size: CGSize(width: 200, height: 200), at: 0)
        #expect(Self.rgba(image, 60, 100) == [255, 0, 0, 255])
        #expect(Self.rgba(image, 140, 100) == [0, 255, 0, 255])
        #expect(Self.rgba(image, 100, 100) == [0, 0, 0, 0])
        #expect(Self.rgba(image, 10, 10) == [0, 0, 0, 0])
    }

    /// Polystars: a 4-point polygon of radius 50 turned 45° is the axis-aligned square of half
    /// side 50/√2 ≈ 35.36; a 5-point star (outer 40, inner 20) has its first tip straight up and
    /// its first inner vertex at −90° + 36°, radius 20 (the points alternate around the circle).
    @Test func polystarsHaveTheirGeometry() throws {
        let square: [String: Any] = ["ty": "sr", "sy": 2, "p": Doc.fixed([100, 100]), "pt": Doc.fixed(4), "or": Doc.fixed(50),
                                     "os": Doc.fixed(0), "r": Doc.fixed(45)]
        let image = try Self.render(try Doc.layer(Doc.comp([Doc.shapeLayer([square, Doc.fill([0, 0, 1])])])),
                                    size: CGSize(width: 200, height: 200), at: 0)
        #expect(Self.rgba(image, 134, 100)[3] == 255 && Self.rgba(image, 65, 134)[3] == 255)
        #expect(Self.rgba(image, 136, 100)[3] == 0 && Self.rgba(image, 100, 63)[3] == 0)
        let star: [String: Any] = ["ty": "sr", "sy": 1, "p": Doc.fixed([100, 100]), "pt": Doc.fixed(5), "or": Doc.fixed(40),
                                   "os": Doc.fixed(0), "ir": Doc.fixed(20), "is": Doc.fixed(0), "r": Doc.fixed(0)]
        let starImage = try Self.render(try Doc.layer(Doc.comp([Doc.shapeLayer([star, Doc.fill([0, 0, 1])])])),
                                        size: CGSize(width: 200, height: 200), at: 0)
        func alpha(radius: Double, degrees: Double) -> UInt8 {
            let a = degrees * .pi / 180
            return starImage.pixel(x: Int(100 + radius * cos(a)), y: Int(100 + radius * sin(a))).a
        }
        #expect(alpha(radius: 36, degrees: -90) == 255, "the first tip")
        #expect(alpha(radius: 16, degrees: -54) == 255, "inside the first inner vertex")
        #expect(alpha(radius: 25, degrees: -54) == 0, "outside the first inner vertex")
    }

    /// A rectangle whose size (frames 0…30, 20 → 80) and centre (frames 10…20, x 50 → 150)
    /// animate on different keyframes: at frame 15 it is 50 wide about x 100, at frame 5 30 wide
    /// about x 50 (linear keyframes, each property on its own timeline).
    @Test func shapePropertiesOnDifferentKeyframesCombine() throws {
        let rect: [String: Any] = ["ty": "rc", "r": Doc.fixed(0),
                                   "s": Doc.keyframed([["t": 0, "s": [20, 20]], ["t": 30, "s": [80, 80]]]),
                                   "p": Doc.keyframed([["t": 10, "s": [50, 100]], ["t": 20, "s": [150, 100]]])]
        let root = try Doc.layer(Doc.comp([Doc.shapeLayer([rect, Doc.fill([1, 0, 0])], name: "r")]))
        let shape = try #require(Doc.find("r", in: root)?.sublayers?.first?.sublayers?.first as? CAShapeLayer)
        for (frame, expected) in [(15.0, CGRect(x: 75, y: 75, width: 50, height: 50)), (5.0, CGRect(x: 35, y: 85, width: 30, height: 30))] {
            let box = try #require((Self.presented(shape, at: frame / 30) as? CAShapeLayer)?.path?.boundingBox)
            #expect(abs(box.minX - expected.minX) < 1e-6 && abs(box.width - expected.width) < 1e-6
                    && abs(box.minY - expected.minY) < 1e-6, "frame \(frame): \(box)")
        }
    }

    /// A trim offset moves the trimmed part along the path (360° = the whole length) and wraps
    /// past its end: a circle (from its top, clockwise) trimmed to 0…50 % strokes with offset
    /// 180° its left half (50 %…100 %), with 90° its bottom half (25 %…75 %), and with 270° its
    /// top half (75 %…125 %, across the start).
    @Test func trimOffsetWrapsAroundThePath() throws {
        func image(offset: Double) throws -> Pixmap {
            let shapes: [[String: Any]] = [
                ["ty": "el", "p": Doc.fixed([100, 100]), "s": Doc.fixed([120, 120])],
                ["ty": "tm", "s": Doc.fixed(0), "e": Doc.fixed(50), "o": Doc.fixed(offset), "m": 1],
                ["ty": "st", "c": Doc.fixed([0, 0, 0]), "o": Doc.fixed(100), "w": Doc.fixed(8), "lc": 1, "lj": 1],
            ]
            return try Self.render(try Doc.layer(Doc.comp([Doc.shapeLayer(shapes)])), size: CGSize(width: 200, height: 200), at: 0)
        }
        let (top, right, bottom, left) = ((100, 40), (160, 100), (100, 160), (40, 100))
        func on(_ p: Pixmap, _ point: (Int, Int)) -> Bool { Self.rgba(p, point.0, point.1)[3] == 255 }
        let half = try image(offset: 180)
        #expect(on(half, left) && !on(half, right))
        let bottomHalf = try image(offset: 90)
        #expect(on(bottomHalf, bottom) && !on(bottomHalf, top))
        let topHalf = try image(offset: 270)
        #expect(on(topHalf, top) && !on(topHalf, bottom))
        #expect(on(topHalf, (58, 58)) && on(topHalf, (142, 58)), "both sides of the start")
    }

    /// Rounded corners (`rd` 20) on a 100×100 square at 50…150: each corner is cut 20 along both
    /// edges and joined by a cubic with handles halfway to the corner, whose midpoint is
    /// (0.125·50 + 0.375·50 + 0.375·60 + 0.125·70, the same) = (56.25, 56.25) at the top left.
    @Test func roundedCornersCutTheCorners() throws {
        let shapes: [[String: Any]] = [Doc.rect(center: [100, 100], size: [100, 100]), ["ty": "rd", "r": Doc.fixed(20)], Doc.fill([0, 0, 1])]
        let image = try Self.render(try Doc.layer(Doc.comp([Doc.shapeLayer(shapes)])), size: CGSize(width: 200, height: 200), at: 0)
        #expect(Self.rgba(image, 54, 54)[3] == 0 && Self.rgba(image, 145, 145)[3] == 0, "outside the curve")
        #expect(Self.rgba(image, 58, 58)[3] == 255 && Self.rgba(image, 141, 141)[3] == 255, "inside the curve")
        #expect(Self.rgba(image, 100, 50)[3] == 255 && Self.rgba(image, 50, 100)[3] == 255, "the edges' middles")
    }

    /// A repeater of 3 copies stepping 30 right, opacity 100 % → 50 %: copy i of a 10×10 square
    /// at 10…20 covers 10 + 30i…20 + 30i with alpha 1 − 0.25i (linear from the start to the end
    /// opacity over the copies), and there is no fourth.
    @Test func aRepeaterCopiesTheGroup() throws {
        let repeater: [String: Any] = ["ty": "rp", "c": Doc.fixed(3), "o": Doc.fixed(0), "m": 1,
                                       "tr": ["p": Doc.fixed([30, 0]), "a": Doc.fixed([0, 0]), "s": Doc.fixed([100, 100]),
                                              "r": Doc.fixed(0), "so": Doc.fixed(100), "eo": Doc.fixed(50)]]
        let group: [String: Any] = ["ty": "gr", "it": [Doc.rect(center: [15, 15], size: [10, 10]), Doc.fill([0, 0, 0]), repeater]]
        let image = try Self.render(try Doc.layer(Doc.comp([Doc.shapeLayer([group])])), size: CGSize(width: 200, height: 200), at: 0)
        let alphas = [15, 45, 75, 105].map { Self.rgba(image, $0, 15)[3] }
        #expect(alphas[0] == 255 && abs(alphas[1] - 191) <= 1 && abs(alphas[2] - 128) <= 1 && alphas[3] == 0, "\(alphas)")
        #expect(Self.rgba(image, 39, 15)[3] == 0 && Self.rgba(image, 40, 15)[3] > 0, "the second copy starts at x 40")
    }

    /// Repeater copies are placed as lottie-web's RepeaterModifier places them: copy k turned by
    /// k·r and scaled about the anchor, then moved by k·p — the offset not turned. With the anchor
    /// at the 10 × 10 square's centre (15, 15), p (40, 0) and r 90°, copy 2 is the square turned
    /// half a turn about its centre and moved 80 right: centred at (95, 15). (Applying the one
    /// step twice, as a CAReplicatorLayer does, would turn the second move down: (55, 55).)
    @Test func repeaterCopiesMoveWithoutTurning() throws {
        let repeater: [String: Any] = ["ty": "rp", "c": Doc.fixed(3), "o": Doc.fixed(0), "m": 1,
                                       "tr": ["p": Doc.fixed([40, 0]), "a": Doc.fixed([15, 15]), "s": Doc.fixed([100, 100]),
                                              "r": Doc.fixed(90), "so": Doc.fixed(100), "eo": Doc.fixed(100)]]
        let group: [String: Any] = ["ty": "gr", "it": [Doc.rect(center: [15, 15], size: [10, 10]), Doc.fill([0, 0, 0]), repeater]]
        let image = try Self.render(try Doc.layer(Doc.comp([Doc.shapeLayer([group])])), size: CGSize(width: 200, height: 200), at: 0)
        #expect([15, 55, 95].map { Self.rgba(image, $0, 15)[3] } == [255, 255, 255])
        #expect(Self.rgba(image, 55, 55)[3] == 0 && Self.rgba(image, 135, 15)[3] == 0)
    }

    /// Skew (`sk` 45, axis 0) shears x by −tan(45°)·y about the anchor (lottie-web's matrix; a
    /// positive skew leans the top to the right on screen): the square 0…40 at (100, 100) has its
    /// top edge at x 100…140 and its bottom edge at x 60…100.
    @Test func skewShearsAboutTheAnchor() throws {
        var ks = Doc.ks(p: Doc.fixed([100, 100]))
        ks["sk"] = Doc.fixed(45)
        ks["sa"] = Doc.fixed(0)
        let layer = Doc.shapeLayer([Doc.rect(center: [20, 20], size: [40, 40]), Doc.fill([0, 0, 0])], ks: ks)
        let image = try Self.render(try Doc.layer(Doc.comp([layer])), size: CGSize(width: 200, height: 200), at: 0)
        #expect(Self.rgba(image, 130, 101)[3] == 255 && Self.rgba(image, 70, 138)[3] == 255)
        #expect(Self.rgba(image, 130, 138)[3] == 0 && Self.rgba(image, 70, 101)[3] == 0)
    }

    /// A drop shadow (`ef` of `ty` 25) with distance 20 at direction 90° (clockwise from up: to
    /// the right), no softness, opacity 255: a shadow 20 to the right of the 100×100 square.
    @Test func aDropShadowFallsInItsDirection() throws {
        let shadow: [String: Any] = ["ty": 25, "en": 1, "ef": [
            ["ty": 2, "v": Doc.fixed([0, 0, 0, 1])], ["ty": 0, "v": Doc.fixed(255)], ["ty": 1, "v": Doc.fixed(90)],
            ["ty": 0, "v": Doc.fixed(20)], ["ty": 0, "v": Doc.fixed(0)]]]
        var layer = Doc.shapeLayer([Doc.rect(center: [100, 100], size: [100, 100]), Doc.fill([1, 0, 0])])
        layer["ef"] = [shadow]
        let image = try Self.render(try Doc.layer(Doc.comp([layer])), size: CGSize(width: 200, height: 200), at: 0)
        #expect(Self.rgba(image, 160, 100) == [0, 0, 0, 255], "the shadow right of the square")
        #expect(Self.rgba(image, 171, 100)[3] == 0 && Self.rgba(image, 100, 155)[3] == 0)
        #expect(Self.rgba(image, 100, 100) == [255, 0, 0, 255], "the square over its shadow")
    }
}
