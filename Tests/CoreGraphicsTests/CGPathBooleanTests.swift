import Testing
import CoreGraphics

// Expected values: closed-form areas (squares by hand, the circle–circle lens formula), and the
// operands' own `contains(_:using:)` for sample points. Tolerances: results are polygons within
// 1/100 unit of the curves, and a cubic circle's radius is off by at most 2.7·10⁻⁴ r, so circle
// areas are compared to 0.1 %.

/// The area a path fills, from its polygon's signed areas summed (the results' contours are
/// oriented so holes subtract).
private func area(of path: CGPath) -> CGFloat {
    var sum: CGFloat = 0, start = CGPoint.zero, current = CGPoint.zero
    for (type, points) in elements(of: path) {
        switch type {
        case .moveToPoint: start = points[0]; current = start
        case .addLineToPoint:
            sum += current.x * points[0].y - points[0].x * current.y
            current = points[0]
        case .closeSubpath:
            sum += current.x * start.y - start.x * current.y
            current = start
        default: Issue.record("results are polygonal")
        }
    }
    return abs(sum / 2)
}

private func subpathCount(_ path: CGPath) -> Int { types(of: path).filter { $0 == .moveToPoint }.count }

private func square(_ x: CGFloat, _ y: CGFloat, _ side: CGFloat) -> CGPath {
    CGPath(rect: CGRect(x: x, y: y, width: side, height: side), transform: nil)
}

private func circle(_ cx: CGFloat, _ cy: CGFloat, _ r: CGFloat) -> CGPath {
    CGPath(ellipseIn: CGRect(x: cx - r, y: cy - r, width: 2 * r, height: 2 * r), transform: nil)
}

/// Checks each result against its `op` of the operands' own `contains` on a `samples`² grid of
/// points in `box`, skipping points within `margin` of either operand's outline (where
/// flattening may decide). Each result must fill the same under either rule.
private func expectRegions(_ a: CGPath, _ b: CGPath, rule: CGPathFillRule, in box: CGRect, margin: CGFloat = 0.05,
                           samples: Int = 40, _ results: [(CGPath, (Bool, Bool) -> Bool)]) {
    var checked = 0, wrong: [CGPoint] = []
    let offsets = [CGPoint(x: margin, y: 0), CGPoint(x: -margin, y: 0), CGPoint(x: 0, y: margin), CGPoint(x: 0, y: -margin)]
    for i in 0..<samples {
        for j in 0..<samples {
            let p = CGPoint(x: box.minX + (CGFloat(i) + 0.37) * box.width / CGFloat(samples),
                            y: box.minY + (CGFloat(j) + 0.61) * box.height / CGFloat(samples))
            let inA = a.contains(p, using: rule), inB = b.contains(p, using: rule)
            let near = offsets.contains { d in
                let q = CGPoint(x: p.x + d.x, y: p.y + d.y)
                return a.contains(q, using: rule) != inA || b.contains(q, using: rule) != inB
            }
            if near { continue }
            checked += 1
            for (result, op) in results {
                let expected = op(inA, inB)
                if result.contains(p, using: .winding) != expected || result.contains(p, using: .evenOdd) != expected { wrong.append(p) }
            }
        }
    }
    #expect(checked > samples * samples / 2)
    #expect(wrong.isEmpty, "points classified wrongly: \(wrong.prefix(5))")
}

/// The four region operations of `a` and `b` under `rule`, each with its definition.
private func allOperations(_ a: CGPath, _ b: CGPath, _ rule: CGPathFillRule) -> [(CGPath, (Bool, Bool) -> Bool)] {
    [(a.union(b, using: rule), { $0 || $1 }), (a.intersection(b, using: rule), { $0 && $1 }),
     (a.subtracting(b, using: rule), { $0 && !$1 }), (a.symmetricDifference(b, using: rule), { $0 != $1 })]
}

