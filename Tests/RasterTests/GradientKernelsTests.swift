import Foundation
@testable import Raster
import Testing

/// The vector loops of gradient drawing against the Swift loops: radial gradient runs
/// (`citrine_radial_row_avx2`/`_avx512` against `RadialSolver.quadraticRun`'s per-pixel solve)
/// and shaded rows blended with coverage (`citrine_source_over_row_*` against
/// `PaintBlitter.sourceOver`), for every spread mode, start and end circles in every
/// arrangement (one inside the other, apart, touching the cone's edge), and run lengths around
/// the eight- and sixteen-pixel blocks. Equal words expected: the C loops repeat the Swift
/// arithmetic lane for lane.
struct GradientKernelsTests {
    typealias Generator = DifferentialTests.Generator
    typealias Kernels = AVX2KernelsTests.Kernels

    /// Stops with distinct neighbouring entries and translucent colours (or opaque ones).
    static func stops(_ g: inout Generator, opaque: Bool = false) -> [GradientStop] {
        (0..<Int(2 + g.next() % 3)).map { _ in
            GradientStop(offset: Float(g.unit()), color: Color(r: Float(g.unit()), g: Float(g.unit()), b: Float(g.unit()),
                                                               a: opaque ? 1 : Float(0.2 + 0.8 * g.unit())))
        }
    }

    /// A random two-circle gradient in a 60-pixel square: `kind` 0 concentric, 1 the start circle
    /// inside the end one, 2 circles apart (a > 0: pixels on no circle), 3 a focal start point
    /// on the end circle's edge (a = 0 exactly for the same radius difference; kept off it);
    /// 4 and 5 are 1 and 2 with the circles swapped (shrinking radii: both roots can be on a
    /// circle of radius ≥ 0, and the larger is taken); 6 concentric from a point (r0 = 0:
    /// `CAGradientLayer`'s radial type, which the vector loops solve with fewer operations along x).
    static func radial(_ g: inout Generator, kind: Int, spread: SpreadMode) -> RadialGradient {
        if kind == 6 {
            let c = Point(x: g.unit() * 60, y: g.unit() * 60)
            return RadialGradient(startCenter: c, startRadius: 0, endCenter: c, endRadius: 5 + g.unit() * 40, stops: stops(&g),
                                  spread: spread)
        }
        if kind >= 4 {
            let swapped = radial(&g, kind: kind - 3, spread: spread)
            return RadialGradient(startCenter: swapped.endCenter, startRadius: swapped.endRadius, endCenter: swapped.startCenter,
                                  endRadius: swapped.startRadius, stops: swapped.stops, spread: spread)
        }
        let c0 = Point(x: g.unit() * 60, y: g.unit() * 60)
        let r1 = 5 + g.unit() * 40
        let angle = g.unit() * 2 * Double.pi
        let distance: Double, r0: Double
        switch kind {
        case 0: distance = 0; r0 = g.unit() * r1
        case 1: r0 = g.unit() * r1 * 0.5; distance = g.unit() * (r1 - r0) * 0.9
        case 2: r0 = g.unit() * 10; distance = r1 + r0 + 5 + g.unit() * 20
        default: r0 = 0; distance = r1 * (0.999 + 0.0005 * g.unit())
        }
        let c1 = Point(x: c0.x + distance * cos(angle), y: c0.y + distance * sin(angle))
        return RadialGradient(startCenter: c0, startRadius: r0, endCenter: c1, endRadius: r1, stops: stops(&g), spread: spread)
    }

    /// `quadraticRun`'s words for a run with each of the kernels.
    static func run(_ gradient: RadialGradient, from start: Point, first: Int = 0, dx: Double, dy: Double, count: Int) -> [[UInt32]] {
        let solver = RadialSolver(gradient)
        let ramp = GradientRamp(gradient.stops, spread: gradient.spread)
        return Kernels.allCases.map { kernels in
            AVX2KernelsTests.with(kernels) {
                var out = [UInt32](repeating: 0xDEAD_BEEF, count: count + 1)
                out.withUnsafeMutableBufferPointer { solver.quadraticRun(ramp, from: start, first: first, dx: dx, dy: dy, count: count, into: $0.baseAddress!) }
                #expect(out[count] == 0xDEAD_BEEF, "a word written past the run")
                return Array(out.prefix(count))
            }
        }
    }

