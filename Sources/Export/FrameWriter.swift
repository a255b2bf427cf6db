import CoreText
import Foundation
import ImageCodecs
import Raster

/// One output of an export. The exporter's workers (`FramePipeline`) call `prepare` for every
/// frame — on any worker, for several frames at once — then `write` for each frame in order, one
/// call at a time; then `finish()` puts the result in place. `abandon()` (or being dropped
/// unfinished) leaves nothing behind.
///
/// Per-frame data that `prepare` makes for `write` is kept by slot (`index % slots`): the
/// pipeline never has two frames with the same slot in flight. Per-thread scratch is kept by
/// worker (`0 ..< workers`): a worker runs one task at a time.
protocol FrameWriter: AnyObject {
    /// Called once before any frame, with the number of workers and of slots.
    func start(workers: Int, slots: Int) throws
    /// Whether `prepare` needs the previous frame (which the pipeline then keeps until the
    /// frame after it is prepared).
    var keepsPreviousFrame: Bool { get }
    /// Whether frame 0 must be prepared before any other frame.
    var preparesFirstFrameFirst: Bool { get }
    /// Called by the worker that rendered frame `index`, before the frame is prepared, with the
    /// fonts its text was drawn with (`fonts`, reused for a later frame of the slot afterwards).
    func rendered(index: Int, slot: Int, fonts: FontUsage)
    /// The per-frame work that can run in parallel with other frames'.
    func prepare(_ frame: Pixmap, previous: Pixmap?, index: Int, slot: Int, worker: Int) throws
    /// The serial part, in order of `index`.
    func write(_ frame: Pixmap, index: Int, slot: Int) throws
    func finish() throws
    func abandon()
}

extension FrameWriter {
    func start(workers: Int, slots: Int) throws {}
    var keepsPreviousFrame: Bool { false }
    var preparesFirstFrameFirst: Bool { false }
    func rendered(index: Int, slot: Int, fonts: FontUsage) {}
    func prepare(_ frame: Pixmap, previous: Pixmap?, index: Int, slot: Int, worker: Int) throws {}
    func finish() throws {}
    func abandon() {}
}

/// The caller's closure as an output (`CAAnimationExporter.forEachFrame`): called in `write`.
final class FrameConsumer: FrameWriter {
    private let body: (Int, Pixmap) throws -> Void
    init(_ body: @escaping (Int, Pixmap) throws -> Void) { self.body = body }
    func write(_ frame: Pixmap, index: Int, slot: Int) throws { try body(index, frame) }
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

/// A single PNG (the first and only frame) with `pHYs` for the scale and, when text was drawn, an
/// iTXt "Comment" naming its fonts before the image data (`FontUsage.summary`), written as it is
/// compressed; a large one is compressed in bands by the export's threads (`PNGStillEncoder`).
final class StillWriter: FrameWriter {
    private let destination: ByteDestination
    private let pixelsPerPoint: Double
    private let encoder: PNGStillEncoder
    private var wrote = false
    /// The fonts the frame's text was drawn with (`FontUsage.summary`), for the iTXt comment.
    private var fonts: String?

    init(_ destination: ExportDestination, overwrite: Bool, pixelsPerPoint: Double, compressionLevel: Int32,
         threads: Int) throws {
        self.destination = try ByteDestination(destination, overwrite: overwrite)
        self.pixelsPerPoint = pixelsPerPoint
        encoder = PNGStillEncoder(compressionLevel: compressionLevel, threads: threads)
    }

    func rendered(index: Int, slot: Int, fonts: FontUsage) { self.fonts = fonts.summary }

    func write(_ frame: Pixmap, index: Int, slot: Int) throws {
        guard !wrote else { throw ExportError.badOutput("png", "a still holds one frame") }
        try encoder.encode(frame, pixelsPerPoint: pixelsPerPoint, comment: fonts, to: destination.sink)
        wrote = true
    }

    func finish() throws { try destination.commit() }
    func abandon() { destination.discard() }
}

/// Numbered PNG files, each with its own frame's fonts as `StillWriter` writes them. Each frame's PNG is encoded and written by the worker that prepares it
/// (with that worker's reusable `PNGStillEncoder`), into a hidden folder beside the first
/// frame's file; the files are moved into place in order only when all are done, so an
/// interrupted export leaves no partial sequence.
final class SequenceWriter: FrameWriter {
    private let pattern: FramePattern
    private let overwrite: Bool
    private let pixelsPerPoint: Double
    private let compressionLevel: Int32
    private let staging: String
    private var encoders: [PNGStillEncoder] = []
    /// Per slot: the fonts its frame's text was drawn with (`FontUsage.summary`). One object per
    /// slot, so workers rendering frames of different slots at once write to different objects.
    private var fonts: [FontSummary] = []

