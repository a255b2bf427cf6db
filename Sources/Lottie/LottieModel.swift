import CoreGraphics
import Foundation

// The Bodymovin document as read (`LottieModel+Parsing.swift`): plain Sendable values, in the
// file's units — frames for times, points for lengths, degrees for angles, 0–100 for
// percentages, 0–1 for colour components. The importer converts units when it builds layers.

/// One keyframe: the value from `time` (frames) on, and how the segment to the next keyframe runs.
struct Keyframe<Value: Sendable>: Sendable {
    var time: Double
    var value: Value
    /// `h`: the value holds until the next keyframe.
    var hold: Bool
    /// The segment's easing, `o` (first control point) and `i` (second), as a cubic Bézier from
    /// (0, 0) to (1, 1) over (time, progress); nil when the file gives none (linear).
    var easeOut: CGPoint?
    var easeIn: CGPoint?
    /// `to` and `ti`: spatial tangents of a position segment, relative to its two ends.
    var spatialOut: CGPoint?
    var spatialIn: CGPoint?
}

/// A property's value: `a: 0` with a value, or `a: 1` with keyframes (at least two, in time order).
enum KeyframedValue<Value: Sendable>: Sendable {
    case fixed(Value)
    case keyframed([Keyframe<Value>])

    /// The value before any keyframe (the static value, or the first keyframe's).
    var initial: Value {
        switch self {
        case let .fixed(v): v
        case let .keyframed(k): k[0].value
        }
    }

    var isAnimated: Bool { if case .keyframed = self { true } else { false } }

    /// Every value it takes at a keyframe (the value alone when fixed).
    var values: [Value] {
        switch self {
        case let .fixed(v): [v]
        case let .keyframed(k): k.map(\.value)
        }
    }

    func map<T: Sendable>(_ f: (Value) -> T) -> KeyframedValue<T> {
        switch self {
        case let .fixed(v): .fixed(f(v))
        case let .keyframed(k):
            .keyframed(k.map {
                Keyframe(time: $0.time, value: f($0.value), hold: $0.hold, easeOut: $0.easeOut, easeIn: $0.easeIn,
                         spatialOut: $0.spatialOut, spatialIn: $0.spatialIn)
            })
        }
    }
}

/// A Bézier path as Bodymovin stores it: vertices, and each vertex's in and out tangents relative to it.
struct BezierShape: Sendable, Equatable {
    var vertices: [CGPoint]
    var inTangents: [CGPoint]
    var outTangents: [CGPoint]
    var closed: Bool
    /// Further contours drawn as part of this path: an animated merge's result at one frame
    /// (`ShapeImporter+MergePaths.swift`), whose parts must be filled together (holes); empty
    /// for every path a file gives.
    var otherContours: [BezierShape] = []
}

/// `ks` of a layer, `tr` of a group: anchor `a`, position `p` (or split `px`/`py`), scale `s`
/// (percent), rotation `r` (degrees, clockwise on screen), opacity `o` (percent), skew `sk`/`sa`.
struct LottieTransform: Sendable {
    enum Position: Sendable {
        case combined(KeyframedValue<CGPoint>)
        case split(x: KeyframedValue<Double>, y: KeyframedValue<Double>)
    }
    var anchor: KeyframedValue<CGPoint> = .fixed(.zero)
    var position: Position = .combined(.fixed(.zero))
    var scale: KeyframedValue<CGPoint> = .fixed(CGPoint(x: 100, y: 100))
    var rotation: KeyframedValue<Double> = .fixed(0)
    var opacity: KeyframedValue<Double> = .fixed(100)
    /// `sk`, `sa`: skew (degrees) along the axis at `skewAxis` degrees.
    var skew: KeyframedValue<Double> = .fixed(0)
    var skewAxis: KeyframedValue<Double> = .fixed(0)

    /// Whether it leaves its content as it is at every frame: anchor and position at the origin,
    /// scale 100 %, no rotation or skew, opacity 100 %, nothing keyframed (Bodymovin writes such
    /// a `tr` for most groups).
    var isIdentity: Bool {
        let origin: Bool
        switch position {
        case let .combined(p): origin = Self.fixed(p, .zero)
        case let .split(x, y): origin = Self.fixed(x, 0) && Self.fixed(y, 0)
        }
        return origin && Self.fixed(anchor, .zero) && Self.fixed(scale, CGPoint(x: 100, y: 100)) && Self.fixed(rotation, 0)
            && Self.fixed(opacity, 100) && Self.fixed(skew, 0)
    }

