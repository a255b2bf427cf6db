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
// Modes 2–5 merge the shapes of the first frame: the result is a static polygon (curves flattened
// to 1/100 of a unit). An animated path or group transform before such a merge is noted
// ("animated merge paths") when the file is read. Mode 1 keeps animated paths animated (group
// transforms at their first value).
//
// Bounded work: each operation is bounded by CGPath's limits, and one import runs at most
// `LottieLimits.mergeOperations` of them (past it, a clear error naming the layer); a merge with a
// single source needs none (add and exclude keep it, subtract and intersect leave nothing).

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
            var sources: [[KeyframedValue<BezierShape>]] = []
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

    /// The paths an item gives a merge, in its group's coordinates; nil for items that are not paths.
    private func pathSources(_ item: ShapeItem) throws(LottieError) -> [KeyframedValue<BezierShape>]? {
        switch item {
        case let .path(shape):
            return [shape]
        case let .group(children, transform, _):
            let t = CATransform3DGetAffineTransform(Self.groupMatrix(transform))
            var shapes: [KeyframedValue<BezierShape>] = []
            for child in try resolvingMerges(children) { shapes += try pathSources(child) ?? [] }
            return shapes.map { $0.map { $0.applying(t) } }
        default:
            return nil
        }
    }

    /// The merged paths of `sources` (in item order) under Lottie merge `mode`.
    private func merged(_ mode: Int, _ sources: [[KeyframedValue<BezierShape>]]) throws(LottieError) -> [KeyframedValue<BezierShape>] {
        guard (2...5).contains(mode), let first = sources.last else { return sources.flatMap { $0 } }
        if sources.count == 1 { return mode == 2 || mode == 5 ? first : [] }
        importer.mergeOperations += 1
        guard importer.mergeOperations <= LottieLimits.mergeOperations else {
            throw LottieError(owner.path, "more than \(LottieLimits.mergeOperations) merge path operations")
        }
        func joined(_ shapes: [KeyframedValue<BezierShape>]) -> CGPath {
            let path = CGMutablePath()
            for shape in shapes { path.addPath(shape.initial.cgPath) }
            return path
        }
        let last = joined(first), rest = joined(sources.dropLast().flatMap { $0 })
        let result: CGPath
        switch mode {
        case 2: result = rest.union(last)
        case 3: result = rest.subtracting(last)
        case 4: result = rest.intersection(last)
        default: result = rest.symmetricDifference(last)
        }
        return BezierShape.polygons(of: result).map { .fixed($0) }
    }

    /// A group transform's matrix at its first values: position · rotation · skew · scale about
    /// the anchor (Bodymovin's order, as `LayerImporter.transformLayer` builds it in layers).
    static func groupMatrix(_ t: LottieTransform) -> CATransform3D {
        let a = t.anchor.initial, s = t.scale.initial, r = t.rotation.initial
        let p: CGPoint
        switch t.position {
        case let .combined(value): p = value.initial
        case let .split(x, y): p = CGPoint(x: x.initial, y: y.initial)
        }
        var m = CATransform3DMakeTranslation(-a.x, -a.y, 0)
        m = CATransform3DConcat(m, CATransform3DMakeScale(s.x / 100, s.y / 100, 1))
        if t.skew.initial != 0 { m = CATransform3DConcat(m, LayerImporter.skewMatrix(t.skew.initial, axis: t.skewAxis.initial)) }
        m = CATransform3DConcat(m, CATransform3DMakeRotation(r * .pi / 180, 0, 0, 1))
        return CATransform3DConcat(m, CATransform3DMakeTranslation(p.x, p.y, 0))
    }
}

extension ShapeItem {
    var isMerge: Bool { if case .mergePaths = self { true } else { false } }
    var isPath: Bool { if case .path = self { true } else { false } }
    var isGroup: Bool { if case .group = self { true } else { false } }

    /// True when a merge after this item would change with time, which it does not follow: an
    /// animated path (for modes 2–5), or a group with an animated transform or path.
    var animatesAMerge: Bool {
        switch self {
        case let .path(shape): shape.isAnimated
        case let .group(children, t, _):
            t.anchor.isAnimated || t.scale.isAnimated || t.rotation.isAnimated || t.position.isAnimated
                || t.skew.isAnimated || t.skewAxis.isAnimated
                || children.contains(where: \.animatesAMerge)
        default: false
        }
    }
}

extension LottieTransform.Position {
    var isAnimated: Bool {
        switch self {
        case let .combined(p): p.isAnimated
        case let .split(x, y): x.isAnimated || y.isAnimated
        }
    }
}

extension BezierShape {
    /// `t` applied to the vertices, and its linear part to the tangents.
    func applying(_ t: CGAffineTransform) -> BezierShape {
        let linear = CGAffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: 0, ty: 0)
        return BezierShape(vertices: vertices.map { $0.applying(t) }, inTangents: inTangents.map { $0.applying(linear) },
                           outTangents: outTangents.map { $0.applying(linear) }, closed: closed)
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
