import Foundation
import Lottie
import QuartzCore
import Testing

/// Auto-orient and the animated forms of skew, repeaters, drop shadows and dashes, on
/// hand-written files; expected values from the Bodymovin definitions (lottie-web's
/// TransformProperty, RepeaterModifier) and closed-form geometry.
@Suite(.serialized) struct LottieMotionTests {
    typealias T = LottieImportTests

    /// The angle (degrees) a transform turns the x axis to, in y-down screen coordinates.
    static func degrees(_ m: CATransform3D) -> Double { atan2(Double(m.m12), Double(m.m11)) * 180 / .pi }

    static func mover(p: [String: Any], r: Double = 0, s: [Double] = [100, 100], autoOrient: Bool = true,
                      shapes: [[String: Any]] = []) -> [String: Any] {
        var layer = Doc.shapeLayer(shapes, ks: Doc.ks(p: p, s: Doc.fixed(s), r: Doc.fixed(r)), name: "mover")
        if autoOrient { layer["ao"] = 1 }
        return layer
    }

    /// Moving from (50, 100) to (150, 200) the path's tangent is at 45° (down-right on screen);
    /// auto-orient adds it to the layer's rotation of 10°, before, during and after the
    /// keyframes (lottie-web takes the tangent at the nearest end outside them).
    @Test func autoOrientTurnsAlongAStraightPath() throws {
        let p = Doc.keyframed([["t": 5, "s": [50, 100]], ["t": 25, "s": [150, 200]]])
        let root = try Doc.layer(Doc.comp([Self.mover(p: p, r: 10)]))
        let mover = try #require(Doc.find("mover", in: root))
        for t in [0.0, 0.5, 0.9, 1.5] {
            let angle = Self.degrees(T.presented(mover, at: t).transform)
            #expect(abs(angle - 55) < 1e-6, "t \(t): \(angle)")
        }
        #expect(abs(T.presented(mover, at: 0.5).position.x - 100) < 1e-6)
        let still = try Doc.layer(Doc.comp([Self.mover(p: p, r: 10, autoOrient: false)]))
        #expect(abs(Self.degrees(T.presented(try #require(Doc.find("mover", in: still)), at: 0.5).transform) - 10) < 1e-6)
        #expect(try Doc.animation(Doc.comp([Self.mover(p: p)])).unsupportedFeatures.isEmpty)
    }

    /// Along the cubic from (0, 100) with handles (0, 0) and (200, 0) to (200, 100) (spatial
    /// tangents `to` (0, −100), `ti` (0, −100)) the tangent starts straight up (−90°), is
    /// horizontal halfway (the curve is symmetric, so half the time is half the arc length) and
    /// ends straight down (90°).
    @Test func autoOrientFollowsSpatialTangents() throws {
        let p = Doc.keyframed([["t": 0, "s": [0, 100], "to": [0, -100], "ti": [0, -100]], ["t": 30, "s": [200, 100]]])
        let root = try Doc.layer(Doc.comp([Self.mover(p: p)]))
        let mover = try #require(Doc.find("mover", in: root))
        for (t, expected) in [(0.0, -90.0), (0.5, 0.0), (1.0, 90.0)] {
            let angle = Self.degrees(T.presented(mover, at: t).transform)
            #expect(abs(angle - expected) < 0.5, "t \(t): \(angle)")
        }
        #expect(abs(T.presented(mover, at: 0.5).position.x - 100) < 0.5)
    }

