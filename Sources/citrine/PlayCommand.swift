import ArgumentParser
import Demos
import Foundation
import QuartzCore
import Scene
import WindowHost

/// `citrine play <demo>`: a demo (or the user's own code, `UserCode`) live in an X11 window, paced by the clock, the mouse as touch
/// (Alt held at the press adds a mirrored second touch; space pauses, the arrow keys step a frame
/// while paused, q quits), optionally with scripted
/// input played into the window as if by a person. Without a display it says so and exits 3.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Open a demo, your own code or a Lottie file live in a window (X11): space pauses, arrows step, q quits.",
        discussion: """
            --script plays the demo's own scripted input (the one 'citrine render' exports) into \
            the window; --tap and --drag play the input they give instead: points in the demo's \
            coordinates (origin top-left, y down), times in seconds from the window's start, \
            delivered as pointer events through the same path as the mouse.

            Two fingers with a mouse: press with Alt held and a second touch follows the \
            pointer mirrored about the window's centre, as the iOS Simulator's Option key \
            does (for pinches and rotations).

            Your own code (a .swift file or a .playground folder) is compiled and run as \
            'citrine render --help' describes, and its live view shown. A Lottie .json file \
            plays in a loop.

            Examples:
              citrine play sticky-bubble --script
              citrine play MyView.swift
              citrine play anim.json
              citrine play sticky-bubble --drag 100,120:160,120@0.5+0.5 --tap 100,120@2
            """)

    @Argument(help: ArgumentHelp("The demo to play (see 'citrine demos'), your own .swift file or .playground folder, "
                                 + "or a Lottie .json file.",
                                 valueName: "demo-or-file"))
    var demo: String

    @Option(help: ArgumentHelp("Your own code: a top-level variable (a view, view controller or layer) to show when "
                               + "the page sets no PlaygroundPage.current.liveView.", valueName: "name"))
    var view: String?

    @Option(help: ArgumentHelp("Pixels per point (default: 2).", valueName: "factor"))
    var scale: String?

    @Option(help: ArgumentHelp("Draw text only with the fonts in this folder (default: the machine's; see 'citrine "
                               + "info --fonts').", valueName: "folder"))
    var fontDir: String?

    @Flag(help: "Play the demo's own scripted input into the window.")
    var script = false

    @OptionGroup(title: "Scripted input")
    var input: InputOptions

    func run() throws {
        let scale = try scale.map { text throws(Failure) in try OptionValue.scale(text) } ?? 2
        try OptionValue.useFontDirectory(fontDir)
        let lottie = try LottieFile(argument: demo)
        if lottie != nil, script || !input.isEmpty || view != nil {
            throw Failure.usage("a Lottie file takes no input and has no views: --script, --tap, --drag and --view do not apply",
                                command: "play")
        }
        let code = try UserCode(argument: demo, viewName: view)
        let name = lottie?.name ?? code.map { URL(fileURLWithPath: $0.path).lastPathComponent } ?? demo
        if script, !input.isEmpty {
            throw Failure.usage("--script plays the demo's own input; --tap and --drag replace it: give one or the other",
                         command: "play")
        }
        if script, code != nil {
            throw Failure.usage("--script plays a demo's own input, and your own code has none: give --tap or --drag",
                                command: "play")
        }
        var scripted = try input.script()
        guard X11Window.displayAvailable() else {
            throw Failure(.missingTool, "play needs an X11 display, and there is none (DISPLAY is "
                          + (ProcessInfo.processInfo.environment["DISPLAY"].map { "'\($0)', which cannot be opened" } ?? "not set")
                          + "); render it to a file instead: citrine render \(demo) -o out.gif")
        }
        let scene: any HostedScene
        if let lottie {
            lottie.warnUnsupported()
            scene = lottie.makeScene()
        } else if let code {
            guard let library = UserProgram.handedLibrary else { try UserProgram.runInChild(code) }
            scene = try UserProgram.liveView(of: code, library: library).scene
        } else {
            let demo = try OptionValue.demo(demo)
            if script { scripted = demo.timeline }
            scene = demo.makeScene()
        }
        do {
            let window = try X11Window(scene: scene, scale: scale, title: Self.title(name))
            window.script = scripted
            try window.run()
        } catch {
            throw Failure(.badInput, "\(name): \(error)")
        }
    }

    /// The window's title: "citrine — NAME".
    static func title(_ name: String) -> String { "citrine — \(name)" }
}
