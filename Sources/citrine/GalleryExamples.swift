import Demos
import Export
import Foundation
import QuartzCore
import Scene

/// `citrine gallery --examples [folder]`: the lessons in a folder of user code (the package's
/// `Examples/` by default) rendered beside the demos, each through the same path as
/// `citrine render FILE.swift` — built by `UserCode`, run in a child `citrine` (`UserProgram`),
/// its live view exported — as a GIF and an APNG from one pass, and a poster PNG at the middle of
/// its span from a second run (a page's code runs once per process, and a scene only moves
/// forward).
///
/// An example's header — the comment lines it starts with — is its description in the gallery;
/// a header line `citrine render NAME.swift … --tap X,Y@T --drag …` gives the input (and
/// `--duration`) the gallery plays, as that command would.
struct GalleryExample {
    /// The examples' folder in the gallery's.
    static let subfolder = "examples/"

    /// The file or playground folder.
    let code: UserCode
    /// Its name in the gallery: the file's name without `.swift` or `.playground`.
    let name: String
    /// The header's paragraphs, without the `citrine render` line.
    let paragraphs: [String]
    /// `--tap`, `--drag` and `--duration` with their values, from the header's `citrine render` line.
    let renderArguments: [String]

    /// The examples in `folder`: its `.swift` files and `.playground` folders, by name. The
    /// scripted input of each is checked here.
    static func all(in folder: String) throws(Failure) -> [GalleryExample] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw Failure(.badInput, "--examples: no folder at '\(folder)'")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".swift") || $0.hasSuffix(".playground") }.sorted()
        guard !names.isEmpty else {
            throw Failure(.badInput, "--examples: '\(folder)' holds no .swift file or .playground folder")
        }
        var examples: [GalleryExample] = []
        for name in names {
            let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            guard let code = try UserCode(argument: path, viewName: nil) else { continue }
            let example = try GalleryExample(code: code)
            _ = try example.script()
            examples.append(example)
        }
        return examples
    }

    /// The folder `--examples` means without a value: the `Examples/` of the package citrine
    /// was built from (`BuildContext.packageRoot`), else the current folder's.
    static var defaultFolder: String {
        let package = BuildContext.packageRoot.appendingPathComponent("Examples")
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: package.path, isDirectory: &isFolder), isFolder.boolValue {
            return package.path
        }
        return "Examples"
    }

    init(code: UserCode) throws(Failure) {
        self.code = code
        name = URL(fileURLWithPath: code.path).deletingPathExtension().lastPathComponent
        guard let text = try? String(contentsOf: code.mainFile, encoding: .utf8) else {
            throw Failure(.badInput, "cannot read '\(code.mainFile.path)' as UTF-8 text")
        }
        (paragraphs, renderArguments) = Self.header(text)
    }

    /// The leading `//` comment lines of `text`: paragraphs (blank comment lines between them),
    /// and the `--tap`, `--drag` and `--duration` options of a `citrine render` line among them.
    static func header(_ text: String) -> (paragraphs: [String], renderArguments: [String]) {
        var paragraphs: [String] = [], current: [String] = [], arguments: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("//") else { break }
            let words = trimmed.dropFirst(2).trimmingCharacters(in: .whitespaces)
            if words.hasPrefix("citrine render ") {
                let tokens = words.split(whereSeparator: \.isWhitespace).map(String.init)
                for (option, value) in zip(tokens, tokens.dropFirst()) where ["--tap", "--drag", "--duration"].contains(option) {
                    arguments += [option, value]
                }
            } else if words.isEmpty {
                if !current.isEmpty { paragraphs.append(current.joined(separator: " ")) }
                current = []
            } else {
                current.append(words)
            }
        }
        if !current.isEmpty { paragraphs.append(current.joined(separator: " ")) }
        return (paragraphs, arguments)
    }

    /// The header's input as a script, and its `--duration` (nil: the default length).
    func script() throws(Failure) -> (script: SceneScript?, duration: CFTimeInterval?) {
        var steps: [SceneScript.Step] = [], duration: CFTimeInterval?
        for (option, value) in stride(from: 0, to: renderArguments.count, by: 2).map({ (renderArguments[$0], renderArguments[$0 + 1]) }) {
            do {
                switch option {
                case "--tap": steps.append(try OptionValue.tap(value))
                case "--drag": steps.append(try OptionValue.drag(value))
                default: duration = try OptionValue.seconds(value, "--duration", allowNegative: false)
                }
            } catch {
                throw Failure(.badInput, "\(code.path), its citrine render line: \(error.description)")
            }
        }
        return (steps.isEmpty ? nil : SceneScript(steps), duration)
    }

    /// What the gallery learns from the child that renders the animation.
    struct Rendered {
        var size: CGSize
        var span: CFTimeInterval
    }

    /// In the parent: renders the GIF and APNG, then the poster, each in a child `citrine`
    /// given `library` (this example built). Returns the size and span the first child reported.
    /// A child that fails has said why: the gallery exits with its status.
    func render(library: URL, folder: String, scale: CGFloat, fps: Double, quiet: Bool) throws(Failure) -> Rendered {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-example-\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let common = ["gallery", "-o", folder, "--scale", "\(scale)", "--fps", "\(fps)", "--render-example", code.path]
            + (quiet ? ["-q"] : [])
        for arguments in [common + ["--report", report.path], common + ["--poster"]] {
            let status = try UserProgram.run(code, library: library, arguments: arguments)
            if status != 0 { exit(status) }
        }
        let numbers = ((try? String(contentsOf: report, encoding: .utf8)) ?? "").split(separator: " ").compactMap { Double($0) }
        guard numbers.count == 3 else {
            throw Failure(.badInput, "\(code.path): the child that rendered it did not report its size and span")
        }
        return Rendered(size: CGSize(width: numbers[0], height: numbers[1]), span: numbers[2])
    }

    /// In the child: runs the page, then writes `NAME.gif` and `NAME.apng` (or, `poster`, the
    /// still `NAME.png` at the middle of the span) into `folder`, and the live view's size and
    /// the span into `report` ("W H SPAN").
    func renderHere(folder: String, scale: CGFloat, fps: Double, poster: Bool, report: String?, quiet: Bool) throws {
        let (script, duration) = try script()
        let subject = try OptionValue.subject(code.path, script: script)
        let span = duration ?? subject.span
        let exporter = subject.makeExporter(scale)
        exporter.background = Gallery.background
        Interruption.install()
        if poster {
            let timeline = try Failure.catching { try ExportTimeline.still(at: span / 2) }
            try Interruption.run(exporter) {
                try exporter.export(to: .file(folder + name + ".png"), format: .png, timeline: timeline)
            }
        } else {
            let pair = try AnimationPair(exporter: exporter, fps: fps, duration: span,
                                         gif: folder + name + ".gif", apng: folder + name + ".apng")
            let progress = ProgressLine(label: pair.gif + ", .apng", quiet: quiet)
            defer { progress.finish(summary: nil) }
            try Interruption.run(exporter) { try pair.write(progress: progress) }
            if let report {
                try "\(Double(subject.size.width)) \(Double(subject.size.height)) \(span)"
                    .write(toFile: report, atomically: true, encoding: .utf8)
            }
        }
    }
}
