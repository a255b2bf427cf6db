import Foundation
import TestSupport
import Testing

/// `citrine render` to PNG, GIF and APNG, decoded back by Pillow (an independent decoder).
/// volume-bars at scale 1 keeps each render to a fraction of a second: 160×180 pixels, a
/// 1 s span (30 frames at 30 fps).
@Suite struct RenderTests {
    @Test func stillHasTheSizeAsked() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [([String], Int, Int)] = [
            ([], 320, 360),                          // default scale 2
            (["--scale", "1"], 160, 180),
            (["--width", "80"], 80, 90),             // 80/160 of 160×180
            (["--height", "90"], 80, 90),
            (["--size", "80x200"], 80, 90),          // fits inside, keeps the aspect
        ]
        for (i, (options, width, height)) in cases.enumerated() {
            let run = try Citrine.run(["render", "volume-bars", "--time", "0.5", "-o", "still\(i).png"] + options, in: folder)
            #expect(run.status == 0, "\(options): \(run.stderr)")
            #expect(run.stderr.isEmpty)
            let still = try Picture.still(folder.appendingPathComponent("still\(i).png"))
            #expect((still.width, still.height) == (width, height), "\(options)")
        }
    }

    @Test func apngFramesAreTheStillsOfTheirTimes() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "volume-bars", "-o", "bars.apng", "--scale", "1"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let apng = try PillowDecoder.decode(folder.appendingPathComponent("bars.apng").path)
        #expect(apng.format == "PNG")
        #expect(apng.frames.count == 30)                          // round(1 s · 30 fps)
        #expect(apng.loop == 0)                                   // forever, the default
        for frame in apng.frames {
            #expect(abs(frame.duration - 1000.0 / 30) < 1e-9)     // delay 1/30 s, exactly
        }
        // Frame 15 is at 15/30 = 0.5 s: --time 0.5 and --frame 15 are that still.
        for (options, index) in [(["--time", "0.5"], 15), (["--frame", "7"], 7), (["--frame", "0"], 0)] {
            let still = try Citrine.run(["render", "volume-bars", "-o", "still.png", "-y", "--scale", "1"] + options, in: folder)
            #expect(still.status == 0, "\(still.stderr)")
            let expected = try Picture.still(folder.appendingPathComponent("still.png"))
            let frame = Picture(apng.frames[index])
            #expect((frame.width, frame.height) == (160, 180))
            #expect(frame.rgba == expected.rgba, "frame \(index) differs from \(options)")
        }
    }

    @Test func gifFramesAreTheStillsOfTheirTimesWithinQuantization() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "ball-loader", "-o", "ball.gif", "--scale", "1", "--duration", "0.5"],
                                  in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let gif = try PillowDecoder.decode(folder.appendingPathComponent("ball.gif").path)
        #expect(gif.format == "GIF")
        #expect(gif.frames.count == 15)                           // round(0.5 s · 30 fps)
        #expect(gif.loop == 0)                                    // forever, the default
        // GIF delays are whole centiseconds; frame i starts at round(i · 100/30) cs, so the
        // rounding never accumulates: 3, 4, 3, 3, 4, 3, … cs.
        var elapsed = 0.0
        for (i, frame) in gif.frames.enumerated() {
            #expect(elapsed == (Double(i) * 100 / 30).rounded() * 10, "frame \(i) starts at \(elapsed) ms")
            elapsed += frame.duration
        }
        #expect(elapsed == 500)
        for index in [0, 6, 11] {
            let still = try Citrine.run(["render", "ball-loader", "-o", "still.png", "-y", "--scale", "1", "--duration", "0.5",
                                         "--frame", "\(index)"], in: folder)
            #expect(still.status == 0, "\(still.stderr)")
            let expected = try Picture.still(folder.appendingPathComponent("still.png"))
            let error = Picture(gif.frames[index]).gifError(against: expected)
            // The balls are two flat colours over transparency; their anti-aliased edges keep
            // those colours (straight alpha) with partial alpha: the colours fit a 256-entry
            // palette, so the GIF differs only by the alpha cut at 50 % (a few edge pixels
            // either way) and by rounding of the un-premultiplied edge colours.
            #expect(error.alphaMismatches == 0, "frame \(index): \(error)")
            #expect(error.edgeFlips <= 8, "frame \(index): \(error)")
            #expect(error.maxColourError <= 4, "frame \(index): \(error)")
            #expect(error.meanColourError <= 0.1, "frame \(index): \(error)")
        }
    }

    @Test func pngSequenceWritesNumberedFrames() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("frames"), withIntermediateDirectories: false)
        let run = try Citrine.run(["render", "activity-indicator", "-o", "frames/%03d.png", "--scale", "1",
                                   "--fps", "10", "--duration", "0.5", "--include-end"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(TemporaryFolder.entries(folder.appendingPathComponent("frames"))
                == ["000.png", "001.png", "002.png", "003.png", "004.png", "005.png"])   // 0.5 s · 10 fps + the end
    }

    @Test func standardOutputTakesTheFormatGiven() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "volume-bars", "--format", "apng", "-o", "-", "--scale", "1", "--frames", "3",
                                   "--loop", "2"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Array(run.stdout.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let file = folder.appendingPathComponent("piped.apng")
        try run.stdout.write(to: file)
        let apng = try PillowDecoder.decode(file.path)
        #expect(apng.frames.count == 3)
        #expect(apng.loop == 2)                                   // acTL num_plays: played twice
        #expect(TemporaryFolder.entries(folder) == ["piped.apng"])
    }

    /// An interactive seed demo exports through its scripted input: the sticky
    /// bubble's timeline drags the bubble, so frames differ; the frame count is the demo's span
    /// at 30 fps, and a still at t = 0 is the first frame.
    @Test func liveDemoExportsThroughItsScriptedInput() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "sticky-bubble", "--scale", "1", "-o", "bubble.apng"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let decoded = try PillowDecoder.decode(folder.appendingPathComponent("bubble.apng").path)
        #expect(decoded.frames.count == 105)   // the demo's span, 3.5 s, at 30 fps
        #expect(Set(decoded.frames.map(\.rgba)).count > 10)
        let still = try Citrine.run(["render", "sticky-bubble", "--scale", "1", "--time", "0", "-o", "first.png"], in: folder)
        #expect(still.status == 0, "\(still.stderr)")
        let first = try PillowDecoder.decode(folder.appendingPathComponent("first.png").path)
        #expect(first.frames.first?.rgba == decoded.frames.first?.rgba)
    }
}
