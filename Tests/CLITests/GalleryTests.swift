import Foundation
import TestSupport
import Testing

/// `citrine gallery -o DIR`, and `citrine` alone running it. Half scale at 10 fps keeps it quick.
@Suite struct GalleryTests {
    static let demos = ["falling-petal", "volume-bars", "activity-indicator", "ball-loader", "sticky-bubble",
                        "reflection", "fold-image", "confetti", "fire"]

    @Test func writesEveryDemoAndAnIndex() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["gallery", "-o", "site", "--scale", "0.5", "--fps", "10"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(run.output == "site/index.html: 9 demos as GIF, APNG and PNG\nopen site/index.html\n")

        let site = folder.appendingPathComponent("site")
        let expected = (Self.demos.flatMap { [$0 + ".apng", $0 + ".gif", $0 + ".png"] } + ["index.html"]).sorted()
        #expect(TemporaryFolder.entries(site) == expected)
        let html = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        for demo in Self.demos {
            for file in [demo + ".gif", demo + ".apng", demo + ".png"] {
                #expect(html.contains("src=\"\(file)\""), "index.html does not show \(file)")
            }
        }
        #expect(html.contains("seed 003"))                      // falling-petal
        #expect(html.contains("seeds 000/001"))                 // sticky-bubble
        #expect(html.contains("a petal falls along a keyframe path"))

        // falling-petal: 4 s at 10 fps, at half its 160×240 points.
        let gif = try PillowDecoder.decode(site.appendingPathComponent("falling-petal.gif").path)
        #expect(gif.frames.count == 40)
        #expect((gif.frames[0].width, gif.frames[0].height) == (80, 120))
        let apng = try PillowDecoder.decode(site.appendingPathComponent("volume-bars.apng").path)
        #expect(apng.frames.count == 6)
        let poster = try Picture.still(site.appendingPathComponent("ball-loader.png"))
        #expect((poster.width, poster.height) == (100, 60))
    }

    @Test func isTheDefaultSubcommand() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        // `citrine` alone is `citrine gallery -o gallery`; options go to gallery too.
        let run = try Citrine.run(["--scale", "0.25", "--fps", "4"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output.hasSuffix("open gallery/index.html\n"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("gallery/index.html").path))
    }
}
