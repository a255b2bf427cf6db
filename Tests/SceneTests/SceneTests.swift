import Export
import Foundation
import Scene
import TestSupport
import Testing
import UIKit

/// The Scene module's pieces: the script's expansion, the adapters and `makeScene(for:size:)`,
/// and where an export of a tree built on the system clock starts.
@Suite(.serialized) struct SceneTests {
    // MARK: the script

    /// A drag of 4 steps over 0.4 s: down, four evenly spaced moves, up at the end.
    @Test func aDragExpandsIntoEvenlySpacedMoves() {
        let script = SceneScript([.drag(from: CGPoint(x: 0, y: 0), to: CGPoint(x: 40, y: 20), at: 1, duration: 0.4, steps: 4)])
        #expect(script.events.map(\.time).enumerated().allSatisfy { abs($0.element - [1, 1.1, 1.2, 1.3, 1.4, 1.4][$0.offset]) < 1e-12 })
        #expect(script.events.first?.input == .pointer(.began, .zero))
        #expect(script.events[2].input == .pointer(.moved, CGPoint(x: 20, y: 10)))
        #expect(script.events.last?.input == .pointer(.ended, CGPoint(x: 40, y: 20)))
    }

    /// Steps sort by time, equal times keep their order, `up` goes up where the step before it in
    /// the list left the pointer, keys are inputs too.
    @Test func stepsSortByTimeStably() {
        let script = SceneScript([
            .tap(CGPoint(x: 1, y: 2), at: 2), .down(CGPoint(x: 6, y: 7), at: 0.5), .key(.space, at: 0.5), .up(at: 3),
        ])
        #expect(script.events == [
            .init(time: 0.5, .pointer(.began, CGPoint(x: 6, y: 7))), .init(time: 0.5, .key(.space)),
            .init(time: 2, .pointer(.began, CGPoint(x: 1, y: 2))), .init(time: 2.05, .pointer(.ended, CGPoint(x: 1, y: 2))),
            .init(time: 3, .pointer(.ended, CGPoint(x: 6, y: 7))),
        ])
        #expect(SceneScript([]).events.isEmpty && SceneScript([]).endTime == 0)
    }

    // MARK: adapters

    /// Each of the four kinds of object iOS code builds gets its scene, of its own size unless
    /// one is given; anything else gets none.
    @Test func makeSceneTakesLayersViewsControllersAndWindows() throws {
        CAMediaClock.setManualTime(0)
        defer { CAMediaClock.useSystemTime() }
        let layer = CALayer()
        layer.frame = CGRect(x: 10, y: 10, width: 50, height: 30)
        let layerScene = try #require(makeScene(for: layer, size: nil))
        #expect(layerScene is LayerScene && layerScene.size == CGSize(width: 60, height: 40) && layerScene.rootLayer === layer)

        let view = UIView(frame: CGRect(x: 0, y: 0, width: 80, height: 60))
        let viewScene = try #require(makeScene(for: view, size: nil) as? WindowScene)
        #expect(viewScene.size == CGSize(width: 80, height: 60) && view.window === viewScene.window)

        let controller = UIViewController()
        let controllerScene = try #require(makeScene(for: controller, size: CGSize(width: 100, height: 50)) as? WindowScene)
        #expect(controllerScene.window.rootViewController === controller && controller.view.bounds.size == CGSize(width: 100, height: 50))

        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 30, height: 20))
        #expect((makeScene(for: window, size: nil) as? WindowScene)?.window === window)
        #expect(makeScene(for: "a string", size: nil) == nil)
    }

    /// A drag scripted into a view's scene reaches its touch handlers with the scene's points
    /// and times, through `UIApplication`'s input path.
    @Test func aScriptedDragReachesAViewsTouches() throws {
        final class Tracker: UIView {
            var moves: [CGPoint] = []
            override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
                moves.append(touches.first!.location(in: self))
            }
        }
        CAMediaClock.setManualTime(0)
        defer { CAMediaClock.useSystemTime() }
        let view = Tracker(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let scene = try #require(makeScene(for: view, size: nil))
        let driver = SceneDriver(scene: scene, script: SceneScript([
            .drag(from: CGPoint(x: 10, y: 10), to: CGPoint(x: 50, y: 30), at: 0.1, duration: 0.2, steps: 2),
        ]))
        #expect(driver.play(through: 0.5).count == 31)
        #expect(view.moves == [CGPoint(x: 30, y: 20), CGPoint(x: 50, y: 30)])
        #expect(driver.time == 0.5)
    }

    // MARK: where an export starts

    /// A 12-dot replicator spinner with a repeating `transform.scale` keyframe animation, built
    /// without touching the clock (as iOS code never sets it): exported at 30 fps for 1 s, it
    /// shows 30 different frames — the animations from where they begin, not media time 0,
    /// seconds of uptime before them.
    @Test func aSpinnerBuiltOnTheSystemClockExportsThirtyDistinctFrames() throws {
        CAMediaClock.useSystemTime()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
        let replicator = CAReplicatorLayer()
        replicator.frame = root.bounds
        replicator.instanceCount = 12
        replicator.instanceTransform = CATransform3DMakeRotation(2 * .pi / 12, 0, 0, 1)
        replicator.instanceDelay = 1.0 / 12
        let dot = CALayer()
        dot.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
        dot.cornerRadius = 4
        dot.position = CGPoint(x: 30, y: 6)
        dot.backgroundColor = CGColor(red: 0.2, green: 0.3, blue: 0.8, alpha: 1)
        let pulse = CAKeyframeAnimation(keyPath: "transform.scale")
        pulse.values = [1, 0.2, 1]
        pulse.duration = 1
        pulse.repeatCount = .infinity
        dot.add(pulse, forKey: "pulse")
        replicator.addSublayer(dot)
        root.addSublayer(replicator)

        let exporter = CAAnimationExporter(layer: root, size: root.bounds.size, scale: 1)
        #expect(abs(exporter.defaultStart - CACurrentMediaTime()) < 60, "starts at the system clock's now")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-spinner-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let gif = folder.appendingPathComponent("spinner.gif")
        try exporter.export(to: gif, fps: 30, duration: 1)
        let frames = try PillowDecoder.decode(gif.path).frames
        #expect(frames.count == 30)
        #expect(Set(frames.map(\.rgba)).count == 30)
    }

    /// A tree whose animations were added at manual time 0 keeps starting at 0, however late it
    /// is exported; an explicit start is a media time.
    @Test func aTreeBuiltAtZeroStartsAtZeroAndAnExplicitStartIsAMediaTime() throws {
        CAMediaClock.setManualTime(0)
        defer { CAMediaClock.useSystemTime() }
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 0
        fade.toValue = 1
        fade.duration = 1
        fade.repeatCount = .infinity
        layer.add(fade, forKey: "fade")
        CATransaction.flush()
        CAMediaClock.setManualTime(3)
        let exporter = CAAnimationExporter(layer: layer, size: CGSize(width: 10, height: 10))
        #expect(exporter.defaultStart == 0)
        var times: [CFTimeInterval] = []
        try exporter.forEachFrame(try ExportTimeline(start: 0.5, frames: 2, fps: 10)) { times.append($0.time) }
        #expect(times == [0.5, 0.6])
        #expect(CACurrentMediaTime() == 3)
    }
}
