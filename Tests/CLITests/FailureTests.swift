import Foundation
import Testing

/// Refusals: each is reported on standard error as `citrine: …` with its exit status (1 bad
/// input, 2 usage, 3 missing ffmpeg), before anything is drawn or written.
@Suite struct FailureTests {
    @Test func refusesToOverwriteWithoutY() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bars.png")
        try Data("keep me".utf8).write(to: file)
        let refused = try Citrine.run(["render", "volume-bars", "--time", "0", "-o", "bars.png", "--scale", "1"], in: folder)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("citrine: bars.png: exists already"), "\(refused.stderr)")
        #expect(try Data(contentsOf: file) == Data("keep me".utf8))
        #expect(TemporaryFolder.entries(folder) == ["bars.png"])

        let replaced = try Citrine.run(["render", "volume-bars", "--time", "0", "-o", "bars.png", "--scale", "1", "-y"], in: folder)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try Picture.still(file).width == 160)
    }

    /// (arguments, exit status, start of the message).
    static let refusals: [([String], Int32, String)] = [
        (["--fps", "abc"], 1, "citrine: bad --fps 'abc': expected frames per second from 0.001 to 1000"),
        (["--fps", "0"], 1, "citrine: bad --fps '0': expected"),
        (["--duration", "-1"], 1, "citrine: bad --duration '-1': expected a non-negative number of seconds"),
        (["--duration", "0.01"], 1, "citrine: bad --duration '0.01': expected a range of 1 to"),
        (["--background", "red"], 1, "citrine: bad --background 'red': expected transparent, #RRGGBB or #RRGGBBAA"),
        (["--dither", "lots"], 1, "citrine: bad --dither 'lots': expected none, ordered or diffusion"),
        (["--png-compression", "3"], 2, "citrine: --png-compression applies to PNG and APNG, not gif"),
        (["--scale", "400"], 1, "citrine: bad --scale '400': 64000x72000 pixels is too large"),
        // Too large for an Int (once a trap while the message was made).
        (["--scale", "1e19"], 1, "citrine: bad --scale '1e19': 1600000000000000000000x1800000000000000000000 pixels is too large"),
        // The value at fault is named: the start (start + 1 s == start there), not the duration;
        // a scale too small to give a pixel, not a size "too large".
        (["--start", "-1e308", "--duration", "1"], 1, "citrine: bad --start '-1e+308': expected a time near enough to 0"),
        (["--scale", "1e-300"], 1, "citrine: bad --scale '1e-300': the frame would be 0x0 pixels"),
        (["--bogus"], 2, "citrine: unknown option '--bogus'"),
        (["--fps"], 2, "citrine: missing value for '--fps <rate>'"),
        (["--duration", "1", "--end", "2"], 2, "citrine: --duration and --end both set the length: give one"),
        (["--time", "0.5"], 2, "citrine: --time renders one still, a PNG, not gif"),
        (["--scale", "1", "--width", "100"], 2, "citrine: --scale and --width both set the size: give one"),
    ]

    /// `--png-compression` takes zlib's levels 0…9: a PNG at level 0 (stored) and at 9 decode
    /// to the same picture, the stored one larger; 10 is refused before anything is written.
    @Test func pngCompressionLevels() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let still = ["render", "volume-bars", "--time", "0.5", "--scale", "1"]
        let bad = try Citrine.run(still + ["-o", "bad.png", "--png-compression", "10"], in: folder)
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("citrine: bad --png-compression '10': expected a zlib level, 0 (fastest) to 9 (smallest)"),
                "\(bad.stderr)")
        #expect(TemporaryFolder.entries(folder).isEmpty)
        for level in ["0", "9"] {
            let run = try Citrine.run(still + ["-o", "l\(level).png", "--png-compression", level], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let stored = try Picture.still(folder.appendingPathComponent("l0.png"))
        let smallest = try Picture.still(folder.appendingPathComponent("l9.png"))
        #expect(stored.width == 160 && stored.rgba == smallest.rgba)
        let size = { (name: String) in
            (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size] as? Int) ?? 0
        }
        #expect(size("l0.png") > 2 * size("l9.png"), "stored \(size("l0.png")) bytes, level 9 \(size("l9.png"))")
    }

    /// The gallery checks its options before it makes its folder: a bad one leaves none.
    @Test(arguments: [(["--fps", "0.001"], "citrine: bad --fps '0.001': expected a rate that gives every demo at least one frame"),
                      (["--scale", "1e-300"], "citrine: bad --scale '1e-300': expected a scale at which every demo is at least 1 pixel")])
    func badGalleryOptionsLeaveNoFolder(_ options: [String], message: String) throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["gallery", "-o", "site"] + options, in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
        #expect(TemporaryFolder.entries(folder).isEmpty, "\(options) left \(TemporaryFolder.entries(folder))")
    }

    /// A PNG sequence is written all or nothing: a middle frame that exists is refused before
    /// anything is drawn, and a frame that cannot be placed (here: `%d` in a folder name, whose
    /// fourth folder is missing) takes back the frames placed before it and puts back the files
    /// they replaced.
    @Test func aPNGSequenceIsWrittenAllOrNothing() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fm = FileManager.default
        try fm.createDirectory(at: folder.appendingPathComponent("frames"), withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: folder.appendingPathComponent("frames/0003.png"))
        let middle = try Citrine.run(["render", "volume-bars", "-o", "frames/%04d.png", "--frames", "6", "--scale", "1"], in: folder)
        #expect(middle.status == 1)
        #expect(middle.stderr.hasPrefix("citrine: frames/0003.png: exists already"), "\(middle.stderr)")
        #expect(TemporaryFolder.entries(folder.appendingPathComponent("frames")) == ["0003.png"])

        for name in ["out%d", "out0", "out1", "out2"] {
            try fm.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try Data("keep".utf8).write(to: folder.appendingPathComponent("out1/f.png"))
        let spread = try Citrine.run(["render", "volume-bars", "-o", "out%d/f.png", "--frames", "5", "--scale", "1", "-y"], in: folder)
        #expect(spread.status == 1)
        #expect(spread.stderr.hasPrefix("citrine: out3/f.png: cannot move the frame into place"), "\(spread.stderr)")
        #expect(TemporaryFolder.entries(folder.appendingPathComponent("out0")).isEmpty)
        #expect(TemporaryFolder.entries(folder.appendingPathComponent("out2")).isEmpty)
        #expect(try Data(contentsOf: folder.appendingPathComponent("out1/f.png")) == Data("keep".utf8))
        #expect(TemporaryFolder.entries(folder).sorted() == ["frames", "out%d", "out0", "out1", "out2"])
    }

    /// A still far in the future costs what happens before it (the demo's scripted input), not
    /// 60 run-loop turns per second of its distance.
    @Test func aStillFarInTheFutureIsDrawnAtOnce() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        for time in ["1e6", "1e308"] {
            let run = try Citrine.run(["render", "sticky-bubble", "--time", time, "-o", "far.png", "-y", "--scale", "1"],
                                      in: folder, timeout: 60)
            #expect(run.status == 0, "--time \(time): \(run.stderr)")
        }
    }

    @Test(arguments: refusals)
    func badRenderOptions(_ options: [String], status: Int32, message: String) throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "volume-bars", "-o", "out.gif"] + options, in: folder)
        #expect(run.status == status, "\(options): \(run.stderr)")
        #expect(run.stderr.hasPrefix(message), "\(options): \(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(TemporaryFolder.entries(folder).isEmpty, "\(options) wrote something")
    }

    @Test func badDemoAndOutput() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [([String], Int32, String)] = [
            (["render", "nope", "-o", "x.gif"], 1, "citrine: unknown demo 'nope': expected one of volume-bars, activity-indicator"),
            (["info", "nope"], 1, "citrine: unknown demo 'nope'"),
            (["render", "volume-bars", "-o", "x.txt"], 1, "citrine: x.txt: unknown file type"),
            (["render", "volume-bars", "-o", "missing/x.gif"], 1, "citrine: missing/x.gif: the folder missing/ does not exist"),
            (["render", "volume-bars", "-o", "x.png", "--duration", "1"], 1, "citrine: x.png: a PNG holds one frame, not 30"),
            (["render", "volume-bars", "-o", "-"], 2, "citrine: -o - (standard output) needs --format"),
            (["render", "volume-bars"], 2, "citrine: give -o FILE, or --out-dir FOLDER"),
            (["render", "volume-bars", "-o", "x.mp4", "--loop", "2"], 2, "citrine: --loop applies to GIF and APNG, not mp4"),
        ]
        for (arguments, status, message) in cases {
            let run = try Citrine.run(arguments, in: folder)
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix(message), "\(arguments): \(run.stderr)")
        }
        #expect(TemporaryFolder.entries(folder).isEmpty)
    }

    @Test func missingFFmpegIsStatus3() throws {
        let folder = try TemporaryFolder.make()
        let empty = try TemporaryFolder.make()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: empty)
        }
        for format in ["mp4", "mov", "webm"] {
            let run = try Citrine.run(["render", "volume-bars", "-o", "bars.\(format)"], in: folder,
                                      environment: Citrine.environment(["PATH": empty.path]))
            #expect(run.status == 3, "\(run.stderr)")
            #expect(run.stderr == "citrine: \(format.uppercased()) export needs 'ffmpeg', which is not installed "
                    + "(on Debian/Ubuntu: apt-get install ffmpeg)\n")
        }
        #expect(TemporaryFolder.entries(folder).isEmpty)
    }

    /// `play` opens an X11 window; with DISPLAY unset there is none: status 3 and a message
    /// that says so.
    @Test func playWithoutADisplayIsStatus3() throws {
        let run = try Citrine.run(["play", "volume-bars"], environment: Citrine.environment(["DISPLAY": nil]))
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("citrine: play needs an X11 display, and there is none (DISPLAY is not set)"))
    }
}
