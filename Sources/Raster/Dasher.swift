/// Dashing: cuts polylines into the "on" pieces of a dash pattern.
///
/// Core Graphics semantics (`CGContext.setLineDash(phase:lengths:)`): `lengths` alternate
/// painted and unpainted lengths, starting with painted; `phase` is how far into the pattern
/// the first subpath starts. The pattern restarts at every subpath. A closed polyline is dashed
/// as an open one that returns to its start; a dash running across the closing point is joined
/// with the first dash, as Core Graphics draws it. Negative lengths, or a pattern whose sum is not
/// positive, disable dashing (the stroke is solid); so does a pattern so fine that the path would
/// need more than `maxDashes` pieces (Skia draws those solid too), which bounds time and memory.
enum Dasher {
    static let maxDashes = 1_000_000

    /// `lines` dashed, or as they are when the pattern does not dash (see the type's rules).
    static func dash(_ lines: [Polyline], lengths: [Double], phase: Double) -> [Polyline] {
        dashes(lines, lengths: lengths, phase: phase) ?? lines
    }

    /// The dashes of `lines`, or nil when the pattern does not dash: invalid, or needing more
    /// than `maxDashes` pieces.
    static func dashes(_ lines: [Polyline], lengths: [Double], phase: Double) -> [Polyline]? {
        guard isValidPattern(lengths) else { return nil }
        let total = lengths.reduce(0, +)
        let pathLength = lines.reduce(0.0) { sum, line in
            zip(line.points, line.points.dropFirst()).reduce(sum) { $0 + distance($1.0, $1.1) }
        }
        guard pathLength / total * Double(lengths.count) <= Double(maxDashes) else { return nil }
        var out: [Polyline] = []
        for line in lines {
            var pts = line.points
            if line.closed, let first = pts.first { pts.append(first) }
            dash(pts, closed: line.closed, lengths: lengths, total: total, phase: phase, into: &out)
        }
        return out
    }

    /// Whether `lengths` make a dash pattern: none negative, a finite positive total.
    static func isValidPattern(_ lengths: [Double]) -> Bool {
        let total = lengths.reduce(0, +)
        return total > 0 && total.isFinite && lengths.allSatisfy { $0 >= 0 }
    }

    private static func dash(_ pts: [Point], closed: Bool, lengths: [Double], total: Double,
                             phase: Double, into out: inout [Polyline]) {
        guard pts.count >= 2 else { return }
        // Position in the pattern.
        var offset = phase.truncatingRemainder(dividingBy: total)
        if offset < 0 { offset += total }
        var index = 0
        while offset >= lengths[index] {
            offset -= lengths[index]
            index = (index + 1) % lengths.count
        }
        var remaining = lengths[index] - offset   // left in the current dash or gap
        var on = index % 2 == 0
        let firstIndex = out.count
        let startsOn = on
        var current: [Point] = on ? [pts[0]] : []
        for i in 1..<pts.count {
            var a = pts[i - 1]
            let b = pts[i]
            var segLength = distance(a, b)
            while segLength > remaining {
                let t = remaining / segLength
                let p = Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
                if on {
                    current.append(p)
                    out.append(Polyline(points: current, closed: false))
                    current = []
                } else {
                    current = [p]
                }
                on.toggle()
                segLength -= remaining
                a = p
                index = (index + 1) % lengths.count
                remaining = lengths[index]
            }
            remaining -= segLength
            if on { current.append(b) }
        }
        if on && current.count >= 2 {
            if closed && startsOn && out.count > firstIndex {
                // The last dash runs into the first one across the closing point: join them.
                out[firstIndex].points.insert(contentsOf: current.dropLast(), at: 0)
            } else {
                out.append(Polyline(points: current, closed: false))
            }
        }
    }

    private static func distance(_ a: Point, _ b: Point) -> Double {
        ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
    }
}

extension Path {
    /// The "on" pieces of the dash pattern `lengths` starting `phase` into it, as open subpaths
    /// of line segments (curves flattened within `tolerance`).
    public func dashed(lengths: [Double], phase: Double, tolerance: Double = 0.05) -> Path {
        var out = Path()
        for line in Dasher.dash(Flattener.polylines(self, tolerance: tolerance), lengths: lengths, phase: phase) {
            out.move(to: line.points[0])
            for p in line.points.dropFirst() { out.line(to: p) }
        }
        return out
    }
}
