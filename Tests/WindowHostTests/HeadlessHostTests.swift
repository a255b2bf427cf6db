import QuartzCore
import Raster
import Testing
import WindowHost

/// The headless host: scripted pointer events and keys at given times go through the same
/// `handle`/`advance` calls as the window's, and frames show what the closed form says.
@Suite(.serialized) struct HeadlessHostTests {
    static let start = CGPoint(x: 50, y: 40)
    /// The drag: down on the dot, two moves, up (timeline seconds, points).
    static let script: [SceneScript.Event] = [
        .init(time: 0.1, .pointer(.began, CGPoint(x: 52, y: 41))),
        .init(time: 0.2, .pointer(.moved, CGPoint(x: 82, y: 51))),
        .init(time: 0.35, .pointer(.moved, CGPoint(x: 122, y: 61))),
        .init(time: 0.5, .pointer(.ended, CGPoint(x: 132, y: 63))),
    ]

    /// Where the script has put the dot's centre by time `t` (each delivered event moves it by the
    /// pointer's motion since the press).
    static func dotCenter(at t: CFTimeInterval) -> CGPoint {
        let delivered = script.filter { $0.time <= t }
        guard let first = delivered.first, case let .pointer(_, p0) = first.input,
              let last = delivered.last, case let .pointer(_, p) = last.input else { return start }
        return CGPoint(x: start.x + p.x - p0.x, y: start.y + p.y - p0.y)
    }

