/// A `Shader` prepared for drawing: colours premultiplied, gradients baked into lookup tables,
/// transforms inverted (device → shader space). Produces premultiplied words for a run of pixels,
/// sampled at pixel centres.
enum ShaderProgram {
    case solid(UInt32)
    case linear(GradientRamp, inverse: Transform, start: Point, ax: Double, ay: Double)
    case radial(GradientRamp, inverse: Transform, RadialGradient)
    case conic(GradientRamp, inverse: Transform, center: Point, startAngle: Double)
    case image(ImageSampler)
    /// A singular transform or invalid geometry: nothing is painted.
    case none

    init(_ shader: Shader) {
        switch shader {
        case let .solid(color):
            self = .solid(color.premultiplied.word)
        case let .linearGradient(g):
            let dx = g.end.x - g.start.x, dy = g.end.y - g.start.y
            let len2 = dx * dx + dy * dy
            guard let inv = g.transform.inverted(), len2 > 0, len2.isFinite else { self = .none; return }
            // t = ((p − start) · d) / |d|²
            self = .linear(GradientRamp(g.stops, spread: g.spread), inverse: inv, start: g.start,
                           ax: dx / len2, ay: dy / len2)
        case let .radialGradient(g):
            guard let inv = g.transform.inverted(), g.startRadius >= 0, g.endRadius >= 0 else { self = .none; return }
            self = .radial(GradientRamp(g.stops, spread: g.spread), inverse: inv, g)
        case let .conicGradient(g):
            guard let inv = g.transform.inverted() else { self = .none; return }
            self = .conic(GradientRamp(g.stops, spread: .repeat), inverse: inv, center: g.center,
                          startAngle: g.startAngle)
        case let .image(pattern):
            if let sampler = ImageSampler(pattern) { self = .image(sampler) } else { self = .none }
        }
    }

    /// The premultiplied word of a solid colour; nil for every other shader.
    var solidWord: UInt32? {
        if case let .solid(word) = self { return word }
        return nil
    }

    /// Whether every word `shade` writes is opaque (alpha 255): gradients whose colours are all
    /// opaque and that colour every pixel (linear and conic ones; radial ones leave pixels on no
    /// circle transparent).
    var isOpaque: Bool {
        switch self {
        case let .solid(word): return word >> 24 == 255
        case let .linear(ramp, _, _, _, _), let .conic(ramp, _, _, _): return ramp.isOpaque && ramp.spread != .decal
        case .radial, .image, .none: return false
        }
    }

    /// Writes `count` premultiplied words for pixels x… of row y.
    func shade(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let py = Double(y) + 0.5
        switch self {
        case let .solid(word):
            out.update(repeating: word, count: count)
        case let .linear(ramp, inv, start, ax, ay):
            // Start of the run in gradient space, then a constant step per pixel.
            let px = Double(x) + 0.5
            let gx = inv.a * px + inv.c * py + inv.tx, gy = inv.b * px + inv.d * py + inv.ty
            let t = (gx - start.x) * ax + (gy - start.y) * ay
            let dt = inv.a * ax + inv.b * ay
            ramp.fill(from: t, step: dt, count: count, into: out)
        case let .radial(ramp, inv, g):
            let solver = RadialSolver(g)
            let px = Double(x) + 0.5
            let start = Point(x: inv.a * px + inv.c * py + inv.tx, y: inv.b * px + inv.d * py + inv.ty)
            ramp.withColorLookup { color in
                if abs(solver.a) < 1e-12 {
                    for i in 0..<count {
                        let p = Point(x: start.x + inv.a * Double(i), y: start.y + inv.b * Double(i))
                        out[i] = solver.parameter(at: p).map(color) ?? 0
                    }
                } else {
                    solver.quadraticRun(from: start, dx: inv.a, dy: inv.b, count: count) { i, t in
                        out[i] = t.map(color) ?? 0
                    }
                }
            }
        case let .conic(ramp, inv, center, start):
            ramp.withColorLookup { color in
                for i in 0..<count {
                    let px = Double(x + i) + 0.5
                    let gx = inv.a * px + inv.c * py + inv.tx - center.x
                    let gy = inv.b * px + inv.d * py + inv.ty - center.y
                    var t = (arctangent(gy, gx) - start) / (2 * Double.pi)
                    t -= t.rounded(.down)
                    out[i] = color(t)
                }
            }
        case let .image(sampler):
            sampler.sample(y: y, x: x, count: count, into: out)
        case .none:
            out.update(repeating: 0, count: count)
        }
    }
}

