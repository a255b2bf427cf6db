import QuartzCore

// A shape layer's items → CAShapeLayers (lottie-ios's Core Animation engine does the same):
// - a group (`gr`) → a CALayer with the group's transform (`tr`) and its opacity as layer
//   opacity (a group's opacity applies to the group as a whole, like Core Animation's group
//   opacity); a group whose transform is the identity at every frame makes no layer, its
//   content taking its place;
// - each style (`fl`, `st`, `gf`, `gs`) → a CAShapeLayer drawing the paths that come before it
//   in its group, with the style's opacity as layer opacity; a gradient → a CAGradientLayer
//   masked by such a shape layer (a gradient filling one static rectangle: the layer's bounds
//   are the rectangle, no mask); a style also paints the paths of the groups before it, by a
//   layer inside each such group (under the group's transform), below the group's own content;
// - trim paths (`tm`) of the group or an enclosing one → strokeStart/strokeEnd of the strokes
//   (Core Animation trims a path along its whole length, which is Lottie's "individually" mode;
//   "simultaneously" trims each path on its own, so each path gets its own layer then);
// - the first item is drawn on top, so sublayers are added in reverse.
//   an offset (static or animated) wraps the trimmed part past the path's end to its start, drawn
//   by a twin layer;
// - rounded corners (`rd`) round the sharp corners of every path of its group and the groups
//   inside (`BezierShape.roundingCorners`);
// - a repeater (`rp`) → one layer per copy holding the whole group's content built again, under
//   the copy's transform and opacity (`ShapeImporter+Repeater.swift`: lottie-web's placement,
//   which a CAReplicatorLayer's repeated step transform cannot express); copies drawn above
//   (`m` 1) go from the first at the bottom to the last on top, below (`m` 2) the other way;
// Not yet: a trim's, rounded corners' or repeater's place among the items (it trims every stroke of its group and the groups
// inside); several trims on one path (the innermost applies).

struct Trim {
    var start: KeyframedValue<Double>
    var end: KeyframedValue<Double>
    var offset: KeyframedValue<Double>
    var individually: Bool
}

struct ShapeImporter {
    let importer: LayerImporter
    let owner: LottieLayer
    let timing: AnimationTiming

