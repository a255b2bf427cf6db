import Scene
import UIKit
import Demos
import Foundation
import Testing

@Suite(.serialized) struct SeedPageCurlTests {
    @Test func tapCurlsToTheNextPicture() throws {
        let demo = SeedDemo.pageCurl
        let driver = SeedDriver(demo)
        let view = try #require(driver.window.subviews.compactMap { $0 as? SeedPageCurlView }.first)
        #expect(view.imageView.image === view.pictures[1])
        driver.run(demo.timeline, to: 0.3)
        #expect(view.imageView.image === view.pictures[2])
        let transition = try #require(view.imageView.layer.animation(forKey: kCATransition) as? CATransition)
        #expect(transition.type.rawValue == "pageCurl" && transition.duration == 2)
        driver.run(demo.timeline, to: 2.1)
        #expect(view.completedTransitions == 0)
        driver.run(demo.timeline, to: 2.3)
        #expect(view.completedTransitions == 1 && view.imageView.layer.animation(forKey: kCATransition) == nil)
        driver.run(demo.timeline, to: 2.7)
        #expect(view.imageView.image === view.pictures[3])
        // The seed's counter wraps 4 → 1.
        driver.run(SceneScript([.tap(CGPoint(x: 100, y: 120), at: 5.0)]), to: 5.1)
        #expect(view.imageView.image === view.pictures[1])
        driver.run(SceneScript([]), to: 7.2)
        #expect(view.completedTransitions == 3)
    }
}
