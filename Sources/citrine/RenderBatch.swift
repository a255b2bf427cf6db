import Export
import Foundation
import Synchronization

/// `citrine render a.json b.json … --out-dir DIR`: each input rendered by a child `citrine
/// render INPUT -o DIR/NAME.EXT` with the same options, several children at a time.
///
/// Children rather than threads: the demos' views share one `UIApplication.shared`, your own
/// code runs in a child of its own anyway (`UserProgram`), and one input that fails (or traps)
/// leaves the others running. With T threads in all (`--threads`, default the processors),
/// min(inputs, T) children run at once with T / children threads each: a long Lottie file still
/// spreads its frames over its threads, many small files run side by side.
///
/// Outputs are named by `OutputName`; two inputs that would write the same file are refused
/// before anything is rendered. A child reports its own failure and warnings (its messages name
/// its input or output); the batch prints them when all have ended, in the inputs' order, a text
/// several children said only once, then lists the failed inputs; the exit status is the first
/// failure's. On a terminal the batch shows the inputs done (its children are quiet). SIGTERM
/// is passed on to the children (`Interruption`); Ctrl-C reaches them from the terminal. No new
/// child starts after either.
struct RenderBatch {
    let command: RenderCommand
    /// The inputs this run renders (all, or `--shard`'s slice), with their outputs.
    let jobs: [(input: String, output: String)]
    let format: ExportFormat

    private static let command = "render"

    init(_ command: RenderCommand, shard: Shard?) throws(Failure) {
        guard command.output.output == nil else {
            throw .usage("several inputs are written to --out-dir FOLDER, not to -o (one file)", command: Self.command)
        }
        guard let folder = command.output.outDir else {
            throw .usage("several inputs need --out-dir FOLDER (each is named after its input)", command: Self.command)
        }
        let format = try command.output.format.map { text throws(Failure) in try OptionValue.format(text) }
            ?? OutputName.defaultFormat
        // Every input's name is checked, also those of other slices: each slice refuses the same
        // clash.
        var seen: [String: String] = [:]
        var all: [(input: String, output: String)] = []
        for input in command.inputs {
            let output = OutputName.path(in: folder, input: input, format: format)
            if let first = seen[output] {
                throw .usage("'\(first)' and '\(input)' would both be written to \(output): rename one, or render them "
                             + "in two runs with different --out-dir folders", command: Self.command)
            }
            seen[output] = input
            all.append((input, output))
        }
        self.command = command
        self.format = format
        jobs = shard?.select(all) ?? all
    }

