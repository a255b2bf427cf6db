import Foundation
import TestSupport
import Testing

/// `citrine render/info anim.json`: a hand-written Bodymovin file, its frames decoded back by
/// Pillow (an independent decoder).
@Suite struct LottieCommandTests {
    /// 120×80 points at 10 fps, frames 0 to 20 (2 s): a 40×40 red square centred at (30, 40)
    /// whose layer moves linearly from x 0 to x 60 over frames 0 to 20, and an effect (not imported).
    static let file = #"""
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 120, "h": 80, "layers": [
          {"ty": 4, "ind": 1, "ip": 0, "op": 20, "st": 0, "ef": [{"ty": 5}],
           "ks": {"p": {"a": 1, "k": [{"t": 0, "s": [0, 0]}, {"t": 20, "s": [60, 0]}]}},
           "shapes": [{"ty": "rc", "p": {"a": 0, "k": [30, 40]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}},
                      {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0]}, "o": {"a": 0, "k": 100}}]}]}
        """#

    static func folder() throws -> URL {
        let folder = try TemporaryFolder.make()
        try Data(file.utf8).write(to: folder.appendingPathComponent("anim.json"))
        return folder
    }

    static func alpha(_ p: Picture, _ x: Int, _ y: Int) -> UInt8 { p.rgba[(y * p.width + x) * 4 + 3] }

    /// Frame 10 (1 s): the layer is at x 30, so the square (x 10…49 in it) covers x 40…79, y 20…59; the effect is
    /// warned about once on standard error.
    @Test func renderDrawsTheFrameOfTheTime() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "anim.json", "--time", "1", "--scale", "1", "-o", "still.png"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "citrine: warning: anim.json: expression control effects not supported yet, left out (first at layers[0].ef[0])\n")
        let still = try Picture.still(folder.appendingPathComponent("still.png"))
        #expect((still.width, still.height) == (120, 80))
        #expect(Array(still.rgba[(40 * 120 + 60) * 4..<(40 * 120 + 61) * 4]) == [255, 0, 0, 255])
        for (x, y) in [(40, 20), (79, 59)] { #expect(Self.alpha(still, x, y) == 255, "(\(x), \(y))") }
        for (x, y) in [(39, 40), (80, 40), (60, 19), (60, 60)] { #expect(Self.alpha(still, x, y) == 0, "(\(x), \(y))") }
    }

    /// The default length is the file's: 2 s at the default 30 fps is 60 frames, sampled
    /// between the file's own 10 fps frames.
    @Test func renderRunsForTheFilesDuration() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "anim.json", "--scale", "1", "-q", "-o", "anim.apng"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let apng = try PillowDecoder.decode(folder.appendingPathComponent("anim.apng").path)
        #expect(apng.frames.count == 60)
        // Frame 1 is at 1/30 s = frame 1/3 of the file: the layer at x 1, the square from x 11.
        let frame = Picture(apng.frames[1])
        #expect(Self.alpha(frame, 11, 40) == 255 && Self.alpha(frame, 10, 40) == 0)
    }

    @Test func infoSummarizesTheFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["info", "anim.json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output == """
            anim.json: Lottie 5.7.0
            120x80 points, 10 fps, frames 0–20 (2 s), 1 layer
            Unsupported features (left out when drawn):
              expression control effects (first at layers[0].ef[0])

            """)
    }

    @Test func aBrokenFileIsAnErrorNamingThePlace() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"fr": 10, "ip": 0, "op": 20, "w": 120, "h": 80, "layers": [{"ty": 4, "ks": {"o": {"a": 0, "k": "x"}}}]}"#.utf8)
            .write(to: folder.appendingPathComponent("bad.json"))
        let run = try Citrine.run(["render", "bad.json", "-o", "out.png"], in: folder)
        #expect(run.status == 1)
        #expect(run.stderr == "citrine: bad.json: layers[0].ks.o.k: expected a number\n")
        let missing = try Citrine.run(["info", "nowhere.json"], in: folder)
        #expect(missing.status == 1)
        #expect(missing.stderr == "citrine: no Lottie file at 'nowhere.json'\n")
    }
}
