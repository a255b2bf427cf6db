import Scene
import UIKit
import Demos
import Foundation
import Testing

@Suite(.serialized) struct SeedPathDotsTests {
    func drawView(in window: UIWindow) throws -> SeedPathDotsView {
        try #require(window.subviews.compactMap { $0 as? SeedPathDotsView }.first)
    }

    @Test func keyframePathIsTheDrawnStroke() throws {
        let demo = SeedDemo.pathDots
        let driver = SeedDriver(demo)
        let view = try drawView(in: driver.window)
        driver.run(demo.timeline, to: 0.8)
        let stroke = demo.timelineStrokePoints
        #expect(view.points == stroke)
        #expect(view.moveCount == stroke.count - 1)
        #expect(view.dotLayer == nil)
        // The stroke drawn: one move, then a line per touch move, as the touches gave them.
        let drawn = view.path.cgPath.storage
        #expect(drawn.map(\.0) == [.moveToPoint] + Array(repeating: .addLineToPoint, count: stroke.count - 1))
        #expect(drawn.flatMap(\.1) == stroke)

        driver.run(demo.timeline, to: 1.2)  // "Start" tapped at 1.0
        let dot = try #require(view.dotLayer)
        #expect(dot.superlayer === view.replicatorLayer)
        #expect(dot.bounds.size == CGSize(width: 10, height: 10) && dot.cornerRadius == 5)
        // Added without a key, as in the seed: attached, but not listed by animationKeys().
        #expect(dot._hasAnimations && dot.animationKeys() == nil)
        let animation = try #require(view.dotAnimation)
        #expect(animation.keyPath == "position")
        #expect(animation.duration == 3 && animation.repeatCount == .greatestFiniteMagnitude)
        let path = try #require(animation.path).storage
        #expect(path.map(\.0) == [.moveToPoint] + Array(repeating: .addLineToPoint, count: stroke.count - 1))
        #expect(path.flatMap(\.1) == stroke)
        #expect(view.replicatorLayer.instanceCount == stroke.count - 1)
        #expect(view.replicatorLayer.instanceDelay == 0.2)
    }

    @Test func dotIsOnThePathAndRedrawClears() throws {
        let demo = SeedDemo.pathDots
        let driver = SeedDriver(demo)
        let view = try drawView(in: driver.window)
        driver.run(demo.timeline, to: 1.1)
        let dot = try #require(view.dotLayer)
        // Just after "Start" (tap up at 1.05) the dot is near the stroke's first point.
        let p = try #require(dot.presentation()?.position)
        let first = demo.timelineStrokePoints[0]
        #expect(hypot(p.x - first.x, p.y - first.y) < 12, "dot at \(p), stroke starts at \(first)")
        #expect(p.y > -500)
        let redraw = SceneScript([.tap(CGPoint(x: 240, y: 295), at: 2.0)])
        driver.run(redraw, to: 2.2)
        #expect(view.dotLayer == nil && view.points.isEmpty && view.path.isEmpty && view.moveCount == 0)
        #expect(view.replicatorLayer.sublayers?.isEmpty ?? true)
    }
}

extension SeedDemo {
    /// The stroke's points in the draw view's coordinates (the view is at the window's origin).
    var timelineStrokePoints: [CGPoint] {
        var points: [CGPoint] = []
        for e in timeline.events where e.time < 0.75 {
            if case let .pointer(phase, location) = e.input, phase == .began || phase == .moved { points.append(location) }
        }
        return points
    }
}