/// Two-circle radial gradients as Core Graphics, PDF and the HTML canvas define them: for a point
/// p, t is the largest value with r(t) = r0 + t·(r1 − r0) ≥ 0 such that p lies on the circle of
/// centre c(t) = c0 + t·(c1 − c0) and radius r(t). Points on no such circle are not painted.
/// The per-gradient constants are computed once per run.
struct RadialSolver {
    let cx: Double, cy: Double, cdx: Double, cdy: Double, r0: Double, dr: Double, a: Double, r0Squared: Double

    init(_ g: RadialGradient) {
        cx = g.startCenter.x; cy = g.startCenter.y
        cdx = g.endCenter.x - g.startCenter.x; cdy = g.endCenter.y - g.startCenter.y
        r0 = g.startRadius
        dr = g.endRadius - g.startRadius
        a = cdx * cdx + cdy * cdy - dr * dr
        r0Squared = r0 * r0
    }

    @inline(__always)
    func parameter(at p: Point) -> Double? {
        let pdx = p.x - cx, pdy = p.y - cy
        let b = pdx * cdx + pdy * cdy + r0 * dr
        let c = pdx * pdx + pdy * pdy - r0Squared
        if abs(a) < 1e-12 {
            guard b != 0 else { return nil }
            let t = c / (2 * b)
            return r0 + t * dr >= 0 ? t : nil
        }
        let disc = b * b - a * c
        guard disc >= 0 else { return nil }
        let root = disc.squareRoot()
        let t1 = (b + root) / a, t2 = (b - root) / a
        let (hi, lo) = t1 > t2 ? (t1, t2) : (t2, t1)
        if r0 + hi * dr >= 0 { return hi }
        if r0 + lo * dr >= 0 { return lo }
        return nil
    }

    /// `parameter(at:)` for p = start + i·(dx, dy), i in 0..<count, when a ≠ 0: b steps by a
    /// constant, the division becomes a multiply, and the larger root is picked by the sign of a.
    @inline(__always)
    func quadraticRun(from start: Point, dx: Double, dy: Double, count: Int,
                      _ emit: (Int, Double?) -> Void) {
        let invA = 1 / a
        let rootSign: Double = a > 0 ? 1 : -1
        let db = dx * cdx + dy * cdy
        var pdx = start.x - cx, pdy = start.y - cy
        var b = pdx * cdx + pdy * cdy + r0 * dr
        for i in 0..<count {
            let c = pdx * pdx + pdy * pdy - r0Squared
            let disc = b * b - a * c
            if disc >= 0 {
                let root = disc.squareRoot() * rootSign
                let hi = (b + root) * invA
                if r0 + hi * dr >= 0 {
                    emit(i, hi)
                } else {
                    let lo = (b - root) * invA
                    emit(i, r0 + lo * dr >= 0 ? lo : nil)
                }
            } else {
                emit(i, nil)
            }
            pdx += dx; pdy += dy; b += db
        }
    }
}

/// A gradient's colours baked into 256 premultiplied entries (interpolated in straight sRGB
/// values, premultiplied afterwards — as Core Graphics does), plus the spread mode.
struct GradientRamp {
    static let size = 256
    let table: [UInt32]
    let spread: SpreadMode
    /// Whether every colour of the table is opaque.
    let isOpaque: Bool

