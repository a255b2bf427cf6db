import Foundation
import Lottie
import QuartzCore

/// Small Bodymovin documents written for these tests, built as dictionaries so each test states
/// only what it is about.
enum Doc {
    /// A composition `w`×`h` at `fr` frames per second, frames 0 to `op`.
    static func comp(_ layers: [[String: Any]], w: Double = 200, h: Double = 200, fr: Double = 30, op: Double = 30,
                     assets: [[String: Any]] = []) -> [String: Any] {
        ["v": "5.7.0", "fr": fr, "ip": 0, "op": op, "w": w, "h": h, "layers": layers, "assets": assets]
    }

    static func fixed(_ value: Any) -> [String: Any] { ["a": 0, "k": value] }

    static func keyframed(_ frames: [[String: Any]]) -> [String: Any] { ["a": 1, "k": frames] }

    /// A transform: position `p`, the rest at their defaults unless given.
    static func ks(p: Any = fixed([0, 0]), a: Any = fixed([0, 0]), s: Any = fixed([100, 100]), r: Any = fixed(0),
                   o: Any = fixed(100)) -> [String: Any] {
        ["p": p, "a": a, "s": s, "r": r, "o": o]
    }

    static func shapeLayer(_ shapes: [[String: Any]], ks: [String: Any] = Doc.ks(), ind: Int = 1, parent: Int? = nil,
                           ip: Double = 0, op: Double = 30, name: String = "shape") -> [String: Any] {
        var layer: [String: Any] = ["ty": 4, "ind": ind, "nm": name, "ip": ip, "op": op, "st": 0, "ks": ks, "shapes": shapes]
        if let parent { layer["parent"] = parent }
        return layer
    }

    static func rect(center: [Double], size: [Double]) -> [String: Any] {
        ["ty": "rc", "p": fixed(center), "s": fixed(size), "r": fixed(0)]
    }

    static func fill(_ rgb: [Double]) -> [String: Any] { ["ty": "fl", "c": fixed(rgb), "o": fixed(100), "r": 1] }

    static func data(_ doc: [String: Any]) -> Data { try! JSONSerialization.data(withJSONObject: doc) }

    static func animation(_ doc: [String: Any]) throws -> LottieAnimation { try LottieAnimation.from(data: data(doc)) }

    /// The animation's layer, running from media time 0, its corner at the origin.
    static func layer(_ doc: [String: Any]) throws -> LottieAnimationLayer {
        let layer = LottieAnimationLayer(animation: try animation(doc))
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        defer { CATransaction.commit() }
        layer.anchorPoint = .zero
        layer.position = .zero
        layer.runFreely(from: 0)
        return layer
    }

    /// The first layer named `name` under `root`, depth first.
    static func find(_ name: String, in root: CALayer) -> CALayer? {
        if root.name == name { return root }
        for sub in root.sublayers ?? [] { if let found = find(name, in: sub) { return found } }
        return nil
    }
}
