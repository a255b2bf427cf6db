import Export
import Foundation

/// Where `render` writes an input: `-o FILE` as given, or in `--out-dir FOLDER` a name made from
/// the input's (its last path component without `.json`, `.swift` or `.playground`) and the
/// format's extension — `anim.json` → `anim.gif`, a PNG sequence `anim-%04d.png`, a frame slice
/// of a video `anim.part-1-of-4.mp4` (I padded to N's digits, so the parts sort in order).
enum OutputName {
    /// The format `--out-dir` writes when `--format` is not given: GIF, what a Lottie file is most
    /// often turned into.
    static let defaultFormat = ExportFormat.gif

    /// The output path of `input` for `command`: -o's, or one in --out-dir. `frameShard`: the
    /// slice of one input's frames being rendered.
    static func path(_ command: RenderCommand, input: String, format: ExportFormat?, frameShard: Shard?) throws(Failure) -> String {
        switch (command.output.output, command.output.outDir) {
        case let (file?, nil):
            return file
        case let (nil, folder?):
            return path(in: folder, input: input, format: format ?? defaultFormat, frameShard: frameShard)
        case (_?, _?):
            throw .usage("-o and --out-dir both say where to write: give one", command: "render")
        case (nil, nil):
            throw .usage("give -o FILE, or --out-dir FOLDER", command: "render")
        }
    }

    /// `folder/base.ext` (see the type's description).
    static func path(in folder: String, input: String, format: ExportFormat, frameShard: Shard? = nil) -> String {
        var name = base(input)
        if let shard = frameShard, shard.count > 1, format != .pngSequence {
            let digits = String(shard.count - 1).count
            let index = String(shard.index)
            name += ".part-" + String(repeating: "0", count: digits - index.count) + index + "-of-\(shard.count)"
        }
        switch format {
        case .pngSequence: name += "-%04d.png"
        case .png, .gif, .apng, .mp4, .mov, .webm: name += "." + format.rawValue
        }
        return folder.isEmpty || folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The name an input's outputs start with: `anim` for `lottie/anim.json`, `MyView` for
    /// `MyView.swift`, `Lesson` for `Lesson.playground/`, a demo's own name.
    static func base(_ input: String) -> String {
        let url = URL(fileURLWithPath: input)
        return ["json", "swift", "playground"].contains(url.pathExtension.lowercased())
            ? url.deletingPathExtension().lastPathComponent : url.lastPathComponent
    }

    /// Makes --out-dir's folder when it is missing.
    static func makeFolder(_ folder: String?) throws(Failure) {
        guard let folder else { return }
        try makeFolder(folder, named: "--out-dir \(folder)")
    }

    /// Makes `folder` and the folders above it that are missing; a failure is bad input,
    /// `named` (default: the path) in its message.
    static func makeFolder(_ folder: String, named: String? = nil) throws(Failure) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw Failure(.badInput, "\(named ?? folder): cannot create the folder (\((error as NSError).localizedDescription))")
        }
    }
}
