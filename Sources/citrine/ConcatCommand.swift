import ArgumentParser
import Export
import Foundation
import ImageCodecs

/// `citrine concat PART… -o OUT`: the video slices of one render (`citrine render --shard I/N`)
/// joined in the order given, through ffmpeg's concat demuxer with stream copy
/// (https://ffmpeg.org/ffmpeg-formats.html#concat-1): the frames are not encoded again, so
/// joining costs little more than copying the files.
///
/// The joined video has every frame of one run, at the same times, but its bytes are not one
/// run's: each slice was encoded alone, so it starts on a key frame. ProRes (MOV) codes every
/// frame alone, so its frames decode to one run's exactly; H.264 (MP4) and VP9 (WebM) frames
/// are predicted from the frames the encoder saw before them, so theirs differ within the
/// encoder's loss (`ConcatTests` measures both). (A PNG sequence needs no joining: its
/// slices write the frames' own numbers, byte for byte what one run writes.) Written to a hidden
/// temporary file beside the output and renamed into place when ffmpeg has succeeded.
struct ConcatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "concat",
        abstract: "Join the MP4, MOV or WebM slices of a render made with --shard into one video.",
        usage: "citrine concat <part> ... -o <file> [<options>]",
        discussion: """
            The parts are joined in the order given, through ffmpeg's concat demuxer without \
            encoding the frames again; all of them and the output have the same extension. \
            Each part starts on a key frame, so the video is not one run's byte for byte: \
            it has one run's frame times, and its frames are one run's exactly for MOV \
            (ProRes codes each frame alone), within the encoder's loss for MP4 and WebM. A \
            PNG sequence needs no joining: its slices write the frames' own numbers.

            Examples:
              citrine render long.json --shard 0/2 -o part-0.mp4
              citrine render long.json --shard 1/2 -o part-1.mp4
              citrine concat part-0.mp4 part-1.mp4 -o long.mp4
            """)

    @Argument(help: ArgumentHelp("The parts, in order.", valueName: "part"))
    var parts: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("The video to write: .mp4, .mov or .webm.", valueName: "file"))
    var output: String

    @Flag(name: [.customShort("y"), .long], help: "Replace an existing output file (refused otherwise).")
    var overwrite = false

    private static let videos: [ExportFormat] = [.mp4, .mov, .webm]

    func run() throws {
        let format = try Self.format(of: output, role: "-o")
        for part in parts {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: part, isDirectory: &isFolder), !isFolder.boolValue else {
                throw Failure(.badInput, "no part at '\(part)'")
            }
            guard FileManager.default.isReadableFile(atPath: part) else { throw Failure(.badInput, "cannot read '\(part)'") }
            guard try Self.format(of: part, role: "part") == format else {
                throw Failure(.badInput, "\(part): a part of \(output) is \(format.rawValue.uppercased()) too: expected a .\(format.rawValue) file")
            }
        }
        let folder = OutputFile.folder(of: output)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw Failure(.badInput, "\(output): the folder \(folder) does not exist")
        }
        if !overwrite, FileManager.default.fileExists(atPath: output) {
            throw Failure(.badInput, "\(output): exists already; not replaced without -y")
        }
        guard let ffmpeg = VideoWriter.locate("ffmpeg") else {
            throw Failure(.missingTool, "concat needs 'ffmpeg', which is not installed (on Debian/Ubuntu: apt-get install ffmpeg)")
        }
        try join(with: ffmpeg, format: format)
    }

    /// The video format `path` names by its extension; anything else is an error naming `role`.
    private static func format(of path: String, role: String) throws(Failure) -> ExportFormat {
        guard let format = ExportFormat.inferred(from: path), videos.contains(format) else {
            let why = ExportFormat.inferred(from: path).map { $0 == .pngSequence || $0 == .png
                ? "PNG slices need no joining: each writes its frames' own numbers"
                : "\($0.rawValue.uppercased()) slices cannot be joined; render MP4, MOV or WebM slices, or a PNG sequence" }
                ?? ".mp4, .mov or .webm"
            throw .badValue(role, path, expected: why)
        }
        return format
    }

    /// Runs ffmpeg on a list of the parts into a temporary file, then renames it into place.
    private func join(with ffmpeg: String, format: ExportFormat) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-concat-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // The concat demuxer's list: one `file '…'` line per part, a quote written '\''.
        let list = scratch.appendingPathComponent("parts.txt")
        let lines = parts.map { part in
            "file '" + URL(fileURLWithPath: part).standardizedFileURL.path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        }
        try (["ffconcat version 1.0"] + lines).joined(separator: "\n").appending("\n").write(to: list, atomically: true, encoding: .utf8)

        let name = (output as NSString).lastPathComponent
        let temporary = OutputFile.folder(of: output) + ".\(name).concat-\(getpid()).\(format.rawValue)"
        defer { unlink(temporary) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-f", "concat", "-safe", "0",
                             "-i", list.path, "-map", "0", "-c", "copy"]
            // As `render` writes them: an MP4 file with its index first, a MOV with it last.
            + (format == .mp4 ? ["-movflags", "+faststart"] : []) + ["-f", format.rawValue, temporary]
        let errors = Pipe()
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        Interruption.install()
        try process.run()
        Interruption.track(child: process.processIdentifier)
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        Interruption.forget(child: process.processIdentifier)
        if Interruption.signal != 0 { throw ExportError.cancelled }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let text = String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(.badInput, "ffmpeg could not join the parts: \(text.isEmpty ? "it stopped with status \(process.terminationStatus)" : text)")
        }
        guard rename(temporary, output) == 0 else {
            throw Failure(.badInput, "\(output): cannot write it (\(String(cString: strerror(errno))))")
        }
    }
}
