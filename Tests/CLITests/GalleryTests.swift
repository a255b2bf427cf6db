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
        #expect(run.output == "site/index.html: 26 demos as GIF, APNG and PNG\nopen site/index.html\n")

        let site = folder.appendingPathComponent("site")
        let expected = (Self.demos.flatMap { [$0 + ".apng", $0 + ".gif", $0 + ".png"] } + ["index.html"]).sorted()
        #expect(TemporaryFolder.entries(site) == expected)
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
