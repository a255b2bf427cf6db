import ArgumentParser
import Demos
import QuartzCore
import WindowHost

/// `citrine play <demo>`: a demo live in an X11 window, paced by the clock, the mouse as touch
/// (space pauses, the arrow keys step a frame while paused, q quits), optionally with scripted
/// input played into the window as if by a person. Without a display it says so and exits 3.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Open a demo live in a window (X11): space pauses, arrows step, q quits.",
        discussion: """
            --script plays the demo's own scripted input (the one 'citrine render' exports) into \
            the window; --tap and --drag play the input they give instead: points in the demo's \
            coordinates (origin top-left, y down), times in seconds from the window's start, \
            delivered as pointer events through the same path as the mouse.

            Examples:
              citrine play sticky-bubble --script
              citrine play sticky-bubble --drag 100,120:160,120@0.5+0.5 --tap 100,120@2
            """)

    @Argument(help: "The demo to play (see 'citrine demos').")
    var demo: String

    @Option(help: ArgumentHelp("Pixels per point (default: 2).", valueName: "factor"))
    var scale: String?

    @Flag(help: "Play the demo's own scripted input into the window.")
    var script = false

    @OptionGroup(title: "Scripted input")
    var input: InputOptions

    func run() throws {
        let scale = try scale.map { text throws(Failure) in try OptionValue.scale(text) } ?? 2
        let demo = try OptionValue.demo(demo)
        if script, !input.isEmpty {
            throw Failure.usage("--script plays the demo's own input; --tap and --drag replace it: give one or the other",
                         command: "play")
        }
        let scripted = try script ? demo.timeline : input.script()
        guard X11Window.displayAvailable() else {
            throw Failure(.missingTool, "play needs an X11 display, and there is none (DISPLAY is "
                          + (ProcessInfo.processInfo.environment["DISPLAY"].map { "'\($0)', which cannot be opened" } ?? "not set")
                          + "); render the demo to a file instead: citrine render \(demo.name) -o demo.gif")
        }
        let scene = demo.makeScene()
        do {
            let window = try X11Window(scene: scene, scale: scale, title: Self.title(demo))
            window.script = scripted
            try window.run()
        } catch {
            throw Failure(.badInput, "\(demo.name): \(error)")
        }
    }

    /// The window's title: "citrine — NAME".
    static func title(_ demo: SeedDemo) -> String { "citrine — \(demo.name)" }
}
