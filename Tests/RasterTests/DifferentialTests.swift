import Raster
import Testing

/// Randomized differential test of the fast fill/blend paths against a slow, obviously correct
/// reference: axis-aligned rectangles at fractional positions with random translucent colours,
/// where each pixel's coverage is the exact overlap area and compositing is the float
/// source-over formula. Seeded, so failures reproduce. Edge runs of one to three pixels take the
/// partly filled quads of `PaintBlitter.sourceOver`; with a clip mask (itself a rectangle at a
/// fractional position, coverage = overlap area) the runs go through the shaded-row path.
struct DifferentialTests {
    /// SplitMix64, a tiny deterministic generator for the test's inputs.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    }

    /// The area of pixel (px, py) inside `r`.
    static func overlap(_ px: Int, _ py: Int, _ r: Rect) -> Double {
        let ox = max(0, min(Double(px + 1), r.maxX) - max(Double(px), r.minX))
        let oy = max(0, min(Double(py + 1), r.maxY) - max(Double(py), r.minY))
        return ox * oy
    }

    @Test(arguments: [1, 2, 3, 4, 5], [false, true])
    func translucentRectanglesMatchTheReference(seed: UInt64, clipped: Bool) throws {
        var g = Generator(state: seed)
        let w = 37, h = 23
        let pm = try Pixmap(width: w, height: h)
        let clipRect = Rect(x: 3.3, y: 2.6, width: 29.5, height: 17.2)
        var mask: Mask?
        if clipped {
            mask = try Mask(width: w, height: h)
            mask?.fill(Path(rect: clipRect))
        }
        var reference = [SIMD4<Double>](repeating: SIMD4(1, 1, 1, 1), count: w * h)   // premultiplied, opaque white
        pm.fill(with: PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
        for _ in 0..<12 {
            let x = g.unit() * 40 - 2, y = g.unit() * 26 - 2
            let rw = g.unit() * 20, rh = g.unit() * 14
            let c = Color(r8: UInt8(g.next() % 256), g8: UInt8(g.next() % 256), b8: UInt8(g.next() % 256),
                          a8: UInt8(g.next() % 256))
            let opacity = Float(g.unit())
            let rect = Rect(x: x, y: y, width: rw, height: rh)
            pm.fill(rect, paint: Paint(shader: .solid(c), opacity: opacity), clip: mask)
            // Reference: the 8-bit premultiplied source the engine sees, scaled by exact coverage.
            let p = c.premultiplied
            let src = SIMD4(Double(p.r), Double(p.g), Double(p.b), Double(p.a)) / 255
            for py in 0..<h {
                for px in 0..<w {
                    let clip = clipped ? Self.overlap(px, py, clipRect) : 1
                    let f = Self.overlap(px, py, rect) * clip * Double(opacity)
                    guard f > 0 else { continue }
                    let d = reference[py * w + px]
                    reference[py * w + px] = src * f + d * (1 - src[3] * f)
                }
            }
        }
        var worst = 0.0
        for py in 0..<h {
            for px in 0..<w {
                let got = pm.pixel(x: px, y: py)
                let want = reference[py * w + px] * 255
                for (a, b) in zip([got.r, got.g, got.b, got.a].map(Double.init), [want[0], want[1], want[2], want[3]]) {
                    worst = max(worst, abs(a - b))
                }
            }
        }
        // 8-bit coverage and per-draw rounding: a few levels after 12 overlapping draws.
        #expect(worst <= 4, "seed \(seed), clipped \(clipped): worst channel difference \(worst)")
    }
}
