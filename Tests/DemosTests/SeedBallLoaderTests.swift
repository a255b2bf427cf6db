import UIKit
import Demos
import Foundation
import Testing

@Suite(.serialized) struct SeedBallLoaderTests {
    func loader(in window: UIWindow) throws -> SeedBallLoaderView {
        try #require(window.subviews.compactMap { $0 as? SeedBallLoaderView }.first)
    }

    func scale(_ layer: CALayer?) -> CGFloat { layer.map { hypot($0.transform.m11, $0.transform.m12) } ?? .nan }

    @Test func scaleAnimationStartsInAnimationDidStart() throws {
        let demo = SeedDemo.ballLoader
        let driver = SeedDriver(demo)
        let loader = try loader(in: driver.window)
        defer { loader.stopAnimating() }
        // The path animation began at the first turn: animationDidStart ran once and started the
        // scale (delay 0.3, 0.45 s, ease-out) on all three balls.
        #expect(loader.startCount == 1 && loader.stopCount == 0)
        #expect(loader.balls[0].layer.animation(forKey: "animation1") is CAKeyframeAnimation)
        #expect(loader.balls[2].layer.animation(forKey: "animation3") is CAKeyframeAnimation)
        for ball in loader.balls {
            let scaleAnimation = try #require(ball.layer.animation(forKey: "transform") as? CABasicAnimation)
            #expect(abs(scaleAnimation.duration - 0.45) < 1e-9)
            #expect(abs(scale(ball.layer) - 1.5) < 1e-9, "the model takes the new scale at once")
        }
        var scales: [CFTimeInterval: CGFloat] = [:]
        driver.run(demo.timeline, to: 1.4) { t in scales[t] = self.scale(loader.balls[1].layer.presentation()) }
        func at(_ t: CFTimeInterval) -> CGFloat { scales.min { abs($0.key - t) < abs($1.key - t) }!.value }
        #expect(abs(at(0.25) - 1) < 1e-6, "still 1 during the 0.3 s delay: \(at(0.25))")
        #expect(abs(at(0.8) - 1.5) < 1e-3, "grown to 1.5 by 0.75 s: \(at(0.8))")
        #expect(at(1.3) < 1.5 && at(1.3) > 1, "shrinking again: \(at(1.3))")
    }

    @Test func loopRestartsInAnimationDidStop() throws {
        let demo = SeedDemo.ballLoader
        let driver = SeedDriver(demo)
        let loader = try loader(in: driver.window)
        let first = try #require(loader.balls[0].layer.animation(forKey: "animation1"))
        driver.run(demo.timeline, to: 1.45)
        #expect(loader.stopCount == 0 && loader.startCount == 1)
        driver.run(demo.timeline, to: 1.6)
        #expect(loader.stopCount == 1 && loader.startCount == 2, "stop \(loader.stopCount), start \(loader.startCount)")
        let second = try #require(loader.balls[0].layer.animation(forKey: "animation1"))
        #expect(second !== first)
        #expect(loader.balls[1].layer.animation(forKey: "transform") != nil, "the scale starts again")
        // The ball is back near its start as the loop restarts.
        let p = try #require(loader.balls[0].layer.presentation()?.position)
        #expect(hypot(p.x - 12, p.y - 60) < 3, "ball 1 at \(p)")
        driver.run(demo.timeline, to: 3.1)
        #expect(loader.stopCount == 2 && loader.startCount == 3)
        loader.stopAnimating()
        driver.run(demo.timeline, to: 4.6)
        #expect(loader.stopCount == 3 && loader.startCount == 3, "stopped by the user: no restart")
        #expect(loader.balls[0].layer.animation(forKey: "animation1") == nil)
    }

    @Test func pathIsArcArcLine() throws {
        let driver = SeedDriver(.ballLoader)
        let loader = try loader(in: driver.window)
        defer { loader.stopAnimating() }
        // w = 120, r = 16 · 1.5 / 2 = 12, R = (60 + 12) / 2 = 36: starts at (12, 60), passes below
        // the big circle's centre (48, 60) at (48, 96), reaches (84, 60), goes over the centre ball
        // to (36, 60) and back.
        let animation = try #require(loader.balls[0].layer.animation(forKey: "animation1") as? CAKeyframeAnimation)
        let elements = try #require(animation.path).storage
        #expect(elements.first?.0 == .moveToPoint && elements.first?.1 == [CGPoint(x: 12, y: 60)])
        #expect(elements.last?.0 == .addLineToPoint && elements.last?.1 == [CGPoint(x: 12, y: 60)])
        let ends = elements.compactMap(\.1.last)
        #expect(ends.contains { close($0, CGPoint(x: 84, y: 60), 1e-6) })
        #expect(ends.contains { close($0, CGPoint(x: 36, y: 60), 1e-6) })
        let bounds = try #require(animation.path).boundingBoxOfPath
        #expect(close(bounds.maxY, 96, 1e-6) && close(bounds.minY, 60 - 24, 1e-6))
    }
}