    /// Adds `items`' layers to `parent`. `styles`: the styles of enclosing groups that come after
    /// this group there — they paint this group's paths too, drawn below its own content.
    func add(_ items: [ShapeItem], to parent: CALayer, trims inherited: [Trim], styles: [ShapeItem] = [],
             rounding inheritedRounding: KeyframedValue<Double>? = nil) throws(LottieError) {
        let items = try resolvingMerges(items)
        var trims = inherited
        var rounding = inheritedRounding
        for case let .roundCorners(radius) in items { rounding = radius }
        for case let .trim(start, end, offset, individually) in items {
            trims.append(Trim(start: start, end: end, offset: offset, individually: individually))
        }
        /// The layers of `items`, first item last (on top).
        func build() throws(LottieError) -> [CALayer] {
            var paths: [KeyframedValue<BezierShape>] = []
            var made: [CALayer] = []
            for (n, item) in items.enumerated() {
                switch item {
                case let .path(shape):
                    paths.append(rounding.map { radius in
                        KeyframedValue.combine(shape, radius, KeyframedValue<Double>.fixed(0)) { path, r, _ in path.roundingCorners(r) }
                    } ?? shape)
                case let .group(children, transform, _):
                    let later = items[(n + 1)...].filter(\.isStyle)
                    if transform.isIdentity {
                        // A group that moves nothing needs no layer of its own: its content takes
                        // its place (the same matrices, so the same pixels, with fewer layers to
                        // present and draw each frame). Built in a holder, bottom first, then moved.
                        let holder = CALayer()
                        try add(children, to: holder, trims: trims, styles: Array(later) + styles, rounding: rounding)
                        made += (holder.sublayers ?? []).reversed()
                        continue
                    }
                    let (group, inside) = try importer.transformLayer(transform, for: nil, timing: timing)
                    transform.opacity.apply(to: group, "opacity", timing: timing, convert: { Float($0 / 100) },
                                            set: { group.opacity = Float($0 / 100) })
                    try add(children, to: inside, trims: trims, styles: Array(later) + styles, rounding: rounding)
                    made.append(group)
                case .fill, .stroke, .gradientFill, .gradientStroke:
                    made += try styleLayers(item, paths: paths, trims: trims)
                case .trim, .roundCorners, .repeater, .transform, .mergePaths, .unsupported:
                    break
                }
            }
            for style in styles { made += try styleLayers(style, paths: paths, trims: trims) }
            return made.reversed()
        }
        let repeaters = items.compactMap { item -> ShapeItem? in if case .repeater = item { item } else { nil } }
        guard case let .repeater(copies, offset, transform, startOpacity, endOpacity, below)? = repeaters.last else {
            for layer in try build() { parent.addSublayer(layer) }
            return
        }
        let repeater = Repeater(copies: copies, offset: offset, transform: transform, startOpacity: startOpacity,
                                endOpacity: endOpacity)
        let values = repeater.sampled
        let count = values.values.map(Repeater.count).max() ?? 0
        for n in 0..<count {
            // Each copy is counted against the layer budget before it is built.
            try importer.count(owner.path)
            let k = below ? count - 1 - n : n
            let copy = CALayer()
            copy.anchorPoint = .zero
            copy.bounds = CGRect(x: 0, y: 0, width: importer.composition.width, height: importer.composition.height)
            values.map { Repeater.matrix($0, copy: k) }.apply(to: copy, "transform", timing: timing, convert: { CATransform3D($0) },
                                                                set: { copy.transform = CATransform3D($0) })
            values.map { Repeater.opacity($0, copy: k) }.apply(to: copy, "opacity", timing: timing, convert: { Float($0) },
                                                                 set: { copy.opacity = Float($0) })
            for layer in try build() { copy.addSublayer(layer) }
            parent.addSublayer(copy)
        }
    }

    /// The layers that paint `paths` with `style` (a fill, stroke or gradient).
    private func styleLayers(_ style: ShapeItem, paths: [KeyframedValue<BezierShape>], trims: [Trim]) throws(LottieError) -> [CALayer] {
        var made: [CALayer] = []
        switch style {
        case let .fill(color, opacity, evenOdd):
            for layer in try shapeLayers(paths, trims: []) {
                layer.fillRule = evenOdd ? .evenOdd : .nonZero
                color.apply(to: layer, "fillColor", timing: timing, convert: Self.cgColor, set: { layer.fillColor = Self.cgColor($0) })
                opacity.apply(to: layer, "opacity", timing: timing, convert: { Float($0 / 100) }, set: { layer.opacity = Float($0 / 100) })
                made.append(layer)
            }
        case let .stroke(color, opacity, style):
            for layer in try shapeLayers(paths, trims: trims, dashing: style) {
                layer.fillColor = nil
                stroke(layer, style, dashesInPath: style.animatesDashLengths)
                color.apply(to: layer, "strokeColor", timing: timing, convert: Self.cgColor,
                            set: { layer.strokeColor = Self.cgColor($0) })
                opacity.apply(to: layer, "opacity", timing: timing, convert: { Float($0 / 100) }, set: { layer.opacity = Float($0 / 100) })
                made.append(layer)
            }
        case let .gradientFill(gradient, opacity, evenOdd):
            if let rect = Self.fixedRectangle(paths) {
                made.append(try gradientLayer(gradient, opacity: opacity, over: paths, filling: rect))
                break
            }
            for mask in try shapeLayers(paths, trims: []) {
                mask.fillRule = evenOdd ? .evenOdd : .nonZero
                mask.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
                made.append(try gradientLayer(gradient, opacity: opacity, mask: mask, over: paths))
            }
        case let .gradientStroke(gradient, opacity, style):
            for mask in try shapeLayers(paths, trims: trims, dashing: style) {
                mask.fillColor = nil
                mask.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
                stroke(mask, style, dashesInPath: style.animatesDashLengths)
                made.append(try gradientLayer(gradient, opacity: opacity, mask: mask, over: paths, width: style.width.maximum))
            }
        default:
            break
        }
        return made
    }