    /// Inside a time-remapped precomp (values sampled per frame) the layer still turns to its
    /// path: 45° plus its rotation of 10° along the straight path of the first test.
    @Test func autoOrientTurnsInsideTimeRemappedPrecomps() throws {
        let p = Doc.keyframed([["t": 0, "s": [50, 100]], ["t": 30, "s": [150, 200]]])
        let tm = Doc.keyframed([["t": 0, "s": [0]], ["t": 30, "s": [1]]])
        let doc = Doc.comp([["ty": 0, "ind": 1, "refId": "pre", "ip": 0, "op": 30, "st": 0, "w": 200, "h": 200, "tm": tm,
                             "ks": Doc.ks()]], assets: [["id": "pre", "layers": [Self.mover(p: p, r: 10)]]])
        let mover = try #require(Doc.find("mover", in: try Doc.layer(doc)))
        for t in [0.1, 0.5, 0.9] {
            let angle = Self.degrees(T.presented(mover, at: t).transform)
            #expect(abs(angle - 55) < 1e-6, "t \(t): \(angle)")
        }
        #expect(abs(T.presented(mover, at: 0.5).position.x - 100) < 1e-6)
    }

    /// A non-uniform scale applies before the turn (lottie-web: scale, rotation, then the
    /// tangent's angle): a bar 40×4 about the origin scaled to 80×4, moving at 45°, lies along
    /// the diagonal through its position (100, 150) — the pixel 25 along both axes from it is
    /// covered, one 25 right of it is not.
    @Test func autoOrientTurnsAfterTheScale() throws {
        let p = Doc.keyframed([["t": 0, "s": [50, 100]], ["t": 30, "s": [150, 200]]])
        let bar: [[String: Any]] = [Doc.rect(center: [0, 0], size: [40, 4]), Doc.fill([0, 0, 0])]
        let root = try Doc.layer(Doc.comp([Self.mover(p: p, s: [200, 100], shapes: bar)], w: 300, h: 300))
        let image = try T.render(root, size: CGSize(width: 300, height: 300), at: 0.5)
        #expect(T.rgba(image, 125, 175)[3] == 255 && T.rgba(image, 75, 125)[3] == 255)
        #expect(T.rgba(image, 125, 150)[3] == 0 && T.rgba(image, 100, 175)[3] == 0)
    }

    /// An animated skew (0° → 45° over frames 0…30) shears by −tan(skew) at each frame: 22.5° at frame 15.
    @Test func animatedSkewShearsByTheAngleOfTheFrame() throws {
        var ks = Doc.ks(p: Doc.fixed([100, 100]))
        ks["sk"] = Doc.keyframed([["t": 0, "s": [0]], ["t": 30, "s": [45]]])
        ks["sa"] = Doc.fixed(0)
        let root = try Doc.layer(Doc.comp([Doc.shapeLayer([Doc.rect(center: [20, 20], size: [40, 40]), Doc.fill([0, 0, 0])],
                                                          ks: ks, name: "skewed")]))
        let skew = try #require(Doc.find("skewed", in: root)?.sublayers?.first)
        for frame in [0.0, 15.0, 24.0] {
            let shear = Double(T.presented(skew, at: frame / 30).transform.m21)
            #expect(abs(shear + tan(frame * 1.5 * .pi / 180)) < 1e-6, "frame \(frame): \(shear)")
        }
        #expect(try Doc.animation(Doc.comp([Doc.shapeLayer([], ks: ks)])).unsupportedFeatures.isEmpty)
    }

    /// A repeater whose copies go from 2 to 4 and whose step goes from 30 to 40 right over
    /// frames 0…10: at frame 5, 3 copies 35 apart (the 10×10 square at 10…20, then 45…55 and 80…90).
    @Test func animatedRepeatersChangeCopiesAndStep() throws {
        let repeater: [String: Any] = ["ty": "rp", "c": Doc.keyframed([["t": 0, "s": [2]], ["t": 10, "s": [4]]]), "o": Doc.fixed(0), "m": 1,
                                       "tr": ["p": Doc.keyframed([["t": 0, "s": [30, 0]], ["t": 10, "s": [40, 0]]]), "a": Doc.fixed([0, 0]),
                                              "s": Doc.fixed([100, 100]), "r": Doc.fixed(0), "so": Doc.fixed(100), "eo": Doc.fixed(100)]]
        let group: [String: Any] = ["ty": "gr", "it": [Doc.rect(center: [15, 15], size: [10, 10]), Doc.fill([0, 0, 0]), repeater]]
        let doc = Doc.comp([Doc.shapeLayer([group])])
        #expect(try Doc.animation(doc).unsupportedFeatures.isEmpty)
        let image = try T.render(try Doc.layer(doc), size: CGSize(width: 200, height: 200), at: 5.0 / 30)
        #expect([15, 50, 85].map { T.rgba(image, $0, 15)[3] } == [255, 255, 255])
        #expect(T.rgba(image, 44, 15)[3] == 0 && T.rgba(image, 56, 15)[3] == 0 && T.rgba(image, 120, 15)[3] == 0)
        let end = try T.render(try Doc.layer(doc), size: CGSize(width: 200, height: 200), at: 20.0 / 30)
        #expect([15, 55, 95, 135].map { T.rgba(end, $0, 15)[3] } == [255, 255, 255, 255])
    }

