import Foundation
import ImageCodecs
import QuartzCore
import Raster

extension CAAnimationExporter {
    /// Exports [start, start + duration) at `fps` (plus the frame at the end with `includeEnd`)
    /// to the file at `url`, in `format` (default: from the file's extension). `start` is a media
    /// time in seconds; nil (default) is `defaultStart`, where the tree's animations begin.
    public func export(to url: URL, format: ExportFormat? = nil, fps: Double = 30, start: CFTimeInterval? = nil,
                       duration: CFTimeInterval, includeEnd: Bool = false, options: ExportOptions = ExportOptions(),
                       progress: ((ExportProgress) -> Void)? = nil) throws {
        let timeline = try ExportTimeline(start: start ?? defaultStart, duration: duration, fps: fps, includeEnd: includeEnd)
        try export(to: .file(url.path), format: format, timeline: timeline, options: options, progress: progress)
    }

    /// Exports `timeline` to `destination` in `format` (default: from the file's extension).
    /// Everything is checked before the first frame is drawn (`validate`). `progress` is called
    /// after each frame is encoded, one call at a time (on one of the export's threads). On any failure, or after `cancel()`,
    /// nothing is left at the destination and the error is thrown.
    public func export(to destination: ExportDestination, format: ExportFormat? = nil, timeline: ExportTimeline,
                       options: ExportOptions = ExportOptions(), progress: ((ExportProgress) -> Void)? = nil) throws {
        try export(to: [(destination, format)], timeline: timeline, options: options, progress: progress)
    }

    /// Exports `timeline` to several outputs from one pass over the frames (each frame is drawn
    /// once and given to every encoder — the `citrine gallery` writes a GIF and an APNG so).
    /// All outputs are checked before drawing and put in place one after the other once every
    /// frame is encoded; a failure before that leaves none of them.
    public func export(to outputs: [(destination: ExportDestination, format: ExportFormat?)], timeline: ExportTimeline,
                       options: ExportOptions = ExportOptions(), progress: ((ExportProgress) -> Void)? = nil) throws {
        try export(to: outputs, timeline: timeline, options: options, cancellation: ExportCancellation(), progress: progress)
    }

    /// The same, stopped by `cancellation` as well as by `cancel()`.
    func export(to outputs: [(destination: ExportDestination, format: ExportFormat?)], timeline: ExportTimeline,
                options: ExportOptions, cancellation: ExportCancellation,
                progress: ((ExportProgress) -> Void)?) throws {
        let formats = try outputs.map { try validate($0.destination, format: $0.format, timeline: timeline, options: options) }
        var writers: [any FrameWriter] = []
        do {
            for (output, format) in zip(outputs, formats) {
                writers.append(try makeWriter(output.destination, format: format, timeline: timeline, options: options))
            }
            let opaque = formats.contains { !$0.keepsAlpha }
            let background = self.background ?? (opaque ? CGColor.white : nil)
            let started = DispatchTime.now().uptimeNanoseconds
            try withoutActuallyEscaping(progress ?? { _ in }) { report in
                try run(timeline, background: background, writers: writers, cancellation: cancellation) { index in
                    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                    report(ExportProgress(framesDone: index + 1, frameCount: timeline.frameCount, elapsed: elapsed))
                }
            }
            for writer in writers { try writer.finish() }
        } catch {
            for writer in writers { writer.abandon() }
            throw error
        }
    }

    /// The same, without blocking: the export runs on threads of its own; cancelling the task
    /// cancels this export (`ExportError.cancelled`, nothing written), not another one running
    /// on the same exporter or the next.
    public func export(to destination: ExportDestination, format: ExportFormat? = nil, timeline: ExportTimeline,
                       options: ExportOptions = ExportOptions(),
                       progress: (@Sendable (ExportProgress) -> Void)? = nil) async throws {
        let cancellation = ExportCancellation()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let thread = Thread { [self] in
                    do {
                        try export(to: [(destination, format)], timeline: timeline, options: options,
                                   cancellation: cancellation, progress: progress)
                        continuation.resume()
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
                thread.stackSize = 8 << 20
                thread.start()
            }
        } onCancel: {
            cancellation.stop()
        }
    }

