import ArgumentParser
import Demos
import Export
import Foundation

/// `citrine render <demo> -o <file>`: one demo to a still, a PNG sequence, GIF, APNG or video.
/// The option names are those gifski, ffmpeg and lottie2gif users already type (`-o`, `--fps`,
/// `--width`, `-y`, `-q`). Every option is read and checked, together with the output
/// (`CAAnimationExporter.validate`), before the first frame is drawn.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a demo, your own code or a Lottie file to a PNG still, a PNG sequence, GIF, APNG, MP4, MOV or WebM.",
        usage: """
            citrine render <demo-or-file> -o <file> [<options>]
            citrine render <demo-or-file> ... --out-dir <folder> [<options>]
            """,
        discussion: """
            The animation runs from --start for the demo's span (see 'citrine demos') unless \
            --duration, --end or --frames says otherwise; frames are sampled at start + i/fps, \
            and the end itself is left out (a loop plays seamlessly) unless --include-end. \
            MP4, MOV and WebM are written through ffmpeg. The output is written to a hidden \
            temporary file and renamed into place when complete.

            Your own code: a .swift file or a .playground folder is compiled with the \
            installed Swift toolchain against Citrine's modules (import UIKit, QuartzCore, \
            CoreGraphics, CoreText, PlaygroundSupport) and run. The build is kept by content in \
            $XDG_CACHE_HOME/citrine/user-code (default ~/.cache/citrine/user-code), so an \
            unchanged file starts at once. Shown, in this order: what the code sets as \
            PlaygroundPage.current.liveView (a view, a view controller or a layer), else the \
            top-level variable --view names; it is rendered from media time 0, for its \
            animations' span (a repeating one through one cycle).

            A Lottie file (Bodymovin .json, as After Effects exports it) is imported onto Core \
            Animation layers and keyframe animations and rendered from its first frame for its \
            duration, sampled at --fps whatever its own frame rate; what it uses that is not \
            imported yet is warned about on standard error (see 'citrine info anim.json').

            Several inputs go to --out-dir, each named after its input with the format's \
            extension (anim.json → anim.gif; a PNG sequence anim-%04d.png), several at a time \
            on the --threads. An input that fails is named on standard error and the others \
            are still rendered; the exit status is then the first failure's.

            --shard I/N renders slice I of N, so that N processes or machines share the work: \
            of several inputs those at positions I, I+N, I+2N … (from 0); of one input its \
            frames from I×F/N to (I+1)×F/N (F frames in all, rounded down), drawn as one run \
            draws them. A PNG sequence's slices write the frames' own numbers; video slices \
            (with --out-dir, anim.part-1-of-4.mp4) are joined with 'citrine concat'.

            Examples:
              citrine render falling-petal -o petal.gif
              citrine render MyView.swift -o my-view.gif
              citrine render anim.json -o anim.mp4 --fps 60
              citrine render fold-image -o fold.mp4 --duration 4 --width 640
              citrine render ball-loader --time 0.75 -o ball.png
              citrine render volume-bars -o frames/%04d.png --fps 60
              citrine render reflection --format apng -o - > reflection.apng
              citrine render sticky-bubble -o drag.gif --drag 100,120:160,120@0.2+0.5
              citrine render *.json --out-dir out --format mp4
              citrine render long.json --shard 1/4 --out-dir parts --format mp4

            --tap and --drag replace the demo's own scripted input: points in the demo's \
            coordinates (origin top-left, y down), times in seconds from the start of the demo, \
            delivered as pointer events through the same path as the mouse in 'citrine play'. \
            With them the default length is the last input's time plus the demo's span.
            """)

    @Argument(help: ArgumentHelp("The demo to render (see 'citrine demos'), your own .swift file or .playground folder, "
                                 + "or a Lottie .json file; several with --out-dir.",
                                 valueName: "demo-or-file"))
    var inputs: [String]

    @Option(help: ArgumentHelp("Your own code: a top-level variable (a view, view controller or layer) to show when "
                               + "the page sets no PlaygroundPage.current.liveView.", valueName: "name"))
    var view: String?

    @OptionGroup(title: "Output")
    var output: OutputOptions

    @OptionGroup(title: "Time")
    var time: TimeOptions

    @OptionGroup(title: "Size and look")
    var look: LookOptions

    @OptionGroup(title: "Scripted input")
    var input: InputOptions

    func run() throws {
        try OptionValue.useFontDirectory(look.fontDir)
        let shard = try output.shard.map { text throws(Failure) in try Shard(text) }
        if inputs.count > 1 {
            try RenderBatch(self, shard: shard).run()
            return
        }
        let demo = inputs[0]
        if URL(fileURLWithPath: demo).pathExtension.lowercased() == "json", view != nil {
            throw Failure.usage("--view names a variable of your own code, not of a Lottie file", command: "render")
        }
        if let code = try UserCode(argument: demo, viewName: view), UserProgram.handedLibrary == nil {
            try UserProgram.runInChild(code)
        }
        try OutputName.makeFolder(output.outDir)
        let plan = try RenderPlan(self, shard: shard)
        try plan.execute()
    }

    /// Reads and checks everything `run` would before the first frame, drawing and writing
    /// nothing (`CitrineCommandLine.check`).
    func check() throws {
        let shard = try output.shard.map { text throws(Failure) in try Shard(text) }
        if inputs.count > 1 {
            _ = try RenderBatch(self, shard: shard)
        } else {
            _ = try RenderPlan(self, shard: shard)
        }
    }
}