@Test func overlappingSquaresHaveTheirClosedFormAreas() {
    // [0,10]² and [5,15]²: overlap 5 × 5 = 25.
    let a = square(0, 0, 10), b = square(5, 5, 10)
    #expect(isClose(area(of: a.union(b)), 175, 1e-6))
    #expect(isClose(area(of: a.intersection(b)), 25, 1e-6))
    #expect(isClose(area(of: a.subtracting(b)), 75, 1e-6))
    #expect(isClose(area(of: b.subtracting(a)), 75, 1e-6))
    #expect(isClose(area(of: a.symmetricDifference(b)), 150, 1e-6))
    // Straight sides stay single edges: the union is one octagon-like contour of 8 corners.
    #expect(subpathCount(a.union(b)) == 1)
    #expect(types(of: a.union(b)).filter { $0 == .addLineToPoint }.count == 7)
    expectRegions(a, b, rule: .winding, in: CGRect(x: -2, y: -2, width: 19, height: 19), allOperations(a, b, .winding))
}

@Test func overlappingCirclesMatchTheLensFormula() {
    // Radius r, centres d apart: lens = 2r²·acos(d/2r) − (d/2)·√(4r² − d²).
    let r: CGFloat = 50, d: CGFloat = 60
    let lens = 2 * r * r * acos(d / (2 * r)) - d / 2 * (4 * r * r - d * d).squareRoot()
    let disc = CGFloat.pi * r * r
    let a = circle(0, 0, r), b = circle(d, 0, r)
    let relative: CGFloat = 1e-3
    #expect(isClose(area(of: a.intersection(b)), lens, lens * relative))
    #expect(isClose(area(of: a.union(b)), 2 * disc - lens, disc * relative))
    #expect(isClose(area(of: a.subtracting(b)), disc - lens, disc * relative))
    #expect(isClose(area(of: a.symmetricDifference(b)), 2 * (disc - lens), disc * relative))
    expectRegions(a, b, rule: .winding, in: CGRect(x: -60, y: -60, width: 180, height: 120), samples: 20,
                  allOperations(a, b, .winding))
    // Unit-sized circles flatten relatively as finely (1/10 000 of their size).
    let small = circle(0, 0, 1).intersection(circle(1.2, 0, 1))
    let smallLens = 2 * acos(0.6) - 0.6 * (4 - 1.44).squareRoot()
    #expect(isClose(area(of: small), smallLens, smallLens * relative))
}

@Test func theFillRuleDecidesEachOperandsInside() {
    // A 10 × 10 square with a 4 × 4 square inside, both traced the same way: winding 2 inside
    // the small one, so it is a hole only under even-odd.
    let nested = CGMutablePath()
    nested.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
    nested.addRect(CGRect(x: 3, y: 3, width: 4, height: 4))
    #expect(isClose(area(of: nested.normalized(using: .winding)), 100, 1e-6))
    #expect(isClose(area(of: nested.normalized(using: .evenOdd)), 84, 1e-6))
    #expect(isClose(area(of: nested.normalized()), 100, 1e-6))
    // A bar [4, 6] × [−5, 15] through the hole: 2 × 10 of it is outside the square, 2 × 4 in the hole.
    let bar = CGPath(rect: CGRect(x: 4, y: -5, width: 2, height: 20), transform: nil)
    #expect(isClose(area(of: nested.union(bar, using: .evenOdd)), 84 + 8 + 20, 1e-6))
    #expect(isClose(area(of: nested.union(bar, using: .winding)), 100 + 20, 1e-6))
    #expect(isClose(area(of: nested.intersection(bar, using: .evenOdd)), 20 - 8, 1e-6))
    for rule in [CGPathFillRule.winding, .evenOdd] {
        expectRegions(nested, bar, rule: rule, in: CGRect(x: -2, y: -7, width: 14, height: 24), allOperations(nested, bar, rule))
    }
    // A square traced backwards inside a forwards one is a hole under both rules.
    let donut = CGMutablePath()
    donut.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
    donut.addLines(between: [CGPoint(x: 3, y: 3), CGPoint(x: 3, y: 7), CGPoint(x: 7, y: 7), CGPoint(x: 7, y: 3)])
    donut.closeSubpath()
    #expect(isClose(area(of: donut.normalized(using: .winding)), 84, 1e-6))
}

