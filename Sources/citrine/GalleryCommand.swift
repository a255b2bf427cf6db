import ArgumentParser
import Demos
import Export
import Foundation
import ImageCodecs
import QuartzCore

/// `citrine gallery -o DIR` (and `citrine` alone, with DIR = gallery): every demo played
/// through its scripted input as a GIF, an APNG and a poster PNG (the frame at the middle of
/// its span) over the gallery's paper colour, and an `index.html` that shows them with their
/// seed and description. Each demo's frames are drawn once and go to both its GIF and its APNG
/// (`AnimationPair`); its poster is one more frame of a fresh run (a scripted demo's state at a
/// time depends on the input before it, so the poster steps through it too). 15 fps by default:
/// the demos' spans add up to 94 s, drawn on one thread each (their views share one
/// `UIApplication`), so the frame rate is what keeps the gallery quick. With `--examples` the
/// lessons of a folder of user code follow the demos (`GalleryExample`), in `examples/`; the
/// Lottie files follow (`GalleryLottie`), in `lottie/`: those given, instead of the demos, or
/// the package's own.
struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Render every demo (or your Lottie files) as GIF, APNG and a poster PNG, with an index.html to open.",
        discussion: """
            --examples adds the examples: every .swift file and .playground folder in the \
            folder given (default: the Examples folder of Citrine's package, else ./Examples), \
            each built and run as 'citrine render FILE.swift' runs it and written to \
            examples/ in the gallery's folder. An example's leading comment is its \
            description; a 'citrine render' line in it gives the --tap, --drag and \
            --duration the gallery plays.

            Lottie files (.json) given are shown instead of the demos, each played from its \
            first frame for its duration and written to lottie/ in the gallery's folder. \
            Without them the demos are followed by the Lottie files of the Examples/Lottie \
            folder of Citrine's package.

            Examples:
              citrine gallery -o site
              citrine gallery animations/*.json -o site
              citrine gallery --examples
              citrine gallery --examples MyLessons -o site --fps 30
            """)

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "The folder to write (created if needed; the gallery's files in it are replaced).", valueName: "folder"))
    var output = "gallery"

    @Option(help: ArgumentHelp("Pixels per point (default: 1).", valueName: "factor"))
    var scale: String?

    @Option(help: ArgumentHelp("Frames per second (default: 15).", valueName: "rate"))
    var fps: String?

    @Option(help: ArgumentHelp("Draw text only with the fonts in this folder (default: the machine's; see 'citrine "
                               + "info --fonts').", valueName: "folder"))
    var fontDir: String?

    @Flag(name: .shortAndLong, help: "No progress line on standard error.")
    var quiet = false

    @Flag(help: "Also render the examples: your own code, as 'citrine render FILE.swift' does.")
    var examples = false

    @Argument(help: ArgumentHelp("Lottie .json files to show instead of the demos; with --examples, the folder of "
                                 + "examples (default: Citrine's Examples folder).",
                                 valueName: "file-or-folder"))
    var inputs: [String] = []

    /// In a child: the example to render (`GalleryExample.renderHere`).
    @Option(help: .private)
    var renderExample: String?

    /// In a child: render the example's poster instead of its animation.
    @Flag(help: .private)
    var poster = false

    /// In a child: where to write the example's size and span.
    @Option(help: .private)
    var report: String?

    func run() throws {
        let scale = try scale.map { text throws(Failure) in try OptionValue.scale(text) } ?? 1
        let fps = try fps.map { text throws(Failure) in try OptionValue.fps(text) } ?? 15
        try OptionValue.useFontDirectory(fontDir)
        let folder = output.isEmpty || output.hasSuffix("/") ? output : output + "/"
        if let renderExample, UserProgram.handedLibrary != nil {
            guard let code = try UserCode(argument: renderExample, viewName: nil) else {
                throw Failure(.badInput, "\(renderExample) is not a .swift file or .playground folder")
            }
            try GalleryExample(code: code).renderHere(folder: folder + GalleryExample.subfolder, scale: scale, fps: fps,
                                                       poster: poster, report: report, quiet: quiet)
            return
        }
        let lottiePaths = inputs.filter { URL(fileURLWithPath: $0).pathExtension.lowercased() == "json" }
        let folders = inputs.filter { URL(fileURLWithPath: $0).pathExtension.lowercased() != "json" }
        let demos = lottiePaths.isEmpty ? SeedDemo.all : []
        // Values that would spoil every demo are named as such (not by the frame count or size
        // they lead to).
        for demo in demos {
            if let text = self.scale, (demo.size.width * scale).rounded() < 1 || (demo.size.height * scale).rounded() < 1 {
                throw Failure.badValue("--scale", text, expected: "a scale at which every demo is at least 1 pixel a side "
                                       + "(\(demo.name) is \(LayerTree.number(demo.size.width))×\(LayerTree.number(demo.size.height)) points)")
            }
            if let text = self.fps, (demo.span * fps).rounded() < 1 {
                throw Failure.badValue("--fps", text, expected: "a rate that gives every demo at least one frame "
                                       + "(\(demo.name) lasts \(LayerTree.number(demo.span)) s)")
            }
        }
        if !folders.isEmpty, !examples || folders.count > 1 {
            throw Failure.usage("unexpected argument '\(folders[examples ? 1 : 0])' (a folder is given after --examples, "
                                + "one; Lottie files end in .json)", command: "gallery")
        }
        let examplesFolder = folders.first
        let lotties = try GalleryLottie.all(lottiePaths)
        // The folder is made for the checks below (they look at the files in it) and removed
        // again when one fails, so a bad option leaves nothing behind.
        let folderPath = folder.isEmpty ? "." : folder
        let madeFolder = !FileManager.default.fileExists(atPath: folderPath)
        try OutputName.makeFolder(folderPath, named: output)
        let lottieFolder = folder + GalleryLottie.subfolder
        var madeLottieFolder = false
        var checked = false
        defer {
            for (path, made) in [(lottieFolder, madeLottieFolder), (folderPath, madeFolder)]
            where !checked && made && (try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty == true {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        // The Lottie files' folder too: their outputs are checked in it.
        if !lotties.isEmpty, !FileManager.default.fileExists(atPath: lottieFolder) {
            try OutputName.makeFolder(lottieFolder)
            madeLottieFolder = true
        }

        // Everything checked before the first frame.
        var pairs: [AnimationPair] = []
        var posters: [(file: String, exporter: CAAnimationExporter, timeline: ExportTimeline)] = []
        for demo in demos {
            // One thread: the demos' views share UIApplication.shared.
            let exporter = OptionValue.exporter(demo, scale: scale)
            exporter.background = Gallery.background
            let pair = try AnimationPair(exporter: exporter, fps: fps, duration: demo.span,
                                         gif: folder + demo.name + ".gif", apng: folder + demo.name + ".apng")
            let poster = try Failure.catching { try ExportTimeline.still(at: demo.span / 2) }
            let file = folder + demo.name + ".png"
            try Failure.catching {
                _ = try exporter.validate(.file(file), format: .png, timeline: poster, options: ExportOptions())
            }
            pairs.append(pair)
            posters.append((file, exporter, poster))
        }
        for lottie in lotties {
            let (pair, poster) = try lottie.prepare(folder: folder, scale: scale, fps: fps)
            pairs.append(pair)
            posters.append(poster)
        }
        // The examples, built (a compile error stops here, before the demos are drawn).
        var built: [(example: GalleryExample, library: URL)] = []
        if examples {
            let found = try GalleryExample.all(in: examplesFolder ?? GalleryExample.defaultFolder)
            for example in found { built.append((example, try example.code.library())) }
            try OutputName.makeFolder(folder + GalleryExample.subfolder)
        }

        checked = true
        Interruption.install()
        for pair in pairs {
            let progress = ProgressLine(label: pair.gif + ", .apng", quiet: quiet)
            defer { progress.finish(summary: nil) }
            try Interruption.run(pair.exporter) { try pair.write(progress: progress) }
        }
        for poster in posters {
            try Interruption.run(poster.exporter) {
                try poster.exporter.export(to: .file(poster.file), format: .png, timeline: poster.timeline)
            }
        }
        var cards = demos.map(GalleryPage.Card.init)
        for (example, library) in built {
            let rendered = try example.render(library: library, folder: folder, scale: scale, fps: fps, quiet: quiet)
            cards.append(GalleryPage.Card(example, rendered))
        }
        cards += lotties.map(GalleryPage.Card.init)
        let index = folder + "index.html"
        do {
            try OutputFile.write(Array(GalleryPage.html(cards, scale: scale).utf8), to: index)
        } catch {
            throw Failure(.badInput, error.description)
        }
        let counts = [(demos.count, "demo"), (built.count, "example"), (lotties.count, "Lottie file")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
        let counted = counts.count > 1 ? counts.dropLast().joined(separator: ", ") + " and " + counts.last! : counts.first ?? "nothing"
        print("\(index): \(counted) as GIF, APNG and PNG")
        print("open \(index)")
    }
}

/// A demo's GIF and APNG written from one pass over its frames (`CAAnimationExporter.export`
/// to two outputs): drawing is most of an export's time, so the pair costs little more than
/// one of them. Default `ExportOptions`: loop forever, GIF ordered dithering, APNG with the
/// scale in pHYs.
struct AnimationPair {
    let exporter: CAAnimationExporter
    let timeline: ExportTimeline
    let gif: String
    let apng: String

    var outputs: [(destination: ExportDestination, format: ExportFormat?)] { [(.file(gif), .gif), (.file(apng), .apng)] }

    /// Checks both outputs as `export` would (size, folder), drawing nothing.
    init(exporter: CAAnimationExporter, fps: Double, duration: Double, gif: String, apng: String) throws(Failure) {
        self.exporter = exporter
        self.gif = gif
        self.apng = apng
        let timeline = try Failure.catching { try ExportTimeline(duration: duration, fps: fps) }
        self.timeline = timeline
        let outputs = self.outputs
        try Failure.catching {
            for output in outputs { _ = try exporter.validate(output.destination, format: output.format, timeline: timeline) }
        }
    }

    func write(progress: ProgressLine) throws {
        try exporter.export(to: outputs, timeline: timeline) { report in
            progress.update(done: report.framesDone, of: report.frameCount, elapsed: report.elapsed)
        }
    }
}

/// The gallery's `index.html`: one card per demo (then per example) with its name, seed (or
/// "example"), description, GIF, APNG and poster, all by relative file name.
enum GalleryPage {
    /// What a card shows.
    struct Card {
        var name: String
        /// The files' path from the index, without the extension.
        var file: String
        var label: String
        var paragraphs: [String]
        var width: CGFloat
        var posterTime: CFTimeInterval
        var kind = Kind.demo

        enum Kind { case demo, example, lottie }

        init(_ demo: SeedDemo) {
            (name, file, label, paragraphs) = (demo.name, demo.name, demo.seedLabel, [demo.description])
            (width, posterTime) = (demo.size.width, demo.span / 2)
        }

        init(_ example: GalleryExample, _ rendered: GalleryExample.Rendered) {
            (name, file, label) = (example.name, GalleryExample.subfolder + example.name, "example")
            paragraphs = example.paragraphs
            (width, posterTime, kind) = (rendered.size.width, rendered.span / 2, .example)
        }
    }

    static func html(_ cards: [Card], scale: CGFloat) -> String {
        let lottieHeading = """
              <h1 id="lottie">Lottie</h1>
              <p>Bodymovin files, as After Effects exports them, imported onto Core Animation layers and keyframe animations by Citrine's Lottie module ('citrine render anim.json' renders one).</p>
            """
        let sections = cards.enumerated().map { n, card in
            let width = Int((card.width).rounded())
            let poster = LayerTree.number(card.posterTime)
            let (name, file) = (escape(card.name), escape(card.file))
            let prefix = [Card.Kind.demo: "", .example: "example-", .lottie: "lottie-"][card.kind]!
            let heading = card.kind == .lottie && (n == 0 || cards[n - 1].kind != .lottie) ? lottieHeading + "\n" : ""
            return heading + """
                  <section id="\(prefix)\(name)">
                    <h2>\(name)</h2>
                    <p class="seed">\(escape(card.label))</p>
                \(card.paragraphs.map { "    <p>\(escape($0))</p>" }.joined(separator: "\n"))
                    <div class="row">
                      <figure><img src="\(file).gif" width="\(width)" alt="\(name) as GIF"><figcaption>GIF</figcaption></figure>
                      <figure><img src="\(file).apng" width="\(width)" alt="\(name) as APNG"><figcaption>APNG</figcaption></figure>
                      <figure><img src="\(file).png" width="\(width)" alt="\(name) at \(poster) s"><figcaption>PNG at \(poster) s</figcaption></figure>
                    </div>
                  </section>
                """
        }
        let shown = [(Card.Kind.demo, "The seed tutorials' Core Animation demos"),
                     (.example, "the examples (your own code, run as 'citrine render FILE.swift' runs it)"),
                     (.lottie, "Lottie files")]
            .filter { kind, _ in cards.contains { $0.kind == kind } }.map(\.1)
        var intro = shown.joined(separator: ", then ")
        if let first = intro.first { intro.replaceSubrange(...intro.startIndex, with: first.uppercased()) }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
              <meta charset="utf-8">
              <title>Citrine gallery</title>
              <style>
                body { font: 15px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; background: #fff; }
                section { border-top: 1px solid #ddd; padding: 1em 0; }
                h2 { margin: 0; font-size: 1.2em; }
                .seed { margin: 0.2em 0; color: #a35d00; font-weight: 600; }
                .row { display: flex; flex-wrap: wrap; gap: 1.5em; }
                figure { margin: 0; }
                figcaption { color: #666; font-size: 0.85em; text-align: center; }
              </style>
            </head>
            <body>
              <h1>Citrine gallery</h1>
              <p>\(intro), rendered by Citrine at \(LayerTree.number(scale))×: each as an animated GIF, an animated PNG and a still PNG.</p>
            \(sections.joined(separator: "\n"))
            </body>
            </html>

            """
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