struct OutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: ArgumentHelp(
        "out.png, frames/%04d.png, out.gif, out.apng, out.mp4, out.mov, out.webm, or - for standard output.",
        valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp(
        "Write each input to this folder (created if needed), named after it: anim.json → anim.gif.",
        valueName: "folder"))
    var outDir: String?

    @Option(help: ArgumentHelp(
        "png, png-sequence, gif, apng, mp4, mov or webm (default: from the file name; needed with -o -; gif with "
            + "--out-dir).",
        valueName: "format"))
    var format: String?

    @Option(help: ArgumentHelp(
        "Render only slice I (from 0) of N: of several inputs every Nth from the Ith, of one its frames I×F/N to "
            + "(I+1)×F/N (join the videos with 'citrine concat').",
        valueName: "I/N"))
    var shard: String?

    @Flag(name: [.customShort("y"), .long], help: "Replace an existing output file (refused otherwise).")
    var overwrite = false

    @Flag(name: .shortAndLong, help: "No progress line on standard error.")
    var quiet = false

    @Option(help: ArgumentHelp("Threads that render and encode, in all (default: the number of processors).",
                               valueName: "count"))
    var threads: String?
}

struct TimeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Frames per second: 30 (default), 29.97, 30000/1001 …", valueName: "rate"))
    var fps: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Media time of the first frame (default: 0). Seconds: 1.5, 1.5s or 250ms.",
                               valueName: "seconds"))
    var start: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Length of the animation (default: the demo's span).", valueName: "seconds"))
    var duration: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Media time at which the animation ends (instead of --duration).", valueName: "seconds"))
    var end: String?

    @Option(help: ArgumentHelp("Number of frames (instead of --duration).", valueName: "count"))
    var frames: String?

    @Flag(help: "Add a last frame at the end time itself.")
    var includeEnd = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Render one still (a PNG) at this media time.", valueName: "seconds"))
    var time: String?

    @Option(help: ArgumentHelp("Render one still (a PNG): frame N of the timeline, from 0.", valueName: "n"))
    var frame: String?
}

struct LookOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Pixels per point (default: 2).", valueName: "factor"))
    var scale: String?

    @Option(help: ArgumentHelp("Width in pixels; the height keeps the aspect.", valueName: "pixels"))
    var width: String?

    @Option(help: ArgumentHelp("Height in pixels; the width keeps the aspect.", valueName: "pixels"))
    var height: String?

    @Option(help: ArgumentHelp("Fit inside WxH pixels, keeping the aspect.", valueName: "WxH"))
    var size: String?

    @Option(help: ArgumentHelp("transparent, #RRGGBB or #RRGGBBAA (default: transparent; white for MP4).",
                               valueName: "colour"))
    var background: String?

    @Option(help: ArgumentHelp("GIF and APNG: times to play, 0 = forever (default: 0).", valueName: "n"))
    var loop: String?

    @Option(help: ArgumentHelp("GIF: none, ordered or diffusion (default: ordered).", valueName: "mode"))
    var dither: String?

    @Option(help: ArgumentHelp("PNG and APNG: zlib level, 0 (fastest, largest) to 9 (default: 6).",
                               valueName: "level"))
    var pngCompression: String?

    @Option(help: ArgumentHelp("Draw text only with the fonts in this folder (default: the machine's; see 'citrine "
                               + "info --fonts').", valueName: "folder"))
    var fontDir: String?
}
