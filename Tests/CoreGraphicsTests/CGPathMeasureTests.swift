import Testing
import CoreGraphics

// Expected values: closed-form lengths (circle 2πr, parabola arc length, perimeters) and
// Apple's element order (ellipse from (maxX, midY) with increasing angle; addRect order).

@Test func circleCircumferenceIsTwoPiR() {
    let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 20, height: 20), transform: nil)
    let measure = CGPathMeasure(circle)
    #expect(abs(measure.length - 2 * .pi * 10) <= 1e-9 * 2 * .pi * 10)
    // 4 quarter arcs + the zero-length closing line
    #expect(measure.segments.map(\.type) == Array(repeating: .addCurveToPoint, count: 4) + [.closeSubpath])
    #expect(isClose(measure.segments[1].startLength, 5 * .pi, 1e-9))
    // A quarter of the way: angle π/2 → (midX, maxY), travelling towards −x.
    let quarter = measure.position(atLength: 5 * .pi)!
    #expect(isClose(quarter.point, CGPoint(x: 10, y: 20), 1e-9))
    #expect(isCloseAngle(quarter.tangentAngle, .pi))
    #expect(isClose(measure.point(atLength: 2.5 * .pi)!, CGPoint(x: 10 + 10 / 2.0.squareRoot(), y: 10 + 10 / 2.0.squareRoot()), 1e-9))
}

@Test func arcLengthsAreExactIncludingClockwise() {
    let ccw = CGMutablePath()
    ccw.addArc(center: .zero, radius: 3, startAngle: 0, endAngle: .pi / 2, clockwise: false)
    #expect(abs(ccw.length - 1.5 * .pi) <= 1e-9)
    let cw = CGMutablePath()
    cw.addArc(center: .zero, radius: 3, startAngle: 0, endAngle: .pi / 2, clockwise: true)
    #expect(abs(cw.length - 4.5 * .pi) <= 1e-9)
    // Half-way along the 270° clockwise arc: angle −135°.
    let m = CGPathMeasure(cw)
    let mid = m.position(atLength: 2.25 * .pi)!
    #expect(isClose(mid.point, CGPoint(x: -3 / 2.0.squareRoot(), y: -3 / 2.0.squareRoot()), 1e-9))
    // Travelling with decreasing angle at −135°: direction (−sin θ, cos θ)·(−1) = angle 135°.
    #expect(isCloseAngle(mid.tangentAngle, 3 * .pi / 4))
    // A scaled ellipse keeps an exact length: circle r = 1 scaled ×5.
    let scaled = CGPath(ellipseIn: CGRect(x: -1, y: -1, width: 2, height: 2), transform: nil)
    var t = CGAffineTransform(scaleX: 5, y: 5)
    #expect(abs(scaled.copy(using: &t)!.length - 10 * .pi) <= 1e-9)
}

@Test func polylineAndRectLengths() {
    let rect = CGPath(rect: CGRect(x: 0, y: 0, width: 3, height: 4), transform: nil)
    #expect(rect.length == 14)
    let m = CGPathMeasure(rect)
    #expect(m.segments.map(\.startLength) == [0, 3, 7, 10])
    #expect(m.segments.map(\.elementIndex) == [1, 2, 3, 4])
    #expect(m.point(atLength: 8) == CGPoint(x: 2, y: 4))
    #expect(m.tangentAngle(atLength: 8) == .pi)
    #expect(m.point(atLength: 100) == .zero)  // clamped to the end: back at the start
    #expect(m.point(atLength: -5) == .zero)
    #expect(CGPathMeasure(CGMutablePath()).point(atLength: 1) == nil)
}

@Test func bezierLengthsMatchClosedForms() {
    // Quadratic (0,0) (½,0) (1,1) is the parabola y = x², x ∈ [0, 1]:
    // length = √5/2 + asinh(2)/4.
    let parabola = CGMutablePath()
    parabola.move(to: .zero)
    parabola.addQuadCurve(to: CGPoint(x: 1, y: 1), control: CGPoint(x: 0.5, y: 0))
    let expected = 5.0.squareRoot() / 2 + asinh(2.0) / 4
    #expect(abs(parabola.length - expected) <= 1e-10)
    // Point at half the length lies on y = x².
    let p = CGPathMeasure(parabola).point(atLength: expected / 2)!
    #expect(isClose(p.y, p.x * p.x, 1e-12))
    // A cubic with collinear, evenly spaced control points is a straight segment.
    let straight = CGMutablePath()
    straight.move(to: .zero)
    straight.addCurve(to: CGPoint(x: 3, y: 4), control1: CGPoint(x: 1, y: 4.0 / 3), control2: CGPoint(x: 2, y: 8.0 / 3))
    #expect(abs(straight.length - 5) <= 1e-12)
    #expect(isClose(CGPathMeasure(straight).point(atLength: 2.5)!, CGPoint(x: 1.5, y: 2), 1e-10))
}

@Test func trimmingByFraction() {
    let rect = CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: nil)
    let middle = rect.trimmed(from: 0.25, to: 0.75)
    let e = elements(of: middle)
    #expect(e.map(\.0) == [.moveToPoint, .addLineToPoint, .addLineToPoint])
    #expect(e.map { $0.1[0] } == [CGPoint(x: 1, y: 0), CGPoint(x: 1, y: 1), CGPoint(x: 0, y: 1)])
    #expect(rect.trimmed(from: 0, to: 1) == rect)
    #expect(rect.trimmed(from: 0.5, to: 0.5).isEmpty)
    let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 20, height: 20), transform: nil)
    let half = circle.trimmed(from: 0, to: 0.5)
    #expect(abs(half.length - 10 * .pi) <= 1e-9)
    #expect(isClose(half.currentPoint, CGPoint(x: 0, y: 10), 1e-9))
    let cut = circle.trimmed(from: 0.1, to: 0.3)
    #expect(abs(cut.length - 4 * .pi) <= 1e-9)
    let startAngle = 0.2 * CGFloat.pi
    #expect(isClose(elements(of: cut)[0].1[0], CGPoint(x: 10 + 10 * cos(startAngle), y: 10 + 10 * sin(startAngle)), 1e-9))
}

