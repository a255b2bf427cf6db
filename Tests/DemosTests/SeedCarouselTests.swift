import Scene
import UIKit
import Demos
import Foundation
import Testing

@Suite(.serialized) struct SeedCarouselTests {
    @Test func swipesRunCubeTransitionsAndWrap() throws {
        let demo = SeedDemo.carousel
        let driver = SeedDriver(demo)
        let carousel = try #require(driver.window.subviews.compactMap { $0 as? SeedCarouselView }.first)
        #expect(carousel.currentIndex == 0 && carousel.imageView.image === carousel.images[0])
        // Drags end at 0.4, 1.7 (left) and 3.0, 4.3, 5.6 (right); each swipe is recognized
        // during its drag, once it has gone 50 pt (0.15 s in), so by the drag's end.
        let expected: [(end: CFTimeInterval, index: Int, subtype: CATransitionSubtype)] =
            [(0.4, 1, .fromRight), (1.7, 2, .fromRight), (3.0, 1, .fromLeft), (4.3, 0, .fromLeft), (5.6, 4, .fromLeft)]
        for step in expected {
            driver.run(demo.timeline, to: step.end + 0.05)
            #expect(carousel.currentIndex == step.index, "at \(step.end)")
            #expect(carousel.imageView.image === carousel.images[step.index])
            let transition = try #require(carousel.imageView.layer.animation(forKey: kCATransition) as? CATransition)
            #expect(transition.type.rawValue == "cube" && transition.subtype == step.subtype && transition.duration == 1)
            driver.run(demo.timeline, to: step.end + 1.05)
            #expect(carousel.imageView.layer.animation(forKey: kCATransition) == nil, "transition over 1 s after \(step.end)")
        }
    }

    @Test func shortOrSlowDragsDoNotSwipe() throws {
        let driver = SeedDriver(.carousel)
        let carousel = try #require(driver.window.subviews.compactMap { $0 as? SeedCarouselView }.first)
        let timeline = SceneScript([
            .drag(from: CGPoint(x: 150, y: 90), to: CGPoint(x: 120, y: 90), at: 0.1, duration: 0.2, steps: 4),  // 30 pt
            .drag(from: CGPoint(x: 200, y: 90), to: CGPoint(x: 140, y: 90), at: 1.0, duration: 1.0, steps: 10),  // 50 pt after 0.83 s
        ])
        driver.run(timeline, to: 2.5)
        #expect(carousel.currentIndex == 0 && carousel.imageView.layer.animation(forKey: kCATransition) == nil)
    }
}