    // MARK: - Paths

    /// Shape layers drawing `paths`: one when they can share a path (all static, or one path),
    /// else one per path; one per path, too, under a trim that trims each path on its own.
    /// `dashing`: a stroke whose dash lengths are keyframed, drawn as the path already trimmed
    /// (by the last trim) and cut into dashes at each frame (`dashedPath`).
    private func shapeLayers(_ paths: [KeyframedValue<BezierShape>], trims: [Trim],
                             dashing: StrokeStyle? = nil) throws(LottieError) -> [CAShapeLayer] {
        guard !paths.isEmpty else { return [] }
        let separate = paths.count > 1 && (paths.contains(where: \.isAnimated) || trims.contains { !$0.individually })
        let groups: [[KeyframedValue<BezierShape>]] = separate ? paths.map { [$0] } : [paths]
        var layers: [CAShapeLayer] = []
        for group in groups {
            try importer.count(owner.path)
            let layer = CAShapeLayer()
            layer.anchorPoint = .zero
            layer.bounds = CGRect(x: 0, y: 0, width: importer.composition.width, height: importer.composition.height)
            if let style = dashing, style.animatesDashLengths {
                dashedPath(group, style, trim: trims.last, on: layer)
                layers.append(layer)
                continue
            }
            if group.count == 1 {
                group[0].apply(to: layer, "path", timing: timing, convert: { $0.cgPath }, set: { layer.path = $0.cgPath })
            } else {
                let joined = CGMutablePath()
                for path in group { joined.addPath(path.initial.cgPath) }
                layer.path = joined
            }
            if let trim = trims.last, trim.offset.isAnimated || trim.offset.initial.remainder(dividingBy: 360) != 0 {
                // The part past the path's end is drawn from its start by a twin.
                let twin = CAShapeLayer()
                twin.anchorPoint = .zero
                twin.bounds = layer.bounds
                twin.path = layer.path
                for (key, animation) in (layer.animationKeys() ?? []).compactMap({ key in layer.animation(forKey: key).map { (key, $0) } }) {
                    twin.add(animation, forKey: key)
                }
                applyWrapping(trim, to: layer, twin)
                layers += [layer, twin]
            } else {
                for trim in trims { apply(trim, to: layer) }
                layers.append(layer)
            }
        }
        return layers
    }

    /// A trim with an offset: the trimmed part [start, end] (fractions, start and end in either
    /// order) moved by offset / 360 of the length, wrapping past the end to the start (Lottie's
    /// offset is "an angle" round a closed path): `layer` draws [a, min(b, 1)] with a in 0…1,
    /// `twin` the part past 1, [0, b − 1]. Sampled per frame when anything animates.
    private func applyWrapping(_ trim: Trim, to layer: CAShapeLayer, _ twin: CAShapeLayer) {
        let parts = [trim.start.map { [$0] }, trim.end.map { [$0] }, trim.offset.map { [$0] }]
        let ranges = KeyframedValue<[Double]>.sampled(parts) { v in Self.wrappedRanges(start: v[0][0], end: v[1][0], offset: v[2][0]) }
        for (n, (target, key)) in [(layer, "strokeStart"), (layer, "strokeEnd"), (twin, "strokeStart"), (twin, "strokeEnd")].enumerated() {
            ranges.map { $0[n] }.apply(to: target, key, timing: timing, convert: { CGFloat($0) }, set: {
                if key == "strokeStart" { target.strokeStart = CGFloat($0) } else { target.strokeEnd = CGFloat($0) }
            })
        }
    }

