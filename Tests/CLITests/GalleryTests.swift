import Foundation
import TestSupport
import Testing

/// `citrine gallery -o DIR`, and `citrine` alone running it. Half scale at 2 fps keeps it quick.
@Suite struct GalleryTests {
    static let demos = ["volume-bars", "activity-indicator", "reflection", "fold-image", "fold-image-past-90",
                        "page-curl", "path-dots", "sticky-bubble", "ball-loader", "carousel", "petal-pause",
                        "falling-petal-jump-back",
                        "falling-petal-move-rotate", "falling-petal-delegate-fix", "falling-petal-keyframe-values",
                        "falling-petal-keyframe-path", "falling-petal-group", "confetti", "fire", "cube", "filters",
                        "scrubbable-card", "keyframe-bounce",
                        "dynamics-pile", "parallax-scroll", "custom-transition"]

    @Test func writesEveryDemoAndAnIndex() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["gallery", "-o", "site", "--scale", "0.5", "--fps", "2"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(run.output == "site/index.html: 26 demos and 2 Lottie files as GIF, APNG and PNG\nopen site/index.html\n")

        let site = folder.appendingPathComponent("site")
        let expected = (Self.demos.flatMap { [$0 + ".apng", $0 + ".gif", $0 + ".png"] } + ["index.html", "lottie"]).sorted()
        #expect(TemporaryFolder.entries(site) == expected)
        // The Lottie section: the package's Examples/Lottie files, after the demos.
        let lottie = Self.lottie.flatMap { ["\($0).apng", "\($0).gif", "\($0).png"] }
        #expect(TemporaryFolder.entries(site.appendingPathComponent("lottie")) == lottie)
        let html = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        for demo in Self.demos {
            for file in [demo + ".gif", demo + ".apng", demo + ".png"] {
                #expect(html.contains("src=\"\(file)\""), "index.html does not show \(file)")
            }
        }
        #expect(html.contains("seed 003"))                      // the falling petals
        #expect(html.contains("seeds 000/001"))                 // sticky-bubble
        #expect(html.contains("no seed"))                       // confetti, fire, cube, filters and the animator demos
        #expect(html.contains("the QQ sticky bubble: drag it"))
        let heading = try #require(html.range(of: "<h1 id=\"lottie\">Lottie</h1>"))
        #expect(try #require(html.range(of: "src=\"custom-transition.gif\"")).upperBound < heading.lowerBound)
        for file in lottie { #expect(html.contains("src=\"lottie/\(file)\""), "index.html does not show lottie/\(file)") }

        // falling-petal-group: 16 s at 2 fps, at half its 320×480 points (the GIF folds the
        // petal's still first 5 s into fewer frames with longer delays: its length is 16 s).
        let gif = try PillowDecoder.decode(site.appendingPathComponent("falling-petal-group.gif").path)
        #expect(gif.frames.reduce(0) { $0 + $1.duration } == 16_000)
        #expect((gif.frames[0].width, gif.frames[0].height) == (160, 240))
        let apng = try PillowDecoder.decode(site.appendingPathComponent("sticky-bubble.apng").path)
        #expect(apng.frames.count == 7)                         // 3.5 s at 2 fps
        let poster = try Picture.still(site.appendingPathComponent("ball-loader.png"))
        #expect((poster.width, poster.height) == (100, 60))
    }

    /// The Lottie files of the package's Examples/Lottie.
    static let lottie = ["bouncing-ball", "loading-ring"]

    /// Lottie files given: the gallery is theirs, without the demos. `BatchTests.file` lasts 1 s:
    /// 2 frames at 2 fps, 80×60 points at half scale; its poster at 0.5 s.
    @Test func showsTheLottieFilesGivenInsteadOfTheDemos() throws {
        let folder = try BatchTests.folder(["anims/one.json", "anims/two.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["gallery", "anims/one.json", "anims/two.json", "-o", "site", "--scale", "0.5", "--fps", "2"],
                                  in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(run.output == "site/index.html: 2 Lottie files as GIF, APNG and PNG\nopen site/index.html\n")
        let site = folder.appendingPathComponent("site")
        #expect(TemporaryFolder.entries(site) == ["index.html", "lottie"])
        #expect(TemporaryFolder.entries(site.appendingPathComponent("lottie"))
                == ["one.apng", "one.gif", "one.png", "two.apng", "two.gif", "two.png"])
        let apng = try PillowDecoder.decode(site.appendingPathComponent("lottie/two.apng").path)
        #expect(apng.frames.count == 2)
        #expect((apng.frames[0].width, apng.frames[0].height) == (40, 30))
        let html = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("<p>Lottie files, rendered by Citrine at 0.5×"))
        #expect(html.contains("<p>one.json: 80×60 points, 10 fps, 1 s, imported onto Core Animation layers and keyframe animations.</p>"))
        #expect(!html.contains("volume-bars"))

        // Two files of one name, and a broken one, stop the gallery before anything is drawn.
        try Data("{".utf8).write(to: folder.appendingPathComponent("broken.json"))
        for (arguments, message) in [(["anims/one.json", "one.json"], "'anims/one.json' and 'one.json' would both be lottie/one.gif in the gallery: rename one"),
                                     (["broken.json"], "broken.json: ")] {
            try? FileManager.default.copyItem(at: folder.appendingPathComponent("anims/one.json"), to: folder.appendingPathComponent("one.json"))
            let bad = try Citrine.run(["gallery"] + arguments + ["-o", "bad"], in: folder)
            #expect(bad.status == 1, "\(arguments)")
            #expect(bad.stderr.hasPrefix("citrine: \(message)"), "\(bad.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("bad").path))
        }
    }

    @Test func isTheDefaultSubcommand() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        // `citrine` alone is `citrine gallery -o gallery`; options go to gallery too.
        let run = try Citrine.run(["--scale", "0.25", "--fps", "1"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output.hasSuffix("open gallery/index.html\n"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("gallery/index.html").path))
    }
}