    private static func fixed<V: Equatable>(_ value: KeyframedValue<V>, _ expected: V) -> Bool {
        if case let .fixed(v) = value { v == expected } else { false }
    }
}

/// Fill rule `r`: 1 non-zero, 2 even-odd.
/// Stroke ends `lc`: 1 butt, 2 round, 3 square; joins `lj`: 1 miter, 2 round, 3 bevel.
struct StrokeStyle: Sendable {
    var width: KeyframedValue<Double>
    var cap: Int
    var join: Int
    var miterLimit: Double
    /// Dash and gap lengths in order (`d` entries `n: "d"`/`"g"`), each static or keyframed
    /// (`ShapeImporter.shapeLayers`: Core Animation's `lineDashPattern` is not animatable, so
    /// animated lengths are drawn as a dashed path sampled per frame); the offset (`n: "o"`).
    var dashes: [KeyframedValue<Double>]
    var dashOffset: KeyframedValue<Double>

    /// True when a dash or gap length is keyframed.
    var animatesDashLengths: Bool { dashes.contains(where: \.isAnimated) }
}

/// A gradient's stops as Bodymovin packs them: `count` colour stops (offset, r, g, b), then
/// optional opacity stops (offset, alpha).
struct GradientStops: Sendable, Equatable {
    var colors: [(offset: Double, rgb: SIMD3<Double>)]
    var alphas: [(offset: Double, alpha: Double)]

    static func == (a: GradientStops, b: GradientStops) -> Bool {
        a.colors.elementsEqual(b.colors) { $0.offset == $1.offset && $0.rgb == $1.rgb }
            && a.alphas.elementsEqual(b.alphas) { $0.offset == $1.offset && $0.alpha == $1.alpha }
    }
}

struct GradientStyle: Sendable {
    /// `t`: 1 linear, 2 radial.
    var radial: Bool
    var start: KeyframedValue<CGPoint>
    var end: KeyframedValue<CGPoint>
    var stops: KeyframedValue<GradientStops>
}

/// One item of a shape layer's `shapes` or a group's `it`.
indirect enum ShapeItem: Sendable {
    case group([ShapeItem], LottieTransform, hidden: Bool)
    /// A path (`sh`), or a rectangle (`rc`) or ellipse (`el`) already turned into one
    /// (`BezierShape+Primitives.swift`).
    case path(KeyframedValue<BezierShape>)
    case fill(color: KeyframedValue<[Double]>, opacity: KeyframedValue<Double>, evenOdd: Bool)
    case stroke(color: KeyframedValue<[Double]>, opacity: KeyframedValue<Double>, StrokeStyle)
    case gradientFill(GradientStyle, opacity: KeyframedValue<Double>, evenOdd: Bool)
    case gradientStroke(GradientStyle, opacity: KeyframedValue<Double>, StrokeStyle)
    /// Start and end in percent, offset in degrees (360 = the whole path); `individually` when `m` is 2.
    case trim(start: KeyframedValue<Double>, end: KeyframedValue<Double>, offset: KeyframedValue<Double>, individually: Bool)
    /// `rp`: the group's content drawn `copies` times, copy i under the repeater transform
    /// applied i + `offset` times, its opacity going from `startOpacity` to `endOpacity`
    /// (percent) over the copies; `below`: later copies under earlier ones (`m` 2). Every value
    /// may be keyframed.
    case repeater(copies: KeyframedValue<Double>, offset: KeyframedValue<Double>, transform: LottieTransform,
                  startOpacity: KeyframedValue<Double>, endOpacity: KeyframedValue<Double>, below: Bool)
    /// `rd`: the sharp corners of the paths before it in its scope rounded by a radius.
    case roundCorners(KeyframedValue<Double>)
    /// `tr` inside a group (the group takes it).
    case transform(LottieTransform)
    /// `mm`: the path-like items before it in its group merged into one path by `mode` (1 merge,
    /// 2 add, 3 subtract, 4 intersect, 5 exclude intersections; `ShapeImporter+MergePaths.swift`).
    case mergePaths(mode: Int)
    /// A shape this version does not import (its `ty`); listed by `LottieAnimation.unsupportedFeatures`.
    case unsupported(String)
}

