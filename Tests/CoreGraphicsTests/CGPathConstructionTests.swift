import Testing
import CoreGraphics

// Expected values: Apple's CGPath/CGMutablePath documentation (element order of addRect,
// arc conventions) and closed-form geometry. k = 4/3·tan(θ/4) is the standard cubic
// control-arm length for a circular arc of angle θ (for θ = 90°: 0.5522847498…).
private let quarterK = 4.0 / 3.0 * tan(CGFloat.pi / 8)

@Test func emptyPathHasNoCurrentPoint() {
    let path = CGMutablePath()
    #expect(path.isEmpty)
    #expect(path.currentPoint == .zero)
    #expect(path.boundingBox.isNull)
    #expect(path.boundingBoxOfPath.isNull)
    path.addLine(to: CGPoint(x: 5, y: 5))  // no current point: ignored, as Core Graphics does
    #expect(path.isEmpty)
}

@Test func linesAndCurvesAppendElements() {
    let path = CGMutablePath()
    path.move(to: CGPoint(x: 1, y: 2))
    path.addLine(to: CGPoint(x: 3, y: 4))
    path.addQuadCurve(to: CGPoint(x: 5, y: 6), control: CGPoint(x: 4, y: 9))
    path.addCurve(to: CGPoint(x: 7, y: 8), control1: CGPoint(x: 0, y: 0), control2: CGPoint(x: 1, y: 1))
    let e = elements(of: path)
    #expect(e.map(\.0) == [.moveToPoint, .addLineToPoint, .addQuadCurveToPoint, .addCurveToPoint])
    #expect(e[2].1 == [CGPoint(x: 4, y: 9), CGPoint(x: 5, y: 6)])
    #expect(e[3].1 == [CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 1), CGPoint(x: 7, y: 8)])
    #expect(path.currentPoint == CGPoint(x: 7, y: 8))
}

@Test func closeReturnsCurrentPointToSubpathStartAndRestartsThere() {
    let path = CGMutablePath()
    path.move(to: CGPoint(x: 1, y: 1))
    path.addLine(to: CGPoint(x: 4, y: 1))
    path.closeSubpath()
    #expect(path.currentPoint == CGPoint(x: 1, y: 1))
    path.addLine(to: CGPoint(x: 1, y: 9))
    #expect(types(of: path) == [.moveToPoint, .addLineToPoint, .closeSubpath, .moveToPoint, .addLineToPoint])
    #expect(elements(of: path)[3].1 == [CGPoint(x: 1, y: 1)])
}

@Test func transformIsAppliedToAddedPoints() {
    let path = CGMutablePath()
    let t = CGAffineTransform(translationX: 10, y: 20)
    path.move(to: .zero, transform: t)
    path.addLine(to: CGPoint(x: 1, y: 1), transform: t)
    #expect(elements(of: path)[1].1 == [CGPoint(x: 11, y: 21)])
    path.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 2, y: 0), CGPoint(x: 2, y: 2)])
    #expect(types(of: path).suffix(3) == [.moveToPoint, .addLineToPoint, .addLineToPoint])
}

@Test func addRectFollowsApplesDocumentedOrder() {
    let path = CGMutablePath()
    path.addRect(CGRect(x: 1, y: 2, width: 3, height: 4))
    let e = elements(of: path)
    #expect(e.map(\.0) == [.moveToPoint, .addLineToPoint, .addLineToPoint, .addLineToPoint, .closeSubpath])
    #expect(e.prefix(4).map { $0.1[0] } == [CGPoint(x: 1, y: 2), CGPoint(x: 4, y: 2), CGPoint(x: 4, y: 6), CGPoint(x: 1, y: 6)])
    var t = CGAffineTransform(scaleX: 2, y: 2)
    let scaled = CGPath(rect: CGRect(x: 1, y: 2, width: 3, height: 4), transform: &t)
    #expect(scaled.boundingBox == CGRect(x: 2, y: 4, width: 6, height: 8))
    let two = CGMutablePath()
    two.addRects([CGRect(x: 0, y: 0, width: 1, height: 1), CGRect(x: 5, y: 5, width: 1, height: 1)])
    #expect(types(of: two).filter { $0 == .moveToPoint }.count == 2)
}

