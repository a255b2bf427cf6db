import CoreGraphics

// Rectangles and ellipses as Bézier paths, with the start point and direction lottie-web draws
// them with (they matter to trim paths): a rectangle starts at its top-right corner, an ellipse
// at its top, both going clockwise on screen (y down); `d: 3` reverses the direction. Every
// rectangle has the same vertex count whatever its corner radius, so that keyframes of a
// rectangle whose radius animates from 0 interpolate vertex by vertex.

extension BezierShape {
    /// The handle length of a quarter-circle cubic, (4/3)(√2 − 1) of the radius.
    static let kappa = 4.0 / 3.0 * (2.0.squareRoot() - 1)

    /// A rectangle centred at `center`; `radius` is clamped to half the shorter side. `sharp`:
    /// the four corners only (a rectangle whose radius is 0 and not animated), so that rounded
    /// corners (`rd`) find them.
    static func rectangle(center: CGPoint, size: CGPoint, radius: Double, reversed: Bool, sharp: Bool = false) -> BezierShape {
        let w = abs(size.x) / 2, h = abs(size.y) / 2
        if sharp {
            let corners = [CGPoint(x: center.x + w, y: center.y - h), CGPoint(x: center.x + w, y: center.y + h),
                           CGPoint(x: center.x - w, y: center.y + h), CGPoint(x: center.x - w, y: center.y - h)]
            let shape = BezierShape(vertices: corners, inTangents: Array(repeating: .zero, count: 4),
                                    outTangents: Array(repeating: .zero, count: 4), closed: true)
            return reversed ? shape.reversed() : shape
        }
        let r = max(0, min(radius, w, h)), k = r * kappa
        let (l, t, rt, b) = (center.x - w, center.y - h, center.x + w, center.y + h)
        // Clockwise from the top-right corner: each corner is two vertices joined by its arc.
        var v: [CGPoint] = [], i: [CGPoint] = [], o: [CGPoint] = []
        func add(_ p: CGPoint, into inTangent: CGPoint, out outTangent: CGPoint) {
            v.append(p); i.append(inTangent); o.append(outTangent)
        }
        add(CGPoint(x: rt, y: t + r), into: CGPoint(x: 0, y: -k), out: .zero)
        add(CGPoint(x: rt, y: b - r), into: .zero, out: CGPoint(x: 0, y: k))
        add(CGPoint(x: rt - r, y: b), into: CGPoint(x: k, y: 0), out: .zero)
        add(CGPoint(x: l + r, y: b), into: .zero, out: CGPoint(x: -k, y: 0))
        add(CGPoint(x: l, y: b - r), into: CGPoint(x: 0, y: k), out: .zero)
        add(CGPoint(x: l, y: t + r), into: .zero, out: CGPoint(x: 0, y: -k))
        add(CGPoint(x: l + r, y: t), into: CGPoint(x: -k, y: 0), out: .zero)
        add(CGPoint(x: rt - r, y: t), into: .zero, out: CGPoint(x: k, y: 0))
        let shape = BezierShape(vertices: v, inTangents: i, outTangents: o, closed: true)
        return reversed ? shape.reversed() : shape
    }

    /// An ellipse centred at `center` with diameters `size`.
    static func ellipse(center: CGPoint, size: CGPoint, reversed: Bool) -> BezierShape {
        let rx = abs(size.x) / 2, ry = abs(size.y) / 2, kx = rx * kappa, ky = ry * kappa
        let shape = BezierShape(
            vertices: [CGPoint(x: center.x, y: center.y - ry), CGPoint(x: center.x + rx, y: center.y),
                       CGPoint(x: center.x, y: center.y + ry), CGPoint(x: center.x - rx, y: center.y)],
            inTangents: [CGPoint(x: -kx, y: 0), CGPoint(x: 0, y: -ky), CGPoint(x: kx, y: 0), CGPoint(x: 0, y: ky)],
            outTangents: [CGPoint(x: kx, y: 0), CGPoint(x: 0, y: ky), CGPoint(x: -kx, y: 0), CGPoint(x: 0, y: -ky)],
            closed: true)
        return reversed ? shape.reversed() : shape
    }

