import ArgumentParser
import Demos
import QuartzCore
import WindowHost

/// `citrine play <demo>`: a demo live in an X11 window, paced by the clock, the mouse as touch
/// (space pauses, the arrow keys step a frame while paused, q quits). Without a display it says
/// so and exits 3.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Open a demo live in a window (X11): space pauses, arrows step, q quits.")

    @Argument(help: "The demo to play (see 'citrine demos').")
    var demo: String

    @Option(help: ArgumentHelp("Pixels per point (default: 2).", valueName: "factor"))
    var scale: String?

    func run() throws {
        let scale = try scale.map { text throws(Failure) in try OptionValue.scale(text) } ?? 2
        let demo = try OptionValue.demo(demo)
        guard X11Window.displayAvailable() else {
            throw Failure(.missingTool, "play needs an X11 display, and there is none (DISPLAY is "
                          + (ProcessInfo.processInfo.environment["DISPLAY"].map { "'\($0)', which cannot be opened" } ?? "not set")
                          + "); render the demo to a file instead: citrine render \(demo.name) -o demo.gif")
        }
        let scene = demo.makeHostedScene()
        do {
            let window = try X11Window(scene: scene, scale: scale, title: Self.title(demo))
            try window.run()
        } catch {
            throw Failure(.badInput, "\(demo.name): \(error)")
        }
    }

    /// The window's title: "citrine — NAME".
    static func title(_ demo: SeedDemo) -> String { "citrine — \(demo.name)" }
}
