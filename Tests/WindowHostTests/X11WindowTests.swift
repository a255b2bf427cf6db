import CX11
import Foundation
import QuartzCore
import Testing
import TestSupport
import WindowHost

/// Holds a scene built on the window's thread, for the test thread to read once `run()` returned.
final class SceneBox: @unchecked Sendable {
    var scene: DragScene?
}

/// The window end to end, under a private Xvfb: real X input through xdotool (XTEST), real
/// pixels through xwd, the window's thread's CPU time through its CPU clock.
@Suite(.serialized, .enabled(if: XTools.available, Comment(rawValue: XTools.skipReason)))
struct X11WindowTests {
    /// Opens a `DragScene` window on `xvfb` from a thread of its own; returns the thread, the
    /// window, its id as xdotool finds it by title, and the scene box.
    static func open(_ xvfb: Xvfb, title: String, scale: CGFloat = 1, sharedMemory: Bool = true,
                     animatedBar: Bool = false, barDuration: CFTimeInterval = 1) throws
        -> (runner: WindowThread, window: X11Window, id: UInt, box: SceneBox) {
        let box = SceneBox()
        let display = xvfb.display
        let runner = WindowThread {
            CAMediaClock.setManualTime(0)                  // the scene starts at media time 0
            let scene = DragScene(animatedBar: animatedBar, barDuration: barDuration)
            box.scene = scene
            return try X11Window(scene: scene, scale: scale, title: title, display: display, allowSharedMemory: sharedMemory)
        }
        let window = try runner.waitForWindow()
        let id = try xvfb.window(titled: title)
        return (runner, window, id, box)
    }

    /// Whether the grab shows the dot (20 points) centred on `center` (points) at `scale`, with the
    /// frame's origin at `origin` (window pixels).
    static func showsDot(_ image: XWDImage, at center: CGPoint, scale: CGFloat, origin: (Int, Int) = (0, 0)) -> Bool {
        let x0 = origin.0 + Int((center.x - 10) * scale), x1 = origin.0 + Int((center.x + 10) * scale) - 1
        let y0 = origin.1 + Int((center.y - 10) * scale), y1 = origin.1 + Int((center.y + 10) * scale) - 1
        return [(x0, y0), (x1, y0), (x0, y1), (x1, y1)].allSatisfy { image.rgb($0.0, $0.1) == Palette.redRGB }
            && image.rgb(x0 - 1, y0) == Palette.whiteRGB && image.rgb(x1 + 1, y1) == Palette.whiteRGB
    }

