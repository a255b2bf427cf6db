// citrine — renders Core Animation layer trees (the seed tutorials' demos) to PNG, GIF, APNG,
// MP4, MOV and WebM, lists and describes the demos, and builds an HTML gallery of them.
//
// One file per subcommand (RenderCommand, DemosCommand, InfoCommand, GalleryCommand); option
// values are read in OptionValues, failures and their exit statuses are in Failure, progress on
// standard error in Progress, Ctrl-C/SIGTERM in Interruption.
import ArgumentParser
import Export
import Foundation

@main
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
        subcommands: [RenderCommand.self, DemosCommand.self, InfoCommand.self, GalleryCommand.self, PlayCommand.self],
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
        if Interruption.signal != 0 {
            Terminal.report("interrupted; nothing written")
            return 128 + Interruption.signal
        }
        switch error {
        case let failure as Failure:
            Terminal.report(failure.description)
            if let hint = failure.hint { Terminal.write(hint + "\n") }
            return failure.kind.rawValue
        case let error as ExportError:
            let failure = Failure.export(error)
            Terminal.report(failure.description)
            return failure.kind.rawValue
        default:
            break
        }
        let code = exitCode(for: error)
        if code == .success {
            print(fullMessage(for: error))
            return 0
        }
        guard code == .validationFailure else {
            // Anything else that was thrown: a file the system refused, for one.
            Terminal.report(message(for: error))
            return code == .failure ? 1 : code.rawValue
        }
        // ArgumentParser's usage errors: "Error: Unknown option '--x'\nUsage: …" → status 2.
        var text = fullMessage(for: error)
        if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
        if let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase == true {
            text = first.lowercased() + text.dropFirst()
        }
        Terminal.report(text)
        return Failure.Kind.usage.rawValue
    }
}