    @Test(arguments: [SpreadMode.pad, .repeat, .reflect, .decal])
    func radialRunsMatchTheSwiftLoop(_ spread: SpreadMode) {
        var g = Generator(state: 77)
        var painted = 0, empty = 0
        for n in 0..<240 {
            let gradient = Self.radial(&g, kind: n % 6, spread: spread)
            guard abs(RadialSolver(gradient).a) >= 1e-12 else { continue }
            let count = 1 + Int(g.next() % 70)
            // Turned and scaled device steps, starting anywhere around the gradient.
            let scale = 0.25 + g.unit() * 3, angle = g.unit() * 2 * Double.pi
            let start = Point(x: g.unit() * 120 - 30, y: g.unit() * 120 - 30), first = n % 2 == 0 ? 0 : Int(g.next() % 40)
            let words = Self.run(gradient, from: start, first: first, dx: scale * cos(angle), dy: scale * sin(angle), count: count)
            #expect(words[1] == words[0] && words[2] == words[0], "\(gradient), start \(start), first \(first), \(count) pixels")
            painted += words[0].filter { $0 != 0 }.count
            empty += words[0].filter { $0 == 0 }.count
        }
        #expect(painted > 200 && empty > 100, "both painted pixels and pixels on no circle are compared")
    }

    /// Pixels whose parameter is infinite or NaN (a start point far out along a huge step) take
    /// the entries the Swift loop gives them.
    @Test func radialRunsMatchAtExtremeParameters() {
        var g = Generator(state: 5)
        for spread in [SpreadMode.pad, .repeat, .reflect, .decal] {
            let gradient = Self.radial(&g, kind: 1, spread: spread)
            for (start, step) in [(Point(x: 1e300, y: -1e300), 1e299), (Point(x: .nan, y: 0), 1.0),
                                  (Point(x: .infinity, y: 3), 1.0), (Point(x: 20, y: 20), 0)] {
                let words = Self.run(gradient, from: start, dx: step, dy: -step, count: 19)
                #expect(words[1] == words[0] && words[2] == words[0], "\(spread), start \(start), step \(step)")
            }
        }
    }

    /// Runs along x (dy = ±0) of gradients concentric from a point, the loops' own copy, and of the
    /// same circles shrinking (start radius > 0: the general copy): random starts and steps, then
    /// positions whose squares overflow, huge, infinite and NaN starts.
    @Test(arguments: [SpreadMode.pad, .repeat, .reflect, .decal])
    func concentricRunsAlongXMatchTheSwiftLoop(_ spread: SpreadMode) {
        var g = Generator(state: 31)
        var painted = 0
        for n in 0..<160 {
            let gradient = Self.radial(&g, kind: n % 4 == 3 ? 4 : 6, spread: spread)
            let count = 1 + Int(g.next() % 70), step = (0.25 + g.unit() * 3) * (n % 2 == 0 ? 1 : -1)
            let start = Point(x: g.unit() * 120 - 30, y: g.unit() * 120 - 30), first = n % 2 == 0 ? 0 : Int(g.next() % 40)
            let words = Self.run(gradient, from: start, first: first, dx: step, dy: n % 3 == 0 ? -0.0 : 0, count: count)
            #expect(words[1] == words[0] && words[2] == words[0], "\(gradient), start \(start), step \(step), \(count) pixels")
            painted += words[0].filter { $0 != 0 }.count
        }
        #expect(painted > 100)
        let gradient = Self.radial(&g, kind: 6, spread: spread)
        for (start, step) in [(Point(x: 5, y: 5), 1e160), (Point(x: 1e200, y: 3), 0), (Point(x: 1e300, y: 3), 1e299),
                              (Point(x: 3, y: 1e300), 1), (Point(x: .nan, y: 0), 1), (Point(x: .infinity, y: 3), 1),
                              (Point(x: 3, y: -.infinity), 1), (Point(x: 3, y: 3), .nan)] {
            let words = Self.run(gradient, from: start, dx: step, dy: 0, count: 19)
            #expect(words[1] == words[0] && words[2] == words[0], "\(spread), start \(start), step \(step)")
        }
    }

