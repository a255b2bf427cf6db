import Scene
import UIKit
import Demos
import Foundation
import Testing

/// The animation-toolbox demos in numbers: the scrubbable card follows the finger linearly
/// (UIViewPropertyAnimator scrubs linearly by default, Apple's `scrubsLinearly`), snaps back when
/// released before half way and opens past it; the keyframe bounce puts the ball on the floor at
/// the keyframe's relative end time and rolls it across.
@Suite(.serialized) struct AnimatorDemosTests {
    @Test func cardFollowsTheFingerThenFinishesOrReverses() throws {
        let demo = SeedDemo.scrubbableCard
        let driver = SeedDriver(demo)
        let view = try #require(driver.window.subviews.compactMap { $0 as? SeedScrubbableCardView }.first)
        let closedY = view.closedFrame.midY, openY = view.openFrame.midY
        // Mid-drag: the animator is paused and the card is where the fraction puts it, linearly.
        driver.run(demo.timeline, to: 1.0)
        let animator = try #require(view.animator)
        #expect(animator.state == .active && !animator.isRunning)
        let f = animator.fractionComplete
        #expect(f > 0.25 && f < 0.4, "\(f)")
        let y = try #require(view.card.layer.presentation()).position.y
        #expect(close(y, closedY + f * (openY - closedY), 1e-6))
        // Released at 80 of 210 points: back to closed.
        driver.run(demo.timeline, to: 2.0)
        #expect(view.animator == nil && !view.isOpen && view.card.frame == view.closedFrame)
        // Released at 190 of 210 points: open.
        driver.run(demo.timeline, to: 4.0)
        #expect(view.animator == nil && view.isOpen && view.card.frame == view.openFrame)
        #expect(close(view.backdrop.alpha, 0.45, 1e-6) && view.card.layer.cornerRadius == 22)
        // The tap closes it again.
        driver.run(demo.timeline, to: demo.span)
        #expect(view.animator == nil && !view.isOpen && view.card.frame == view.closedFrame)
    }

    @Test func ballLandsAtItsKeyframeAndRollsAcross() throws {
        let demo = SeedDemo.keyframeBounce
        let driver = SeedDriver(demo)
        let view = try #require(driver.window.subviews.compactMap { $0 as? SeedKeyframeBounceView }.first)
        driver.run(demo.timeline, to: 0.3)
        let fall = try #require(view.ball.layer.animation(forKey: "position") as? CAKeyframeAnimation)
        #expect(fall.duration == 2.4 && fall.calculationMode == .linear && view.isBouncing)
        #expect(fall.keyTimes?.map(\.doubleValue).contains(0.22) == true)
        // The first fall ends at relative time 0.22: the ball rests on the floor.
        let landing = fall.beginTime + 0.22 * 2.4
        driver.run(demo.timeline, to: landing)
        let ground = view.floorY - SeedKeyframeBounceView.radius
        #expect(close(try #require(view.ball.layer.presentation()).position.y, ground, 1e-6))
        // The carrier rolls linearly (the whole-block change, linear timeline).
        let x = try #require(view.carrier.layer.presentation()).position.x
        #expect(close(x, 30 + 0.22 * (view.bounds.width - 60), 1e-6))
        driver.run(demo.timeline, to: fall.beginTime + 2.45)
        #expect(view.onRight && !view.isBouncing && view.carrier.center.x == view.bounds.width - 30)
    }
}