    /// Renders every job in a child, `min(jobs, threads)` at a time; throws, after all have
    /// ended, when one failed or a signal stopped the batch.
    func run() throws {
        guard !jobs.isEmpty else { return }
        try OutputName.makeFolder(command.output.outDir)
        let total = try command.output.threads.map { text throws(Failure) in
            try OptionValue.integer(text, "--threads", in: 1...256, expected: "1 to 256 threads")
        } ?? ProcessInfo.processInfo.activeProcessorCount
        let running = min(jobs.count, max(1, total))
        let threads = max(1, total / running)
        let options = forwardedOptions()

        Interruption.install()
        let slots = DispatchSemaphore(value: running)
        let finished = DispatchGroup()
        let statuses = Mutex([Int32?](repeating: nil, count: jobs.count))
        let said = Mutex([String](repeating: "", count: jobs.count))
        // The inputs done, on a terminal (the children are quiet).
        let progress = Mutex(ProgressLine(label: command.output.outDir ?? "", quiet: command.output.quiet, unit: "inputs"))
        let (started, count) = (Date(), jobs.count)
        for (n, job) in jobs.enumerated() {
            slots.wait()
            if Interruption.signal != 0 {
                slots.signal()
                break
            }
            let child = Process()
            child.executableURL = BuildContext.executable
            // --view names a variable of your own code: given to those inputs only.
            let isCode = ["swift", "playground"].contains(URL(fileURLWithPath: job.input).pathExtension.lowercased())
            child.arguments = ["render", job.input, "-o", job.output, "--format", format.rawValue, "--threads", "\(threads)", "-q"]
                + options + (isCode ? command.view.map { ["--view=\($0)"] } ?? [] : [])
            child.standardInput = FileHandle.nullDevice
            let errors = Pipe()
            child.standardError = errors
            // One waiter per child reads what it says, waits for it to end and records that.
            // Not `terminationHandler`: swift-corelibs-foundation keeps a Process given one
            // alive in a cycle after it ends (1.5–2 KB a child, reported by LeakSanitizer).
            finished.enter()
            do {
                try child.run()
                Interruption.track(child: child.processIdentifier)
                DispatchQueue.global().async {
                    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    child.waitUntilExit()
                    Interruption.forget(child: child.processIdentifier)
                    let status = child.terminationReason == .uncaughtSignal ? 128 + child.terminationStatus : child.terminationStatus
                    let done = statuses.withLock { statuses in
                        statuses[n] = status
                        return statuses.count { $0 != nil }
                    }
                    said.withLock { $0[n] = text }
                    progress.withLock { $0.update(done: done, of: count, elapsed: Date().timeIntervalSince(started)) }
                    slots.signal()
                    finished.leave()
                }
            } catch {
                Terminal.report("\(job.input): cannot start citrine for it: \(error.localizedDescription)")
                statuses.withLock { $0[n] = Failure.Kind.badInput.rawValue }
                slots.signal()
                finished.leave()
            }
        }
        finished.wait()
        progress.withLock { $0.finish(summary: nil) }
        // What the children said, each text once: an option every child refuses is one message,
        // not one per input (a file's own warnings and errors name it). A child stopped by the
        // batch's signal said only that; the batch says it once, below.
        var printed: Set<String> = []
        let ended = statuses.withLock { $0 }
        for (n, text) in said.withLock({ $0 }).enumerated()
        where !text.isEmpty && ended[n] != 128 + Interruption.signal && printed.insert(text).inserted {
            Terminal.write(text)
        }
        if Interruption.signal != 0 { throw ExportError.cancelled }
        let failed = statuses.withLock { $0 }.enumerated().compactMap { n, status in
            status.flatMap { $0 == 0 ? nil : (jobs[n].input, $0) }
        }
        guard let first = failed.first else { return }
        let counted = failed.count == jobs.count ? "every input failed" : "\(failed.count) of \(jobs.count) inputs failed (the others are written)"
        throw Failure(Failure.Kind(rawValue: first.1) ?? .badInput, "\(counted): " + failed.map(\.0).joined(separator: ", "))
    }

    /// The command's options, as the child is given them (`--name=value`, so that a value that
    /// starts with "-" stays a value); -o, --out-dir, --format, --shard, --threads and -q are the
    /// batch's own, --view goes to your own code only.
    private func forwardedOptions() -> [String] {
        let (time, look) = (command.time, command.look)
        let values: [(String, String?)] = [
            ("--fps", time.fps), ("--start", time.start), ("--duration", time.duration), ("--end", time.end),
            ("--frames", time.frames), ("--time", time.time), ("--frame", time.frame),
            ("--scale", look.scale), ("--width", look.width), ("--height", look.height), ("--size", look.size),
            ("--background", look.background), ("--loop", look.loop), ("--dither", look.dither),
            ("--png-compression", look.pngCompression), ("--font-dir", look.fontDir),
        ]
        var arguments = values.compactMap { option, value in value.map { "\(option)=\($0)" } }
        arguments += command.input.taps.map { "--tap=\($0)" } + command.input.drags.map { "--drag=\($0)" }
        if time.includeEnd { arguments.append("--include-end") }
        if command.output.overwrite { arguments.append("-y") }
        return arguments
    }
}
