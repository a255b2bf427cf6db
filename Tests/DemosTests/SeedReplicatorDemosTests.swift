import UIKit
import Demos
import Foundation
import Testing

@Suite(.serialized) struct SeedReplicatorDemosTests {
    func scaleY(_ layer: CALayer?) -> CGFloat { layer.map { hypot($0.transform.m21, $0.transform.m22) } ?? .nan }

    @Test func volumeBars() throws {
        let demo = SeedDemo.volumeBars
        let driver = SeedDriver(demo)
        let view = try #require(driver.window.subviews.compactMap { $0 as? SeedVolumeBarsView }.first)
        let r = view.replicatorLayer
        #expect(r.instanceCount == 3 && r.instanceDelay == 0.1 && r.instanceGreenOffset == -0.3)
        #expect(CATransform3DEqualToTransform(r.instanceTransform, CATransform3DMakeTranslation(45, 0, 0)))
        #expect(view.bar.anchorPoint == CGPoint(x: 0.5, y: 1) && view.bar.bounds.size == CGSize(width: 30, height: 150))
        #expect(view.bar._hasAnimations && view.animation.autoreverses && view.animation.duration == 0.5)
        // Linear 1 → 0.1 over 0.5 s, then back: 0.55 at 0.25 s, 0.1 at 0.5 s, 0.55 at 0.75 s.
        for (t, s) in [(0.25, 0.55), (0.5, 0.1), (0.75, 0.55)] as [(CFTimeInterval, CGFloat)] {
            driver.run(demo.timeline, to: t)
            #expect(abs(scaleY(view.bar.presentation()) - s) < 1e-6, "at \(t): \(scaleY(view.bar.presentation()))")
        }
    }

    @Test func activityIndicator() throws {
        let demo = SeedDemo.activityIndicator
        let driver = SeedDriver(demo)
        let view = try #require(driver.window.subviews.compactMap { $0 as? SeedActivityIndicatorView }.first)
        let r = view.replicatorLayer
        #expect(r.instanceCount == 20 && abs(r.instanceDelay - 0.05) < 1e-12)
        #expect(CATransform3DEqualToTransform(r.instanceTransform, CATransform3DMakeRotation(.pi / 10, 0, 0, 1)))
        #expect(view.dot.transform.m11 == 0, "the model dot is scaled to 0")
        driver.run(demo.timeline, to: 0.25)
        #expect(abs(scaleY(view.dot.presentation()) - 0.75) < 1e-6)
    }
}