    final class FontSummary { var text: String? }
    /// Frames written so far (in order); their files are staged as `staging/INDEX.png`.
    private var written = 0

    /// The number in the files' names of the first frame (`ExportTimeline.firstFrame`).
    private let firstNumber: Int

    init(pattern: String, frameCount: Int, firstNumber: Int, overwrite: Bool, pixelsPerPoint: Double,
         compressionLevel: Int32) throws {
        guard let parsed = FramePattern(pattern) else {
            throw ExportError.badOutput(pattern, "a PNG sequence needs one integer field in the name, such as frames/%04d.png")
        }
        self.pattern = parsed
        self.overwrite = overwrite
        self.pixelsPerPoint = pixelsPerPoint
        self.compressionLevel = compressionLevel
        self.firstNumber = firstNumber
        // Every frame's name is checked before the first frame is drawn (a middle one may exist).
        if !overwrite, let existing = (firstNumber..<firstNumber + max(frameCount, 1)).lazy.map(parsed.path(ofFrame:))
            .first(where: { FileManager.default.fileExists(atPath: $0) }) {
            throw ExportError.codec(ImageCodecError(file: existing, reason: .fileSystem("exists already (pass overwrite to replace it)")))
        }
        staging = try StagingFolder.make(beside: parsed.path(ofFrame: firstNumber))
    }

    deinit { if FileManager.default.fileExists(atPath: staging) { abandon() } }

    func start(workers: Int, slots: Int) throws {
        encoders = (0..<workers).map { _ in PNGStillEncoder(compressionLevel: compressionLevel) }
        fonts = (0..<slots).map { _ in FontSummary() }
    }

    func rendered(index: Int, slot: Int, fonts: FontUsage) { self.fonts[slot].text = fonts.summary }

    private func stagedPath(_ index: Int) -> String { "\(staging)/\(index).png" }

    func prepare(_ frame: Pixmap, previous: Pixmap?, index: Int, slot: Int, worker: Int) throws {
        try encoders[worker].write(frame, pixelsPerPoint: pixelsPerPoint, comment: fonts[slot].text, to: stagedPath(index))
    }

    func write(_ frame: Pixmap, index: Int, slot: Int) throws { written = index + 1 }

    /// Moves the staged frames into place, all or nothing: when one cannot be placed (a file
    /// that appeared meanwhile without overwrite, a folder of a `%d` name that is missing), the
    /// frames placed before it are taken back and the files they replaced put back, then the
    /// error is thrown.
    func finish() throws {
        var placed: [(index: Int, replaced: String?)] = []
        defer {
            written = 0
            StagingFolder.remove(staging)
        }
        do {
            for index in 0..<written {
                let final = pattern.path(ofFrame: firstNumber + index)
                var replaced: String?
                if FileManager.default.fileExists(atPath: final) {
                    guard overwrite else {
                        throw ExportError.codec(ImageCodecError(file: final, reason: .fileSystem("appeared while writing; not replaced")))
                    }
                    let kept = "\(staging)/replaced-\(index).png"
                    guard rename(final, kept) == 0 else { throw Self.cannotPlace(final) }
                    replaced = kept
                }
                guard rename(stagedPath(index), final) == 0 else {
                    let failure = Self.cannotPlace(final)
                    if let replaced { _ = rename(replaced, final) }
                    throw failure
                }
                placed.append((index, replaced))
            }
        } catch {
            for (index, replaced) in placed.reversed() {
                let final = pattern.path(ofFrame: firstNumber + index)
                _ = unlink(final)
                if let replaced { _ = rename(replaced, final) }
            }
            throw error
        }
    }

    private static func cannotPlace(_ final: String) -> ExportError {
        ExportError.codec(ImageCodecError(file: final, reason: .fileSystem("cannot move the frame into place: \(String(cString: strerror(errno)))")))
    }

    func abandon() {
        written = 0
        StagingFolder.remove(staging)
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
        let made = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        OutputFile.track(made)
        return made
    }

    /// Removes a staging folder made by `make(beside:)`, with its files.
    static func remove(_ folder: String) {
        try? FileManager.default.removeItem(atPath: folder)
        OutputFile.untrack(folder)
    }
}
