import Foundation
import ImageCodecs
import Raster

/// One output of an export: takes the frames in order, then `finish()` puts the result in place;
/// `abandon()` (or being dropped unfinished) leaves nothing behind.
protocol FrameWriter: AnyObject {
    func append(_ frame: Pixmap) throws
    func finish() throws
    func abandon()
}

/// The process's standard output as a `ByteSink`.
final class StandardOutputSink: ByteSink {
    func write(_ bytes: UnsafeRawBufferPointer) throws(ImageCodecError) {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(1, bytes.baseAddress! + done, bytes.count - done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw ImageCodecError(file: "<standard output>", reason: .fileSystem("cannot write: \(String(cString: strerror(errno)))"))
            }
            done += n
        }
    }
}

/// Where an encoder's bytes go: an atomic `OutputFile`, or standard output.
struct ByteDestination {
    let sink: any ByteSink
    let file: OutputFile?

    init(_ destination: ExportDestination, overwrite: Bool) throws(ImageCodecError) {
        switch destination {
        case let .file(path):
            let file = try OutputFile(path: path, overwrite: overwrite)
            self.file = file
            sink = file
        case .standardOutput:
            file = nil
            sink = StandardOutputSink()
        }
    }

    func commit() throws(ImageCodecError) { try file?.commit() }
    func discard() { file?.discard() }
}

/// A single PNG (the first and only frame) with `pHYs` for the scale.
final class StillWriter: FrameWriter {
    private let destination: ByteDestination
    private let pixelsPerPoint: Double
    private var wrote = false

    init(_ destination: ExportDestination, overwrite: Bool, pixelsPerPoint: Double) throws {
        self.destination = try ByteDestination(destination, overwrite: overwrite)
        self.pixelsPerPoint = pixelsPerPoint
    }

    func append(_ frame: Pixmap) throws {
        guard !wrote else { throw ExportError.badOutput("png", "a still holds one frame") }
        try destination.sink.write(PNGCodec.encode(frame, pixelsPerPoint: pixelsPerPoint))
        wrote = true
    }

    func finish() throws { try destination.commit() }
    func abandon() { destination.discard() }
}

/// Numbered PNG files. They are written into a hidden folder beside the first frame's file and
/// moved into place only when all are done, so an interrupted export leaves no partial sequence.
final class SequenceWriter: FrameWriter {
    private let pattern: FramePattern
    private let overwrite: Bool
    private let pixelsPerPoint: Double
    private let staging: String
    private var written: [(staged: String, final: String)] = []

    init(pattern: String, frameCount: Int, overwrite: Bool, pixelsPerPoint: Double) throws {
        guard let parsed = FramePattern(pattern) else {
            throw ExportError.badOutput(pattern, "a PNG sequence needs one integer field in the name, such as frames/%04d.png")
        }
        self.pattern = parsed
        self.overwrite = overwrite
        self.pixelsPerPoint = pixelsPerPoint
        let names = [parsed.path(ofFrame: 0), parsed.path(ofFrame: frameCount - 1)]
        if !overwrite, let existing = names.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            throw ExportError.codec(ImageCodecError(file: existing, reason: .fileSystem("exists already (pass overwrite to replace it)")))
        }
        staging = try StagingFolder.make(beside: names[0])
    }

    deinit { if !written.isEmpty || FileManager.default.fileExists(atPath: staging) { abandon() } }

    func append(_ frame: Pixmap) throws {
        let final = pattern.path(ofFrame: written.count)
        let staged = "\(staging)/\(written.count).png"
        try OutputFile.write(PNGCodec.encode(frame, pixelsPerPoint: pixelsPerPoint), to: staged)
        written.append((staged, final))
    }

    func finish() throws {
        for (staged, final) in written {
            if !overwrite, FileManager.default.fileExists(atPath: final) {
                throw ExportError.codec(ImageCodecError(file: final, reason: .fileSystem("appeared while writing; not replaced")))
            }
            guard rename(staged, final) == 0 else {
                throw ExportError.codec(ImageCodecError(file: final, reason: .fileSystem("cannot move the frame into place: \(String(cString: strerror(errno)))")))
            }
        }
        written = []
        try? FileManager.default.removeItem(atPath: staging)
    }

    func abandon() {
        written = []
        try? FileManager.default.removeItem(atPath: staging)
    }
}

/// A hidden folder for staged output, `.citrine-PID.XXXXXX` beside `path` (`OutputFile` removes
/// those of processes that no longer run).
enum StagingFolder {
    static func make(beside path: String) throws -> String {
        let folder = OutputFile.folder(of: path)
        OutputFile.removeStaleTemporaries(in: folder)
        var template = Array("\(folder).\(OutputFile.marker)\(getpid()).XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw ExportError.codec(ImageCodecError(file: path, reason: .fileSystem("cannot create a folder beside it: \(String(cString: strerror(errno)))")))
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