@Test func disjointIdenticalAndEmptyOperands() {
    let a = square(0, 0, 10), far = square(20, 0, 10)
    #expect(a.intersection(far).isEmpty)
    #expect(!a.intersects(far))
    #expect(a.intersects(square(9, 9, 5)))
    #expect(isClose(area(of: a.union(far)), 200, 1e-6))
    #expect(subpathCount(a.union(far)) == 2)
    #expect(isClose(area(of: a.subtracting(far)), 100, 1e-6))
    // The same path twice: coincident edges count once.
    let c = circle(0, 0, 10)
    #expect(isClose(area(of: c.union(c)), area(of: c.normalized()), 1e-6))
    #expect(isClose(area(of: c.intersection(c)), area(of: c.normalized()), 1e-6))
    #expect(c.subtracting(c).isEmpty)
    #expect(c.symmetricDifference(c).isEmpty)
    // Squares sharing a side merge into one rectangle of four corners.
    let joined = a.union(square(10, 0, 10))
    #expect(subpathCount(joined) == 1)
    #expect(types(of: joined).filter { $0 == .addLineToPoint }.count == 3)
    #expect(isClose(area(of: joined), 200, 1e-6))
    // Empty operands.
    let empty = CGPath()
    #expect(isClose(area(of: a.union(empty)), 100, 1e-6))
    #expect(a.intersection(empty).isEmpty)
    #expect(empty.union(empty).isEmpty)
    #expect(isClose(area(of: empty.symmetricDifference(a)), 100, 1e-6))
}

@Test func selfIntersectingAndDegenerateInput() {
    // A bow tie: two triangles of area 25 each, winding +1 and −1.
    let bowTie = CGMutablePath()
    bowTie.addLines(between: [.zero, CGPoint(x: 10, y: 10), CGPoint(x: 10, y: 0), CGPoint(x: 0, y: 10)])
    bowTie.closeSubpath()
    #expect(isClose(area(of: bowTie.normalized()), 50, 1e-6))
    #expect(isClose(area(of: bowTie.normalized(using: .evenOdd)), 50, 1e-6))
    // Zero-length segments, repeated points, a lone move and an open subpath (closed for filling).
    let messy = CGMutablePath()
    messy.move(to: CGPoint(x: 50, y: 50))
    messy.move(to: .zero)
    messy.addLine(to: .zero)
    messy.addLine(to: CGPoint(x: 4, y: 0))
    messy.addLine(to: CGPoint(x: 4, y: 0))
    messy.addLine(to: CGPoint(x: 4, y: 4))
    messy.addLine(to: CGPoint(x: 0, y: 4))
    #expect(isClose(area(of: messy.union(square(2, 2, 4))), 16 + 16 - 4, 1e-6))
    // A path that is only a line has no area.
    let line = CGMutablePath()
    line.move(to: .zero)
    line.addLine(to: CGPoint(x: 10, y: 10))
    #expect(line.normalized().isEmpty)
}

@Test func hostileValuesGiveDocumentedResults() {
    // Subpaths with a non-finite coordinate are left out.
    for bad in [CGFloat.nan, .infinity, -.infinity] {
        let p = CGMutablePath()
        p.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        p.move(to: CGPoint(x: bad, y: 0))
        p.addLine(to: CGPoint(x: 5, y: bad))
        p.addLine(to: CGPoint(x: 5, y: 5))
        p.closeSubpath()
        #expect(isClose(area(of: p.union(square(5, 0, 10))), 150, 1e-6))
        #expect(isClose(area(of: p.intersection(p)), 100, 1e-6))
        #expect(p.lineIntersection(square(-1, -1, 20)).boundingBox == CGRect(x: 0, y: 0, width: 10, height: 10))
    }
    // Huge and far-away coordinates keep their proportions.
    let scale: CGFloat = 1e300
    let big = square(0, 0, 10 * scale).union(square(5 * scale, 5 * scale, 10 * scale))
    #expect(isClose(big.boundingBox, CGRect(x: 0, y: 0, width: 15 * scale, height: 15 * scale), 1e-6 * scale))
    let offset = square(1e9, 1e9, 10).intersection(square(1e9 + 5, 1e9 + 5, 10))
    #expect(isClose(offset.boundingBox, CGRect(x: 1e9 + 5, y: 1e9 + 5, width: 5, height: 5), 1e-4))
    let extremes = square(-.greatestFiniteMagnitude, -.greatestFiniteMagnitude, .greatestFiniteMagnitude)
        .union(square(0, 0, .greatestFiniteMagnitude))
    #expect(!extremes.isEmpty)
    #expect(elements(of: extremes).allSatisfy { $0.1.allSatisfy { $0.x.isFinite && $0.y.isFinite } })
    // Past the point limit the result is empty instead of unbounded work.
    let many = CGMutablePath()
    many.addLines(between: (0..<250_000).map { CGPoint(x: CGFloat($0 % 500), y: CGFloat($0 / 500)) })
    #expect(many.union(square(0, 0, 10)).isEmpty)
}

