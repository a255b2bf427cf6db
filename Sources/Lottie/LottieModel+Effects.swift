import CoreGraphics

// Layer effects (`ef`) as read: the ones Core Animation can draw — drop shadow (a layer shadow),
// Gaussian blur (a `gaussianBlur` filter), fill and tint (`colorMatrix` filters), stroke (shape
// layers stroking the mask paths, painted over the layer or instead of it) — and the
// others recorded once each by name. Each effect lists its values (`ef[n].v`) by position, as
// Bodymovin writes them; the positions are those of lottie-docs' "Layer Effects" page, the
// names its effect types.

/// An effect drawn as a layer filter (`LayerImporter+Effects.swift`).
enum LayerEffect: Sendable {
    /// `ty` 29: blurriness (value 0) in After Effects' units.
    case gaussianBlur(blurriness: KeyframedValue<Double>)
    /// `ty` 21: every opaque part painted `color` (value 2, components 0–1) at `opacity`
    /// (value 6, 0–1).
    case fill(color: KeyframedValue<[Double]>, opacity: KeyframedValue<Double>)
    /// `ty` 20: black mapped to `black` (value 0), white to `white` (value 1), the greys
    /// between, mixed with the original by `amount` (value 2, percent).
    case tint(black: KeyframedValue<[Double]>, white: KeyframedValue<[Double]>, amount: KeyframedValue<Double>)
    /// `ty` 22: the layer's mask paths stroked — all of them (value 1 on), else the one value 0
    /// names (1-based) — in `color` (value 3), `brushSize` (value 4, half the line width),
    /// `opacity` (value 6, 0–1), from `start` to `end` (values 7, 8, percent of each path),
    /// dots `spacing` percent of the width apart (value 9); `onTransparent` (value 10 is 2): the
    /// strokes replace the layer's content (value 10 is 1: over it).
    case stroke(masks: [Int], color: KeyframedValue<[Double]>, brushSize: KeyframedValue<Double>, opacity: KeyframedValue<Double>,
                start: KeyframedValue<Double>, end: KeyframedValue<Double>, spacing: Double, onTransparent: Bool)

    /// Effect types by `ty` (lottie-docs, "Layer Effects"), for messages.
    static let names = [5: "expression control effects", 20: "tint effects", 21: "fill effects", 22: "stroke effects",
                        23: "tritone effects", 24: "pro levels effects", 25: "drop shadow effects", 26: "radial wipe effects",
                        27: "displacement map effects", 28: "set matte effects", 29: "Gaussian blur effects",
                        30: "twirl effects", 31: "mesh warp effects", 32: "wavy effects", 33: "spherize effects",
                        34: "puppet effects"]

    /// The enabled effects of a layer's `ef` (nil: none) that are drawn, in order, and its last
    /// enabled drop shadow; every other effect type noted once.
    static func list(_ ef: JSONNode?, masks: Int, notes: inout Notes) throws(LottieError) -> ([LayerEffect], DropShadow?) {
        var effects: [LayerEffect] = []
        var shadow: DropShadow?
        for effect in try ef?.array() ?? [] {
            guard try effect.int("en", default: 1) != 0 else { continue }
            let ty = try effect.int("ty", default: -1)
            func value<T: Sendable>(_ n: Int, _ read: (JSONNode) throws(LottieError) -> T) throws(LottieError) -> KeyframedValue<T> {
                let values = try effect.required("ef").array()
                guard n < values.count else {
                    throw LottieError("\(effect.path).ef", "expected at least \(n + 1) values for \(names[ty] ?? "this effect"), found \(values.count)")
                }
                return try KeyframedValue.read(try values[n].required("v"), notes: &notes, read)
            }
            switch ty {
            case 25:
                shadow = try DropShadow(effect, notes: &notes)
            case 29:
                effects.append(.gaussianBlur(blurriness: try value(0, LottieTransform.scalar)))
                // Value 1, the dimensions: 1 both, 2 horizontal, 3 vertical (a filter blurs both).
                if try effect.required("ef").array().count > 1, try value(1, LottieTransform.scalar).values.contains(where: { $0 != 1 }) {
                    notes.unsupported("Gaussian blurs in one direction (drawn in both)", at: "\(effect.path).ef[1]")
                }
            case 21:
                effects.append(.fill(color: try value(2, LottieTransform.color), opacity: try value(6, LottieTransform.scalar)))
            case 20:
                effects.append(.tint(black: try value(0, LottieTransform.color), white: try value(1, LottieTransform.color),
                                     amount: try value(2, LottieTransform.scalar)))
            case 22:
                let style = try value(10, LottieTransform.scalar).initial
                guard style == 1 || style == 2 else {
                    notes.unsupported("stroke effects revealing the layer", at: "\(effect.path).ef[10]")
                    continue
                }
                let all = try value(1, LottieTransform.scalar).initial != 0
                let one = Int(try value(0, LottieTransform.scalar).initial) - 1
                effects.append(.stroke(masks: all ? Array(0..<masks) : (0..<masks).contains(one) ? [one] : [],
                                       color: try value(3, LottieTransform.color), brushSize: try value(4, LottieTransform.scalar),
                                       opacity: try value(6, LottieTransform.scalar), start: try value(7, LottieTransform.scalar),
                                       end: try value(8, LottieTransform.scalar), spacing: try value(9, LottieTransform.scalar).initial,
                                       onTransparent: style == 2))
            default:
                notes.unsupported(names[ty] ?? "effects of type \(ty)", at: effect.path)
            }
        }
        return (effects, shadow)
    }
}
