import ArgumentParser
import Demos
import QuartzCore
import WindowHost

/// `citrine play <demo>`: the demo live in an X11 window, paced by the clock (space pauses,
/// the arrow keys step a frame while paused, q quits). Without a display it says so and exits 3.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Open a demo live in a window (X11): space pauses, arrows step, q quits.")

    @Argument(help: "The demo to play (see 'citrine demos').")
    var demo: String

    @Option(help: ArgumentHelp("Pixels per point (default: 2).", valueName: "factor"))
    var scale: String?

    func run() throws {
        let scale = try scale.map { text throws(Failure) in
            CGFloat(try OptionValue.positive(text, "--scale", expected: "pixels per point, a positive number (e.g. 1, 2)"))
        } ?? 2
        guard let demo = Gallery.demo(named: demo) else {
            throw Failure(.badInput, "unknown demo '\(demo)': expected one of " + Gallery.demos.map(\.name).joined(separator: ", "))
        }
        guard X11Window.displayAvailable() else {
            throw Failure(.missingTool, "play needs an X11 display, and there is none (DISPLAY is "
                          + (ProcessInfo.processInfo.environment["DISPLAY"].map { "'\($0)', which cannot be opened" } ?? "not set")
                          + "); render the demo to a file instead: citrine render \(demo.name) -o \(demo.name).gif")
        }
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: demo.size)
        root.backgroundColor = Gallery.background
        root.addSublayer(demo.build())
        CATransaction.flush()
        let scene = LayerScene(rootLayer: root, size: demo.size)
        do {
            let window = try X11Window(scene: scene, scale: scale, title: "citrine — \(demo.name)")
            try window.run()
        } catch {
            throw Failure(.badInput, "\(demo.name): \(error)")
        }
    }
}
