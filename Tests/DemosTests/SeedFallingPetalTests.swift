import UIKit
import Demos
import Foundation
import Testing

@Suite(.serialized) struct SeedFallingPetalTests {
    func start(_ variant: SeedFallingPetalView.Variant) throws -> (SeedDriver, SeedFallingPetalView, SeedDemo) {
        let demo = try #require(SeedDemo.fallingPetals.first { $0.name == "falling-petal-\(variant.rawValue)" })
        let driver = SeedDriver(demo)
        let view = try #require(driver.window.subviews.compactMap { $0 as? SeedFallingPetalView }.first)
        return (driver, view, demo)
    }

    func shown(_ v: SeedFallingPetalView) -> CGPoint { v.petal.presentation()?.position ?? CGPoint(x: CGFloat.nan, y: CGFloat.nan) }
    func angle(_ v: SeedFallingPetalView) -> CGFloat {
        let t = v.petal.presentation()?.transform ?? CATransform3DIdentity
        return atan2(t.m12, t.m11)
    }

    @Test func basicMoveJumpsBack() throws {
        let (driver, view, demo) = try start(.jumpBack)
        driver.run(demo.timeline, to: 2.7)  // tapped at 0.2: half of 5 s
        #expect(close(shown(view), CGPoint(x: 125, y: 275), 1e-6), "\(shown(view))")
        #expect(view.petal.position == CGPoint(x: 50, y: 150), "the model never moves")
        driver.run(demo.timeline, to: 5.3)
        #expect(view.petal.animation(forKey: SeedFallingPetalView.translationKey) == nil)
        #expect(shown(view) == CGPoint(x: 50, y: 150), "jumped back")
    }

    @Test func moveAndRotation() throws {
        let (driver, view, demo) = try start(.moveAndRotate)
        #expect(view.petal.anchorPoint == CGPoint(x: 0.5, y: 0.6))
        driver.run(demo.timeline, to: 1.7)
        #expect(abs(angle(view) - 3 * .pi / 2 * 1.5 / 6) < 1e-6, "\(angle(view))")
        driver.run(demo.timeline, to: 3.2)
        #expect(abs(angle(view) - 3 * .pi / 2 * 3 / 6) < 1e-6, "\(angle(view))")
        #expect(close(shown(view), CGPoint(x: 50 + 150 * 0.6, y: 150 + 250 * 0.6), 1e-6))
    }

    @Test func delegateSetsTheModelWithoutImplicitAnimation() throws {
        let (driver, view, demo) = try start(.delegateFix)
        driver.run(demo.timeline, to: 5.15)
        #expect(view.stops == 0)
        driver.run(demo.timeline, to: 5.25)
        #expect(view.stops == 1 && view.petal.position == CGPoint(x: 200, y: 400))
        #expect(view.petal.animationKeys() == nil, "no implicit position animation")
        #expect(shown(view) == CGPoint(x: 200, y: 400), "stays at the target")
    }

    @Test func keyframeValuesAfterTwoSeconds() throws {
        let (driver, view, demo) = try start(.keyframeValues)
        // beginTime = now + 2; 3 segments of 8/3 s, linear.
        let samples: [(CFTimeInterval, CGPoint)] = [
            (1.9, CGPoint(x: 50, y: 150)), (2 + 4.0 / 3, CGPoint(x: 65, y: 185)), (2 + 8.0 / 3, CGPoint(x: 80, y: 220)),
            (2 + 4, CGPoint(x: 62.5, y: 260)), (2 + 16.0 / 3 + 4.0 / 3, CGPoint(x: 50, y: 350)), (10.1, CGPoint(x: 50, y: 150)),
        ]
        for (t, expected) in samples {
            driver.run(demo.timeline, to: t)
            #expect(close(shown(view), expected, 1e-6), "at \(t): \(shown(view)) vs \(expected)")
        }
    }

    @Test func keyframePathAfterFiveSeconds() throws {
        let (driver, view, demo) = try start(.keyframePath)
        let animation = try #require(view.petal.animation(forKey: SeedFallingPetalView.keyframeKey) as? CAKeyframeAnimation)
        let elements = try #require(animation.path).storage
        #expect(elements.map(\.0) == [.moveToPoint, .addCurveToPoint])
        #expect(elements.flatMap(\.1) == [CGPoint(x: 50, y: 150), CGPoint(x: 160, y: 280), CGPoint(x: -30, y: 300), CGPoint(x: 55, y: 400)])
        #expect(animation.duration == 8)
        driver.run(demo.timeline, to: 4.9)
        #expect(shown(view) == CGPoint(x: 50, y: 150))
        driver.run(demo.timeline, to: 12.99)
        #expect(close(shown(view), CGPoint(x: 55, y: 400), 1.5), "\(shown(view))")
        driver.run(demo.timeline, to: 13.1)
        #expect(shown(view) == CGPoint(x: 50, y: 150), "no final state set: back at the model")
    }

    @Test func groupDelegateSetsTheFinalState() throws {
        let (driver, view, demo) = try start(.group)
        let group = try #require(view.groupAnimation)
        #expect(group.duration == 10 && group.animations?.count == 2)
        driver.run(demo.timeline, to: 4.9)
        #expect(shown(view) == CGPoint(x: 50, y: 150) && view.stops == 0)
        driver.run(demo.timeline, to: 14.9)
        #expect(view.stops == 0)
        driver.run(demo.timeline, to: 15.1)
        #expect(view.stops == 1 && view.petal.position == CGPoint(x: 55, y: 400))
        let expected = CATransform3DMakeRotation(3 * .pi / 2, 0, 0, 1)
        #expect(CATransform3DEqualToTransform(view.petal.transform, expected))
        #expect(shown(view) == CGPoint(x: 55, y: 400) && view.petal.animationKeys() == nil)
    }
}
