import Testing
import UIKit

/// UIBezierPath's elements for each constructor, against the geometry Apple documents (and the
/// seed tutorial states for keyframe paths: a rectangle starts at its top-left corner, an oval
/// at 3 o'clock, both running clockwise on screen), with arc points from cos/sin.
struct UIBezierPathTests {
    typealias Element = (type: CGPathElementType, points: [CGPoint])

    func elements(_ p: UIBezierPath) -> [Element] { p.cgPath.storage.map { ($0.0, $0.1) } }
    func ends(_ p: UIBezierPath) -> [CGPoint] { elements(p).compactMap { $0.points.last } }

    /// The point of cubic `c` (from `p0`) at parameter t.
    func cubicPoint(_ p0: CGPoint, _ c: [CGPoint], _ t: CGFloat) -> CGPoint {
        let u = 1 - t
        let w = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t]
        let pts = [p0] + c
        return CGPoint(x: zip(w, pts).reduce(0) { $0 + $1.0 * $1.1.x }, y: zip(w, pts).reduce(0) { $0 + $1.0 * $1.1.y })
    }

    @Test func rectStartsTopLeftAndRunsClockwiseOnScreen() {
        let e = elements(UIBezierPath(rect: CGRect(x: 10, y: 20, width: 30, height: 40)))
        #expect(e.map(\.type) == [.moveToPoint, .addLineToPoint, .addLineToPoint, .addLineToPoint, .closeSubpath])
        #expect(e.compactMap(\.points.first) == [CGPoint(x: 10, y: 20), CGPoint(x: 40, y: 20), CGPoint(x: 40, y: 60), CGPoint(x: 10, y: 60)])
    }

    @Test func ovalStartsAtThreeOClockWithFourQuarterCurves() {
        let r = CGRect(x: 0, y: 0, width: 100, height: 60)
        let p = UIBezierPath(ovalIn: r)
        let e = elements(p)
        #expect(e.map(\.type) == [.moveToPoint] + Array(repeating: .addCurveToPoint, count: 4) + [.closeSubpath])
        // 3 o'clock, then 6 (max y: clockwise on a y-down screen), 9, 12, back to 3.
        #expect(ends(p).prefix(5).elementsEqual([CGPoint(x: 100, y: 30), CGPoint(x: 50, y: 60), CGPoint(x: 0, y: 30),
                                                  CGPoint(x: 50, y: 0), CGPoint(x: 100, y: 30)], by: { isClose($0, $1, 1e-9) }))
        // Each quarter is the standard cubic: control arms 4/3·tan(π/8) of the radius.
        let k = 4.0 / 3.0 * tan(CGFloat.pi / 8)
        #expect(isClose(e[1].points[0], CGPoint(x: 100, y: 30 + 30 * k), 1e-9))
        #expect(isClose(e[1].points[1], CGPoint(x: 50 + 50 * k, y: 60), 1e-9))
        // The curve's middle is on the ellipse at 45°: (cx + a·cos 45°, cy + b·sin 45°), within
        // the cubic's known error (2.7e-4 of the radius).
        let mid = cubicPoint(e[0].points[0], e[1].points, 0.5)
        #expect(isClose(mid, CGPoint(x: 50 + 50 * cos(CGFloat.pi / 4), y: 30 + 30 * sin(CGFloat.pi / 4)), 50 * 3e-4))
    }

    @Test func roundedRectHasFourQuarterCorners() {
        let p = UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 50), cornerRadius: 10)
        let e = elements(p)
        #expect(e.map(\.type) == [.moveToPoint, .addLineToPoint, .addCurveToPoint, .addLineToPoint, .addCurveToPoint,
                                  .addLineToPoint, .addCurveToPoint, .addLineToPoint, .addCurveToPoint, .closeSubpath])
        let expected = [CGPoint(x: 10, y: 0), CGPoint(x: 90, y: 0), CGPoint(x: 100, y: 10), CGPoint(x: 100, y: 40),
                        CGPoint(x: 90, y: 50), CGPoint(x: 10, y: 50), CGPoint(x: 0, y: 40), CGPoint(x: 0, y: 10),
                        CGPoint(x: 10, y: 0)]
        #expect(ends(p).prefix(9).elementsEqual(expected, by: { isClose($0, $1, 1e-9) }))
        // The radius is clamped to half the shorter side: a 40 × 20 rectangle with radius 50 is a
        // capsule whose first point is 10 from the left.
        let capsule = UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 40, height: 20), cornerRadius: 50)
        #expect(isClose(ends(capsule)[0], CGPoint(x: 10, y: 0)))
        // Only the chosen corners are rounded.
        let one = UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 50), byRoundingCorners: [.topRight],
                               cornerRadii: CGSize(width: 10, height: 10))
        #expect(elements(one).filter { $0.type == .addCurveToPoint }.count == 1)
        #expect(isClose(ends(one)[0], CGPoint(x: 0, y: 0)))
    }

    @Test func arcEndPointsFollowCosAndSin() {
        let c = CGPoint(x: 50, y: 40), r: CGFloat = 20
        let start: CGFloat = 0.3, end: CGFloat = 2.2
        let p = UIBezierPath(arcCenter: c, radius: r, startAngle: start, endAngle: end, clockwise: true)
        let e = elements(p)
        #expect(e.first?.type == .moveToPoint)
        #expect(isClose(e[0].points[0], CGPoint(x: c.x + r * cos(start), y: c.y + r * sin(start)), 1e-9))
        #expect(isClose(p.currentPoint, CGPoint(x: c.x + r * cos(end), y: c.y + r * sin(end)), 1e-9))
        // Sweep 1.9 rad clockwise on screen (increasing angle): two cubics of at most 90°.
        #expect(e.dropFirst().allSatisfy { $0.type == .addCurveToPoint } && e.count == 3)
        // The first cubic's middle lies on the circle at start + 1.9/4.
        let mid = cubicPoint(e[0].points[0], e[1].points, 0.5)
        let a = start + (end - start) / 4
        #expect(isClose(mid, CGPoint(x: c.x + r * cos(a), y: c.y + r * sin(a)), r * 3e-4))
    }

    @Test func counterClockwiseArcGoesTheOtherWay() {
        let c = CGPoint.zero, r: CGFloat = 10
        // 0 → π/2 counter-clockwise on screen sweeps 3π/2 through angle −π/2 (the top, y = −r).
        let p = UIBezierPath(arcCenter: c, radius: r, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        let e = elements(p)
        #expect(e.count == 4)
        #expect(isClose(e[1].points[2], CGPoint(x: 0, y: -10), 1e-9))
        #expect(isClose(p.currentPoint, CGPoint(x: 0, y: 10), 1e-9))
        // Clockwise 0 → π/2 is one quarter through +y.
        let q = UIBezierPath(arcCenter: c, radius: r, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        #expect(elements(q).count == 2)
    }

    @Test func buildingMethodsAndQueries() {
        let p = UIBezierPath()
        #expect(p.isEmpty)
        p.move(to: CGPoint(x: 0, y: 0))
        p.addLine(to: CGPoint(x: 10, y: 0))
        #expect(p.currentPoint == CGPoint(x: 10, y: 0))
        p.addQuadCurve(to: CGPoint(x: 20, y: 10), controlPoint: CGPoint(x: 20, y: -30))
        p.addCurve(to: CGPoint(x: 0, y: 20), controlPoint1: CGPoint(x: 15, y: 25), controlPoint2: CGPoint(x: 5, y: 25))
        p.close()
        #expect(elements(p).map(\.type) == [.moveToPoint, .addLineToPoint, .addQuadCurveToPoint, .addCurveToPoint, .closeSubpath])
        #expect(elements(p)[2].points == [CGPoint(x: 20, y: -30), CGPoint(x: 20, y: 10)])
        // After close the current point is the subpath's start.
        #expect(p.currentPoint == .zero)
        // Bounds enclose the control points too (Apple documents this for `bounds`).
        #expect(p.bounds == CGRect(x: 0, y: -30, width: 20, height: 55))
        // addArc with a current point first draws a line to the arc's start.
        let q = UIBezierPath()
        q.move(to: CGPoint(x: -5, y: 0))
        q.addArc(withCenter: .zero, radius: 5, startAngle: .pi / 2, endAngle: .pi, clockwise: true)
        #expect(elements(q).map(\.type) == [.moveToPoint, .addLineToPoint, .addCurveToPoint])
        #expect(isClose(elements(q)[1].points[0], CGPoint(x: 0, y: 5), 1e-9))
        // append adds the other path's elements; removeAllPoints empties.
        q.append(UIBezierPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)))
        #expect(elements(q).count == 8)
        q.removeAllPoints()
        #expect(q.isEmpty && q.currentPoint == .zero)
        // Defaults (Apple): line width 1, butt caps, miter joins, miter limit 10.
        #expect(p.lineWidth == 1 && p.lineCapStyle == .butt && p.lineJoinStyle == .miter && p.miterLimit == 10)
        #expect(UIBezierPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)).contains(CGPoint(x: 5, y: 5)))
    }

    @Test func cgPathIsACopy() {
        let p = UIBezierPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1))
        let snapshot = p.cgPath
        p.addLine(to: CGPoint(x: 5, y: 5))
        #expect(snapshot.storage.count == 5)
        #expect(UIBezierPath(cgPath: snapshot).cgPath == snapshot)
    }

    @Test func strokeAndFillDrawIntoTheCurrentContext() throws {
        let renderer = UIGraphicsImageRenderer(size: CGSize(width: 20, height: 20), format: {
            let f = UIGraphicsImageRendererFormat(); f.scale = 1; return f
        }())
        let image = renderer.image { _ in
            UIColor.red.setFill()
            UIBezierPath(rect: CGRect(x: 0, y: 0, width: 10, height: 20)).fill()
            UIColor.blue.setStroke()
            let line = UIBezierPath()
            line.move(to: CGPoint(x: 10, y: 15))
            line.addLine(to: CGPoint(x: 20, y: 15))
            line.lineWidth = 4
            line.stroke()
        }
        let px = try #require(image.cgImage).pixmap
        // Fill: the left half red, rows counted from the top (UIKit's y-down space).
        #expect(px.pixel(x: 3, y: 2) == .init(r: 255, g: 0, b: 0, a: 255))
        // Stroke: y 13…17 of the right half blue, y 5 untouched.
        #expect(px.pixel(x: 15, y: 14) == .init(r: 0, g: 0, b: 255, a: 255))
        #expect(px.pixel(x: 15, y: 16) == .init(r: 0, g: 0, b: 255, a: 255))
        #expect(px.pixel(x: 15, y: 5).a == 0)
        #expect(image.size == CGSize(width: 20, height: 20) && image.scale == 1)
    }
}