    /// A trim's start and end (percent, either order) moved by its offset (degrees, 360 a whole
    /// length) as two ranges of fractions: [a, min(b, 1)] with a in 0…1, then the part past
    /// the end drawn from the start, [0, max(b − 1, 0)].
    private static func wrappedRanges(start: Double, end: Double, offset: Double) -> [Double] {
        let (s, e) = (min(max(start, 0), 100) / 100, min(max(end, 0), 100) / 100)
        var (a, b) = (min(s, e) + offset / 360, max(s, e) + offset / 360)
        let turns = a.rounded(.down)
        (a, b) = (a - turns, b - turns)
        return [a, min(b, 1), 0, max(b - 1, 0)]
    }

    /// Start and end percentages → strokeStart and strokeEnd, clamped to 0…1 (without an offset).
    private func apply(_ trim: Trim, to layer: CAShapeLayer) {
        func fraction(_ percent: Double) -> CGFloat { CGFloat(min(max(percent / 100, 0), 1)) }
        trim.start.apply(to: layer, "strokeStart", timing: timing, convert: fraction, set: { layer.strokeStart = fraction($0) })
        trim.end.apply(to: layer, "strokeEnd", timing: timing, convert: fraction, set: { layer.strokeEnd = fraction($0) })
        if case .fixed = trim.start, case .fixed = trim.end, layer.strokeStart > layer.strokeEnd {
            (layer.strokeStart, layer.strokeEnd) = (layer.strokeEnd, layer.strokeStart)
        }
    }

    // MARK: - Styles

    /// `dashesInPath`: the path is cut into dashes already (`dashedPath`).
    private func stroke(_ layer: CAShapeLayer, _ style: StrokeStyle, dashesInPath: Bool) {
        style.width.apply(to: layer, "lineWidth", timing: timing, convert: { CGFloat($0) }, set: { layer.lineWidth = $0 })
        layer.lineCap = [1: .butt, 3: .square][style.cap] ?? .round
        layer.lineJoin = [1: .miter, 3: .bevel][style.join] ?? .round
        layer.miterLimit = style.miterLimit
        let lengths = style.dashes.map(\.initial)
        if !dashesInPath, lengths.contains(where: { $0 > 0 }) {
            layer.lineDashPattern = lengths.map { NSNumber(value: $0) }
            style.dashOffset.apply(to: layer, "lineDashPhase", timing: timing, convert: { CGFloat($0) }, set: { layer.lineDashPhase = $0 })
        }
    }

    /// `paths` (joined, trimmed by `trim`) cut into the dashes of `style` at each frame from the
    /// first keyframe of the paths, lengths, offset and trim to the last (at most `LottieLimits.samples` frames, spread
    /// evenly past that; the outer frames inside a time-remapped precomp), as `layer`'s `path`,
    /// each sample held until the next (`calculationMode` `.discrete`: the dashes' number
    /// changes with their lengths, so paths in between do not interpolate). Each sample is
    /// `copy(dashingWithPhase:lengths:)` of the path with the lengths and offset there (lengths
    /// below 0 as 0; all 0: the path undashed, as a static pattern of zeros is). lottie-web sets
    /// its SVG `stroke-dasharray` to the lengths at each frame, which this matches at whole frames.
    /// Under a trim the dashes start where the trimmed path starts, as lottie-web's trim (a
    /// modifier that rewrites the path data before SVG dashes it) and the renderer's
    /// `strokeStart`/`strokeEnd` (trimmed, then dashed) do; the part a trim's offset wraps past
    /// the end is dashed from its own start, as the twin layer of `applyWrapping` would be.
    private func dashedPath(_ paths: [KeyframedValue<BezierShape>], _ style: StrokeStyle, trim: Trim?,
                            on layer: CAShapeLayer) {
        func dashed(at frame: Double) -> CGPath {
            let joined = CGMutablePath()
            for path in paths { joined.addPath(path.value(at: frame).cgPath) }
            var pieces: [CGPath] = [joined]
            if let trim {
                let r = Self.wrappedRanges(start: trim.start.value(at: frame), end: trim.end.value(at: frame),
                                           offset: trim.offset.value(at: frame))
                pieces = stride(from: 0, to: r.count, by: 2).filter { r[$0 + 1] > r[$0] }
                    .map { joined.trimmed(from: CGFloat(r[$0]), to: CGFloat(r[$0 + 1])) }
            }
            let lengths = style.dashes.map { CGFloat(max($0.value(at: frame), 0)) }
            let phase = CGFloat(style.dashOffset.value(at: frame))
            let result = CGMutablePath()
            for piece in pieces {
                result.addPath(lengths.contains(where: { $0 > 0 }) ? piece.copy(dashingWithPhase: phase, lengths: lengths) : piece)
            }
            return result
        }
        let trimTimes = trim.map { $0.start.keyTimes + $0.end.keyTimes + $0.offset.keyTimes } ?? []
        let times = (paths.flatMap(\.keyTimes) + style.dashes.flatMap(\.keyTimes) + style.dashOffset.keyTimes + trimTimes)
        let frames: [Double]
        if let samples = timing.samples {
            frames = samples
        } else if let first = times.min(), let last = times.max(), last > first {
            let count = Int(min((last - first).rounded(.up), Double(LottieLimits.samples)))
            frames = (0...count).map { first + (last - first) * Double($0) / Double(count) }
        } else {
            frames = []
        }
        layer.path = dashed(at: timing.local(frames.first ?? 0))
        if let animation = KeyframedValue<Double>.sampled("path", frames, fps: timing.fps, discrete: true, { dashed(at: timing.local($0)) }) {
            layer.add(animation, forKey: "path")
        }
    }

