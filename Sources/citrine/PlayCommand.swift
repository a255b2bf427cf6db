import ArgumentParser
import Demos
import Foundation
import QuartzCore
import WindowHost

/// `citrine play <demo>`: a demo live in an X11 window, paced by the clock, the mouse as touch
/// (space pauses, the arrow keys step a frame while paused, q quits). Without a display it says
/// so and exits 3.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Open a demo live in a window (X11): space pauses, arrows step, q quits.")

    @Argument(help: ArgumentHelp("The demo to play (see 'citrine demos'), or your own .swift file or .playground folder.",
                                 valueName: "demo-or-file"))
    var demo: String

    @Option(help: ArgumentHelp("Your own code: a top-level variable (a view, view controller or layer) to show when "
                               + "the page sets no PlaygroundPage.current.liveView.", valueName: "name"))
    var view: String?

    @Option(help: ArgumentHelp("Pixels per point (default: 2).", valueName: "factor"))
    var scale: String?

    func run() throws {
        let scale = try scale.map { text throws(Failure) in try OptionValue.scale(text) } ?? 2
        let code = try UserCode(argument: demo, viewName: view)
        let name = code.map { URL(fileURLWithPath: $0.path).lastPathComponent } ?? demo
        guard X11Window.displayAvailable() else {
            throw Failure(.missingTool, "play needs an X11 display, and there is none (DISPLAY is "
                          + (ProcessInfo.processInfo.environment["DISPLAY"].map { "'\($0)', which cannot be opened" } ?? "not set")
                          + "); render it to a file instead: citrine render \(demo) -o out.gif")
        }
        let scene: any HostedScene
        if let code {
            guard let library = UserProgram.handedLibrary else { try UserProgram.runInChild(code) }
            scene = UserScene.make(for: try UserProgram.liveView(of: code, library: library))
        } else {
            scene = try OptionValue.demo(demo).makeHostedScene()
        }
        do {
            let window = try X11Window(scene: scene, scale: scale, title: Self.title(name))
            try window.run()
        } catch {
            throw Failure(.badInput, "\(name): \(error)")
        }
    }

    /// The window's title: "citrine — NAME".
    static func title(_ name: String) -> String { "citrine — \(name)" }
}
