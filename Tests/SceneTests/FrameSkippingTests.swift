// SceneDriver.advanceFrameByFrame skips the display frames where nothing can happen: the state
// it reaches is the state of advancing at every display frame, and a time far ahead costs what
// happens before it.
import Foundation
import Scene
import Testing
import UIKit

@Suite(.serialized) struct FrameSkippingTests {
    /// A view that moves right over 0.5 s from 0.25 s, then (in the completion block) down over
    /// 0.5 s after a 1 s delay, then fades out forever in a repeating, autoreversing animation.
    static func chainedView() -> UIView {
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        let box = UIView(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        box.backgroundColor = .systemBlue
        view.addSubview(box)
        UIView.animate(withDuration: 0.5, delay: 0.25, options: [], animations: { box.center.x = 150 }) { _ in
            UIView.animate(withDuration: 0.5, delay: 1, options: [], animations: { box.center.y = 150 }) { _ in
                UIView.animate(withDuration: 0.4, delay: 0, options: [.repeat, .autoreverse], animations: { box.alpha = 0.2 })
            }
        }
        return view
    }

    /// The presented centre and opacity of the view's box after driving the scene to each time.
    static func states(at times: [CFTimeInterval], _ drive: (SceneDriver, CFTimeInterval) -> Void) -> [[CGFloat]] {
        CAMediaClock.setManualTime(0)
        defer { CAMediaClock.useSystemTime() }
        let view = chainedView()
        let driver = SceneDriver(scene: WindowScene(view: view))
        return times.map { t in
            drive(driver, t)
            let box = view.subviews[0].layer.presentation() ?? view.subviews[0].layer
            return [box.position.x, box.position.y, CGFloat(box.opacity)]
        }
    }

    /// A scene that advances at every display frame and only counts its turns (it makes no
    /// commit).
    final class Counting: HostedScene {
        let rootLayer = CALayer()
        let size = CGSize(width: 10, height: 10)
        var advances = 0
        var advancesEveryDisplayFrame: Bool { true }
        func handle(_ event: HostPointerEvent) {}
        func advance(to time: CFTimeInterval) { advances += 1 }
    }

    @Test func skippingFramesReachesTheStateOfEveryFrame() {
        let times: [CFTimeInterval] = [0.1, 0.5, 0.9, 1.6, 2.0, 2.6, 5.05, 12.3]
        let skipping = Self.states(at: times) { driver, t in driver.advanceFrameByFrame(to: t) }
        let everyFrame = Self.states(at: times) { driver, t in
            // Every display frame after the last advance, then t: what advanceFrameByFrame
            // did before it skipped frames.
            let step = 1 / CADisplayLink.displayRate
            var frame = driver.time.map { ($0 / step + 1e-6).rounded(.down) + 1 } ?? 0
            while frame * step < t - 1e-9 {
                driver.advance(to: frame * step)
                frame += 1
            }
            driver.advance(to: t)
        }
        #expect(skipping == everyFrame)
        // The chain ran: right by 2.0 s (0.25 + 0.5, then the completion's 1 s delay and its
        // 0.5 s move end at 2.25 + a frame), down by 2.6 s, fading at 5.05 s.
        #expect(skipping[4][0] == 150 && skipping[5][1] == 150 && skipping[6][2] < 1)
    }

    @Test func aTimeFarAheadCostsWhatHappensBeforeIt() {
        CAMediaClock.setManualTime(0)
        defer { CAMediaClock.useSystemTime() }
        let scene = Counting()
        let driver = SceneDriver(scene: scene, script: [.init(time: 2, .pointer(.began, CGPoint(x: 5, y: 5)))])
        driver.advanceFrameByFrame(to: 1e6)
        // Frame 0, the frame before the input at 2 s, the one at 2 s, then 10⁶ s itself: not
        // 60 × 10⁶ frames.
        #expect(scene.advances <= 5)
        driver.advanceFrameByFrame(to: 1e308)
        #expect(driver.time == 1e308)
    }

    /// A scene whose turns make no commit leaves an animation added outside them waiting for a
    /// commit, due at every frame: the driver still skips to the time asked, since no frame of
    /// this scene would deliver it.
    @Test func anEventTheSceneNeverDeliversDoesNotHoldTheDriver() {
        CAMediaClock.setManualTime(0)
        defer { CAMediaClock.useSystemTime() }
        let waiting = CALayer()
        waiting.add(CABasicAnimation(keyPath: "opacity"), forKey: "fade")
        defer {
            CATransaction.flush()
            waiting.removeAllAnimations()
        }
        #expect(CATransaction.nextAnimationEventTime(afterMediaTime: 0) == 0)
        let scene = Counting()
        let driver = SceneDriver(scene: scene)
        driver.advanceFrameByFrame(to: 1e6)
        #expect(scene.advances <= 3)
        #expect(driver.time == 1e6)
    }
}
