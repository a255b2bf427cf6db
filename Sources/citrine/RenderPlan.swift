import Demos
import Export
import Foundation
import QuartzCore
import Scene

/// A `render` command read and checked: the demo, the exporter, the frames and the output.
/// Building it draws nothing; every option and every combination of options is checked here or
/// by `CAAnimationExporter.validate` (the size limit, the folder, an existing file, ffmpeg).
struct RenderPlan {
    let demo: RenderSubject
    let exporter: CAAnimationExporter
    let destination: ExportDestination
    let format: ExportFormat
    let timeline: ExportTimeline
    let options: ExportOptions
    let quiet: Bool

    private static let command = "render"

    /// The plan for the command's one input; with `shard`, for its slice of the frames.
    init(_ command: RenderCommand, shard: Shard?) throws(Failure) {
        let out = command.output, time = command.time, look = command.look
        let input = command.input.isEmpty ? nil : try command.input.script()
        demo = try OptionValue.subject(command.inputs[0], view: command.view, script: input)

        // Where, and in which format.
        let given = try out.format.map { text throws(Failure) in try OptionValue.format(text) }
        let path = try OutputName.path(command, input: command.inputs[0], format: given, frameShard: shard)
        destination = path == "-" ? .standardOutput : .file(path)
        if destination == .standardOutput, given == nil {
            throw .usage("-o - (standard output) needs --format", command: Self.command)
        }
        guard let format = given ?? ExportFormat.inferred(from: path) else {
            throw .export(.badOutput(path, "unknown file type; use .png, .gif, .apng, .mp4, .mov, .webm "
                                     + "or a pattern like frames/%04d.png (or give --format)"))
        }

        // When: one still, or a timeline; with --shard, its slice.
        let whole = try Self.timeline(time, format: format, demo: demo)
        if let shard {
            // More slices than frames is refused by every slice, also those that would have one.
            guard shard.count <= whole.frameCount, let slice = shard.slice(of: whole) else {
                throw .badValue("--shard", shard.text, expected: "at most as many slices as frames (\(whole.frameCount))")
            }
            timeline = slice
        } else {
            timeline = whole
        }

        // How big, over what, looping how.
        let (scale, sizeOption) = try Self.scale(look, demo: demo)
        var options = ExportOptions()
        options.overwrite = out.overwrite
        if let loop = look.loop {
            guard format == .gif || format == .apng else {
                throw .usage("--loop applies to GIF and APNG, not \(format.rawValue)", command: Self.command)
            }
            options.loopCount = try OptionValue.integer(loop, "--loop", in: 0...65_535,
                                                        expected: "times to play, 0 (forever) to 65535")
        }
        if let dither = look.dither {
            guard format == .gif else {
                throw .usage("--dither applies to GIF, not \(format.rawValue)", command: Self.command)
            }
            switch dither.lowercased() {
            case "none": options.gif.dithering = .none
            case "ordered": options.gif.dithering = .ordered
            case "diffusion": options.gif.dithering = .diffusion
            default: throw .badValue("--dither", dither, expected: "none, ordered or diffusion")
            }
        }
        if let level = look.pngCompression {
            guard format == .png || format == .pngSequence || format == .apng else {
                throw .usage("--png-compression applies to PNG and APNG, not \(format.rawValue)", command: Self.command)
            }
            let zlibLevel = Int32(try OptionValue.integer(level, "--png-compression", in: 0...9,
                                                          expected: "a zlib level, 0 (fastest) to 9 (smallest)"))
            options.pngCompressionLevel = zlibLevel
            options.apng.compressionLevel = zlibLevel
        }
        self.options = options

        let exporter = demo.makeExporter(scale)
        if let text = look.background { exporter.background = try OptionValue.background(text) }
        if let threads = out.threads {
            exporter.threads = try OptionValue.integer(threads, "--threads", in: 1...256, expected: "1 to 256 threads")
        }
        self.exporter = exporter
        quiet = out.quiet

        // Everything else the export would find out: the size limit, the folder, an existing
        // file without -y, a PNG asked for several frames, ffmpeg.
        do {
            self.format = try exporter.validate(destination, format: format, timeline: timeline, options: options)
        } catch let error as ExportError {
            if case let .badValue("frame size", _, accepted) = error {
                // Printed from the doubles: a size too large for an Int must not trap here.
                let (w, h) = ((demo.size.width * scale).rounded(), (demo.size.height * scale).rounded())
                if w < 1 || h < 1 {
                    throw Failure(.badInput, "bad \(sizeOption): the frame would be \(String(format: "%.0f", w))x"
                                    + "\(String(format: "%.0f", h)) pixels: expected a size of at least 1 pixel a side")
                }
                throw Failure(.badInput, "bad \(sizeOption): \(String(format: "%.0f", w))x\(String(format: "%.0f", h)) pixels "
                                + "is too large: expected \(accepted)")
            }
            throw .export(error)
        } catch {
            throw Failure(.badInput, "\(error)")
        }
    }