    /// Concentric pad runs along x with pixels a hair from where the table index changes
    /// (255·t + 0.5 within rounding of a whole number, on either side of the centre), where the
    /// vector loops' single-precision try (`radial8Single`, `radial16Single`) cannot tell the
    /// index and takes the double lanes: every index 1 … 255 at every lane, end radii from 10⁻⁶
    /// to 2⁴⁰ and past it. (With that try's guard band narrowed to 2⁻³⁰, the AVX-512 loop failed
    /// here 75 times.)
    @Test func concentricPadRunsMatchTheSwiftLoopAtIndexEdges() {
        var g = Generator(state: 9)
        for radius in [1e-6, 0.37, 5, 400, 3e5, 0x1p40, 0x1p41] {
            let gradient = RadialGradient(startCenter: Point(x: 0, y: 0), startRadius: 0, endCenter: Point(x: 0, y: 0),
                                          endRadius: radius, stops: Self.stops(&g), spread: .pad)
            for n in 1...255 {
                let distance = (Double(n) - 0.5) / 255 * radius, y = distance * 0.9 * g.unit()
                let pdx = (distance * distance - y * y).squareRoot() * (n % 2 == 0 ? 1 : -1)
                let i = n % 24, step = radius * (0.01 + 0.05 * g.unit())
                let words = Self.run(gradient, from: Point(x: pdx - Double(i) * step, y: y), dx: step, dy: 0, count: 24)
                #expect(words[1] == words[0] && words[2] == words[0], "radius \(radius), index \(n) at pixel \(i)")
            }
        }
    }

    /// Concentric pad gradients from a point drawn along device rows at whole, half and quarter
    /// pixel steps, centres on pixel centres and off them: the runs whose positions the vector
    /// loops take in float arithmetic (`floatPositions`), every row of each circle, every index
    /// and many index edges (the double lanes' fallback) among them; and the same rows at a step
    /// that is no multiple of 2⁻⁸, and from a start past 2²⁴ steps, which keep the double
    /// positions. (With the float positions one pixel off, this failed 437 times, in the AVX-512
    /// loop as in the AVX2 one.)
    @Test func concentricPadRunsAtPixelStepsMatchTheSwiftLoop() {
        var g = Generator(state: 13)
        for (radius, center, step, firstBase) in [(5.0, 0.5, 1.0, 0), (37.5, 10.25, 1.0, 0), (400, 960.5, 1.0, 0), (93, 40.0, 0.5, 0),
                                                  (211, 0.75, 0.25, 0), (60, 3.5, -1.0, 0), (60, 3.5, 1.0 / 3, 0),
                                                  (60, 3.5, 1.0, 16_777_300)] {
            let gradient = RadialGradient(startCenter: Point(x: center, y: center), startRadius: 0,
                                          endCenter: Point(x: center, y: center), endRadius: radius, stops: Self.stops(&g), spread: .pad)
            let span = Int((radius / abs(step)).rounded(.up)) + 2
            for row in stride(from: -radius - 1, through: radius + 1, by: max(1, radius / 60)) {
                let first = firstBase + Int(g.next() % 20)
                let start = Point(x: center - Double(span + first) * step, y: center + row.rounded(.down) + 0.5)
                let words = Self.run(gradient, from: start, first: first, dx: step, dy: 0, count: 2 * span + 1)
                #expect(words[1] == words[0] && words[2] == words[0], "radius \(radius), step \(step), row \(row)")
            }
        }
    }

