import UIKit
import Demos
import Foundation
import Testing

@Suite(.serialized) struct SeedPetalPauseTests {
    func position(_ p: SeedPetalView) -> CGPoint { p.petal.presentation()?.position ?? CGPoint(x: CGFloat.nan, y: CGFloat.nan) }

    /// The linear move from (50, 150) to (200, 400) at fraction `f`.
    func along(_ f: CGFloat) -> CGPoint { CGPoint(x: 50 + 150 * f, y: 150 + 250 * f) }

    @Test func pauseAndResumeWithSpeedTimeOffsetBeginTime() throws {
        let demo = SeedDemo.petalPause
        let driver = SeedDriver(demo)
        let view = try #require(driver.window.subviews.compactMap { $0 as? SeedPetalView }.first)
        driver.run(demo.timeline, to: 0.2)
        let move = try #require(view.petal.animation(forKey: SeedPetalView.translationKey) as? CABasicAnimation)
        #expect(move.toValue as? CGPoint == CGPoint(x: 200, y: 400) && move.duration == 5 && !move.isRemovedOnCompletion)
        let spin = try #require(view.petal.animation(forKey: SeedPetalView.rotationKey) as? CABasicAnimation)
        #expect(spin.autoreverses && spin.repeatCount == .infinity && spin.duration == 6)
        #expect(abs((spin.toValue as? CGFloat ?? 0) - 3 * .pi / 2) < 1e-12)

        driver.run(demo.timeline, to: 1.2)
        #expect(close(position(view), along(1.0 / 5), 1e-6), "moving: \(position(view))")
        // Paused at 2.0: speed 0, timeOffset = the layer's time then (2.0).
        driver.run(demo.timeline, to: 2.0)
        #expect(view.petal.speed == 0 && close(view.petal.timeOffset, 2.0, 1e-9))
        let frozen = position(view)
        #expect(close(frozen, along(1.8 / 5), 1e-6), "paused at \(frozen)")
        driver.run(demo.timeline, to: 2.9)
        #expect(close(position(view), frozen, 1e-9), "stays paused")
        // Resumed at 3.0: beginTime = 3.0 − 2.0, timeOffset 0, speed 1; it goes on from there.
        driver.run(demo.timeline, to: 3.0)
        #expect(view.petal.speed == 1 && view.petal.timeOffset == 0 && close(view.petal.beginTime, 1.0, 1e-9))
        #expect(close(position(view), frozen, 1e-6))
        driver.run(demo.timeline, to: 3.5)
        #expect(close(position(view), along(2.3 / 5), 1e-6), "resumed: \(position(view))")
        // The move ends at 0.2 + 5 + 1 (the pause) = 6.2: the delegate sets the model, pauses.
        driver.run(demo.timeline, to: 6.15)
        #expect(view.stops == 0 && view.petal.position == CGPoint(x: 50, y: 150))
        driver.run(demo.timeline, to: 6.3)
        #expect(view.stops == 1 && view.petal.position == CGPoint(x: 200, y: 400) && view.petal.speed == 0)
        #expect(close(position(view), CGPoint(x: 200, y: 400), 1e-6))
    }
}
