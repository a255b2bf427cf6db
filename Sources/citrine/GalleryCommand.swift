import ArgumentParser
import Demos
import Export
import Foundation
import ImageCodecs

/// `citrine gallery -o DIR` (and `citrine` alone, with DIR = gallery): every demo played
/// through its scripted input as a GIF, an APNG and a poster PNG (the frame at the middle of
/// its span) over the gallery's paper colour, and an `index.html` that shows them with their
/// seed and description. Each demo's frames are drawn once and go to both its GIF and its APNG
/// (`AnimationPair`); its poster is one more frame of a fresh run (a scripted demo's state at a
/// time depends on the input before it, so the poster steps through it too). 15 fps by default:
/// the demos' spans add up to 94 s, drawn on one thread each (their views share one
/// `UIApplication`), so the frame rate is what keeps the gallery quick.
struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Render every demo as GIF, APNG and a poster PNG, with an index.html to open.")

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

    func run() throws {
        let scale = try scale.map { text throws(Failure) in try OptionValue.scale(text) } ?? 1
        let fps = try fps.map { text throws(Failure) in try OptionValue.fps(text) } ?? 15
        try OptionValue.useFontDirectory(fontDir)
        let folder = output.isEmpty || output.hasSuffix("/") ? output : output + "/"
        do {
            try FileManager.default.createDirectory(atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
        } catch {
            throw Failure(.badInput, "\(output): cannot create the folder (\((error as NSError).localizedDescription))")
        }

        // Everything checked before the first frame.
        var pairs: [AnimationPair] = []
        var posters: [(file: String, exporter: CAAnimationExporter, timeline: ExportTimeline)] = []
        for demo in SeedDemo.all {
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
        let index = folder + "index.html"
        do {
            try OutputFile.write(Array(GalleryPage.html(SeedDemo.all, scale: scale).utf8), to: index)
        } catch {
            throw Failure(.badInput, error.description)
        }
        print("\(index): \(SeedDemo.all.count) demos as GIF, APNG and PNG")
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

/// The gallery's `index.html`: one card per demo with its name, seed, description, GIF, APNG
/// and poster, all by relative file name.
enum GalleryPage {
    static func html(_ demos: [SeedDemo], scale: CGFloat) -> String {
        let cards = demos.map { demo in
            let width = Int((demo.size.width).rounded())
            let poster = LayerTree.number(demo.span / 2)
            return """
                  <section id="\(escape(demo.name))">
                    <h2>\(escape(demo.name))</h2>
                    <p class="seed">\(escape(demo.seedLabel))</p>
                    <p>\(escape(demo.description))</p>
                    <div class="row">
                      <figure><img src="\(escape(demo.name)).gif" width="\(width)" alt="\(escape(demo.name)) as GIF"><figcaption>GIF</figcaption></figure>
                      <figure><img src="\(escape(demo.name)).apng" width="\(width)" alt="\(escape(demo.name)) as APNG"><figcaption>APNG</figcaption></figure>
                      <figure><img src="\(escape(demo.name)).png" width="\(width)" alt="\(escape(demo.name)) at \(poster) s"><figcaption>PNG at \(poster) s</figcaption></figure>
                    </div>
                  </section>
                """
        }
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
              <p>The seed tutorials' Core Animation demos, rendered by Citrine at \(LayerTree.number(scale))×: each as an animated GIF, an animated PNG and a still PNG.</p>
            \(cards.joined(separator: "\n"))
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
