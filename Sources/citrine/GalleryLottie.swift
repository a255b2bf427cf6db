import Demos
import Export
import Foundation
import QuartzCore

/// The gallery's Lottie section: Bodymovin files imported onto Core Animation layers
/// (`LottieFile`), each played from its first frame for its duration as a GIF and an APNG from
/// one pass, and a poster PNG at the middle of its duration, in `lottie/`. The files are the
/// `.json` arguments of `citrine gallery` (then the demos are left out), else those in the
/// `Examples/Lottie` folder of Citrine's package.
struct GalleryLottie {
    /// The Lottie files' folder in the gallery's.
    static let subfolder = "lottie/"

    let file: LottieFile
    /// Its name in the gallery: the file's name without `.json`.
    let name: String

    /// The files `citrine gallery` shows: `arguments` (read and imported here, so a broken one
    /// stops the gallery before anything is drawn), else the package's `Examples/Lottie/*.json`
    /// (none when citrine runs away from its package). Two files of one name are refused.
    static func all(_ arguments: [String]) throws(Failure) -> [GalleryLottie] {
        var paths = arguments
        if paths.isEmpty {
            let folder = BuildContext.packageRoot.appendingPathComponent("Examples/Lottie")
            paths = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.lowercased().hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0).path }
        }
        var files: [GalleryLottie] = []
        var seen: [String: String] = [:]
        for path in paths {
            guard let file = try LottieFile(argument: path) else { continue }
            let name = OutputName.base(path)
            if let first = seen[name] {
                throw Failure(.badInput, "'\(first)' and '\(path)' would both be \(subfolder)\(name).gif in the gallery: rename one")
            }
            seen[name] = path
            files.append(GalleryLottie(file: file, name: name))
        }
        return files
    }

    /// Checks both animations and the poster (size, folder) and returns what writes them.
    func prepare(folder: String, scale: CGFloat, fps: Double) throws(Failure)
        -> (pair: AnimationPair, poster: (file: String, exporter: CAAnimationExporter, timeline: ExportTimeline)) {
        let animation = file.animation
        if (animation.size.width * scale).rounded() < 1 || (animation.size.height * scale).rounded() < 1 {
            throw Failure(.badInput, "\(file.path): \(LayerTree.number(animation.size.width))×\(LayerTree.number(animation.size.height)) "
                          + "points is less than a pixel a side at --scale \(LayerTree.number(scale))")
        }
        let exporter = file.subject.makeExporter(scale)
        exporter.background = Gallery.background
        let base = folder + Self.subfolder + name
        let pair = try AnimationPair(exporter: exporter, fps: fps, duration: animation.duration, gif: base + ".gif", apng: base + ".apng")
        let poster = try Failure.catching { try ExportTimeline.still(at: animation.duration / 2) }
        try Failure.catching { _ = try exporter.validate(.file(base + ".png"), format: .png, timeline: poster) }
        return (pair, (base + ".png", exporter, poster))
    }
}

extension GalleryPage.Card {
    init(_ lottie: GalleryLottie) {
        let a = lottie.file.animation
        (name, file, label) = (lottie.name, GalleryLottie.subfolder + lottie.name, "Lottie")
        paragraphs = ["\(lottie.file.name): \(LayerTree.number(a.size.width))×\(LayerTree.number(a.size.height)) points, "
                      + "\(LayerTree.number(a.framerate)) fps, \(LayerTree.number(a.duration)) s, imported onto Core Animation "
                      + "layers and keyframe animations."]
        (width, posterTime, kind) = (a.size.width, a.duration / 2, .lottie)
    }
}
