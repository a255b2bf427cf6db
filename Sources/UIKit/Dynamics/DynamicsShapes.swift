import QuartzCore

/// The polygons that stand for items and boundaries in the solver.
enum DynamicsShapes {
    /// Sides of the polygon that stands for an ellipse.
    static let ellipseSides = 32
    /// Segments per curve when a path is sampled.
    static let curveSegments = 16

    /// `item`'s collision polygon about its centre (unrotated frame). Sizes below 1 point (or
    /// not finite) count as 1 point, so every item has an area and a mass.
    static func polygon(of item: any UIDynamicItem) -> [Vec2] {
        let size = item.bounds.size
        let w = size.width.isFinite ? max(Double(size.width), 1) : 1
        let h = size.height.isFinite ? max(Double(size.height), 1) : 1
        let rectangle = [Vec2(-w / 2, -h / 2), Vec2(w / 2, -h / 2), Vec2(w / 2, h / 2), Vec2(-w / 2, h / 2)]
        switch item.collisionBoundsType {
        case .rectangle:
            return rectangle
        case .ellipse:
            return (0..<ellipseSides).map { k in
                let t = 2 * Double.pi * Double(k) / Double(ellipseSides)
                return Vec2(w / 2 * cos(t), h / 2 * sin(t))
            }
        case .path:
            var points: [Vec2] = []
            for segment in segments(of: item.collisionBoundingPath.cgPath) { points.append(contentsOf: segment) }
            let hull = convexHull(points)
            // Apple requires a convex, non-empty path; anything less collides as the bounds.
            return hull.count < 3 ? rectangle : hull
        }
    }

    /// The line segments of `path`'s outline (closed subpaths closed), curves sampled; points
    /// that are not finite are left out.
    static func segments(of path: CGPath) -> [[Vec2]] {
        var result: [[Vec2]] = []
        var current = Vec2.zero, start = Vec2.zero
        func line(to p: Vec2) {
            if p.x.isFinite, p.y.isFinite, current.x.isFinite, current.y.isFinite, p != current { result.append([current, p]) }
            current = p
        }
        path.applyWithBlock { element in
            let e = element.pointee
            func pt(_ i: Int) -> Vec2 { Vec2(e.points[i].x, e.points[i].y) }
            switch e.type {
            case .moveToPoint:
                current = pt(0); start = current
            case .addLineToPoint:
                line(to: pt(0))
            case .addQuadCurveToPoint:
                let p0 = current, c = pt(0), p1 = pt(1)
                for k in 1...curveSegments {
                    let t = Double(k) / Double(curveSegments), u = 1 - t
                    line(to: u * u * p0 + 2 * u * t * c + t * t * p1)
                }
            case .addCurveToPoint:
                let p0 = current, c1 = pt(0), c2 = pt(1), p1 = pt(2)
                for k in 1...curveSegments {
                    let t = Double(k) / Double(curveSegments), u = 1 - t
                    line(to: u * u * u * p0 + 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t * p1)
                }
            case .closeSubpath:
                line(to: start)
            }
        }
        return result
    }

    /// The convex hull of `points`, in order (Andrew's monotone chain).
    static func convexHull(_ points: [Vec2]) -> [Vec2] {
        let sorted = points.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        guard sorted.count > 2 else { return sorted }
        func half(_ pts: [Vec2]) -> [Vec2] {
            var chain: [Vec2] = []
            for p in pts {
                while chain.count >= 2, (chain[chain.count - 1] - chain[chain.count - 2]).cross(p - chain[chain.count - 2]) <= 0 {
                    chain.removeLast()
                }
                chain.append(p)
            }
            return chain
        }
        let lower = half(sorted), upper = half(sorted.reversed())
        return Array(lower.dropLast()) + Array(upper.dropLast())
    }
}