@Test func quarterArcCounterClockwiseIsOneCubic() {
    let path = CGMutablePath()
    path.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: .pi / 2, clockwise: false)
    let e = elements(of: path)
    #expect(e.map(\.0) == [.moveToPoint, .addCurveToPoint])
    #expect(isClose(e[0].1[0], CGPoint(x: 1, y: 0), 1e-12))
    #expect(isClose(e[1].1[0], CGPoint(x: 1, y: quarterK), 1e-12))
    #expect(isClose(e[1].1[1], CGPoint(x: quarterK, y: 1), 1e-12))
    #expect(isClose(e[1].1[2], CGPoint(x: 0, y: 1), 1e-12))
}

@Test func clockwiseArcRunsWithDecreasingAngle() {
    // Apple: clockwise in the y-up default space, i.e. decreasing angle. From 0 to π/2
    // clockwise is therefore the long way round (270°) through (0, −1) and (−1, 0).
    let path = CGMutablePath()
    path.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: .pi / 2, clockwise: true)
    let e = elements(of: path)
    #expect(e.map(\.0) == [.moveToPoint, .addCurveToPoint, .addCurveToPoint, .addCurveToPoint])
    #expect(isClose(e[1].1[2], CGPoint(x: 0, y: -1), 1e-12))
    #expect(isClose(e[2].1[2], CGPoint(x: -1, y: 0), 1e-12))
    #expect(isClose(path.currentPoint, CGPoint(x: 0, y: 1), 1e-12))
}

@Test func fullTurnArcs() {
    let ccw = CGMutablePath()
    ccw.addArc(center: CGPoint(x: 5, y: 5), radius: 2, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
    #expect(types(of: ccw) == [.moveToPoint] + Array(repeating: .addCurveToPoint, count: 4))
    #expect(isClose(ccw.boundingBoxOfPath, CGRect(x: 3, y: 3, width: 4, height: 4), 1e-12))
    // The same angles against the direction: one full circle too, turning the other way, as
    // iOS draws it (see CGPathFullCircleArcTests).
    let cw = CGMutablePath()
    cw.addArc(center: CGPoint(x: 5, y: 5), radius: 2, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
    #expect(types(of: cw) == [.moveToPoint] + Array(repeating: .addCurveToPoint, count: 4))
    #expect(isClose(cw.boundingBoxOfPath, CGRect(x: 3, y: 3, width: 4, height: 4), 1e-12))
}

@Test func arcAfterCurrentPointStartsWithALine() {
    let path = CGMutablePath()
    path.move(to: .zero)
    path.addArc(center: CGPoint(x: 10, y: 0), radius: 5, startAngle: .pi, endAngle: 0, clockwise: true)
    let e = elements(of: path)
    #expect(e.map(\.0) == [.moveToPoint, .addLineToPoint, .addCurveToPoint, .addCurveToPoint])
    #expect(isClose(e[1].1[0], CGPoint(x: 5, y: 0), 1e-12))
    // π → 0 decreasing passes through angle π/2: the top (y = 5) in y-up space.
    #expect(isClose(e[2].1[2], CGPoint(x: 10, y: 5), 1e-12))
    #expect(isClose(path.currentPoint, CGPoint(x: 15, y: 0), 1e-12))
}

@Test func relativeArcSignGivesDirection() {
    let path = CGMutablePath()
    path.addRelativeArc(center: .zero, radius: 3, startAngle: 0, delta: -.pi / 2)
    #expect(isClose(path.currentPoint, CGPoint(x: 0, y: -3), 1e-12))
    let positive = CGMutablePath()
    positive.addRelativeArc(center: .zero, radius: 3, startAngle: .pi / 2, delta: .pi)
    #expect(isClose(positive.currentPoint, CGPoint(x: 0, y: -3), 1e-12))
    #expect(isClose(positive.boundingBoxOfPath.minX, -3, 1e-12))
}

@Test func tangentArcRoundsACorner() {
    // Corner at (10, 0) between the x axis and the vertical x = 10, radius 2:
    // tangent points (8, 0) and (10, 2), centre (8, 2).
    let path = CGMutablePath()
    path.move(to: .zero)
    path.addArc(tangent1End: CGPoint(x: 10, y: 0), tangent2End: CGPoint(x: 10, y: 10), radius: 2)
    let e = elements(of: path)
    #expect(e.map(\.0) == [.moveToPoint, .addLineToPoint, .addCurveToPoint])
    #expect(isClose(e[1].1[0], CGPoint(x: 8, y: 0), 1e-12))
    #expect(isClose(path.currentPoint, CGPoint(x: 10, y: 2), 1e-12))
    #expect(isClose(e[2].1[0], CGPoint(x: 8 + 2 * quarterK, y: 0), 1e-12))
    // Collinear points: just the line to tangent1End.
    let straight = CGMutablePath()
    straight.move(to: .zero)
    straight.addArc(tangent1End: CGPoint(x: 5, y: 0), tangent2End: CGPoint(x: 9, y: 0), radius: 2)
    #expect(types(of: straight) == [.moveToPoint, .addLineToPoint])
    #expect(straight.currentPoint == CGPoint(x: 5, y: 0))
}

@Test func ellipseStartsAtMaxXMidYAndTurnsTowardsMaxY() {
    let path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 4, height: 2), transform: nil)
    let e = elements(of: path)
    #expect(e.map(\.0) == [.moveToPoint] + Array(repeating: .addCurveToPoint, count: 4) + [.closeSubpath])
    #expect(isClose(e[0].1[0], CGPoint(x: 4, y: 1)))
    let ends = e[1...4].map { $0.1[2] }
    #expect(isClose(ends[0], CGPoint(x: 2, y: 2)) && isClose(ends[1], CGPoint(x: 0, y: 1)))
    #expect(isClose(ends[2], CGPoint(x: 2, y: 0)) && isClose(ends[3], CGPoint(x: 4, y: 1)))
    #expect(isClose(path.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 4, height: 2)))
    #expect(isClose(path.boundingBox, CGRect(x: 0, y: 0, width: 4, height: 2)))
}

