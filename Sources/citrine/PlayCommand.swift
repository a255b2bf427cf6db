import ArgumentParser
import CitrineUI
import Demos
import QuartzCore
import WindowHost

/// `citrine play <demo>`: a demo live in an X11 window, paced by the clock (space pauses, the
/// arrow keys step a frame while paused, q quits). The interactive seed demos (`…-live`, see
/// `citrine demos --live`) take the mouse as touch; the gallery's demos just play. Without a
/// display it says so and exits 3.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Open a demo live in a window (X11): space pauses, arrows step, q quits.")

    @Argument(help: "The demo to play (see 'citrine demos' and 'citrine demos --live').")
    var demo: String

    @Option(help: ArgumentHelp("Pixels per point (default: 2).", valueName: "factor"))
    var scale: String?

    func run() throws {
        let scale = try scale.map { text throws(Failure) in try OptionValue.scale(text) } ?? 2
        let live = SeedDemo.named(demo)
        let still = Gallery.demo(named: demo)
        guard live != nil || still != nil else {
            let names = (Gallery.demos.map(\.name) + SeedDemo.all.map(\.name)).joined(separator: ", ")
            throw Failure(.badInput, "unknown demo '\(demo)': expected one of \(names)")
        }
        guard X11Window.displayAvailable() else {
            throw Failure(.missingTool, "play needs an X11 display, and there is none (DISPLAY is "
                          + (ProcessInfo.processInfo.environment["DISPLAY"].map { "'\($0)', which cannot be opened" } ?? "not set")
                          + "); render the demo to a file instead: citrine render \(still?.name ?? "falling-petal") -o demo.gif")
        }
        let scene: any HostedScene
        if let live {
            scene = WindowScene(window: live.build(), size: live.size)
        } else {
            let demo = still!
            let root = CALayer()
            root.frame = CGRect(origin: .zero, size: demo.size)
            root.backgroundColor = Gallery.background
            root.addSublayer(demo.build())
            scene = LayerScene(rootLayer: root, size: demo.size)
        }
        CATransaction.flush()
        do {
            let window = try X11Window(scene: scene, scale: scale, title: "citrine — \(demo)")
            try window.run()
        } catch {
            throw Failure(.badInput, "\(demo): \(error)")
        }
    }
}

/// A CitrineUI window as the window host's scene: the host's pointer events go into
/// `UIApplication`'s one input path, and each displayed frame is one turn of its run loop —
/// the same calls a scripted `UIEventTimeline` makes headless.
final class WindowScene: HostedScene {
    let window: UIWindow
    let size: CGSize
    var rootLayer: CALayer { window.layer }

    init(window: UIWindow, size: CGSize) {
        self.window = window
        self.size = size
    }

    func handle(_ event: HostPointerEvent) {
        let phase: UITouch.Phase = switch event.phase {
        case .began: .began
        case .moved: .moved
        case .ended: .ended
        case .cancelled: .cancelled
        }
        UIApplication.shared.sendPointerEvent(phase, at: event.location, timestamp: event.timestamp, in: window)
    }

    func advance(to time: CFTimeInterval) { UIApplication.shared.advance(to: time) }

    /// Display links and view animations may need frames no layer animation asks for: every
    /// frame while the window shows.
    func nextFrameTime(after time: CFTimeInterval) -> CFTimeInterval { time }
}
