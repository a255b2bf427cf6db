import Scene
import UIKit
import Demos
import Foundation
import Testing

@Suite(.serialized) struct SeedStickyBubbleTests {
    static let origin = CGPoint(x: 100, y: 120)

    func bubble(in window: UIWindow) throws -> SeedBubbleView {
        try #require(window.subviews.compactMap { $0 as? SeedBubbleView }.first)
    }

    /// Seed 001's formulas, written out again for the test.
    func expectedPoints(x1: CGFloat, y1: CGFloat, r1: CGFloat, x2: CGFloat, y2: CGFloat, r2: CGFloat) -> [CGPoint] {
        let distance = sqrt((x1 - x2) * (x1 - x2) + (y1 - y2) * (y1 - y2))
        let cosA = distance == 0 ? 1 : (y2 - y1) / distance
        let sinA = distance == 0 ? 0 : (x2 - x1) / distance
        let A = CGPoint(x: x1 - r1 * cosA, y: y1 + r1 * sinA)
        let B = CGPoint(x: x1 + r1 * cosA, y: y1 - r1 * sinA)
        let C = CGPoint(x: x2 + r2 * cosA, y: y2 - r2 * sinA)
        let D = CGPoint(x: x2 - r2 * cosA, y: y2 + r2 * sinA)
        let E = CGPoint(x: A.x + distance / 2 * sinA, y: A.y + distance / 2 * cosA)
        let F = CGPoint(x: B.x + distance / 2 * sinA, y: B.y + distance / 2 * cosA)
        return [A, B, C, D, E, F]
    }

    @Test func connectorPointsFollowSeed001AtSeveralDragPositions() throws {
        let positions = [CGPoint(x: 130, y: 120), CGPoint(x: 100, y: 170), CGPoint(x: 60, y: 90), CGPoint(x: 157, y: 160)]
        var steps: [SceneScript.Step] = [.down(Self.origin, at: 0.1)]
        for (i, p) in positions.enumerated() { steps.append(.move(to: p, at: 0.2 + 0.1 * Double(i))) }
        let timeline = SceneScript(steps)
        let driver = SeedDriver(.stickyBubble)
        let bubble = try bubble(in: driver.window)
        for (i, p) in positions.enumerated() {
            driver.run(timeline, to: 0.2 + 0.1 * Double(i))
            // The big circle's centre is where the finger is (the drag started at its centre).
            #expect(close(bubble.center, p), "centre \(bubble.center) vs \(p)")
            let d = hypot(p.x - Self.origin.x, p.y - Self.origin.y)
            let small = try #require(bubble.smallCircleView)
            #expect(close(small.bounds.width / 2, 20 - d / 10), "small radius at d = \(d)")
            let expected = expectedPoints(x1: Self.origin.x, y1: Self.origin.y, r1: 20 - d / 10, x2: p.x, y2: p.y, r2: 20)
            let (A, B, C, D, E, F) = (expected[0], expected[1], expected[2], expected[3], expected[4], expected[5])
            let g = try #require(bubble.geometry)
            #expect(close(g.distance, d))
            #expect([g.a, g.b, g.c, g.d, g.e, g.f].elementsEqual(expected) { close($0, $1) }, "points at \(p)")
            // The shape layer's path: A → B, quad to C through F, → D, quad to A through E.
            let path = try #require(bubble.shapeLayer?.path).storage
            #expect(path.map(\.0) == [.moveToPoint, .addLineToPoint, .addQuadCurveToPoint, .addLineToPoint, .addQuadCurveToPoint])
            let points = path.flatMap(\.1)
            #expect(points.elementsEqual([A, B, F, C, D, E, A]) { close($0, $1) }, "path at \(p): \(points)")
            #expect(bubble.shapeLayer?.superlayer === driver.window.layer)
        }
    }

    @Test func distanceZeroUsesCosOneSinZero() {
        let g = SeedBubbleGeometry(small: CGPoint(x: 50, y: 60), r1: 10, big: CGPoint(x: 50, y: 60), r2: 20)
        #expect(g.distance == 0 && g.cosAlpha == 1 && g.sinAlpha == 0)
        #expect(g.a == CGPoint(x: 40, y: 60) && g.b == CGPoint(x: 60, y: 60))
        #expect(g.c == CGPoint(x: 70, y: 60) && g.d == CGPoint(x: 30, y: 60))
        #expect(g.e == g.a && g.f == g.b)
        let expected = expectedPoints(x1: 50, y1: 60, r1: 10, x2: 50, y2: 60, r2: 20)
        #expect([g.a, g.b, g.c, g.d, g.e, g.f] == expected)
    }