@Test func roundedRectBoundsAndCornerFallback() {
    let rect = CGRect(x: 10, y: 20, width: 100, height: 50)
    let rounded = CGPath(roundedRect: rect, cornerWidth: 10, cornerHeight: 5, transform: nil)
    #expect(isClose(rounded.boundingBoxOfPath, rect))
    #expect(types(of: rounded).last == .closeSubpath)
    #expect(types(of: rounded).filter { $0 == .addCurveToPoint }.count == 4)
    let square = CGPath(roundedRect: rect, cornerWidth: 0, cornerHeight: 0, transform: nil)
    #expect(square == CGPath(rect: rect, transform: nil))
}

@Test func addPathAndCopiesApplyTransforms() {
    let source = CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: nil)
    let target = CGMutablePath()
    target.addPath(source, transform: CGAffineTransform(translationX: 5, y: 0))
    #expect(target.boundingBox == CGRect(x: 5, y: 0, width: 1, height: 1))
    var t = CGAffineTransform(scaleX: 3, y: 3)
    #expect(source.copy(using: &t)?.boundingBox == CGRect(x: 0, y: 0, width: 3, height: 3))
    let mutable = source.mutableCopy()
    mutable?.addLine(to: CGPoint(x: 9, y: 9))
    #expect(source.boundingBox == CGRect(x: 0, y: 0, width: 1, height: 1))
    #expect(mutable?.boundingBox == CGRect(x: 0, y: 0, width: 9, height: 9))
    #expect(source.copy() == source)
}

@Test func nonFiniteInputIsIgnored() {
    let path = CGMutablePath()
    path.move(to: CGPoint(x: CGFloat.nan, y: 0))
    #expect(path.isEmpty)
    path.move(to: .zero)
    path.addLine(to: CGPoint(x: CGFloat.infinity, y: 1))
    path.addArc(center: .zero, radius: .nan, startAngle: 0, endAngle: 1, clockwise: false)
    path.addEllipse(in: CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 1))
    #expect(types(of: path) == [.moveToPoint])
}

@Test func uiBezierPathDocumentedHalfCircles() {
    // UIBezierPath(arcCenter:…) documentation: in UIKit's y-down space, start 0, end π,
    // clockwise: true draws the bottom half; clockwise: false the top half. UIBezierPath's
    // "clockwise" is on screen, i.e. Core Graphics' clockwise: false in y-up terms
    // (Apple: "in a flipped coordinate system … a clockwise arc results in a
    // counterclockwise arc"). Bottom on a y-down screen = larger y.
    let screenClockwise = CGMutablePath()
    screenClockwise.addArc(center: CGPoint(x: 50, y: 50), radius: 10, startAngle: 0, endAngle: .pi, clockwise: false)
    #expect(isClose(screenClockwise.boundingBoxOfPath, CGRect(x: 40, y: 50, width: 20, height: 10), 1e-9))
    let screenCounterClockwise = CGMutablePath()
    screenCounterClockwise.addArc(center: CGPoint(x: 50, y: 50), radius: 10, startAngle: 0, endAngle: .pi, clockwise: true)
    #expect(isClose(screenCounterClockwise.boundingBoxOfPath, CGRect(x: 40, y: 40, width: 20, height: 10), 1e-9))
}
