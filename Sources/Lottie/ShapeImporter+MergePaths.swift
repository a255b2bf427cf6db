import QuartzCore

// Merge paths (`mm`): the paths before a merge in its group become one path, through
// CGPath's boolean operations (`CGPath+Boolean.swift`).
//
// Semantics follow lottie-android's MergePathsContent (the Lottie player that implements merge
// paths; lottie-web does not): a merge takes every path-like item before it in its group — paths,
// groups (their paths under the group's transform, merges inside them resolved) and the result
// of an earlier merge — and replaces them; the groups it takes are not drawn on their own, and
// the styles after it paint the merged path. Modes (`mm`): 1 merge — the paths kept as they are,
// filled together; 2 add — union; 3 subtract — the earlier paths minus the last one (Android's
// `REVERSE_DIFFERENCE` of the last with the rest); 4 intersect; 5 exclude intersections —
// symmetric difference; each of 2–5 combines the last path before the merge with the others
// together (non-zero fill, as Android's paths). Other mode values act as 1.
//
// Modes 2–5 give polygons (curves flattened to 1/100 of a unit). When a path or a group
// transform before the merge is animated, the merge is run at every frame from the first
// keyframe of its sources to the last, and its result there — all its polygons as one path
// (`BezierShape.otherContours`), so that holes stay holes — is a hold keyframe: the path
// animation is discrete (the polygons' vertices change in number from frame to frame, so there
// is nothing to interpolate), exact at whole frames, which is where lottie-android and Lottie
// files' authoring tool evaluate it. Mode 1 merges nothing: its paths stay keyframed (sampled per
// frame under an animated group transform).
//
// Bounded work: each operation is bounded by CGPath's limits, and one import runs at most
// `LottieLimits.mergeOperations` of them, a sampled merge one per frame (past the limit, a clear
// error naming the layer; a sampled merge takes fewer frames, spread evenly, when that is what
// is left); a merge with a single source needs none (add and exclude keep it, subtract and
// intersect leave nothing).

extension ShapeImporter {
    /// `items` with every merge replaced by its result (paths) and the items it takes removed.
    func resolvingMerges(_ items: [ShapeItem]) throws(LottieError) -> [ShapeItem] {
        guard items.contains(where: \.isMerge) else { return items }
        // Each item with the number of the source it belongs to (a merge's paths are one source).
        var out: [(item: ShapeItem, source: Int)] = []
        for (n, item) in items.enumerated() {
            guard case let .mergePaths(mode) = item else {
                out.append((item, n))
                continue
            }
            var sources: [[MergeSource]] = []
            var last: Int?
            for (entry, source) in out {
                guard let shapes = try pathSources(entry) else { continue }
                if source == last { sources[sources.count - 1] += shapes } else { sources.append(shapes) }
                last = source
            }
            out.removeAll { $0.item.isPath || $0.item.isGroup }
            out += try merged(mode, sources).map { (.path($0), n) }
        }
        return out.map(\.item)
    }

    /// A path a merge takes: its keyframes, its shape at any frame (under the group transforms
    /// above it there), and the frames its keyframes and those of the transforms are at.
    private struct MergeSource {
        var shape: KeyframedValue<BezierShape>
        var at: (Double) -> BezierShape
        var keyTimes: [Double]
        /// Whether a group transform above it is animated.
        var moves: Bool

        /// The path as keyframes: `shape`, or, under an animated group transform, sampled at
        /// every frame from the first keyframe to the last (at most `LottieLimits.samples`; the
        /// vertices keep their number, so the samples interpolate).
        var value: KeyframedValue<BezierShape> {
            guard moves, let first = keyTimes.min(), let last = keyTimes.max(), last > first else { return shape }
            let count = Int(min((last - first).rounded(.up), Double(LottieLimits.samples)))
            return .keyframed((0...count).map { n in
                let frame = first + (last - first) * Double(n) / Double(count)
                return Keyframe(time: frame, value: at(frame), hold: false)
            })
        }
    }

    /// The paths an item gives a merge, in its group's coordinates; nil for items that are not paths.
    private func pathSources(_ item: ShapeItem) throws(LottieError) -> [MergeSource]? {
        switch item {
        case let .path(shape):
            return [MergeSource(shape: shape, at: { shape.value(at: $0) }, keyTimes: shape.keyTimes, moves: false)]
        case let .group(children, transform, _):
            let t = CATransform3DGetAffineTransform(Self.groupMatrix(transform))
            var sources: [MergeSource] = []
            for child in try resolvingMerges(children) { sources += try pathSources(child) ?? [] }
            return sources.map { source in
                MergeSource(shape: source.shape.map { $0.applying(t) },
                            at: { frame in source.at(frame).applying(CATransform3DGetAffineTransform(Self.groupMatrix(transform, at: frame))) },
                            keyTimes: source.keyTimes + transform.keyTimes, moves: source.moves || !transform.keyTimes.isEmpty)
            }
        default:
            return nil
        }
    }

