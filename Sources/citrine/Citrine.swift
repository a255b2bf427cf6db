// citrine — renders Core Animation layer trees (the seed tutorials' demos) to PNG, GIF, APNG,
// MP4, MOV and WebM, lists and describes the demos, and builds an HTML gallery of them.
//
// One file per subcommand (RenderCommand, ConcatCommand, DemosCommand, InfoCommand,
// GalleryCommand, PlayCommand); a render of several inputs is a RenderBatch of child runs, its
// output names are OutputName's, `--shard` is a Shard; option values are read in OptionValues,
// failures and their exit statuses are in Failure, progress on standard error in Progress,
// Ctrl-C/SIGTERM in Interruption. The commands are a library (CitrineCommands, with
// `CitrineCommandLine` its entry points); the executable is Sources/CitrineMain/main.swift.
import ArgumentParser
import Export
import Foundation

struct Citrine: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "citrine",
        abstract: "Render Core Animation demos to PNG, GIF, APNG, MP4, MOV or WebM.",
        discussion: """
            With no subcommand, citrine runs 'gallery -o gallery'.

            Exit status: 0 done; 1 bad input (a value, a demo, an output that cannot be \
            written); 2 bad usage (an unknown option, a missing value, options that cannot go \
            together); 3 a missing tool (ffmpeg for MP4, MOV, WebM; an X11 display for play); 130 or 143 interrupted by SIGINT \
            or SIGTERM (nothing written).
            """,
        version: version,
        subcommands: [RenderCommand.self, ConcatCommand.self, DemosCommand.self, InfoCommand.self, GalleryCommand.self, PlayCommand.self],
        defaultSubcommand: GalleryCommand.self)

    /// Parses the arguments, runs the command and exits with its status (see `Failure`).
    static func main() {
        let status: Int32
        do {
            var command = try parseAsRoot()
            try command.run()
            status = 0
        } catch {
            status = exitStatus(for: error)
        }
        Glibc.exit(status)
    }

    /// Reports `error` on standard error (help and version on standard output) and returns the
    /// exit status.
    private static func exitStatus(for error: any Error) -> Int32 {
        let outcome = outcome(of: error)
        if outcome.status == 0 {
            print(outcome.message)
        } else {
            Terminal.report(outcome.message)
            if let hint = outcome.hint { Terminal.write(hint + "\n") }
        }
        return outcome.status
    }

    /// What citrine reports for `error`: the message (for status 0, help or the version, printed
    /// on standard output; else after "citrine:" on standard error), a hint line, and the exit
    /// status.
    static func outcome(of error: any Error) -> (message: String, hint: String?, status: Int32) {
        if Interruption.signal != 0 {
            return ("interrupted; nothing written", nil, 128 + Interruption.signal)
        }
        switch error {
        case let failure as Failure:
            return (failure.description, failure.hint, failure.kind.rawValue)
        case let error as ExportError:
            let failure = Failure.export(error)
            return (failure.description, nil, failure.kind.rawValue)
        default:
            break
        }
        let code = exitCode(for: error)
        if code == .success {
            return (fullMessage(for: error), nil, 0)
        }
        guard code == .validationFailure else {
            // Anything else that was thrown: a file the system refused, for one.
            return (message(for: error), nil, code == .failure ? 1 : code.rawValue)
        }
        // ArgumentParser's usage errors: "Error: Unknown option '--x'\nUsage: …" → status 2.
        var text = fullMessage(for: error)
        if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
        if let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase == true {
            text = first.lowercased() + text.dropFirst()
        }
        return (text, nil, Failure.Kind.usage.rawValue)
    }
}

/// The `citrine` command as a library: `main()` runs it (CitrineMain), `run(_:)` runs it in the
/// calling process without exiting (the bad-input cases of the command line), `check(_:)` reads
/// arguments as it does and stops before anything is drawn, written or run (the fuzz target
/// `fuzz-cli`).
public enum CitrineCommandLine {
    /// Parses the process's arguments, runs the command and exits with its status.
    public static func main() {
        keepLargeBlocksInTheHeap()
        Citrine.main()
    }

    /// glibc's malloc serves a block above its mmap threshold (128 KiB at first, raised to the
    /// largest block freed) with mmap and gives it back with munmap, so the frame-sized buffers
    /// drawing allocates on every frame (offscreen surfaces for masks, mattes and group
    /// opacity, coverage masks) come back as fresh pages the kernel must fault in and zero:
    /// rendering scripts/bench-lottie-video's 1080p file took 502 000 page faults and 1.28 s of
    /// its 2.36 s CPU in the kernel for 30 frames (perf stat, one thread). The command owns its
    /// process, so it raises the threshold to glibc's largest (32 MiB, mallopt(3)
    /// M_MMAP_THRESHOLD) and the heap's trim threshold to 256 MiB, which keeps those blocks for
    /// reuse: 26 000 faults and 0.23 s in the kernel (the CPU time of the 30 frames 2.36 → 1.35 s).
    /// mallopt is looked up by name (Swift's Glibc module leaves malloc.h out); its parameter
    /// numbers are malloc.h's M_TRIM_THRESHOLD (−1) and M_MMAP_THRESHOLD (−3).
    private static func keepLargeBlocksInTheHeap() {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(-3, 32 << 20)
        _ = mallopt(-1, 256 << 20)
    }

    /// Runs `arguments` (the program name left out) as `main()` would, in this process, and
    /// returns instead of exiting: nil when the command succeeded, else the message (without
    /// "citrine: ") and exit status it would report.
    public static func run(_ arguments: [String]) -> (message: String, status: Int32)? {
        reported {
            var command = try Citrine.parseAsRoot(arguments)
            try command.run()
        }
    }

    /// What citrine would make of `arguments` (the program name left out) before running:
    /// nil when they parse — for `render` of one input, into its complete plan (`RenderPlan`:
    /// every option and combination checked, the output's folder and an existing file looked
    /// at, nothing drawn; of several, into a `RenderBatch`, their output names checked) — else the message and exit status it would report. Help and `--version` count
    /// as status 0. The other commands are parsed, not run.
    public static func check(_ arguments: [String]) -> (message: String, status: Int32)? {
        reported {
            let command = try Citrine.parseAsRoot(arguments)
            if let render = command as? RenderCommand { try render.check() }
        }
    }

    /// nil when `body` returns, else the message and exit status citrine reports for its error.
    private static func reported(_ body: () throws -> Void) -> (message: String, status: Int32)? {
        do {
            try body()
            return nil
        } catch {
            let outcome = Citrine.outcome(of: error)
            return (outcome.message, outcome.status)
        }
    }
}