    @Test(arguments: [(1.0, true), (2.0, true), (1.0, false)])
    func dragMovesTheDotAndAnIdleWindowCostsNothing(scale: Double, sharedMemory: Bool) throws {
        let s = CGFloat(scale)
        let xvfb = try Xvfb()
        let title = "Citrine drag \(scale) \(sharedMemory ? "shm" : "plain")"
        let (runner, window, id, box) = try Self.open(xvfb, title: title, scale: s, sharedMemory: sharedMemory)
        #expect(id == window.windowID)
        #expect(window.usesSharedMemory == sharedMemory, "Xvfb has MIT-SHM: it is used unless refused")
        #expect(try waitUntil { Self.showsDot(try xvfb.grab(id), at: CGPoint(x: 50, y: 40), scale: s) }, "the first frame")
        let image = try xvfb.grab(id)
        #expect(image.width == Int(200 * s) && image.height == Int(100 * s))

        // Press on the dot (window pixels = points × scale), drag by (+100, +45) points, release.
        func px(_ v: CGFloat) -> String { String(Int(v * s)) }
        try xvfb.run("xdotool", ["mousemove", "--window", String(id), px(52), px(41), "mousedown", "1",
                                 "mousemove", "--window", String(id), px(90), px(60),
                                 "mousemove", "--window", String(id), px(130), px(80),
                                 "mousemove", "--window", String(id), px(152), px(86), "mouseup", "1"])
        let moved = try waitUntil { Self.showsDot(try xvfb.grab(id), at: CGPoint(x: 150, y: 85), scale: s) }
        #expect(moved, "the dot is where the drag left it")

        // Idle: nothing animates, no input — no frames, no wake-ups, next to no CPU.
        try #require(waitUntil { window._statistics.framesRendered > 0 })
        usleep(300_000)
        let before = (window._statistics, runner.cpuTime())
        usleep(1_000_000)
        let after = (window._statistics, runner.cpuTime())
        #expect(after.0.framesRendered == before.0.framesRendered, "no frames while idle")
        #expect(after.0.wakeups == before.0.wakeups, "no wake-ups while idle")
        #expect(after.1 - before.1 < 0.005, "idle window thread CPU over 1 s: \(after.1 - before.1) s")

        try xvfb.run("xdotool", ["key", "q"])
        #expect(runner.waitUntilFinished(), "q closes the window")
        #expect(runner.error == nil)
        let scene = try #require(box.scene)
        #expect(scene.events.first?.phase == .began && scene.events.last?.phase == .ended)
        #expect(scene.events.dropFirst().dropLast().allSatisfy { $0.phase == .moved })
        #expect(scene.events.first?.location == CGPoint(x: 52, y: 41))
        #expect(scene.events.last?.location == CGPoint(x: 152, y: 86))
        #expect(scene.events.map(\.timestamp) == scene.events.map(\.timestamp).sorted(), "timestamps in order")
        #expect(scene.clockDuringHandle == scene.events.map(\.timestamp))
        #expect(scene.advances.count == window._statistics.framesRendered, "one advance per frame")
        #expect(scene.advances == scene.advances.sorted(), "frame times never go back")
        // Each event precedes the frame after it: the frames after the release are at or after it.
        let release = scene.events.last!.timestamp
        #expect(scene.advances.last! >= release)
    }

