import Testing
import CoreGraphics

// Full-circle arcs: when |endAngle − startAngle| ≥ 2π, addArc draws one full circle from
// startAngle in the requested direction (iOS draws `0 → 2π` circles either way; see
// CGMutablePath.addArc(center:…)). Expected values are closed-form geometry of the circle:
// bounding box center ± r, length 2πr, start point center + r·(cos a, sin a), area πr².

/// The four ways of asking for a whole turn: both angle orders, both directions.
private let fullTurns: [(start: CGFloat, end: CGFloat, clockwise: Bool)] = [
    (0, 2 * .pi, false), (0, 2 * .pi, true), (2 * .pi, 0, false), (2 * .pi, 0, true),
]

/// Checks that `path` (in user space) is one full circle of `radius` around `center`, starting
/// at `startAngle` and turning with decreasing angle when `clockwise` (Core Graphics' y-up
/// convention), increasing otherwise.
private func expectFullCircle(_ path: CGPath, center: CGPoint, radius: CGFloat, startAngle: CGFloat,
                              clockwise: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
    let e = elements(of: path)
    #expect(e.map(\.0) == [.moveToPoint] + Array(repeating: .addCurveToPoint, count: 4),
            sourceLocation: sourceLocation)
    guard e.count == 5 else { return }
    let start = CGPoint(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
    #expect(isClose(e[0].1[0], start, 1e-9), sourceLocation: sourceLocation)
    #expect(isClose(path.currentPoint, start, 1e-9), sourceLocation: sourceLocation)
    // The first quarter ends a quarter turn away in the requested direction.
    let quarter = startAngle + (clockwise ? -1 : 1) * .pi / 2
    let afterQuarter = CGPoint(x: center.x + radius * cos(quarter), y: center.y + radius * sin(quarter))
    #expect(isClose(e[1].1[2], afterQuarter, 1e-9), sourceLocation: sourceLocation)
    let box = CGRect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
    #expect(isClose(path.boundingBoxOfPath, box, 1e-9), sourceLocation: sourceLocation)
    // Four cubic quarters deviate from the circle by at most 2.7e-4 of the radius.
    #expect(abs(path.length - 2 * .pi * radius) <= 3e-4 * 2 * .pi * radius, sourceLocation: sourceLocation)
}

/// Fills `path` in a 100×100 bitmap and returns the covered area in pixels (sum of alpha).
private func filledArea(_ fill: (CGContext) -> Void) -> CGFloat {
    let context = makeBitmapContext()
    context.setFillColor(CGColor(red: 0, green: 0, blue: 0, alpha: 1))
    fill(context)
    var sum = 0
    for row in 0..<100 { for x in 0..<100 { sum += pixel(context, x: x, row: row)[3] } }
    return CGFloat(sum) / 255
}

@Test(arguments: 0..<4) func mutablePathFullTurnIsOneCircle(_ i: Int) {
    let t = fullTurns[i]
    let path = CGMutablePath()
    path.addArc(center: CGPoint(x: 50, y: 40), radius: 30, startAngle: t.start, endAngle: t.end, clockwise: t.clockwise)
    expectFullCircle(path, center: CGPoint(x: 50, y: 40), radius: 30, startAngle: t.start, clockwise: t.clockwise)
    let area = filledArea { $0.addPath(path); $0.fillPath() }
    #expect(abs(area - .pi * 900) <= 0.005 * .pi * 900)
}

@Test(arguments: 0..<4) func contextFullTurnIsOneCircle(_ i: Int) throws {
    let t = fullTurns[i]
    let context = makeBitmapContext()
    context.addArc(center: CGPoint(x: 50, y: 50), radius: 25, startAngle: t.start, endAngle: t.end, clockwise: t.clockwise)
    let path = try #require(context.path)
    expectFullCircle(path, center: CGPoint(x: 50, y: 50), radius: 25, startAngle: t.start, clockwise: t.clockwise)
    let area = filledArea {
        $0.addArc(center: CGPoint(x: 50, y: 50), radius: 25, startAngle: t.start, endAngle: t.end, clockwise: t.clockwise)
        $0.fillPath()
    }
    #expect(abs(area - .pi * 625) <= 0.005 * .pi * 625)
}

@Test func moreThanATurnIsStillOneCircle() {
    // 0 → 3π either way: one circle, not one and a half.
    for clockwise in [false, true] {
        let path = CGMutablePath()
        path.addArc(center: .zero, radius: 2, startAngle: 0, endAngle: 3 * .pi, clockwise: clockwise)
        expectFullCircle(path, center: .zero, radius: 2, startAngle: 0, clockwise: clockwise)
    }
}

@Test func arcsShortOfATurnKeepTheirDirection() {
    // Against the direction and short of 2π: still the long way round (Apple's addArc rule).
    let path = CGMutablePath()
    path.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: 1.5 * .pi, clockwise: true)
    #expect(isClose(path.length, 0.5 * CGFloat.pi, 1e-3))
    let back = CGMutablePath()
    back.addArc(center: .zero, radius: 1, startAngle: 1.5 * .pi, endAngle: 0, clockwise: false)
    #expect(isClose(back.length, 0.5 * CGFloat.pi, 1e-3))
    // Equal angles: only the start point.
    let none = CGMutablePath()
    none.addArc(center: .zero, radius: 1, startAngle: .pi, endAngle: .pi, clockwise: true)
    #expect(types(of: none) == [.moveToPoint])
}