    /// A gradient's word for a pixel is the same whichever run shades it
    /// (`ShaderProgram.shadesAnyRunAlike`, which lets a pixel-aligned rectangle's rows and an
    /// edge's quads be shaded as one run): rows of linear, radial (every circle arrangement) and
    /// conic gradients in every spread mode, under turned and scaled gradient spaces, shaded
    /// whole and in random pieces, with every kernel.
    @Test(arguments: [SpreadMode.pad, .repeat, .reflect, .decal])
    func gradientWordsDoNotDependOnTheRun(_ spread: SpreadMode) {
        var g = Generator(state: 57)
        for n in 0..<48 {
            let angle = n % 3 == 0 ? 0 : g.unit() * 2 * Double.pi, scale = 0.2 + g.unit() * 3
            let transform = Transform(a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle), d: scale * cos(angle),
                                      tx: g.unit() * 40, ty: g.unit() * 40)
            let shader: Shader
            switch n % 3 {
            case 0:
                var gradient = Self.radial(&g, kind: n % 7, spread: spread)
                gradient.transform = transform
                shader = .radialGradient(gradient)
            case 1:
                shader = .linearGradient(LinearGradient(start: Point(x: g.unit() * 60, y: g.unit() * 60), end: Point(x: g.unit() * 60, y: g.unit() * 60),
                                                        stops: Self.stops(&g), spread: spread, transform: transform))
            default:
                shader = .conicGradient(ConicGradient(center: Point(x: g.unit() * 60, y: g.unit() * 60), startAngle: g.unit() * 6,
                                                      stops: Self.stops(&g), transform: transform))
            }
            let program = ShaderProgram(shader)
            #expect(program.shadesAnyRunAlike)
            let y = Int(g.next() % 50), x0 = Int(g.next() % 30), width = 1 + Int(g.next() % 200)
            var cuts = [0, width]
            for _ in 0..<Int(g.next() % 8) { cuts.append(Int(g.next() % UInt64(width))) }
            cuts = Array(Set(cuts)).sorted()
            for kernels in Kernels.allCases {
                AVX2KernelsTests.with(kernels) {
                    var whole = [UInt32](repeating: 0, count: width), pieces = whole
                    whole.withUnsafeMutableBufferPointer { program.shade(y: y, x: x0, count: width, into: $0.baseAddress!) }
                    pieces.withUnsafeMutableBufferPointer { out in
                        for (a, b) in zip(cuts, cuts.dropFirst()) { program.shade(y: y, x: x0 + a, count: b - a, into: out.baseAddress! + a) }
                    }
                    #expect(whole == pieces, "\(kernels), \(shader), row \(y), pixels \(x0)..<\(x0 + width), cut at \(cuts)")
                }
            }
        }
    }

    /// `PaintBlitter` with each quad drawn as a run of its own (the lanes from its first to its
    /// last non-zero one, `blitQuadAsCoverage`), as before quads were gathered.
    struct QuadByQuad: Blitter {
        var inner: PaintBlitter
        mutating func blitCoverage(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) { inner.blitCoverage(y: y, x: x, coverage: coverage) }
        mutating func blitSpan(y: Int, x: Int, count: Int, coverage: UInt8) { inner.blitSpan(y: y, x: x, count: count, coverage: coverage) }
        mutating func blitQuad(y: Int, x: Int, count: Int, coverage: SIMD4<UInt32>) {
            inner.blitQuadAsCoverage(y: y, x: x, count: count, coverage: coverage)
        }
        mutating func flush() { inner.flush() }
    }

    /// Gradient-filled curves (edges of every slope, so quads in runs of one to many) over
    /// random pixels, with and without a clip mask and opacity: quads gathered into runs give the
    /// pixels of quads drawn one at a time, with every kernel.
    @Test(arguments: [1, 2, 3])
    func gatheredQuadsMatchQuadsDrawnAlone(seed: UInt64) throws {
        var g = Generator(state: 300 + seed)
        let canvas = try AVX2KernelsTests.canvas(&g, width: 90, height: 70)
        let clip = try Mask(width: 90, height: 70)
        for i in 0..<(90 * 70) { clip.data[i] = UInt8(truncatingIfNeeded: g.next()) }
        for k in 0..<18 {
            func point() -> Point { Point(x: g.unit() * 120 - 15, y: g.unit() * 100 - 15) }
            var path = Path()
            path.move(to: point())
            path.cubic(to: point(), control1: point(), control2: point())
            path.cubic(to: point(), control1: point(), control2: point())
            path.close()
            let shader: Shader = k % 2 == 0
                ? .radialGradient(Self.radial(&g, kind: k % 7, spread: .pad))
                : .linearGradient(LinearGradient(start: point(), end: point(), stops: Self.stops(&g, opaque: k % 4 == 1)))
            let paint = Paint(shader: shader, opacity: k % 3 == 0 ? Float(g.unit()) : 1)
            let masked = k % 5 == 4 ? clip : nil
            for kernels in Kernels.allCases {
                try AVX2KernelsTests.with(kernels) {
                    let gathered = try Pixmap(width: 90, height: 70), alone = try Pixmap(width: 90, height: 70)
                    for target in [gathered, alone] { target.words.update(from: canvas.words, count: 90 * 70) }
                    gathered.fill(path, paint: paint, clip: masked)
                    var quadByQuad = QuadByQuad(inner: PaintBlitter(target: alone, paint: paint, clip: masked))
                    alone.rasterizer.fill(path, transform: .identity, rule: .nonZero, antiAlias: true,
                                          clip: IntRect(x0: 0, y0: 0, x1: 90, y1: 70), rows: alone.drawableRows, into: &quadByQuad)
                    #expect(memcmp(gathered.words, alone.words, 90 * 70 * 4) == 0, "seed \(seed), path \(k), \(kernels), \(shader)")
                }
            }
        }
    }

    /// Radial gradients filling pixel-aligned rectangles over random pixels at full opacity: every
    /// span has full coverage, so the vector loops shade and blend in one pass
    /// (`citrine_radial_over_row_*`) where the Swift loops shade a row and blend it. Every circle
    /// arrangement and spread mode, translucent and opaque stops, turned and scaled gradient
    /// spaces, rows of 1 … 67 pixels.
    @Test(arguments: [SpreadMode.pad, .repeat, .reflect, .decal])
    func radialSpansBlendedInOnePassMatchTheSwiftLoop(_ spread: SpreadMode) throws {
        var g = Generator(state: 90)
        let canvas = try AVX2KernelsTests.canvas(&g, width: 67, height: 41)
        for n in 0..<42 {
            // Kind 6 (concentric from a point) with an unturned gradient space: rows along x.
            var gradient = Self.radial(&g, kind: n < 36 ? n % 6 : 6, spread: spread)
            gradient.stops = Self.stops(&g, opaque: n % 3 == 0)
            let angle = n % 2 == 0 || n >= 36 ? 0 : g.unit() * 2 * Double.pi, scale = 0.5 + g.unit() * 1.5
            gradient.transform = Transform(a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle), d: scale * cos(angle),
                                           tx: g.unit() * 20, ty: g.unit() * 20)
            let x = Double(g.next() % 30), width = Double(1 + g.next() % UInt64(67 - Int(x)))
            let rect = Rect(x: x, y: Double(g.next() % 20), width: width, height: Double(1 + g.next() % 20))
            let differing = try AVX2KernelsTests.differences(canvas) { pm in
                pm.fill(rect, paint: Paint(shader: .radialGradient(gradient)))
            }
            #expect(differing == 0, "\(gradient), \(rect)")
        }
    }

    /// Translucent and opaque gradients drawn with partial coverage (circle edges) and opacity:
    /// shaded rows blended per pixel, whole rows and the quads at their edges.
    @Test(arguments: [1, 2, 3])
    func shadedRowsMatchTheSwiftLoop(seed: UInt64) throws {
        var g = Generator(state: 40 + seed)
        let canvas = try AVX2KernelsTests.canvas(&g, width: 67, height: 53)
        for k in 0..<12 {
            let shader: Shader
            switch k % 3 {
            case 0: shader = .linearGradient(LinearGradient(start: Point(x: g.unit() * 67, y: g.unit() * 53),
                                                            end: Point(x: g.unit() * 67, y: g.unit() * 53), stops: Self.stops(&g)))
            case 1:
                // Opaque stops every other time: rows of opaque words at full coverage.
                var gradient = Self.radial(&g, kind: k % 2 == 0 ? 0 : 1, spread: .pad)
                gradient.stops = Self.stops(&g, opaque: k % 4 < 2)
                shader = .radialGradient(gradient)
            default: shader = .conicGradient(ConicGradient(center: Point(x: 33, y: 26), startAngle: g.unit(), stops: Self.stops(&g)))
            }
            let opacity: Float = k % 4 < 2 ? 1 : Float(g.unit())
            let cx = g.unit() * 67, cy = g.unit() * 53, r = 3 + g.unit() * 40, kappa = 0.5522847498307936 * r
            var circle = Path()
            circle.move(to: Point(x: cx + r, y: cy))
            circle.cubic(to: Point(x: cx, y: cy + r), control1: Point(x: cx + r, y: cy + kappa), control2: Point(x: cx + kappa, y: cy + r))
            circle.cubic(to: Point(x: cx - r, y: cy), control1: Point(x: cx - kappa, y: cy + r), control2: Point(x: cx - r, y: cy + kappa))
            circle.cubic(to: Point(x: cx, y: cy - r), control1: Point(x: cx - r, y: cy - kappa), control2: Point(x: cx - kappa, y: cy - r))
            circle.cubic(to: Point(x: cx + r, y: cy), control1: Point(x: cx + kappa, y: cy - r), control2: Point(x: cx + r, y: cy - kappa))
            circle.close()
            let differing = try AVX2KernelsTests.differences(canvas) { pm in
                pm.fill(circle, paint: Paint(shader: shader, opacity: opacity))
            }
            #expect(differing == 0, "seed \(seed), \(shader), opacity \(opacity)")
        }
    }
}