    @Test func animationIsPacedAndSpacePausesAndArrowsStep() throws {
        let xvfb = try Xvfb()
        let title = "Citrine pacing"
        let (runner, window, id, box) = try Self.open(xvfb, title: title, animatedBar: true, barDuration: 3)
        // Keys go to the window under the pointer (no window manager: the focus is PointerRoot).
        try xvfb.run("xdotool", ["mousemove", "--window", String(id), "5", "5"])
        try #require(waitUntil { window._statistics.framesRendered >= 10 })
        let start = (window._statistics.framesRendered, Date())
        usleep(500_000)
        let rate = Double(window._statistics.framesRendered - start.0) / Date().timeIntervalSince(start.1)
        #expect(rate > 20 && rate < 63, "frames per second while animating: \(rate)")

        try xvfb.run("xdotool", ["key", "space"])
        usleep(200_000)
        let pausedFrames = window._statistics.framesRendered
        let pausedCPU = runner.cpuTime()
        usleep(500_000)
        #expect(window._statistics.framesRendered == pausedFrames, "no frames while paused")
        #expect(runner.cpuTime() - pausedCPU < 0.005, "paused: idle")

        try xvfb.run("xdotool", ["key", "Right"])
        #expect(waitUntil { window._statistics.framesRendered == pausedFrames + 1 }, "one step, one frame")
        for (i, key) in ["Right", "Right", "Left"].enumerated() {   // one at a time: keys within a frame share it
            try xvfb.run("xdotool", ["key", key])
            #expect(waitUntil { window._statistics.framesRendered == pausedFrames + 2 + i })
        }
        try xvfb.run("xdotool", ["key", "space"])
        #expect(waitUntil { window._statistics.framesRendered > pausedFrames + 10 }, "resumed")
        try xvfb.run("xdotool", ["key", "q"])
        #expect(runner.waitUntilFinished())

        let scene = try #require(box.scene)
        // While paused the scene time moved only by the steps: +1, +1, +1, −1 frames.
        let tick = 1.0 / 60
        let steps = Array(scene.advances[(pausedFrames - 1)...(pausedFrames + 4)])
        let frozen = steps[0]
        let expected = [frozen, frozen + tick, frozen + 2 * tick, frozen + 3 * tick, frozen + 2 * tick]
        for (got, want) in zip(steps, expected) { #expect(abs(got - want) < 1e-9, "\(steps)") }
        // After resuming, the scene continues from where it was stopped (no jump).
        #expect(steps[5] > frozen + 2 * tick && steps[5] < frozen + 2 * tick + 0.1, "\(steps)")
    }

    @Test func exposeRepaintsWithoutRenderingAndResizeCentresTheFrame() throws {
        let xvfb = try Xvfb()
        let title = "Citrine expose"
        let (runner, window, id, _) = try Self.open(xvfb, title: title)
        #expect(try waitUntil { Self.showsDot(try xvfb.grab(id), at: CGPoint(x: 50, y: 40), scale: 1) })
        usleep(100_000)
        let rendered = window._statistics.framesRendered
        let repaints = window._statistics.exposeRepaints
        try xvfb.run("xdotool", ["windowunmap", "--sync", String(id)])
        try xvfb.run("xdotool", ["windowmap", "--sync", String(id)])
        #expect(try waitUntil { try window._statistics.exposeRepaints > repaints && Self.showsDot(xvfb.grab(id), at: CGPoint(x: 50, y: 40), scale: 1) })
        #expect(window._statistics.framesRendered == rendered, "an Expose repaints the retained frame, renders nothing")

        // A larger window: the 200×100 frame centred, black around it; input mapped through it.
        try xvfb.run("xdotool", ["windowsize", "--sync", String(id), "400", "300"])
        #expect(try waitUntil {
            let g = try xvfb.grab(id)
            return g.width == 400 && Self.showsDot(g, at: CGPoint(x: 50, y: 40), scale: 1, origin: (100, 100))
                && g.rgb(5, 5) == [0, 0, 0] && g.rgb(395, 295) == [0, 0, 0]
        }, "centred after the resize")
        try xvfb.run("xdotool", ["mousemove", "--window", String(id), "150", "140", "mousedown", "1",
                                 "mousemove", "--window", String(id), "170", "150", "mouseup", "1"])
        #expect(try waitUntil { Self.showsDot(try xvfb.grab(id), at: CGPoint(x: 70, y: 50), scale: 1, origin: (100, 100)) })
        window.stop()
        #expect(runner.waitUntilFinished(), "stop() from another thread ends run()")
    }

    @Test func windowManagerCloseEndsRun() throws {
        let xvfb = try Xvfb()
        let (runner, window, id, _) = try Self.open(xvfb, title: "Citrine close")
        #expect(waitUntil { window._statistics.framesRendered > 0 })
        // What a window manager sends for its close button: WM_PROTOCOLS / WM_DELETE_WINDOW.
        let dpy = try #require(XOpenDisplay(xvfb.display))
        defer { XCloseDisplay(dpy) }
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = Window(id)
        event.xclient.message_type = XInternAtom(dpy, "WM_PROTOCOLS", 0)
        event.xclient.format = 32
        event.xclient.data.l.0 = Int(bitPattern: XInternAtom(dpy, "WM_DELETE_WINDOW", 0))
        event.xclient.data.l.1 = Int(CurrentTime)
        XSendEvent(dpy, Window(id), 0, NoEventMask, &event)
        XSync(dpy, 0)
        #expect(runner.waitUntilFinished(), "WM_DELETE_WINDOW closes the window")
        #expect(runner.error == nil)
        #expect(throws: HostError.windowClosed) { try window.run() }
    }

    @Test func losingTheServerEndsRunWithAnError() throws {
        let xvfb = try Xvfb()
        let (runner, window, _, _) = try Self.open(xvfb, title: "Citrine lost", animatedBar: true, barDuration: 30)
        #expect(waitUntil { window._statistics.framesRendered > 5 })
        xvfb.stop()
        #expect(runner.waitUntilFinished(), "run() returns instead of Xlib exiting the process")
        #expect(runner.error as? HostError == .connectionLost)
        #expect(throws: HostError.windowClosed) { try window.run() }
    }

    @Test func displayAvailability() throws {
        let xvfb = try Xvfb()
        #expect(X11Window.displayAvailable(xvfb.display))
    }
}