    @Test func breaksOffPast80PointsAndBursts() throws {
        let timeline = SceneScript([
            .down(Self.origin, at: 0.1),
            .move(to: CGPoint(x: 179, y: 120), at: 0.2),   // d = 79
            .move(to: CGPoint(x: 181, y: 120), at: 0.3),   // d = 81
            .move(to: CGPoint(x: 150, y: 120), at: 0.4),   // back to d = 50: stays broken
            .move(to: CGPoint(x: 190, y: 120), at: 0.5),   // d = 90
            .up(at: 0.5),
        ])
        let driver = SeedDriver(.stickyBubble)
        let bubble = try bubble(in: driver.window)
        let small = try #require(bubble.smallCircleView)
        driver.run(timeline, to: 0.2)
        #expect(bubble.shapeLayer != nil && !small.isHidden)
        #expect(close(small.bounds.width / 2, 20 - 7.9))
        driver.run(timeline, to: 0.3)
        #expect(bubble.shapeLayer == nil && small.isHidden)
        #expect(!(driver.window.layer.sublayers ?? []).contains { $0 is CAShapeLayer })
        driver.run(timeline, to: 0.4)
        #expect(bubble.shapeLayer == nil && small.isHidden)
        driver.run(timeline, to: 0.5)
        let burst = try #require(bubble.burstView)
        #expect(burst.animationImages?.count == 8)
        #expect(Set((burst.animationImages ?? []).compactMap { $0.cgImage.map(ObjectIdentifier.init) }).count == 8)
        #expect(burst.animationDuration == 0.5 && burst.animationRepeatCount == 1 && burst.isAnimating)
        let animation = try #require(burst.layer.animation(forKey: "UIImageAnimation") as? CAKeyframeAnimation)
        #expect(animation.values?.count == 8 && animation.duration == 0.5 && animation.repeatCount == 1)
        #expect(burst.superview === bubble)
        driver.run(timeline, to: 0.85)
        #expect(bubble.superview === driver.window, "still there 0.35 s after release")
        driver.run(timeline, to: 0.95)
        #expect(bubble.superview == nil, "removed 0.4 s after release")
    }

    @Test func springsBackToTheOriginAfterRelease() throws {
        let timeline = SceneScript([.drag(from: Self.origin, to: CGPoint(x: 160, y: 120), at: 0.1, duration: 0.4, steps: 8)])
        let driver = SeedDriver(.stickyBubble)
        let bubble = try bubble(in: driver.window)
        let small = try #require(bubble.smallCircleView)
        driver.run(timeline, to: 0.5)
        // Released at d = 60: the model goes home at once, the connector goes.
        #expect(bubble.center == Self.origin)
        #expect(bubble.shapeLayer == nil)
        var xs: [CGFloat] = []
        driver.run(timeline, to: 1.2) { _ in xs.append(bubble.layer.presentation()?.position.x ?? .nan) }
        // Frame 6 (0.1 s after release) is still on its way; the spring (damping 0.2)
        // overshoots past the origin by more than 20 pt; by 0.5 s it has settled.
        #expect(xs[5] > 100 + 5 || xs[5] < 100 - 5, "0.1 s after release: \(xs[5])")
        #expect(xs.min()! < 100 - 20, "overshoot: \(xs.min()!)")
        let settled = bubble.layer.presentation()?.position ?? .zero
        #expect(close(settled, Self.origin, 0.1), "settled at \(settled)")
        #expect(!small.isHidden)
    }

    @Test func defaultTimelinePlaysBothOutcomes() throws {
        var positions: [CFTimeInterval: CGPoint] = [:]
        var bubbleRef: SeedBubbleView?
        let window = SeedDemo.stickyBubble.play { window, t in
            if bubbleRef == nil { bubbleRef = window.subviews.compactMap { $0 as? SeedBubbleView }.first }
            positions[t] = bubbleRef?.layer.presentation()?.position
        }
        let bubble = try #require(bubbleRef)
        // First drag (60 pt) sprang back before the second began at 2 s; the second broke off.
        let atTwo = try #require(positions.first { abs($0.key - 2.0) < 1e-6 }?.value)
        #expect(close(atTwo, Self.origin, 0.1))
        #expect(bubble.superview == nil && bubble.burstView != nil)
        #expect(window.subviews.count == 1)  // the hidden small circle stays
    }
}