    /// A drop shadow whose distance runs 0 → 20 over frames 0…30 at direction 90° (right):
    /// offset (10, 0) at frame 15; its opacity 255 → 0 gives shadowOpacity 0.5 there.
    @Test func animatedDropShadowsMove() throws {
        let shadow: [String: Any] = ["ty": 25, "en": 1, "ef": [
            ["ty": 2, "v": Doc.fixed([0, 0, 0, 1])], ["ty": 0, "v": Doc.keyframed([["t": 0, "s": [255]], ["t": 30, "s": [0]]])],
            ["ty": 1, "v": Doc.fixed(90)], ["ty": 0, "v": Doc.keyframed([["t": 0, "s": [0]], ["t": 30, "s": [20]]])],
            ["ty": 0, "v": Doc.fixed(0)]]]
        var layer = Doc.shapeLayer([Doc.rect(center: [100, 100], size: [100, 100]), Doc.fill([1, 0, 0])], name: "shadowed")
        layer["ef"] = [shadow]
        let doc = Doc.comp([layer])
        #expect(try Doc.animation(doc).unsupportedFeatures.isEmpty)
        let content = try #require(Doc.find("shadowed", in: try Doc.layer(doc))?.sublayers?.first)
        let presented = T.presented(content, at: 0.5)
        #expect(abs(presented.shadowOffset.width - 10) < 1e-6 && abs(presented.shadowOffset.height) < 1e-6, "\(presented.shadowOffset)")
        #expect(abs(presented.shadowOpacity - 0.5) < 1e-6)
    }

    /// A dash offset running 0 → 20 over frames 0…30 is the stroke's `lineDashPhase`, 10 at frame
    /// 15; a keyframed dash length is imported (not listed).
    @Test func animatedDashOffsetsMoveThePhase() throws {
        func stroke(_ dash: Any) -> [String: Any] {
            ["ty": "st", "c": Doc.fixed([0, 0, 0]), "o": Doc.fixed(100), "w": Doc.fixed(4), "lc": 1, "lj": 1,
             "d": [["n": "d", "v": dash], ["n": "g", "v": Doc.fixed(10)],
                   ["n": "o", "v": Doc.keyframed([["t": 0, "s": [0]], ["t": 30, "s": [20]]])]]]
        }
        let doc = Doc.comp([Doc.shapeLayer([Doc.rect(center: [100, 100], size: [100, 100]), stroke(Doc.fixed(10))], name: "dashed")])
        #expect(try Doc.animation(doc).unsupportedFeatures.isEmpty)
        let shape = try #require(Doc.find("dashed", in: try Doc.layer(doc))?.sublayers?.first?.sublayers?.first as? CAShapeLayer)
        #expect(shape.lineDashPattern == [10, 10])
        #expect(abs((T.presented(shape, at: 0.5) as? CAShapeLayer)!.lineDashPhase - 10) < 1e-6)
        let animatedLength = Doc.comp([Doc.shapeLayer([Doc.rect(center: [100, 100], size: [100, 100]),
                                                       stroke(Doc.keyframed([["t": 0, "s": [10]], ["t": 30, "s": [20]]]))])])
        #expect(try Doc.animation(animatedLength).unsupportedFeatures.isEmpty)
    }

