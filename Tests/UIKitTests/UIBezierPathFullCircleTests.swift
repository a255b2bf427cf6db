import Testing
import UIKit

/// Full-circle arcs through UIBezierPath: `startAngle: 0, endAngle: 2 * .pi` (and 2π → 0) is one
/// full circle on iOS in both directions (the way NVActivityIndicatorView draws every dot and
/// ring; see CGMutablePath.addArc(center:…)). Expected values are the circle's closed form:
/// bounding box center ± r, length 2πr, start center + r·(cos a, sin a), first quarter a quarter
/// turn away in the on-screen direction (clockwise on a y-down screen = increasing angle), area πr².
struct UIBezierPathFullCircleTests {
    static let turns: [(start: CGFloat, end: CGFloat, clockwise: Bool)] = [
        (0, 2 * .pi, false), (0, 2 * .pi, true), (2 * .pi, 0, false), (2 * .pi, 0, true),
    ]

    func expectFullCircle(_ p: UIBezierPath, center: CGPoint, radius: CGFloat, startAngle: CGFloat, clockwise: Bool,
                          sourceLocation: SourceLocation = #_sourceLocation) {
        let e = p.cgPath.storage.map { ($0.0, $0.1) }
        #expect(e.map(\.0) == [.moveToPoint] + Array(repeating: .addCurveToPoint, count: 4), sourceLocation: sourceLocation)
        guard e.count == 5 else { return }
        let start = CGPoint(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
        #expect(isClose(e[0].1[0], start, 1e-9), sourceLocation: sourceLocation)
        #expect(isClose(p.currentPoint, start, 1e-9), sourceLocation: sourceLocation)
        let quarter = startAngle + (clockwise ? 1 : -1) * .pi / 2
        let afterQuarter = CGPoint(x: center.x + radius * cos(quarter), y: center.y + radius * sin(quarter))
        #expect(isClose(e[1].1.last!, afterQuarter, 1e-9), sourceLocation: sourceLocation)
        let box = CGRect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
        #expect(isClose(p.cgPath.boundingBoxOfPath, box, 1e-9), sourceLocation: sourceLocation)
        #expect(abs(p.cgPath.length - 2 * .pi * radius) <= 3e-4 * 2 * .pi * radius, sourceLocation: sourceLocation)
    }

    /// The area `p.fill()` covers in a 100×100 image context, in pixels (sum of alpha).
    func filledArea(_ p: UIBezierPath) -> CGFloat {
        UIGraphicsBeginImageContext(CGSize(width: 100, height: 100))
        defer { UIGraphicsEndImageContext() }
        guard let context = UIGraphicsGetCurrentContext(), let data = context.data else { return 0 }
        UIColor.black.setFill()
        p.fill()
        let bytes = data.assumingMemoryBound(to: UInt8.self)
        var sum = 0
        for row in 0..<context.height {
            for x in 0..<context.width { sum += Int(bytes[row * context.bytesPerRow + x * 4 + 3]) }
        }
        return CGFloat(sum) / 255
    }

    @Test(arguments: 0..<4) func initArcCenterFullTurnIsOneCircle(_ i: Int) {
        let t = Self.turns[i]
        let p = UIBezierPath(arcCenter: CGPoint(x: 50, y: 45), radius: 30, startAngle: t.start, endAngle: t.end,
                             clockwise: t.clockwise)
        expectFullCircle(p, center: CGPoint(x: 50, y: 45), radius: 30, startAngle: t.start, clockwise: t.clockwise)
        #expect(abs(filledArea(p) - .pi * 900) <= 0.005 * .pi * 900)
    }

    @Test(arguments: 0..<4) func addArcFullTurnIsOneCircle(_ i: Int) {
        let t = Self.turns[i]
        let p = UIBezierPath()
        p.addArc(withCenter: CGPoint(x: 40, y: 50), radius: 20, startAngle: t.start, endAngle: t.end, clockwise: t.clockwise)
        expectFullCircle(p, center: CGPoint(x: 40, y: 50), radius: 20, startAngle: t.start, clockwise: t.clockwise)
        #expect(abs(filledArea(p) - .pi * 400) <= 0.005 * .pi * 400)
    }
}