    /// Rounded corners (`rd`): each sharp vertex (no tangents; not the ends of an open path) is
    /// cut back along both edges by `radius`, at most half of each edge, and the two new vertices
    /// joined by a cubic whose handles reach halfway to the old corner (ThorVG's construction,
    /// which scripts/lottie-compare checks these frames against).
    func roundingCorners(_ radius: Double) -> BezierShape {
        // Radius 0 still splits each corner (in two coincident vertices), so that an animated
        // radius keeps the vertex count its keyframes interpolate over.
        guard vertices.count > 2 else { return self }
        var out = BezierShape(vertices: [], inTangents: [], outTangents: [], closed: closed,
                              otherContours: otherContours.map { $0.roundingCorners(radius) })
        let n = vertices.count
        for k in 0..<n {
            let v = vertices[k]
            let isEnd = !closed && (k == 0 || k == n - 1)
            guard !isEnd, inTangents[k] == .zero, outTangents[k] == .zero else {
                out.vertices.append(v); out.inTangents.append(inTangents[k]); out.outTangents.append(outTangents[k])
                continue
            }
            let prev = vertices[(k + n - 1) % n], next = vertices[(k + 1) % n]
            func cut(toward p: CGPoint) -> CGPoint {
                let length = hypot(p.x - v.x, p.y - v.y)
                guard length > 0 else { return .zero }
                let d = min(max(radius, 0), length / 2) / length
                return CGPoint(x: (p.x - v.x) * d, y: (p.y - v.y) * d)
            }
            let a = cut(toward: prev), b = cut(toward: next)
            out.vertices.append(CGPoint(x: v.x + a.x, y: v.y + a.y))
            out.inTangents.append(.zero)
            out.outTangents.append(CGPoint(x: -a.x / 2, y: -a.y / 2))
            out.vertices.append(CGPoint(x: v.x + b.x, y: v.y + b.y))
            out.inTangents.append(CGPoint(x: -b.x / 2, y: -b.y / 2))
            out.outTangents.append(.zero)
        }
        return out
    }

    /// The same path drawn the other way from the same first vertex.
    func reversed() -> BezierShape {
        guard vertices.count > 1 else { return self }
        let order = [0] + Array((1..<vertices.count).reversed())
        return BezierShape(vertices: order.map { vertices[$0] }, inTangents: order.map { outTangents[$0] },
                           outTangents: order.map { inTangents[$0] }, closed: closed, otherContours: otherContours.map { $0.reversed() })
    }

    /// The path in Core Graphics: a cubic per edge, closed when `closed`; then the other contours.
    var cgPath: CGPath {
        let path = CGMutablePath()
        if let first = vertices.first {
            path.move(to: first)
            func edge(_ a: Int, _ b: Int) {
                path.addCurve(to: vertices[b], control1: vertices[a] + outTangents[a], control2: vertices[b] + inTangents[b])
            }
            for j in vertices.indices.dropFirst() { edge(j - 1, j) }
            if closed, vertices.count > 1 {
                edge(vertices.count - 1, 0)
                path.closeSubpath()
            }
        }
        for contour in otherContours { path.addPath(contour.cgPath) }
        return path
    }
}

private func + (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x + b.x, y: a.y + b.y) }

extension KeyframedValue {
    /// One property made of three (a rectangle of its centre, size and radius) by `f`: with one
    /// of them animated, at its keyframes with their easing (a rectangle's and an ellipse's
    /// vertices are linear in each, so vertex-by-vertex interpolation is exact); with more,
    /// sampled at every frame from the first keyframe to the last (at most `LottieLimits.samples`).
    static func combine<A: Interpolatable, B: Interpolatable, C: Interpolatable>(
        _ a: KeyframedValue<A>, _ b: KeyframedValue<B>, _ c: KeyframedValue<C>, _ f: @escaping (A, B, C) -> Value
    ) -> KeyframedValue<Value> {
        switch (a.isAnimated, b.isAnimated, c.isAnimated) {
        case (false, false, false): return .fixed(f(a.initial, b.initial, c.initial))
        case (true, false, false): return a.map { f($0, b.initial, c.initial) }
        case (false, true, false): return b.map { f(a.initial, $0, c.initial) }
        case (false, false, true): return c.map { f(a.initial, b.initial, $0) }
        default:
            let times = a.keyTimes + b.keyTimes + c.keyTimes
            let (first, last) = (times.min()!, times.max()!)
            guard last > first else { return .fixed(f(a.initial, b.initial, c.initial)) }
            let count = Int(min((last - first).rounded(.up), Double(LottieLimits.samples)))
            return .keyframed((0...count).map { n in
                let t = first + (last - first) * Double(n) / Double(count)
                return Keyframe(time: t, value: f(a.value(at: t), b.value(at: t), c.value(at: t)), hold: false)
            })
        }
    }