    init(_ stops: [GradientStop], spread: SpreadMode) {
        self.spread = spread
        var sorted = stops.filter { $0.offset.isFinite }
        sorted.sort { $0.offset < $1.offset }
        var table = [UInt32](repeating: 0, count: GradientRamp.size)
        if let first = sorted.first, let last = sorted.last {
            var k = 0
            for i in 0..<GradientRamp.size {
                let t = Float(i) / Float(GradientRamp.size - 1)
                while k + 1 < sorted.count && sorted[k + 1].offset <= t { k += 1 }
                let color: Color
                if t <= first.offset {
                    color = first.color
                } else if t >= last.offset {
                    color = last.color
                } else {
                    let s0 = sorted[k], s1 = sorted[Swift.min(k + 1, sorted.count - 1)]
                    let span = s1.offset - s0.offset
                    let f = span > 0 ? (t - s0.offset) / span : 0
                    color = Color(r: s0.color.r + (s1.color.r - s0.color.r) * f,
                                  g: s0.color.g + (s1.color.g - s0.color.g) * f,
                                  b: s0.color.b + (s1.color.b - s0.color.b) * f,
                                  a: s0.color.a + (s1.color.a - s0.color.a) * f)
                }
                table[i] = color.premultiplied.word
            }
        }
        self.table = table
        isOpaque = table.allSatisfy { $0 >> 24 == 255 }
    }

    /// `count` colours at t, t + step, … (a linear gradient along a row).
    func fill(from t: Double, step: Double, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        table.withUnsafeBufferPointer { table in
            var t = t
            let last = Double(GradientRamp.size - 1)
            let first = t * last + 0.5, end = first + step * last * Double(count)
            if spread == .pad, abs(first) < 1e9, abs(end) < 1e9 {
                // The scaled parameter in 32.32 fixed point, clamped to the table. Where it
                // lies inside the table (0 ≤ v ≤ top), a stretch of pixels needs no clamping:
                // its length comes from one division per stretch.
                let one = 4_294_967_296.0
                var v = Int64((first * one).rounded(.down))
                let dv = Int64((step * last * one).rounded(.down))
                let top = Int64(GradientRamp.size - 1) << 32
                var i = 0
                while i < count {
                    guard v >= 0 && v <= top else {
                        out[i] = table[Int(truncatingIfNeeded: Swift.min(Swift.max(v, 0), top) >> 32)]
                        v &+= dv
                        i &+= 1
                        continue
                    }
                    let inside = dv > 0 ? (top &- v) / dv : dv < 0 ? v / (0 &- dv) : Int64(count)
                    let end = i &+ Int(truncatingIfNeeded: Swift.min(inside, Int64(count &- i) &- 1)) &+ 1
                    while i < end {
                        out[i] = table[Int(truncatingIfNeeded: v >> 32)]
                        v &+= dv
                        i &+= 1
                    }
                }
            } else {
                withColorLookup { color in
                    for i in 0..<count {
                        out[i] = color(t)
                        t += step
                    }
                }
            }
        }
    }

    /// Calls `body` with the colour lookup of this ramp (parameter t → word), its spread mode
    /// chosen once for a run instead of per pixel: each mode gets its own copy of `body`.
    @inline(__always)
    func withColorLookup(_ body: ((Double) -> UInt32) -> Void) {
        table.withUnsafeBufferPointer { table in
            switch spread {
            case .pad: body { GradientRamp.color(at: $0, spread: .pad, table: table) }
            case .repeat: body { GradientRamp.color(at: $0, spread: .repeat, table: table) }
            case .reflect: body { GradientRamp.color(at: $0, spread: .reflect, table: table) }
            case .decal: body { GradientRamp.color(at: $0, spread: .decal, table: table) }
            }
        }
    }

    /// The colour at parameter t, after the spread mode.
    @inline(__always)
    static func color(at t: Double, spread: SpreadMode, table: UnsafeBufferPointer<UInt32>) -> UInt32 {
        var u = t
        switch spread {
        case .pad:
            break
        case .repeat:
            u -= u.rounded(.down)
        case .reflect:
            u = abs(u - 2 * (u * 0.5).rounded(.down))
            if u > 1 { u = 2 - u }
        case .decal:
            if u < 0 || u > 1 { return 0 }
        }
        // Clamped to the table; NaN fails `scaled >= 0` and takes the first entry.
        let last = Double(GradientRamp.size - 1)
        let scaled = u * last + 0.5
        return table[scaled >= 0 ? Int(scaled < last ? scaled : last) : 0]
    }
}

extension PremultipliedColor {
    /// The pixel as a little-endian word (R in the low byte).
    @inlinable var word: UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }
}
