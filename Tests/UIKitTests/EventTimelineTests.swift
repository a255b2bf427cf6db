import Testing
import UIKit

/// How `UIEventTimeline` expands steps into pointer events (times and locations by
/// construction: a drag's moves are evenly spaced in time and space).
struct EventTimelineTests {
    @Test func dragExpandsIntoEvenMoves() {
        let t = UIEventTimeline([.drag(from: CGPoint(x: 0, y: 0), to: CGPoint(x: 40, y: 20), at: 1, duration: 0.4, steps: 4)])
        #expect(t.events.map(\.phase) == [.began, .moved, .moved, .moved, .moved, .ended])
        #expect(t.events.map(\.location) == [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 5), CGPoint(x: 20, y: 10),
                                             CGPoint(x: 30, y: 15), CGPoint(x: 40, y: 20), CGPoint(x: 40, y: 20)])
        #expect(t.events.map(\.time).elementsEqual([1, 1.1, 1.2, 1.3, 1.4, 1.4], by: { abs($0 - $1) < 1e-12 }))
        #expect(abs(t.endTime - 1.4) < 1e-12)
    }

    @Test func stepsUseThePointersLastLocationAndSortByTime() {
        let t = UIEventTimeline([
            .down(CGPoint(x: 5, y: 5), at: 2),
            .move(to: CGPoint(x: 6, y: 7), at: 2.5),
            .up(at: 3),
            .tap(CGPoint(x: 1, y: 1), at: 0.5, duration: 0.1),
        ])
        #expect(t.events.map(\.time) == [0.5, 0.6, 2, 2.5, 3])
        #expect(t.events[4] == UIEventTimeline.PointerEvent(phase: .ended, location: CGPoint(x: 6, y: 7), time: 3))
        #expect(t.events[1].phase == .ended && t.events[1].location == CGPoint(x: 1, y: 1))
    }

    @Test func emptyTimeline() {
        #expect(UIEventTimeline([]).events.isEmpty && UIEventTimeline([]).endTime == 0)
    }
}