@Test func linesAreClippedToTheOtherPathsArea() {
    let box = square(0, 0, 10)
    let line = CGMutablePath()
    line.move(to: CGPoint(x: -5, y: 5))
    line.addLine(to: CGPoint(x: 15, y: 5))
    let inside = line.lineIntersection(box)
    #expect(elements(of: inside).map(\.1) == [[CGPoint(x: 0, y: 5)], [CGPoint(x: 10, y: 5)]])
    let outside = line.lineSubtracting(box)
    #expect(subpathCount(outside) == 2)
    #expect(!types(of: outside).contains(.closeSubpath))
    // A closed subpath left whole stays closed; one that is cut becomes one open run (its last
    // run joined to its first).
    let ring = circle(5, 5, 2)
    #expect(types(of: ring.lineIntersection(box)).last == .closeSubpath)
    #expect(ring.lineSubtracting(box).isEmpty)
    let cut = square(5, 2, 6).lineSubtracting(box)  // [5,11] × [2,8]: the part past x = 10 remains
    #expect(subpathCount(cut) == 1)
    #expect(!types(of: cut).contains(.closeSubpath))
    #expect(isClose(cut.boundingBox, CGRect(x: 10, y: 2, width: 1, height: 6), 1e-9))
    let kept = square(5, 2, 6).lineIntersection(box)
    #expect(subpathCount(kept) == 1)
    #expect(isClose(kept.boundingBox, CGRect(x: 5, y: 2, width: 5, height: 6), 1e-9))
}

@Test func componentsAreSeparatedWithTheirHoles() {
    let shapes = CGMutablePath()
    shapes.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
    shapes.addRect(CGRect(x: 20, y: 0, width: 10, height: 10))
    shapes.addRect(CGRect(x: 3, y: 3, width: 4, height: 4))
    let parts = shapes.componentsSeparated(using: .evenOdd)
    #expect(parts.count == 2)
    let holed = parts.first { $0.boundingBox.minX == 0 }
    #expect(holed.map(subpathCount) == 2)
    #expect(holed.map { isClose(area(of: $0), 84, 1e-6) } == true)
    #expect(shapes.componentsSeparated(using: .winding).count == 2)
    #expect(CGPath().componentsSeparated().isEmpty)
}

@Test func aStarPolygonWithManyCrossingsBecomesItsOutline() {
    // A {51/25} star polygon: every edge crosses most others (about 1 200 crossings). Its filled
    // area under non-zero is the star outline through the outer vertices (radius R) and the
    // crossings of neighbouring edges (radius R·cos(πk/n)/cos(π(k−1)/n)): n · R · r · sin(π/n).
    let n = 51, k = 25, radius: CGFloat = 100
    let star = CGMutablePath()
    star.addLines(between: (0..<n).map { j in
        let angle = CGFloat(j * k % n) * 2 * .pi / CGFloat(n)
        return CGPoint(x: radius * cos(angle), y: radius * sin(angle))
    })
    star.closeSubpath()
    let inner = radius * cos(.pi * CGFloat(k) / CGFloat(n)) / cos(.pi * CGFloat(k - 1) / CGFloat(n))
    let expected = CGFloat(n) * radius * inner * sin(.pi / CGFloat(n))
    let outline = star.normalized()
    #expect(subpathCount(outline) == 1)
    #expect(types(of: outline).count == 2 * n + 1)  // a move, 2n − 1 lines, a close
    #expect(isClose(area(of: outline), expected, 1e-6 * expected))
    // Even-odd: the rings alternate; the centre (winding 25) is filled.
    #expect(star.normalized(using: .evenOdd).contains(.zero))
}