    @Test(arguments: [1.0, 2.0])
    func framesShowTheDraggedDotAndTheAnimatedBar(scale: Double) throws {
        let s = CGFloat(scale)
        CAMediaClock.setManualTime(0)
        let scene = DragScene(animatedBar: true)
        let host = try HeadlessHost(scene: scene, scale: s, script: SceneScript(events: Self.script))
        let times = HeadlessHost.displayFrameTimes(from: 0, through: 1.2)
        #expect(times.count == 73)
        host.frames(at: times) { t, frame in
            #expect(frame.width == Int(200 * s) && frame.height == Int(100 * s))
            // The dot: a 20-point square around the scripted centre (integral: crisp edges).
            let c = Self.dotCenter(at: t)
            let x0 = Int((c.x - 10) * s), x1 = Int((c.x + 10) * s) - 1, y0 = Int((c.y - 10) * s), y1 = Int((c.y + 10) * s) - 1
            for (x, y) in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)] {
                #expect(frame.rgb(x, y) == Palette.redRGB, "t = \(t): dot pixel (\(x), \(y))")
            }
            #expect(frame.rgb(x0 - 1, (y0 + y1) / 2) == Palette.whiteRGB, "t = \(t): left of the dot")
            #expect(frame.rgb(x1 + 1, (y0 + y1) / 2) == Palette.whiteRGB, "t = \(t): right of the dot")
            #expect(frame.rgb(x0 + 3, y0 - 1) == Palette.whiteRGB, "t = \(t): above the dot")
            // The bar: 20×10 points centred on (barX(t), 85); away from its antialiased edges.
            let bx = DragScene.barX(at: t)
            let row = Int(DragScene.barY * s)
            #expect(frame.rgb(Int((bx - 8) * s), row) == Palette.blueRGB, "t = \(t): bar left part")
            #expect(frame.rgb(Int((bx + 8) * s), row) == Palette.blueRGB, "t = \(t): bar right part")
            #expect(frame.rgb(Int((bx - 12) * s), row) == Palette.whiteRGB, "t = \(t): left of the bar")
            #expect(frame.rgb(Int((bx + 12) * s), row) == Palette.whiteRGB, "t = \(t): right of the bar")
        }
        // One advance per frame, at the frame's time, with the media clock agreeing.
        #expect(scene.advances == times)
        #expect(scene.clockDuringAdvance == times)
        #expect(host.framesRendered == times.count)
        // Every event delivered once, in order, stamped with its scripted time, in root-layer points.
        #expect(scene.events.map(\.phase) == [.began, .moved, .moved, .ended])
        #expect(scene.events.map(\.timestamp) == Self.script.map(\.time))
        #expect(scene.clockDuringHandle == Self.script.map(\.time))
        #expect(scene.events.map(\.location) == Self.script.compactMap {
            if case let .pointer(_, p) = $0.input { return p } else { return nil }
        })
    }

    @Test func eventsDueAtAFrameTimeArriveBeforeItsAdvance() throws {
        CAMediaClock.setManualTime(0)
        let scene = DragScene(animatedBar: false)
        let host = try HeadlessHost(scene: scene, script: [
            .init(time: 0.5, .pointer(.began, CGPoint(x: 50, y: 40))),
            .init(time: 0.5, .pointer(.moved, CGPoint(x: 60, y: 40))),
            .init(time: 0.5000001, .pointer(.ended, CGPoint(x: 70, y: 40))),
        ])
        let frame = host.frame(at: 0.5)
        #expect(scene.events.map(\.phase) == [.began, .moved])
        #expect(frame.rgb(69, 40) == Palette.redRGB && frame.rgb(70, 40) == Palette.whiteRGB)   // moved by 10
        host.frame(at: 1)
        #expect(scene.events.map(\.phase) == [.began, .moved, .ended])
        #expect(scene.advances == [0.5, 1])
    }

    /// Pacing without a display: a frame is needed at the next tick while the bar moves, at the
    /// tick after an input, never once everything is at rest; only the damage is redrawn.
    @Test func framesAreRequestedOnlyWhenSomethingMayChange() throws {
        CAMediaClock.setManualTime(0)
        let scene = DragScene(animatedBar: true)
        let host = try HeadlessHost(scene: scene)
        let tick = 1.0 / 60
        #expect(host.nextFrameDue == 0)                            // the first frame: at once
        host.frame(at: 0)
        #expect(host.lastRedrawnArea == PixelRect(x: 0, y: 0, width: 200, height: 100))
        #expect(abs(host.nextFrameDue - tick) < 1e-9)              // the bar moves: next tick
        host.frame(at: 30 * tick)
        let damage = host.lastRedrawnArea
        #expect(!damage.isEmpty && damage.pixelCount < 200 * 100 / 2, "only the bar's band: \(damage)")
        #expect(damage.y <= 80 - 2 && damage.y + damage.height >= 90 && damage.y > 60)
        // Past the end of the animation: one more frame (the animation's end is observed), then rest.
        host.frame(at: 1.0 + tick)
        if host.nextFrameDue.isFinite { host.frame(at: 1.0 + 2 * tick) }
        #expect(host.nextFrameDue == .infinity)
        host.frame(at: 1.5)
        #expect(host.lastRedrawnArea.isEmpty)                      // idle frame: nothing redrawn
        // Input requests the next tick after it, and redraws only around the dot.
        host.schedule([.init(time: 2.004, .pointer(.began, CGPoint(x: 50, y: 40))),
                       .init(time: 2.01, .pointer(.moved, CGPoint(x: 53, y: 40)))])
        host.deliverInputs(through: 2.01)
        #expect(abs(host.nextFrameDue - 121 * tick) < 1e-9)       // first tick after 2.004
        host.frame(at: 121 * tick)
        let moved = host.lastRedrawnArea
        #expect(moved.x <= 40 - 2 && moved.x + moved.width >= 63 && moved.width < 40, "\(moved)")
        #expect(host.nextFrameDue == .infinity)
    }

    @Test func spacePausesTheSceneClockAndArrowsStepIt() throws {
        CAMediaClock.setManualTime(0)
        let scene = DragScene(animatedBar: true)
        let tick = 1.0 / 60
        let host = try HeadlessHost(scene: scene, script: [
            .init(time: 0.05, .key(.left)),              // running: the scene's key
            .init(time: 0.25, .key(.space)),             // pause at scene time 0.25
            .init(time: 0.30, .key(.right)),
            .init(time: 0.31, .key(.right)),
            .init(time: 0.32, .key(.left)),              // paused at 0.25 + 1 frame
            .init(time: 0.50, .key(.space)),             // resume
            .init(time: 0.55, .key(.character("x"))),
        ])
        let paused = 0.25 + tick
        let cases: [(host: Double, scene: Double)] = [(0.2, 0.2), (0.4, paused), (0.45, paused), (0.6, paused + 0.1)]
        for (t, expected) in cases {
            let frame = host.frame(at: t)
            #expect(abs(scene.advances.last! - expected) < 1e-9, "timeline \(t)")
            #expect(abs(host.sceneTime(at: t) - expected) < 1e-9)
            let bx = DragScene.barX(at: expected)
            #expect(frame.rgb(Int(bx - 8), 85) == Palette.blueRGB && frame.rgb(Int(bx - 12), 85) == Palette.whiteRGB,
                    "timeline \(t): bar at scene time \(expected)")
            if t == 0.4 { #expect(host.isPaused && host.nextFrameDue == .infinity, "paused: no frames although the bar animates") }
        }
        #expect(!host.isPaused)
        #expect(scene.keys == [.left, .character("x")])
        #expect(!host.quitRequested)
        host.schedule([.init(time: 0.7, .key(.character("q")))])
        host.frame(at: 0.7)
        #expect(host.quitRequested)
    }

    /// Resuming an animation paused long ago: the next frame is the tick after the resume, not the
    /// tick after the last frame drawn (which has passed: the scene time would go back).
    @Test func noFrameIsDueBeforeTheLatestInput() throws {
        CAMediaClock.setManualTime(0)
        let scene = DragScene(animatedBar: true)
        let tick = 1.0 / 60
        let host = try HeadlessHost(scene: scene, script: [.init(time: 0.25, .key(.space)), .init(time: 0.505, .key(.space))])
        host.frame(at: 15 * tick)
        host.frame(at: 18 * tick)                                  // paused at 0.25
        #expect(host.isPaused && host.nextFrameDue == .infinity)
        host.deliverInputs(through: 0.505)
        #expect(abs(host.nextFrameDue - 31 * tick) < 1e-9, "the tick after the resume at 0.505")
        host.frame(at: 31 * tick)
        #expect(scene.advances.last! > 0.25, "the scene continues after its paused time")
    }

    @Test func invalidScenesAreRefusedWithAMessage() {
        CAMediaClock.setManualTime(0)
        let layer = CALayer()
        for (size, scale) in [(CGSize(width: 0, height: 10), 1.0), (CGSize(width: CGFloat.nan, height: 10), 1),
                              (CGSize(width: 100, height: 100), 0), (CGSize(width: 10_000, height: 100), 2)] {
            let scene = LayerScene(rootLayer: layer, size: size)
            #expect(throws: HostError.self) { _ = try HeadlessHost(scene: scene, scale: CGFloat(scale)) }
            do throws(HostError) { _ = try HeadlessHost(scene: scene, scale: CGFloat(scale)) } catch {
                #expect(error.description.hasPrefix("cannot host the scene:"))
            }
        }
    }

    @Test func layerSceneForwardsPointerEventsAndPumpsDisplayLinks() throws {
        CAMediaClock.setManualTime(0)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
        var received: [HostPointerEvent] = []
        let scene = LayerScene(rootLayer: root, size: CGSize(width: 40, height: 30)) { received.append($0) }
        var ticks: [CFTimeInterval] = []
        let link = CADisplayLink { ticks.append($0.timestamp) }
        link.add(to: .main, forMode: .common)
        defer { link.invalidate() }
        scene.runsContinuously = true
        let host = try HeadlessHost(scene: scene, script: [.init(time: 0.02, .pointer(.began, CGPoint(x: 3, y: 4)))])
        host.frames(at: HeadlessHost.displayFrameTimes(from: 0, through: 0.1)) { _, _ in }
        #expect(received == [HostPointerEvent(phase: .began, location: CGPoint(x: 3, y: 4), timestamp: 0.02)])
        #expect(ticks.count == 6)                                 // frames 1/60 … 6/60 after the first
        #expect(abs(host.nextFrameDue - 7.0 / 60) < 1e-9)          // runsContinuously: the next tick
    }
}