    /// Renders and writes, with a progress line on a terminal; Ctrl-C or SIGTERM cancels.
    func execute() throws {
        let name = destination == .standardOutput ? "<standard output>" : (destination.path as NSString).lastPathComponent
        let progress = ProgressLine(label: name, quiet: quiet)
        Interruption.install()
        do {
            try Interruption.run(exporter) {
                try exporter.export(to: destination, format: format, timeline: timeline, options: options,
                                    progress: progress.callback)
            }
        } catch {
            progress.finish(summary: nil)
            throw error
        }
        let (w, h) = (try? exporter.pixelSize()) ?? (0, 0)
        let frames = timeline.frameCount == 1 ? "1 frame" : "\(timeline.frameCount) frames"
        progress.finish(summary: "\(name)  \(frames), \(w)x\(h) pixels")
    }

    // MARK: - Reading the options

    /// The frames to render: a still for `--time`/`--frame` (and for a PNG with no length
    /// given), else [start, start + length) at fps.
    private static func timeline(_ o: TimeOptions, format: ExportFormat, demo: RenderSubject) throws(Failure) -> ExportTimeline {
        let lengths = [("--duration", o.duration), ("--end", o.end), ("--frames", o.frames)].filter { $0.1 != nil }
        if lengths.count > 1 {
            throw .usage("\(lengths.map(\.0).joined(separator: " and ")) both set the length: give one", command: command)
        }
        if o.time != nil, o.frame != nil {
            throw .usage("--time and --frame both choose the still: give one", command: command)
        }
        if o.time != nil || o.frame != nil {
            let option = o.time != nil ? "--time" : "--frame"
            guard format == .png else {
                throw .usage("\(option) renders one still, a PNG, not \(format.rawValue)", command: command)
            }
        }
        if let text = o.time {
            let others = [("--fps", o.fps), ("--start", o.start)].filter { $0.1 != nil }.map(\.0)
                + lengths.map(\.0) + (o.includeEnd ? ["--include-end"] : [])
            if let other = others.first {
                throw .usage("--time renders the still at a media time; \(other) does not apply "
                             + "(use --frame to pick a frame of a timeline)", command: command)
            }
            let t = try OptionValue.seconds(text, "--time")
            return try map(text) { () throws(ExportError) in try ExportTimeline.still(at: t) }
        }

        let fps = try o.fps.map { text throws(Failure) in try OptionValue.fps(text) } ?? 30
        let start = try o.start.map { text throws(Failure) in try OptionValue.seconds(text, "--start") } ?? 0
        let timeline: ExportTimeline
        if let text = o.frames {
            let count = try OptionValue.integer(text, "--frames", in: 1...ExportTimeline.maxFrameCount,
                                                expected: "1 to \(ExportTimeline.maxFrameCount) frames")
            guard !o.includeEnd else {
                throw .usage("--include-end adds the frame at the end of --duration or --end, not to --frames",
                             command: command)
            }
            timeline = try map(text, option: "--frames") { () throws(ExportError) in
                try ExportTimeline(start: start, frames: count, fps: fps)
            }
        } else if let text = o.end {
            let end = try OptionValue.seconds(text, "--end")
            timeline = try map(text, option: "--end") { () throws(ExportError) in
                try ExportTimeline(start: start, end: end, fps: fps, includeEnd: o.includeEnd)
            }
        } else if format == .png, o.duration == nil, o.frame == nil, !o.includeEnd {
            // A PNG with no length: the still at --start.
            return try map(o.start ?? "0", option: "--start") { () throws(ExportError) in try ExportTimeline.still(at: start) }
        } else {
            let text = o.duration ?? OptionValue.number(demo.span)
            let duration = try o.duration.map { text throws(Failure) in
                try OptionValue.seconds(text, "--duration", allowNegative: false)
            } ?? demo.span
            timeline = try map(text, option: "--duration") { () throws(ExportError) in
                try ExportTimeline(start: start, duration: duration, fps: fps, includeEnd: o.includeEnd)
            }
        }

        guard let text = o.frame else { return timeline }
        let index = try OptionValue.integer(text, "--frame", in: 0...Int.max, expected: "a frame number from 0")
        guard index < timeline.frameCount else {
            throw .badValue("--frame", text, expected: "a frame of the timeline, 0 to \(timeline.frameCount - 1)")
        }
        return try map(text, option: "--frame") { () throws(ExportError) in
            try ExportTimeline.still(at: timeline.time(ofFrame: index))
        }
    }

