import Foundation
import Lottie
import QuartzCore
import Raster
import Testing

/// Merge paths (`mm`) on `Files/merge.json` (written for this test): five groups, 100 wide each,
/// centred at x = 50 + 100·i, each a 50 × 50 square centred 10 left of the centre and a circle of
/// radius 25 centred 10 right of it (in a subgroup with its own transform in the subtract group,
/// whose red fill the merge takes so it is not drawn), then the merge and a blue fill. Expected
/// from the merge modes as lottie-android defines them (the last path before the merge against
/// the others): 1 merge and 2 add fill both shapes, 3 subtract leaves the square minus the
/// circle, 4 intersect the overlap, 5 exclude the shapes without the overlap.
@Suite(.serialized) struct LottieMergePathsTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Files/merge.json")

    /// Blue alpha at three points of group `i`: only in the square, in both, only in the circle;
    /// and at a point outside both.
    static func coverage(_ image: Pixmap, group i: Int) -> [Bool] {
        let cx = 50 + 100 * i
        return [(cx - 30, 50), (cx, 50), (cx + 30, 50), (cx, 90)].map { point in
            let c = image.pixel(x: point.0, y: point.1)
            return c.a == 255 && c.b == 255 && c.r == 0
        }
    }

    @Test func eachModeCombinesTheSquareAndTheCircle() throws {
        let animation = try LottieAnimation.from(data: try Data(contentsOf: Self.file))
        #expect(!animation.unsupportedFeatures.contains { $0.feature.contains("merge") })
        let layer = try Doc.layer(try JSONSerialization.jsonObject(with: try Data(contentsOf: Self.file)) as! [String: Any])
        let image = try LottieImportTests.render(layer, size: CGSize(width: 500, height: 100), at: 0)
        #expect(Self.coverage(image, group: 0) == [true, true, true, false])   // merge
        #expect(Self.coverage(image, group: 1) == [true, true, true, false])   // add
        #expect(Self.coverage(image, group: 2) == [true, false, false, false]) // subtract
        #expect(Self.coverage(image, group: 3) == [false, true, false, false]) // intersect
        #expect(Self.coverage(image, group: 4) == [true, false, true, false])  // exclude
        // The subgroup the subtract merge takes draws nothing of its own (no red anywhere there).
        for x in stride(from: 200, to: 300, by: 5) {
            for y in stride(from: 20, to: 80, by: 5) { #expect(image.pixel(x: x, y: y).r == 0) }
        }
        // The subtract's edge follows the circle: 1 inside/outside its radius along the axis.
        #expect(image.pixel(x: 235 - 1, y: 50).a == 255)
        #expect(image.pixel(x: 235 + 1, y: 50).a == 0)
    }

    @Test func aLaterMergeTakesAnEarlierOnesResultAsOnePath() throws {
        // (A ∪ B) − C with A = [20, 80] × [20, 80], B = [60, 120] × [60, 120] (scaled 2× from a
        // 30 × 30 square in a subgroup), C = [50, 90] × [40, 100]; then a blue fill.
        let b: [String: Any] = ["ty": "gr", "it": [Doc.rect(center: [45, 45], size: [30, 30]),
                                                    ["ty": "tr", "p": Doc.fixed([0, 0]), "a": Doc.fixed([0, 0]), "s": Doc.fixed([200, 200]),
                                                     "r": Doc.fixed(0), "o": Doc.fixed(100)]]]
        let group: [String: Any] = ["ty": "gr", "it": [Doc.rect(center: [50, 50], size: [60, 60]), b, ["ty": "mm", "mm": 2],
                                                        Doc.rect(center: [70, 70], size: [40, 60]), ["ty": "mm", "mm": 3],
                                                        Doc.fill([0, 0, 1])]]
        let layer = try Doc.layer(Doc.comp([Doc.shapeLayer([group])]))
        let image = try LottieImportTests.render(layer, size: CGSize(width: 200, height: 200), at: 0)
        func filled(_ x: Int, _ y: Int) -> Bool { image.pixel(x: x, y: y).a == 255 }
        #expect(filled(30, 30))     // A only
        #expect(filled(110, 110))   // B only
        #expect(!filled(70, 70))    // in C
        #expect(!filled(70, 45))    // in A and C
        #expect(filled(70, 110))    // in B, below C
        #expect(!filled(150, 150))  // outside all
    }

    @Test func mergeOperationsPerImportAreBounded() throws {
        // 1 001 groups that each add two squares: one operation past the bound of 1 000.
        let group: [String: Any] = ["ty": "gr", "it": [Doc.rect(center: [10, 10], size: [10, 10]), Doc.rect(center: [14, 14], size: [10, 10]),
                                                        ["ty": "mm", "mm": 2], Doc.fill([0, 0, 1])]]
        do {
            _ = try Doc.animation(Doc.comp([Doc.shapeLayer(Array(repeating: group, count: 1_001))]))
            Issue.record("no error")
        } catch {
            #expect("\(error)" == "layers[0]: more than 1000 merge path operations")
        }
        // A merge with one source needs no operation: add keeps it, subtract leaves nothing.
        let single: (Int) -> [String: Any] = { mode in
            ["ty": "gr", "it": [Doc.rect(center: [100, 100], size: [50, 50]), ["ty": "mm", "mm": mode], Doc.fill([0, 0, 1])]]
        }
        let kept = try LottieImportTests.render(try Doc.layer(Doc.comp([Doc.shapeLayer([single(2)])])), size: CGSize(width: 200, height: 200), at: 0)
        #expect(kept.pixel(x: 100, y: 100).a == 255)
        let gone = try LottieImportTests.render(try Doc.layer(Doc.comp([Doc.shapeLayer([single(3)])])), size: CGSize(width: 200, height: 200), at: 0)
        #expect(gone.pixel(x: 100, y: 100).a == 0)
    }

    /// An animated merge follows its shapes frame by frame. Add (2): a 40 × 40 square centred at
    /// (50, 50) moving to (100, 50) over frames 0…30, merged with a fixed one at (70, 50): the
    /// union covers x 30…90 at frame 0 and 50…120 at frame 30. Subtract (3) of that moving square
    /// from a 100 × 100 square at (70, 50): a hole x 55…95 at frame 15 (the moving square at 75),
    /// the big square filled around it (a hole, not a second filled square).
    @Test func animatedMergesFollowTheirShapes() throws {
        let moving: [String: Any] = ["ty": "rc", "p": Doc.keyframed([["t": 0, "s": [50, 50]], ["t": 30, "s": [100, 50]]]),
                                     "s": Doc.fixed([40, 40]), "r": Doc.fixed(0)]
        let add: [String: Any] = ["ty": "gr", "it": [moving, Doc.rect(center: [70, 50], size: [40, 40]), ["ty": "mm", "mm": 2],
                                                      Doc.fill([0, 0, 1])]]
        let doc = Doc.comp([Doc.shapeLayer([add], op: 60)], op: 60)
        #expect(try Doc.animation(doc).unsupportedFeatures.isEmpty)
        let start = try LottieImportTests.render(try Doc.layer(doc), size: CGSize(width: 200, height: 200), at: 0)
        #expect(start.pixel(x: 35, y: 50).a == 255 && start.pixel(x: 110, y: 50).a == 0)
        let end = try LottieImportTests.render(try Doc.layer(doc), size: CGSize(width: 200, height: 200), at: 1)
        #expect(end.pixel(x: 35, y: 50).a == 0 && end.pixel(x: 110, y: 50).a == 255 && end.pixel(x: 70, y: 50).a == 255)

        let subtract: [String: Any] = ["ty": "gr", "it": [Doc.rect(center: [70, 50], size: [100, 100]), moving, ["ty": "mm", "mm": 3],
                                                           Doc.fill([0, 0, 1])]]
        let holed = Doc.comp([Doc.shapeLayer([subtract], op: 60)], op: 60)
        let middle = try LottieImportTests.render(try Doc.layer(holed), size: CGSize(width: 200, height: 200), at: 0.5)
        #expect(middle.pixel(x: 75, y: 50).a == 0 && middle.pixel(x: 58, y: 50).a == 0, "the hole")
        #expect(middle.pixel(x: 52, y: 50).a == 255 && middle.pixel(x: 98, y: 50).a == 255 && middle.pixel(x: 75, y: 85).a == 255)
    }
}