enum LayerKind: Sendable {
    case precomp(refId: String, size: CGSize)
    /// An image asset's picture at its size.
    case image(refId: String)
    case solid(color: [Double], size: CGSize)
    case null
    case shape([ShapeItem])
    /// Its text documents (`LottieModel+Text.swift`).
    case text(KeyframedValue<TextDocument>)
    /// Audio (6), camera (13) and other types this version does not draw.
    case unsupported(Int)
}

struct LottieLayer: Sendable {
    /// `ind`: the index `parent` refers to.
    var index: Int?
    var parent: Int?
    var name: String?
    var kind: LayerKind
    var transform: LottieTransform
    /// `ip`, `op`: the frames the layer is visible in, [inPoint, outPoint).
    var inPoint: Double
    var outPoint: Double
    /// `st`: the frame its own time starts at; `sr`: time stretch (2 = half speed).
    var startTime: Double
    var stretch: Double
    /// `hd`; or `td`: a track matte's source, which Lottie does not draw itself (mattes are not
    /// imported yet, so the layer it mattes is drawn unmatted).
    var hidden: Bool
    /// `masksProperties`, in order (modes `n` left out).
    var masks: [LottieMask]
    /// Every mask's path in file order, mode `n` included (what a stroke effect strokes).
    var maskPaths: [KeyframedValue<BezierShape>]
    /// `tt`: how the layer is matted by its matte source — the layer `tp` names, else the one
    /// just above it in the list.
    var matte: MatteMode?
    var matteParent: Int?
    /// `td`: this layer is a matte source.
    var isMatteSource: Bool
    /// The drop shadow effect (`ef` item of `ty` 25), the last enabled one.
    var dropShadow: DropShadow?
    /// The other effects that are imported (`LottieModel+Effects.swift`), in order.
    var effects: [LayerEffect]
    /// `tm` of a precomp layer: the precomp's time, in seconds, at each of the layer's frames.
    var timeRemap: KeyframedValue<Double>?
    /// `ao`: the layer turns to follow its position's path (its tangent's angle added to `r`).
    var autoOrient: Bool
    /// Where it is in the file, for messages.
    var path: String
}

/// A mask (`masksProperties` item): `pt` a closed path in the layer's coordinates, `o` opacity
/// (percent), `inv` inverted; mode `a` adds it, `s` subtracts it, `i` intersects with the masks before.
struct LottieMask: Sendable {
    enum Mode: Sendable { case add, subtract, intersect }
    var mode: Mode
    var path: KeyframedValue<BezierShape>
    var opacity: KeyframedValue<Double>
    var inverted: Bool
}

/// An image asset: its bytes (PNG or JPEG), embedded or in a file, shown at `size` points.
struct LottieImage: Sendable {
    enum Source: Sendable {
        case embedded(Data)
        /// A path relative to the animation's folder.
        case file(String)
    }
    var size: CGSize
    var source: Source
    /// Where the asset is in the file, for messages.
    var path: String
}

/// A drop shadow: colour (0–1), opacity (0–255), direction (degrees clockwise from up), distance
/// and softness (points), each static or keyframed.
struct DropShadow: Sendable {
    var color: KeyframedValue<[Double]>
    var opacity: KeyframedValue<Double>
    var direction: KeyframedValue<Double>
    var distance: KeyframedValue<Double>
    var softness: KeyframedValue<Double>
}

/// `tt` 1 to 4: by the matte's alpha, its inverse, its luminance (over black), or the inverse of that.
enum MatteMode: Sendable { case alpha, alphaInverted, luma, lumaInverted }

/// The whole file: `fr` frames per second, `ip`/`op` the frames played, `w`×`h` points,
/// `layers` (first on top), and the precomps of `assets` by `id`.
struct LottieComposition: Sendable {
    var version: String?
    var name: String?
    var frameRate: Double
    var inPoint: Double
    var outPoint: Double
    var width: Double
    var height: Double
    var layers: [LottieLayer]
    var precomps: [String: [LottieLayer]]
    var images: [String: LottieImage]
    /// `fonts.list` by `fName`, and the glyph outlines of `chars` (`LottieModel+Text.swift`).
    var fonts: [String: LottieFont]
    var glyphs: [LottieGlyph]
    /// The folder image files are found in (the animation file's); nil: the current folder.
    var directory: String?
    /// What the file uses that is not imported, each once, in the order found, with where first seen.
    var unsupported: [(feature: String, path: String)]
}
