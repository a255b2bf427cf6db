import UIKit
import Demos
import Foundation
import Testing

/// The Dynamics pile demo in numbers: the items fall and stay inside the view, taps drop and
/// kick, and the animator pauses (its delegate is told) once everything rests.
@Suite(.serialized) struct DynamicsPileTests {
    /// Whether `item`'s collision shape is within `bounds`, give or take the solver's 0.5 pt of
    /// allowed overlap: a box's frame (its turned corners), a ball's circle.
    func inside(_ item: UIView, _ bounds: CGRect) -> Bool {
        let tolerant = bounds.insetBy(dx: -0.6, dy: -0.6)
        guard item is DynamicsBallView else { return tolerant.contains(item.frame) }
        let r = item.bounds.width / 2
        return tolerant.insetBy(dx: r, dy: r).contains(item.center)
    }

    @Test func pileFallsTakesTapsAndComesToRest() throws {
        let demo = SeedDemo.dynamicsPile
        let driver = SeedDriver(demo)
        let pile = try #require(driver.window.subviews.compactMap { $0 as? DynamicsPileView }.first)
        #expect(pile.items.count == 10 && pile.animator.isRunning)
        let start = pile.items.map(\.center.y)
        driver.run(demo.timeline, to: 0.3)
        // Free fall for 0.3 s: ½·1000·0.3² = 45 points, within the step's ½·g·h·t = 1.25.
        for (item, y0) in zip(pile.items, start) { #expect(abs(item.center.y - y0 - 45) <= 1.25 + 1e-9) }
        driver.run(demo.timeline, to: 2.1)
        for item in pile.items {
            #expect(inside(item, pile.bounds), "\(item.frame)")
            #expect(item.center.y > 300)
        }
        driver.run(demo.timeline, to: 4.0)
        // Two boxes and a ball dropped where tapped (x), the ball collides as an ellipse.
        #expect(pile.items.count == 13)
        #expect(pile.items[12] is DynamicsBallView && pile.items[12].collisionBoundsType == .ellipse)
        let before = pile.items.map(\.center.y)
        var risen = 0.0
        driver.run(demo.timeline, to: 4.9) { _ in
            risen = max(risen, zip(pile.items, before).map { Double($1 - $0.center.y) }.max() ?? 0)
        }
        // The kick gives 800 points/s upwards: it rises v²/2g = 320 points, less what it hits.
        #expect(risen > 100, "rose \(risen)")
        driver.run(demo.timeline, to: demo.span)
        #expect(!pile.animator.isRunning && pile.pauses >= 1)
        #expect(pile.statusLabel.text?.hasPrefix("at rest") == true)
        for item in pile.items { #expect(inside(item, pile.bounds), "\(item.frame)") }
    }
}
