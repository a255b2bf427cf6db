import Foundation
import Lottie
import Testing

/// Malformed and hostile files: a clear error naming the JSON path at fault, never a trap.
@Suite struct LottieErrorTests {
    static func error(_ text: String) -> String? {
        do {
            _ = try LottieAnimation.from(data: Data(text.utf8))
            return nil
        } catch {
            return "\(error)"
        }
    }

    static func error(_ doc: [String: Any]) -> String? {
        error(String(decoding: Doc.data(doc), as: UTF8.self))
    }

    @Test func aWrongTypeNamesItsPath() {
        let p = Doc.keyframed([["t": 0, "s": [0, 0]], ["t": "soon", "s": [1, 1]]])
        let doc = Doc.comp([Doc.shapeLayer([], ks: Doc.ks(p: p))])
        #expect(Self.error(doc) == "layers[0].ks.p.k[1].t: expected a number")
    }

    @Test func missingMembersAreNamed() {
        var doc = Doc.comp([])
        doc["fr"] = nil
        #expect(Self.error(doc) == "fr: missing")
        let shapes: [[String: Any]] = [["ty": "gr", "it": [["ty": "fl", "o": Doc.fixed(100)]]]]
        #expect(Self.error(Doc.comp([Doc.shapeLayer(shapes)])) == "layers[0].shapes[0].it[0].c: missing")
    }

    @Test func keyframesOutOfOrderAreRefused() {
        let o = Doc.keyframed([["t": 10, "s": [0]], ["t": 5, "s": [100]]])
        #expect(Self.error(Doc.comp([Doc.shapeLayer([], ks: Doc.ks(o: o))]))
                == "layers[0].ks.o.k[1].t: keyframes out of order: frame 5.0 is listed after frame 10.0")
    }

    @Test func hugeNumbersAreRefused() {
        #expect(Self.error(#"{"fr": 30, "ip": 0, "op": 1e300, "w": 10, "h": 10, "layers": []}"#)
                == "op: 1e+300 is out of range: expected a number between -1e9 and 1e9")
    }

    @Test func notJSONIsRefused() throws {
        let message = try #require(Self.error(#"{"fr": 30, "ip": 0, "#))
        #expect(message.hasPrefix("not valid JSON"))
        #expect(Self.error("") != nil)
    }

    @Test func deepNestingIsRefusedBeforeParsing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(Self.error(deep) == "arrays and objects are nested more than 128 deep")
    }

    @Test func precompCyclesAreNamed() {
        let use = { (ref: String) -> [String: Any] in ["ty": 0, "ind": 1, "refId": ref, "w": 10, "h": 10, "ks": Doc.ks()] }
        let doc = Doc.comp([use("a")], assets: [["id": "a", "layers": [use("b")]], ["id": "b", "layers": [use("a")]]])
        #expect(Self.error(doc) == "assets[1].layers[0].refId: precomps refer to each other in a cycle: a → b → a")
    }

    @Test func parentCyclesAreNamed() {
        let doc = Doc.comp([Doc.shapeLayer([], ind: 1, parent: 2), Doc.shapeLayer([], ind: 2, parent: 1)])
        #expect(Self.error(doc) == "layers[1].parent: the parent chain 2 → 1 → 2 is a cycle")
    }

    @Test func aMissingPrecompIsNamed() {
        let doc = Doc.comp([["ty": 0, "ind": 1, "refId": "nowhere", "ks": Doc.ks()]])
        #expect(Self.error(doc) == "layers[0].refId: no precomp asset has id 'nowhere'")
    }

    /// Precomps that each use the next ten times: 10⁶ layers once expanded, refused by the limit.
    @Test func exponentialPrecompsAreBounded() throws {
        let uses = { (ref: String) -> [[String: Any]] in
            (0..<10).map { ["ty": 0, "ind": $0 + 1, "refId": ref, "w": 10, "h": 10, "ks": Doc.ks()] }
        }
        var assets: [[String: Any]] = [["id": "p6", "layers": [Doc.shapeLayer([])]]]
        for level in (0..<6).reversed() { assets.append(["id": "p\(level)", "layers": uses("p\(level + 1)")]) }
        #expect(Self.error(Doc.comp(uses("p0"), assets: assets)) == "layers: more than 100000 layers once precomps are expanded")
    }

    @Test func unsupportedFeaturesAreListedOnce() throws {
        let layer: [String: Any] = ["ty": 4, "ind": 1, "ks": Doc.ks(), "shapes": [["ty": "pb"], ["ty": "pb"]],
                                    "ef": [["ty": 5]]]
        let animation = try Doc.animation(Doc.comp([layer, ["ty": 6, "ind": 2, "ks": Doc.ks()]]))
        #expect(animation.unsupportedFeatures.map(\.feature) == ["expression control effects", "pucker and bloat", "audio layers"])
        #expect(animation.unsupportedFeatures[1].path == "layers[0].shapes[0].ty")
    }

    /// A file past 64 MiB is refused before it is parsed (a 1 GB string would be too).
    @Test func hugeFilesAreRefusedUnread() throws {
        let data = Data(count: (64 << 20) + 1)
        #expect(throws: (any Error).self) { try LottieAnimation.from(data: data) }
        do {
            _ = try LottieAnimation.from(data: data)
        } catch {
            #expect("\(error)" == "the file is 67108865 bytes; the limit is 67108864 bytes")
        }
    }

    /// A repeater of 60 000 copies (fewer than the 100 000 a repeater may ask for, but each copy
    /// is two layers: its own and its content's) is refused by the layer limit.
    @Test func aHugeRepeaterIsRefused() throws {
        let repeater: [String: Any] = ["ty": "rp", "c": Doc.fixed(60_000), "o": Doc.fixed(0), "m": 2,
                                       "tr": ["p": Doc.fixed([1, 0]), "a": Doc.fixed([0, 0]), "s": Doc.fixed([100, 100]),
                                              "r": Doc.fixed(0), "so": Doc.fixed(100), "eo": Doc.fixed(100)]]
        let group: [String: Any] = ["ty": "gr", "it": [Doc.rect(center: [5, 5], size: [2, 2]), Doc.fill([0, 0, 0]), repeater]]
        #expect(Self.error(Doc.comp([Doc.shapeLayer([group])])) == "layers[0]: more than 100000 layers once precomps are expanded")
    }

    /// 60 000 shape layers (each drawn as at least two CALayers) are refused by the layer limit
    /// before a layer is built.
    @Test func tooManyLayersAreRefusedBeforeBuilding() throws {
        let text = #"{"fr":30,"ip":0,"op":1,"w":10,"h":10,"layers":["#
            + String(repeating: #"{"ty":4,"ks":{},"shapes":[]},"#, count: 60_000) + #"{"ty":3,"ks":{}}]}"#
        #expect(Self.error(text) == "layers: more than 100000 layers once precomps are expanded")
    }
}
