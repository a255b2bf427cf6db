import Foundation
import Scene
import Testing

/// `.twoFingerDrag`: both fingers down, `steps` moves each, both up; the line between them turns
/// and stretches evenly about a midpoint that moves in a straight line (closed-form positions).
@Suite struct TwoFingerScriptTests {
    @Test func aTwoFingerDragExpandsIntoPairedEvents() {
        // Midpoint (150, 200) fixed, half-length 50, the line turning from 0 to π/2 in 2 steps.
        let script = SceneScript([.twoFingerDrag(from: CGPoint(x: 100, y: 200), CGPoint(x: 200, y: 200),
                                                 to: CGPoint(x: 150, y: 150), CGPoint(x: 150, y: 250), at: 1, duration: 0.2, steps: 2)])
        #expect(script.events.count == 2 + 2 * 2 + 2)
        #expect(script.events[0].input == .pointer(.began, CGPoint(x: 100, y: 200)))
        #expect(script.events[1].input == .touch(1, .began, CGPoint(x: 200, y: 200)))
        // Half way: the line at π/4.
        let h = 50 / 2.0.squareRoot()
        guard case let .pointer(.moved, p0) = script.events[2].input, case let .touch(1, .moved, p1) = script.events[3].input else {
            Issue.record("expected paired moves, got \(script.events[2].input), \(script.events[3].input)")
            return
        }
        #expect(abs(p0.x - (150 - h)) < 1e-9 && abs(p0.y - (200 - h)) < 1e-9)
        #expect(abs(p1.x - (150 + h)) < 1e-9 && abs(p1.y - (200 + h)) < 1e-9)
        #expect(abs(script.events[2].time - 1.1) < 1e-12)
        #expect(script.events.suffix(2).map(\.input) == [.pointer(.ended, CGPoint(x: 150, y: 150)), .touch(1, .ended, CGPoint(x: 150, y: 250))])
    }

    @Test func nonFinitePointsLeaveTheStepOut() {
        let script = SceneScript([.twoFingerDrag(from: CGPoint(x: CGFloat.nan, y: 0), .zero, to: .zero, .zero, at: 0, duration: 1)])
        #expect(script.events.isEmpty)
    }
}
