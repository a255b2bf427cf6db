import Scene
import UIKit
import Demos
import Foundation
import Testing

/// The parallax-scroll and custom-transition demos under their scripted input. Expected values:
/// the demos' own stated rules (the picture follows half the offset; pulled past the top the
/// header grows by the overscroll), and Apple's `.custom` presentation (the list stays on screen,
/// the presented controller's view is over it until the dismissal ends).
@Suite(.serialized) struct SeedScrollAndTransitionTests {
    @Test func parallaxPictureMovesAtHalfSpeedAndTheHeaderStretches() throws {
        let demo = SeedDemo.parallaxScroll
        let driver = SeedDriver(demo)
        let list = try #require(driver.window.subviews.compactMap { $0 as? SeedParallaxView }.first)
        var sawStretch = false
        driver.run(demo.timeline, to: demo.span) { _ in
            let y = list.contentOffset.y
            if y >= 0 {
                #expect(abs(list.picture.frame.minY - y * SeedParallaxView.parallaxFactor) < 1e-9)
                #expect(list.header.frame.height == SeedParallaxView.headerHeight)
            } else {
                sawStretch = true
                #expect(abs(list.header.frame.height - (SeedParallaxView.headerHeight - y)) < 1e-9 && abs(list.header.frame.minY - y) < 1e-9)
            }
        }
        // The flick up scrolled it; the end of the script leaves it at rest at the top.
        #expect(sawStretch)
        #expect(list.contentOffset == .zero && !list.isDecelerating && !list.isDragging)
    }

    @Test func cardsPresentAndDismissTheirDetail() throws {
        let demo = SeedDemo.customTransition
        let driver = SeedDriver(demo)
        let list = try #require(driver.window.rootViewController)
        driver.run(demo.timeline, to: 1.5)
        let detail = try #require(list.presentedViewController)
        #expect(detail.modalPresentationStyle == .custom && detail.view.frame == driver.window.bounds)
        // `.custom` keeps the list's view in the window under the detail's container.
        #expect(list.view.superview === driver.window && detail.view.superview?.superview === driver.window)
        driver.run(demo.timeline, to: 3)
        #expect(list.presentedViewController == nil && detail.view.superview == nil)
        driver.run(demo.timeline, to: demo.span)
        #expect(list.presentedViewController != nil && list.presentedViewController !== detail)
    }
}
