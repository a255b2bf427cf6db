import Raster

// Outline pieces → contours → CGPath, and a region's separate components.

extension PathBoolean {
    /// A closed contour on the grid (the closing segment implied).
    typealias Contour = [SIMD2<Double>]

    /// The closed contours the directed `pieces` form (each piece used once; where several
    /// leave one point any is taken — the filled region is the same), with collinear runs merged
    /// (points within a grid step of the line through their neighbours dropped) and contours
    /// left with fewer than three points dropped.
    static func contours(of pieces: [Piece]) -> [Contour] {
        var outgoing: [SIMD2<Double>: [Int]] = [:]
        for (n, piece) in pieces.enumerated() where piece.from != piece.to { outgoing[piece.from, default: []].append(n) }
        var result: [Contour] = []
        for n in pieces.indices where pieces[n].from != pieces[n].to {
            guard var list = outgoing[pieces[n].from], let slot = list.firstIndex(of: n) else { continue }
            list.remove(at: slot)
            outgoing[pieces[n].from] = list
            let start = pieces[n].from
            var contour: Contour = [start], point = pieces[n].to
            // Every point has as many pieces arriving as leaving, so the walk returns to `start`;
            // should rounding ever break that, the contour is closed where the walk stops.
            while point != start, let next = outgoing[point]?.popLast() {
                contour.append(point)
                point = pieces[next].to
            }
            let simplified = mergingCollinear(contour)
            if simplified.count >= 3 { result.append(simplified) }
        }
        return result
    }

    /// `contour` without the points that lie within a grid step of the line through their
    /// neighbours (a straight edge cut at every slab, or a zero-width spike).
    static func mergingCollinear(_ contour: Contour) -> Contour {
        func straight(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> Bool {
            let ac = c - a, ab = b - a
            let cross = ab.x * ac.y - ab.y * ac.x
            let length = (ac * ac).sum().squareRoot()
            return abs(cross) <= length
        }
        var out: Contour = []
        out.reserveCapacity(contour.count)
        for p in contour {
            if out.last == p { continue }
            out.append(p)
            while out.count >= 3, straight(out[out.count - 3], out[out.count - 2], out[out.count - 1]) {
                out.remove(at: out.count - 2)
            }
        }
        while out.count >= 3 {
            if out.last == out.first {
                out.removeLast()
            } else if straight(out[out.count - 2], out[out.count - 1], out[0]) {
                out.removeLast()
            } else if straight(out[out.count - 1], out[0], out[1]) {
                out.removeFirst()
            } else {
                break
            }
        }
        return out
    }

    /// Twice the signed area of `contour` (positive counter-clockwise with y up), in grid units².
    static func signedArea(_ contour: Contour) -> Double {
        var sum = 0.0
        for (i, p) in contour.enumerated() {
            let q = contour[(i + 1) % contour.count]
            sum += p.x * q.y - p.y * q.x
        }
        return sum
    }

    /// A path of `contours`, each a move, lines and a close, mapped back from `grid`.
    static func path(of contours: [Contour], on grid: Grid) -> CGMutablePath {
        let path = CGMutablePath()
        for contour in contours {
            path.move(to: grid.point(contour[0]))
            for p in contour.dropFirst() { path.addLine(to: grid.point(p)) }
            path.closeSubpath()
        }
        return path
    }

    /// `contours` (the outline of one region) grouped into its connected pieces: each outer
    /// contour (counter-clockwise) with the holes (clockwise) it immediately encloses. A hole
    /// belongs to the smallest outer contour containing the midpoint of its longest side.
    static func components(of contours: [Contour]) -> [[Contour]] {
        let areas = contours.map(signedArea)
        let outers = contours.indices.filter { areas[$0] > 0 }
        var groups = outers.map { [contours[$0]] }
        for hole in contours.indices where areas[hole] < 0 {
            let c = contours[hole]
            let side = c.indices.max { a, b in
                let u = c[(a + 1) % c.count] - c[a], v = c[(b + 1) % c.count] - c[b]
                return (u * u).sum() < (v * v).sum()
            } ?? 0
            let probe = (c[side] + c[(side + 1) % c.count]) / 2
            let owner = outers.indices.filter { encloses(contours[outers[$0]], probe) }
                .min { areas[outers[$0]] < areas[outers[$1]] }
            if let owner { groups[owner].append(c) }
        }
        return groups
    }

    /// True when `q` is inside `contour` (non-zero winding, the half-open rule on y).
    private static func encloses(_ contour: Contour, _ q: SIMD2<Double>) -> Bool {
        var winding = 0
        for (i, a) in contour.enumerated() {
            let b = contour[(i + 1) % contour.count]
            let side = (b.x - a.x) * (q.y - a.y) - (q.x - a.x) * (b.y - a.y)
            if a.y <= q.y {
                if b.y > q.y, side > 0 { winding += 1 }
            } else if b.y <= q.y, side < 0 {
                winding -= 1
            }
        }
        return winding != 0
    }
}