    /// The keyframes' times (none when fixed).
    var keyTimes: [Double] {
        if case let .keyframed(k) = self { return k.map(\.time) } else { return [] }
    }
}

extension BezierShape {
    /// A star (`sy` 1: `points` outer and as many inner vertices, alternating) or a regular
    /// polygon (`sy` 2: `points` outer vertices) centred at `center`: the first outer vertex
    /// straight up from the centre turned by `rotation` degrees clockwise, the next ones
    /// clockwise. Roundness (percent) gives each vertex tangents perpendicular to its radius, of
    /// length radius × roundness × 0.25 on a polygon and radius × roundness × 1.70818 / points
    /// on a star: empirical constants (After Effects does not publish its polystar), those of
    /// lottie-android (0.25) and ThorVG (0.47829 / 0.28 / points), whose frames these match
    /// (scripts/lottie-compare on Tests/LottieTests/Files/stars.json). `points` is taken whole,
    /// at least 1 and at most 10 000.
    static func polystar(center: CGPoint, points: Double, rotation: Double, outerRadius: Double, outerRoundness: Double,
                         innerRadius: Double?, innerRoundness: Double, reversed: Bool) -> BezierShape {
        let n = Int(min(max(points.rounded(.down), 1), 10_000))
        let star = innerRadius != nil
        let count = star ? 2 * n : n
        let step = 2 * Double.pi / Double(count)
        var v: [CGPoint] = [], i: [CGPoint] = [], o: [CGPoint] = []
        for k in 0..<count {
            let outer = !star || k % 2 == 0
            let radius = outer ? outerRadius : innerRadius!
            let roundness = (outer ? outerRoundness : innerRoundness) / 100
            let angle = -Double.pi / 2 + rotation * .pi / 180 + Double(k) * step
            let (c, s) = (cos(angle), sin(angle))
            v.append(CGPoint(x: center.x + radius * c, y: center.y + radius * s))
            // Along the clockwise tangent (−sin, cos).
            let length = radius * roundness * (star ? 0.47829 / 0.28 / Double(n) : 0.25)
            let t = CGPoint(x: -s * length, y: c * length)
            o.append(t)
            i.append(CGPoint(x: -t.x, y: -t.y))
        }
        let shape = BezierShape(vertices: v, inTangents: i, outTangents: o, closed: true)
        return reversed ? shape.reversed() : shape
    }
}

extension KeyframedValue where Value == [Double] {
    /// A value made from several properties by `f` where `f` is not linear in them (a polystar
    /// of its rotation, roundness, radii): fixed when none is animated, else sampled at every
    /// frame from the first keyframe to the last (at most `LottieLimits.samples`), each from the
    /// properties' values there, so that interpolating between samples follows `f`.
    static func sampled<T: Sendable>(_ parts: [KeyframedValue<[Double]>], _ f: ([[Double]]) -> T) -> KeyframedValue<T> {
        let times = parts.flatMap(\.keyTimes)
        guard let first = times.min(), let last = times.max(), last > first else { return .fixed(f(parts.map(\.initial))) }
        let count = Int(min((last - first).rounded(.up), Double(LottieLimits.samples)))
        return .keyframed((0...count).map { n in
            let t = first + (last - first) * Double(n) / Double(count)
            return Keyframe(time: t, value: f(parts.map { $0.value(at: t) }), hold: false)
        })
    }
}