@Test func segmentLookupAndPerElementPositions() {
    // Two subpaths: a 3-4-5 right angle, then a separate unit line.
    let path = CGMutablePath()
    path.move(to: .zero)
    path.addLine(to: CGPoint(x: 3, y: 0))
    path.addLine(to: CGPoint(x: 3, y: 4))
    path.move(to: CGPoint(x: 10, y: 10))
    path.addLine(to: CGPoint(x: 11, y: 10))
    let m = CGPathMeasure(path)
    #expect(m.length == 8)
    #expect(m.segments.map(\.subpathIndex) == [0, 0, 1])
    #expect(m.segments.map(\.elementIndex) == [1, 2, 4])
    #expect(m.segmentIndex(atLength: 0) == 0)
    #expect(m.segmentIndex(atLength: 3) == 1)  // a boundary belongs to the next segment
    #expect(m.segmentIndex(atLength: 7.5) == 2)
    #expect(m.segmentIndex(atLength: 8) == 2)
    #expect(m.segmentIndex(atLength: .nan) == 0)
    let p = m.position(inSegment: 1, atLength: 2)
    #expect(p.point == CGPoint(x: 3, y: 2))
    #expect(isClose(p.tangentAngle, .pi / 2, 1e-12))
    #expect(m.point(atLength: 7.5) == CGPoint(x: 10.5, y: 10))
    // Trimming across the subpath boundary keeps the jump as a new subpath.
    let trimmed = m.trimmedPath(fromLength: 5, toLength: 7.5)
    #expect(types(of: trimmed) == [.moveToPoint, .addLineToPoint, .moveToPoint, .addLineToPoint])
    #expect(trimmed.currentPoint == CGPoint(x: 10.5, y: 10))
}

@Test func hugeCoordinatesDoNotHang() {
    let path = CGMutablePath()
    path.move(to: .zero)
    path.addCurve(to: CGPoint(x: 1e300, y: 0), control1: CGPoint(x: 0, y: 1e300), control2: CGPoint(x: 1e300, y: 1e300))
    path.addArc(center: .zero, radius: 1e300, startAngle: 0, endAngle: 1, clockwise: false)
    let m = CGPathMeasure(path)
    #expect(m.segments.count >= 2)
    _ = m.point(atLength: m.length / 2)
    _ = path.contains(CGPoint(x: 1, y: 1))
    _ = path.trimmed(from: 0.2, to: 0.8)
}

@Test func trimmingTheWholeLengthKeepsTheClose() {
    let rect = CGPath(rect: CGRect(x: 0, y: 0, width: 2, height: 1), transform: nil)
    let m = CGPathMeasure(rect)
    let whole = m.trimmedPath(fromLength: 0, toLength: m.length)
    #expect(types(of: whole) == types(of: rect))
    #expect(elements(of: whole).map(\.1) == elements(of: rect).map(\.1))
    // Stopping short of the end leaves the subpath open: the closing line is cut.
    let almost = m.trimmedPath(fromLength: 0, toLength: 5.5)
    #expect(types(of: almost).last == .addLineToPoint)
    #expect(almost.currentPoint == CGPoint(x: 0, y: 0.5))
}

@Test func outAndBackAlongALineIsTheSumOfItsLegs() {
    // (150, 40), controls (190, 40) and (170, 40), back to (150, 40): x(t) = 150 + 60 t (1 − t)(2 − t),
    // whose speed 60 (3t² − 6t + 2) is zero at t = 1 − 1/√3, the turn at x = 150 + 40/√3. The
    // length is the two legs, out and back: 2 × 40/√3.
    let path = CGMutablePath()
    path.move(to: CGPoint(x: 150, y: 40))
    path.addCurve(to: CGPoint(x: 150, y: 40), control1: CGPoint(x: 190, y: 40), control2: CGPoint(x: 170, y: 40))
    let m = CGPathMeasure(path)
    let leg = 40 / 3.0.squareRoot()
    #expect(isClose(m.length, 2 * leg, 1e-10))
    #expect(isClose(m.point(atLength: leg)!, CGPoint(x: 150 + leg, y: 40), 1e-9))
    // A quarter and three quarters of the way lie half a leg out, going out (angle 0) and back (π).
    let out = m.position(atLength: leg / 2)!, back = m.position(atLength: 1.5 * leg)!
    #expect(isClose(out.point, CGPoint(x: 150 + leg / 2, y: 40), 1e-9))
    #expect(isClose(back.point, CGPoint(x: 150 + leg / 2, y: 40), 1e-9))
    #expect(isCloseAngle(out.tangentAngle, 0))
    #expect(isCloseAngle(back.tangentAngle, .pi))
    // Look-ups beside the turn, where the speed vanishes, land at distance s from the start
    // (x = 150 + s out, 150 + 2·leg − s back) to the documented 10⁻¹⁰ of the length; each was
    // seconds of quadrature before its bound.
    for k in -20...20 {
        let s = leg + CGFloat(k) * 1e-7
        let x = s <= leg ? 150 + s : 150 + 2 * leg - s
        #expect(isClose(m.point(atLength: s)!.x, x, 1e-10 * m.length))
    }
}