    /// The merged paths of `sources` (in item order) under Lottie merge `mode`.
    private func merged(_ mode: Int, _ sources: [[MergeSource]]) throws(LottieError) -> [KeyframedValue<BezierShape>] {
        guard (2...5).contains(mode), let first = sources.last else { return sources.flatMap { $0.map(\.value) } }
        if sources.count == 1 { return mode == 2 || mode == 5 ? first.map(\.value) : [] }
        func combined(at frame: Double?) -> CGPath {
            func joined(_ shapes: [MergeSource]) -> CGPath {
                let path = CGMutablePath()
                for shape in shapes { path.addPath((frame.map(shape.at) ?? shape.shape.initial).cgPath) }
                return path
            }
            let last = joined(first), rest = joined(sources.dropLast().flatMap { $0 })
            switch mode {
            case 2: return rest.union(last)
            case 3: return rest.subtracting(last)
            case 4: return rest.intersection(last)
            default: return rest.symmetricDifference(last)
            }
        }
        let times = sources.flatMap { $0.flatMap(\.keyTimes) }
        guard let start = times.min(), let end = times.max(), end > start else {
            try countMergeOperations(1)
            return BezierShape.polygons(of: combined(at: nil)).map { .fixed($0) }
        }
        let left = LottieLimits.mergeOperations - importer.mergeOperations
        let count = Int(min((end - start).rounded(.up), Double(LottieLimits.samples), Double(max(left - 1, 1))))
        let frames = (0...count).map { start + (end - start) * Double($0) / Double(count) }
        try countMergeOperations(frames.count)
        return [.keyframed(frames.map { frame in
            let polygons = BezierShape.polygons(of: combined(at: frame))
            var shape = polygons.first ?? BezierShape(vertices: [], inTangents: [], outTangents: [], closed: true)
            shape.otherContours = Array(polygons.dropFirst())
            return Keyframe(time: frame, value: shape, hold: true)
        })]
    }

    /// Counts `n` more boolean operations against `LottieLimits.mergeOperations`.
    private func countMergeOperations(_ n: Int) throws(LottieError) {
        importer.mergeOperations += n
        guard importer.mergeOperations <= LottieLimits.mergeOperations else {
            throw LottieError(owner.path, "more than \(LottieLimits.mergeOperations) merge path operations")
        }
    }

    /// A group transform's matrix at `frame` (nil: its first values): position · rotation · skew
    /// · scale about the anchor (Bodymovin's order, as `LayerImporter.transformLayer` builds it
    /// in layers).
    static func groupMatrix(_ t: LottieTransform, at frame: Double? = nil) -> CATransform3D {
        func at<V: Interpolatable>(_ v: KeyframedValue<V>) -> V { frame.map { v.value(at: $0) } ?? v.initial }
        let a = at(t.anchor), s = at(t.scale), r = at(t.rotation), skew = at(t.skew)
        let p: CGPoint
        switch t.position {
        case let .combined(value): p = at(value)
        case let .split(x, y): p = CGPoint(x: at(x), y: at(y))
        }
        var m = CATransform3DMakeTranslation(-a.x, -a.y, 0)
        m = CATransform3DConcat(m, CATransform3DMakeScale(s.x / 100, s.y / 100, 1))
        if skew != 0 { m = CATransform3DConcat(m, LayerImporter.skewMatrix(skew, axis: at(t.skewAxis))) }
        m = CATransform3DConcat(m, CATransform3DMakeRotation(r * .pi / 180, 0, 0, 1))
        return CATransform3DConcat(m, CATransform3DMakeTranslation(p.x, p.y, 0))
    }
}

extension ShapeItem {
    var isMerge: Bool { if case .mergePaths = self { true } else { false } }
    var isPath: Bool { if case .path = self { true } else { false } }
    var isGroup: Bool { if case .group = self { true } else { false } }
}

extension LottieTransform {
    /// The frames of every keyframe of the transform's values (opacity aside).
    var keyTimes: [Double] {
        let p: [Double]
        switch position {
        case let .combined(v): p = v.keyTimes
        case let .split(x, y): p = x.keyTimes + y.keyTimes
        }
        return anchor.keyTimes + p + scale.keyTimes + rotation.keyTimes + skew.keyTimes + skewAxis.keyTimes
    }
}

extension BezierShape {
    /// `t` applied to the vertices, and its linear part to the tangents.
    func applying(_ t: CGAffineTransform) -> BezierShape {
        let linear = CGAffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: 0, ty: 0)
        return BezierShape(vertices: vertices.map { $0.applying(t) }, inTangents: inTangents.map { $0.applying(linear) },
                           outTangents: outTangents.map { $0.applying(linear) }, closed: closed,
                           otherContours: otherContours.map { $0.applying(t) })
    }

    /// The subpaths of a path of straight lines (a boolean operation's result) as closed shapes.
    static func polygons(of path: CGPath) -> [BezierShape] {
        var result: [BezierShape] = [], vertices: [CGPoint] = []
        func finish() {
            if vertices.count > 2 {
                let zero = Array(repeating: CGPoint.zero, count: vertices.count)
                result.append(BezierShape(vertices: vertices, inTangents: zero, outTangents: zero, closed: true))
            }
            vertices = []
        }
        for (type, points) in path.storage {
            switch type {
            case .moveToPoint: finish(); vertices = [points[0]]
            case .closeSubpath: finish()
            default: if let p = points.last { vertices.append(p) }
            }
        }
        finish()
        return result
    }
}