    /// Colour components 0–1 (a fourth, alpha, is ignored: Bodymovin's opacity is `o`).
    static func cgColor(_ c: [Double]) -> CGColor {
        CGColor(red: c[0], green: c[1], blue: c[2], alpha: 1)
    }

    /// A CAGradientLayer over the box of `paths` (every keyframe's), masked by `mask`; without a
    /// mask, over `rect` exactly (`fixedRectangle`: the layer's bounds are the filled shape). The
    /// gradient's points are in the shape's coordinates; CAGradientLayer's are in its unit square.
    /// A radial gradient is a circle about `start` through `end`. Animated points and stops
    /// animate `startPoint`, `endPoint`, `colors` and `locations` (stops keyframed with different
    /// numbers of offsets do not interpolate: each holds until the next).
    private func gradientLayer(_ style: GradientStyle, opacity: KeyframedValue<Double>, mask: CAShapeLayer? = nil,
                               over paths: [KeyframedValue<BezierShape>], width: Double = 0,
                               filling rect: CGRect? = nil) throws(LottieError) -> CALayer {
        try importer.count(owner.path)
        let layer = CAGradientLayer()
        var box = CGRect.null
        if let rect {
            box = rect
        } else {
            for shape in paths.flatMap(\.values) { box = box.union(shape.cgPath.boundingBox) }
            box = box.insetBy(dx: -width / 2 - 1, dy: -width / 2 - 1)
        }
        guard !box.isNull, box.width > 0, box.height > 0 else { return layer }
        layer.anchorPoint = .zero
        layer.position = box.origin
        layer.bounds = box
        layer.type = style.radial ? .radial : .axial
        let unit = { (p: CGPoint) in CGPoint(x: (p.x - box.minX) / box.width, y: (p.y - box.minY) / box.height) }
        style.start.apply(to: layer, "startPoint", timing: timing, convert: unit, set: { layer.startPoint = unit($0) })
        // Linear: to the end point. Radial: a circle through the end point, so the unit square's
        // end point is the start moved by the radius on both axes.
        let end = style.radial
            ? KeyframedValue.combine(style.start, style.end, KeyframedValue<Double>.fixed(0)) { s, e, _ in
                let r = hypot(e.x - s.x, e.y - s.y)
                return CGPoint(x: s.x + r, y: s.y + r)
            }
            : style.end
        end.apply(to: layer, "endPoint", timing: timing, convert: unit, set: { layer.endPoint = unit($0) })
        style.stops.apply(to: layer, "colors", timing: timing, convert: { Self.merged($0).map(\.color) },
                          set: { layer.colors = Self.merged($0).map(\.color) })
        style.stops.apply(to: layer, "locations", timing: timing, convert: { Self.merged($0).map { NSNumber(value: $0.offset) } },
                          set: { layer.locations = Self.merged($0).map { NSNumber(value: $0.offset) } })
        opacity.apply(to: layer, "opacity", timing: timing, convert: { Float($0 / 100) }, set: { layer.opacity = Float($0 / 100) })
        layer.mask = mask
        return layer
    }