    /// Runs `make`, naming the option in its error: `bad --duration '0.01': expected at least 1
    /// frame …`.
    /// A value the library names that is not `option`'s (`--start`'s, when the start is what
    /// spoils the length) is printed as the library gives it.
    private static func map(_ text: String, option: String = "--time",
                            _ make: () throws(ExportError) -> ExportTimeline) throws(Failure) -> ExportTimeline {
        do {
            return try make()
        } catch {
            guard case let .badValue(what, value, accepted) = error else { throw .export(error) }
            if what == "frame count" {
                throw .badValue(option, text, expected: "a range of 1 to \(ExportTimeline.maxFrameCount) frames at the frame rate")
            }
            let named = ["fps": "--fps", "start": "--start", "end": "--end", "duration": "--duration"][what]
            throw .badValue(named ?? option, named == nil || named == option ? text : value, expected: accepted)
        }
    }

    /// Pixels per point: --scale, or from --width/--height/--size (keeping the demo's aspect);
    /// and the options that set it, for messages (`--scale '40'`).
    private static func scale(_ o: LookOptions, demo: RenderSubject) throws(Failure) -> (CGFloat, String) {
        let sizing = [("--width", o.width), ("--height", o.height), ("--size", o.size)].filter { $0.1 != nil }.map(\.0)
        if o.scale != nil, let other = sizing.first {
            throw .usage("--scale and \(other) both set the size: give one", command: command)
        }
        if o.size != nil, sizing.count > 1 {
            throw .usage("--size and \(sizing.filter { $0 != "--size" }.joined(separator: " and ")) both set the size: give one",
                         command: command)
        }
        if let text = o.scale {
            return (try OptionValue.scale(text), "--scale '\(text)'")
        }
        var width = try o.width.map { text throws(Failure) in
            try OptionValue.integer(text, "--width", in: 1...Int.max, expected: "a width in pixels, at least 1")
        }
        var height = try o.height.map { text throws(Failure) in
            try OptionValue.integer(text, "--height", in: 1...Int.max, expected: "a height in pixels, at least 1")
        }
        if let text = o.size { (width, height) = try OptionValue.pixelSize(text, "--size") }
        let scales = [width.map { CGFloat($0) / demo.size.width }, height.map { CGFloat($0) / demo.size.height }]
        let given = [("--width", o.width), ("--height", o.height), ("--size", o.size)].compactMap { option, text in
            text.map { "\(option) '\($0)'" }
        }
        return (scales.compactMap { $0 }.min() ?? 2, given.isEmpty ? "--scale '2'" : given.joined(separator: " "))
    }
}

extension OptionValue {
    /// The demo called `name`, or aliased so (see `SeedDemo.aliases`).
    static func demo(_ name: String) throws(Failure) -> SeedDemo {
        guard let demo = SeedDemo.named(name) else {
            throw Failure(.badInput, "unknown demo '\(name)': expected one of "
                          + SeedDemo.all.map(\.name).joined(separator: ", ") + " (see 'citrine demos')")
        }
        return demo
    }

    /// What `render` draws for `name`: the demo exported through `script` (its own scripted
    /// input when nil), drawn on one thread, encoded on all: its views share
    /// `UIApplication.shared`. With a script, the default length runs to its last input and the
    /// demo's span after it, so what the input starts is seen.
    /// Your own code (`UserCode`) is run and its live view exported the same way, for its
    /// animations' span (`UserProgram.span(of:)`). A Lottie file (`LottieFile`) is exported
    /// from its start frame for its duration.
    static func subject(_ name: String, view: String? = nil, script: SceneScript? = nil) throws(Failure) -> RenderSubject {
        if let lottie = try LottieFile(argument: name) {
            guard script == nil else {
                throw .usage("--tap and --drag give input to a demo or your own code; a Lottie file takes none", command: "render")
            }
            lottie.warnUnsupported()
            return lottie.subject
        }
        if let code = try UserCode(argument: name, viewName: view), let library = UserProgram.handedLibrary {
            let live = try UserProgram.liveView(of: code, library: library)
            let span = UserProgram.span(of: live.scene.rootLayer)
            return RenderSubject(name: live.name, size: live.scene.size, span: script.map { $0.endTime + span } ?? span) { scale in
                CAAnimationExporter(scene: live.scene, script: script ?? [], scale: scale)
            }
        }
        let demo = try demo(name)
        let span = script.map { $0.endTime + demo.span } ?? demo.span
        return RenderSubject(name: demo.name, size: demo.size, span: span) { exporter(demo, scale: $0, script: script) }
    }
}

extension ExportDestination {
    /// The file's path; "-" for standard output.
    var path: String {
        switch self {
        case let .file(path): path
        case .standardOutput: "-"
        }
    }
}

/// What `render` draws: its name, size in points, natural span in seconds, and how to make its
/// exporter at a scale.
struct RenderSubject {
    let name: String
    let size: CGSize
    let span: CFTimeInterval
    let makeExporter: (CGFloat) -> CAAnimationExporter
}