    /// A dash length running 10 → 30 over frames 0…30 (gap 10, offset 0) on a line from x 20 to
    /// 180: dashes x 20…30, 40…50 at frame 0; 20…40, 50…70 at frame 15 (length 20); 20…50,
    /// 60…90 at frame 30 (SVG's stroke-dasharray, which lottie-web sets at each frame).
    @Test func animatedDashLengthsCutTheLineAtEachFrame() throws {
        let line: [String: Any] = ["ty": "sh", "ks": Doc.fixed(["v": [[20, 100], [180, 100]], "i": [[0, 0], [0, 0]],
                                                                 "o": [[0, 0], [0, 0]], "c": false])]
        let stroke: [String: Any] = ["ty": "st", "c": Doc.fixed([0, 0, 0]), "o": Doc.fixed(100), "w": Doc.fixed(6), "lc": 1, "lj": 1,
                                     "d": [["n": "d", "v": Doc.keyframed([["t": 0, "s": [10]], ["t": 30, "s": [30]]])],
                                           ["n": "g", "v": Doc.fixed(10)], ["n": "o", "v": Doc.fixed(0)]]]
        let doc = Doc.comp([Doc.shapeLayer([line, stroke], op: 60)], op: 60)
        func drawn(_ seconds: Double) throws -> [Bool] {
            let image = try T.render(try Doc.layer(doc), size: CGSize(width: 200, height: 200), at: seconds)
            return [25, 35, 45, 55, 65].map { T.rgba(image, $0, 100)[3] == 255 }
        }
        #expect(try drawn(0) == [true, false, true, false, true])
        #expect(try drawn(0.5) == [true, true, false, true, true])
        #expect(try drawn(1) == [true, true, true, false, true])
    }

    /// The same animated dash (10 → 30, gap 10) under a trim path from 25 % to 100 %: the line is
    /// trimmed to x 60…180 first and dashed from there, as lottie-web's trim modifier rewrites
    /// the path before SVG's stroke-dasharray applies: dashes x 60…70, 80…90 at frame 0 and
    /// 60…90, 100…130 at frame 30; nothing left of x 60 at any frame.
    @Test func animatedDashLengthsUnderATrimStartWhereTheTrimStarts() throws {
        let line: [String: Any] = ["ty": "sh", "ks": Doc.fixed(["v": [[20, 100], [180, 100]], "i": [[0, 0], [0, 0]],
                                                                 "o": [[0, 0], [0, 0]], "c": false])]
        let trim: [String: Any] = ["ty": "tm", "s": Doc.fixed(25), "e": Doc.fixed(100), "o": Doc.fixed(0), "m": 1]
        let stroke: [String: Any] = ["ty": "st", "c": Doc.fixed([0, 0, 0]), "o": Doc.fixed(100), "w": Doc.fixed(6), "lc": 1, "lj": 1,
                                     "d": [["n": "d", "v": Doc.keyframed([["t": 0, "s": [10]], ["t": 30, "s": [30]]])],
                                           ["n": "g", "v": Doc.fixed(10)], ["n": "o", "v": Doc.fixed(0)]]]
        let doc = Doc.comp([Doc.shapeLayer([line, trim, stroke], op: 60)], op: 60)
        #expect(try Doc.animation(doc).unsupportedFeatures.isEmpty)
        func drawn(_ seconds: Double) throws -> [Bool] {
            let image = try T.render(try Doc.layer(doc), size: CGSize(width: 200, height: 200), at: seconds)
            return [25, 45, 65, 75, 85, 95, 105].map { T.rgba(image, $0, 100)[3] == 255 }
        }
        #expect(try drawn(0) == [false, false, true, false, true, false, true])
        #expect(try drawn(1) == [false, false, true, true, true, false, true])
    }
}
