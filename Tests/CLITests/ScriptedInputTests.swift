import Foundation
import TestSupport
import Testing

/// `--tap X,Y@T` and `--drag X1,Y1:X2,Y2@T+D` on the real binary: parsed into the scene's input
/// script and played through the same event path as the mouse. The sticky bubble (seed 000/001)
/// sits at (100, 120) in its 320 × 240-point window, radius 20, and follows a drag.
@Suite struct ScriptedInputTests {
    static func isRed(_ p: [UInt8]) -> Bool { p[0] > 200 && p[1] < 60 && p[2] < 60 && p[3] > 200 }
    static func rgba(_ frame: PillowDecoder.Frame, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * frame.width + x) * 4
        return Array(frame.rgba[i..<i + 4])
    }

    /// A drag from the bubble's centre 60 pt to the right over 0.2…0.7 s, exported at 10 fps:
    /// at 0 s the bubble is at rest (red at its centre, not 48 pt to the right); at 0.6 s the
    /// drag has gone 0.8 of the way, so the bubble is centred at x = 148 and the small circle
    /// left behind (radius 20 − 48/10) still covers (100, 120).
    @Test func aDragMovesTheBubbleInTheExportedFrames() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "sticky-bubble", "--scale", "1", "--fps", "10", "--duration", "1",
                                   "--drag", "100,120:160,120@0.2+0.5", "-o", "drag.apng"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let frames = try PillowDecoder.decode(folder.appendingPathComponent("drag.apng").path).frames
        try #require(frames.count == 10)
        #expect(Self.isRed(Self.rgba(frames[0], 100, 120)) && !Self.isRed(Self.rgba(frames[0], 148, 120)), "at rest")
        #expect(Self.isRed(Self.rgba(frames[6], 148, 120)) && Self.isRed(Self.rgba(frames[6], 100, 120)), "dragged")
        #expect(!Self.isRed(Self.rgba(frames[6], 172, 120)), "the bubble's right edge is at 168")
    }

    /// Options repeat and mix; with them the default length runs past the last input by the
    /// demo's span (3.5 s): a tap at 1 s, up at 1.05 s, gives 4.55 s, 91 frames at 20 fps.
    @Test func tapsAndDragsRepeatAndSetTheDefaultLength() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "sticky-bubble", "--scale", "0.5", "--fps", "20",
                                   "--tap", "300,220@0.5", "--drag=-5,-5:10,10@0+0.25", "--tap", " 300 , 220 @1",
                                   "-o", "mixed-%02d.png"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(TemporaryFolder.entries(folder).count == 91)
    }

    /// A value that does not parse names its option and the form expected (status 1).
    @Test(arguments: [
        (["--tap", "10,20"], "bad --tap '10,20': expected X,Y@T"),
        (["--tap", "a,b@1"], "bad --tap 'a,b@1': expected X,Y@T"),
        (["--drag", "1,2@3"], "bad --drag '1,2@3': expected X1,Y1:X2,Y2@T+D"),
        (["--drag", "1,2:3,4@1+0"], "bad --drag '1,2:3,4@1+0': expected X1,Y1:X2,Y2@T+D"),
        (["--drag", "1,2:3,nan@1+1"], "bad --drag '1,2:3,nan@1+1': expected X1,Y1:X2,Y2@T+D"),
    ])
    func aBadValueNamesItsOption(arguments: [String], message: String) throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "sticky-bubble", "-o", "x.gif"] + arguments, in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(TemporaryFolder.entries(folder).isEmpty)
    }

    /// `play` reads the same options before it looks for a display; `--script` (the demo's own
    /// input) and `--tap`/`--drag` (input instead of it) do not go together.
    @Test func playChecksItsScriptedInputFirst() throws {
        let bad = try Citrine.run(["play", "sticky-bubble", "--tap", "1,2"], environment: Citrine.environment(["DISPLAY": nil]))
        #expect(bad.status == 1 && bad.stderr.contains("bad --tap '1,2'"), "\(bad.stderr)")
        let both = try Citrine.run(["play", "sticky-bubble", "--script", "--tap", "1,2@0"], environment: Citrine.environment(["DISPLAY": nil]))
        #expect(both.status == 2 && both.stderr.contains("give one or the other"), "\(both.stderr)")
        let fine = try Citrine.run(["play", "sticky-bubble", "--drag", "1,2:3,4@0+1"], environment: Citrine.environment(["DISPLAY": nil]))
        #expect(fine.status == 3, "no display: \(fine.stderr)")
    }
}