    /// The rectangle `paths` fill when they are one path, not animated, that is a rectangle:
    /// closed, without curves or further contours, every vertex a corner of its bounding box,
    /// every segment along an edge of it, enclosing the box's area once (so every point inside
    /// has winding ±1 under either fill rule) — a rectangle item without roundness, or one drawn
    /// as a path. A gradient filling it needs no mask layer: the gradient layer's bounds are the
    /// shape (one antialiased edge, not the mask's coverage times the layer's). nil otherwise.
    static func fixedRectangle(_ paths: [KeyframedValue<BezierShape>]) -> CGRect? {
        guard paths.count == 1, case let .fixed(shape) = paths[0], shape.closed, shape.otherContours.isEmpty,
              shape.vertices.count >= 4, shape.inTangents.allSatisfy({ $0 == .zero }),
              shape.outTangents.allSatisfy({ $0 == .zero }) else { return nil }
        let v = shape.vertices
        let xs = v.map(\.x), ys = v.map(\.y)
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max(), x1 > x0, y1 > y0 else { return nil }
        var twiceArea: CGFloat = 0
        for (i, a) in v.enumerated() {
            let b = v[(i + 1) % v.count]
            guard a.x == x0 || a.x == x1, a.y == y0 || a.y == y1, a.x == b.x || a.y == b.y else { return nil }
            twiceArea += a.x * b.y - b.x * a.y
        }
        let rect = CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        return abs(twiceArea) == 2 * rect.width * rect.height ? rect : nil
    }

    /// Colour stops and opacity stops on one list of offsets: each colour at each offset,
    /// interpolated linearly between its neighbours (lottie-web merges them the same way).
    static func merged(_ stops: GradientStops) -> [(offset: Double, color: CGColor)] {
        let offsets = Array(Set(stops.colors.map(\.offset) + stops.alphas.map(\.offset))).sorted()
        func interpolate<T>(_ list: [(offset: Double, value: T)], at x: Double, _ mix: (T, T, Double) -> T) -> T? {
            guard let first = list.first, let last = list.last else { return nil }
            if x <= first.offset { return first.value }
            if x >= last.offset { return last.value }
            let j = list.firstIndex { $0.offset >= x }!
            let (a, b) = (list[j - 1], list[j])
            return mix(a.value, b.value, b.offset > a.offset ? (x - a.offset) / (b.offset - a.offset) : 0)
        }
        let colors = stops.colors.sorted { $0.offset < $1.offset }.map { (offset: $0.offset, value: $0.rgb) }
        let alphas = stops.alphas.sorted { $0.offset < $1.offset }.map { (offset: $0.offset, value: $0.alpha) }
        return offsets.map { x in
            let rgb = interpolate(colors, at: x) { $0 + ($1 - $0) * $2 } ?? SIMD3(0, 0, 0)
            let alpha = interpolate(alphas, at: x) { $0 + ($1 - $0) * $2 } ?? 1
            return (x, CGColor(red: rgb.x, green: rgb.y, blue: rgb.z, alpha: alpha))
        }
    }
}

extension KeyframedValue where Value == Double {
    /// The largest value at any keyframe (a stroke's widest width).
    var maximum: Double { values.max() ?? 0 }
}

extension ShapeItem {
    /// A fill, stroke or gradient.
    var isStyle: Bool {
        switch self {
        case .fill, .stroke, .gradientFill, .gradientStroke: true
        default: false
        }
    }
}
