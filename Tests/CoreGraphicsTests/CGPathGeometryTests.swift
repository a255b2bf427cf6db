import Testing
import CoreGraphics

// Expected values: closed-form extrema of Bézier curves and winding numbers by hand.

@Test func tightBoundsExcludeControlPoints() {
    // B(t) = (0,0)(1−t)³ + 3(0,1)(1−t)²t + 3(1,1)(1−t)t² + (1,0)t³: y(t) = 3t(1−t), max 3/4 at t = ½.
    let path = CGMutablePath()
    path.move(to: .zero)
    path.addCurve(to: CGPoint(x: 1, y: 0), control1: CGPoint(x: 0, y: 1), control2: CGPoint(x: 1, y: 1))
    #expect(path.boundingBox == CGRect(x: 0, y: 0, width: 1, height: 1))
    #expect(isClose(path.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 1, height: 0.75), 1e-12))
    // Quadratic with control (1, 2): y(t) = 4t(1−t)… max y = 1 at t = ½.
    let quad = CGMutablePath()
    quad.move(to: .zero)
    quad.addQuadCurve(to: CGPoint(x: 2, y: 0), control: CGPoint(x: 1, y: 2))
    #expect(isClose(quad.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 2, height: 1), 1e-12))
}

@Test func containsUsesTheFillRule() {
    let path = CGMutablePath()
    path.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
    path.addRect(CGRect(x: 3, y: 3, width: 4, height: 4))  // same direction: winding 2 inside
    let centre = CGPoint(x: 5, y: 5)
    #expect(path.contains(centre, using: .winding))
    #expect(!path.contains(centre, using: .evenOdd))
    #expect(path.contains(CGPoint(x: 1, y: 1), using: .evenOdd))
    #expect(!path.contains(CGPoint(x: 11, y: 5)))
    // Inner square traced the other way: winding 0 in the hole.
    let donut = CGMutablePath()
    donut.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
    donut.addLines(between: [CGPoint(x: 3, y: 3), CGPoint(x: 3, y: 7), CGPoint(x: 7, y: 7), CGPoint(x: 7, y: 3)])
    #expect(!donut.contains(centre, using: .winding))
    #expect(donut.contains(CGPoint(x: 1, y: 5), using: .winding))
}

@Test func containsOnCurvesAndWithTransform() {
    let circle = CGPath(ellipseIn: CGRect(x: -10, y: -10, width: 20, height: 20), transform: nil)
    #expect(circle.contains(CGPoint(x: 9.9 / 2.0.squareRoot(), y: 9.9 / 2.0.squareRoot())))
    #expect(!circle.contains(CGPoint(x: 10.1 / 2.0.squareRoot(), y: 10.1 / 2.0.squareRoot())))
    #expect(!circle.contains(CGPoint(x: 9.5, y: 9.5)))
    let moved = CGAffineTransform(translationX: 100, y: 0)
    #expect(circle.contains(CGPoint(x: 100, y: 0), transform: moved))
    #expect(!circle.contains(.zero, transform: moved))
}