    /// The async form of `export(to:format:fps:start:duration:includeEnd:options:progress:)`.
    public func export(to url: URL, format: ExportFormat? = nil, fps: Double = 30, start: CFTimeInterval? = nil,
                       duration: CFTimeInterval, includeEnd: Bool = false, options: ExportOptions = ExportOptions(),
                       progress: (@Sendable (ExportProgress) -> Void)? = nil) async throws {
        let timeline = try ExportTimeline(start: start ?? defaultStart, duration: duration, fps: fps, includeEnd: includeEnd)
        try await export(to: .file(url.path), format: format, timeline: timeline, options: options, progress: progress)
    }

    /// Checks, without drawing anything, that `timeline` can be exported to `destination`:
    /// the format (given, or from the file's extension), the frame size and limits, the frame
    /// count of a still, a sequence pattern, the folder, an existing file when `overwrite` is
    /// off, and the external tool. Returns the format.
    @discardableResult
    public func validate(_ destination: ExportDestination, format: ExportFormat? = nil, timeline: ExportTimeline,
                         options: ExportOptions = ExportOptions()) throws -> ExportFormat {
        let (width, height) = try pixelSize()
        let name = destination.name
        guard let format = format ?? (destination == .standardOutput ? nil : ExportFormat.inferred(from: name)) else {
            throw ExportError.badOutput(name, destination == .standardOutput
                ? "standard output needs a format"
                : "unknown file type; use .png, .gif, .apng, .mp4, .mov, .webm or a pattern like frames/%04d.png")
        }
        if format == .png, timeline.frameCount != 1 {
            throw ExportError.badOutput(name, "a PNG holds one frame, not \(timeline.frameCount) (use a .gif/.apng, or a pattern like frames/%04d.png)")
        }
        if format == .pngSequence, destination == .standardOutput {
            throw ExportError.badOutput(name, "a PNG sequence goes to files, not standard output")
        }
        if format == .gif, width > 65_535 || height > 65_535 {
            throw ExportError.badValue("frame size", "\(width)×\(height)", "at most 65535 pixels a side for GIF")
        }
        for (what, level) in [("PNG compression level", options.pngCompressionLevel),
                              ("APNG compression level", options.apng.compressionLevel)] where level < -1 || level > 9 {
            throw ExportError.badValue(what, "\(level)", "0 (fastest) to 9 (smallest), or -1 for zlib's default")
        }
        if let loop = options.loopCount, loop < 0 || loop > 65_535 {
            throw ExportError.badValue("loop count", "\(loop)", "0 (forever) to 65535")
        }
        if case let .file(path) = destination {
            let folder = OutputFile.folder(of: path)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw ExportError.badOutput(path, "the folder \(folder) does not exist")
            }
            let first = format == .pngSequence ? FramePattern(path)?.path(ofFrame: timeline.firstFrame) ?? path : path
            if !options.overwrite, FileManager.default.fileExists(atPath: first) {
                throw ExportError.badOutput(first, "exists already; not replaced unless overwriting is asked for")
            }
        }
        if format.externalTool != nil, VideoWriter.locate(options.ffmpeg) == nil {
            throw ExportError.missingTool(options.ffmpeg, format.rawValue.uppercased())
        }
        return format
    }

    private func makeWriter(_ destination: ExportDestination, format: ExportFormat, timeline: ExportTimeline,
                            options: ExportOptions) throws -> any FrameWriter {
        let (width, height) = try pixelSize()
        let pixelsPerPoint = Double(scale)
        switch format {
        case .png:
            return try StillWriter(destination, overwrite: options.overwrite, pixelsPerPoint: pixelsPerPoint,
                                   compressionLevel: options.pngCompressionLevel, threads: max(1, min(threads, 64)))
        case .pngSequence:
            guard case let .file(pattern) = destination else { throw ExportError.badOutput("-", "a PNG sequence goes to files") }
            return try SequenceWriter(pattern: pattern, frameCount: timeline.frameCount, firstNumber: timeline.firstFrame,
                                      overwrite: options.overwrite, pixelsPerPoint: pixelsPerPoint,
                                      compressionLevel: options.pngCompressionLevel)
        case .gif:
            return try AnimationWriter.gif(destination, width: width, height: height, frameCount: timeline.frameCount,
                                           rate: timeline.rate, options: options)
        case .apng:
            return try AnimationWriter.apng(destination, width: width, height: height, frameCount: timeline.frameCount,
                                            rate: timeline.rate, pixelsPerPoint: pixelsPerPoint, options: options)
        case .mp4, .mov, .webm:
            return try VideoWriter(destination, format: format, width: width, height: height, rate: timeline.rate, options: options)
        }
    }
}
