import Foundation
import TestSupport
import Testing

/// `citrine render a.json b.json … --out-dir DIR`, `--shard I/N` and `citrine concat`: each
/// batch or slice checked against one plain run of the same render (its bytes, or for video
/// its decoded frames), never against numbers the batch printed.
@Suite struct BatchTests {
    /// 80×60 points at 10 fps, frames 0 to 10 (1 s): a 20×20 square whose layer moves from x 0 to
    /// x 50 and turns blue to red on the way.
    static let file = #"""
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 80, "h": 60, "layers": [
          {"ty": 4, "ind": 1, "ip": 0, "op": 10, "st": 0,
           "ks": {"p": {"a": 1, "k": [{"t": 0, "s": [0, 0]}, {"t": 10, "s": [50, 0]}]}},
           "shapes": [{"ty": "rc", "p": {"a": 0, "k": [15, 30]}, "s": {"a": 0, "k": [20, 20]}, "r": {"a": 0, "k": 4}},
                      {"ty": "fl", "c": {"a": 1, "k": [{"t": 0, "s": [0, 0, 1]}, {"t": 10, "s": [1, 0, 0]}]},
                       "o": {"a": 0, "k": 100}}]}]}
        """#

    /// A folder holding `names` (paths), each a copy of `file`.
    static func folder(_ names: [String]) throws -> URL {
        let folder = try TemporaryFolder.make()
        for name in names {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.utf8).write(to: url)
        }
        return folder
    }

    static func bytes(_ folder: URL, _ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }

    @Test func rendersEveryInputIntoTheFolderAsOneRunWould() throws {
        let folder = try Self.folder(["a.json", "more/b.json", "c.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let single = try Citrine.run(["render", "a.json", "-o", "single.apng", "--scale", "1", "-q"], in: folder)
        #expect(single.status == 0, "\(single.stderr)")
        let batch = try Citrine.run(["render", "a.json", "more/b.json", "c.json", "--out-dir", "out/new", "--format", "apng",
                                     "--scale", "1", "--threads", "2"], in: folder)
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(batch.stderr.isEmpty)
        #expect(TemporaryFolder.entries(folder.appendingPathComponent("out/new")) == ["a.apng", "b.apng", "c.apng"])
        for name in ["a", "b", "c"] {
            #expect(try Self.bytes(folder, "out/new/\(name).apng") == Self.bytes(folder, "single.apng"), "\(name).apng")
        }
        // GIF without --format; the options reach every input (10 frames at 10 fps, half size).
        let gifs = try Citrine.run(["render", "a.json", "c.json", "--out-dir", "gifs", "--scale", "0.5", "--fps", "10"], in: folder)
        #expect(gifs.status == 0, "\(gifs.stderr)")
        let gif = try PillowDecoder.decode(folder.appendingPathComponent("gifs/c.gif").path)
        #expect(gif.frames.count == 10)
        #expect((gif.frames[0].width, gif.frames[0].height) == (40, 30))
    }

    @Test func aFailingInputIsNamedAndTheOthersAreWritten() throws {
        let folder = try Self.folder(["good.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"fr": 10, "ip": 0, "op": 10, "w": 80, "h": 60, "layers": [{"ty": 4, "ks": {"o": {"a": 0, "k": "x"}}}]}"#.utf8)
            .write(to: folder.appendingPathComponent("bad.json"))
        let run = try Citrine.run(["render", "bad.json", "good.json", "nowhere.json", "--out-dir", "out", "--scale", "1"], in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains("citrine: bad.json: layers[0].ks.o.k: expected a number\n"), "\(run.stderr)")
        #expect(run.stderr.contains("citrine: no Lottie file at 'nowhere.json'\n"), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("citrine: 2 of 3 inputs failed (the others are written): bad.json, nowhere.json\n"),
                "\(run.stderr)")
        #expect(TemporaryFolder.entries(folder.appendingPathComponent("out")) == ["good.gif"])

        // An option every input refuses is said once.
        try FileManager.default.copyItem(at: folder.appendingPathComponent("good.json"), to: folder.appendingPathComponent("also.json"))
        let fps = try Citrine.run(["render", "good.json", "also.json", "--out-dir", "out", "--fps", "abc"], in: folder)
        #expect(fps.status == 1)
        #expect(fps.stderr == "citrine: bad --fps 'abc': expected frames per second from 0.001 to 1000, e.g. 30, 29.97 or 30000/1001\n"
                + "citrine: every input failed: good.json, also.json\n")
    }

    @Test func twoInputsOfOneNameAreRefusedBeforeAnythingIsDrawn() throws {
        let folder = try Self.folder(["a/anim.json", "b/anim.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "a/anim.json", "b/anim.json", "--out-dir", "out"], in: folder)
        #expect(run.status == 2)
        #expect(run.stderr == """
            citrine: 'a/anim.json' and 'b/anim.json' would both be written to out/anim.gif: rename one, or render them in two runs with different --out-dir folders
            See 'citrine render --help'.

            """)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    @Test func whereToWriteIsOneOfOOrOutDir() throws {
        let cases: [([String], String)] = [
            (["render", "a.json", "b.json", "-o", "x.gif"], "several inputs are written to --out-dir FOLDER, not to -o (one file)"),
            (["render", "a.json", "b.json"], "several inputs need --out-dir FOLDER (each is named after its input)"),
            (["render", "a.json"], "give -o FILE, or --out-dir FOLDER"),
            (["render", "a.json", "-o", "x.gif", "--out-dir", "out"], "-o and --out-dir both say where to write: give one"),
        ]
        let folder = try Self.folder(["a.json", "b.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        for (arguments, message) in cases {
            let run = try Citrine.run(arguments, in: folder)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr == "citrine: \(message)\nSee 'citrine render --help'.\n", "\(arguments)")
        }
        // One input to --out-dir is named as in a batch (the folder made).
        // (GIF: the check is about naming, and needs no ffmpeg.)
        let one = try Citrine.run(["render", "a.json", "--out-dir", "out/deeper", "--format", "gif", "-q"], in: folder)
        #expect(one.status == 0, "\(one.stderr)")
        #expect(TemporaryFolder.entries(folder.appendingPathComponent("out/deeper")) == ["a.gif"])
    }

    @Test func aShardIsISlashNWithIBelowN() throws {
        let folder = try Self.folder(["a.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        for value in ["2/2", "-1/2", "1/0", "x", "1/", "0/1000001", "1.5/3"] {
            let run = try Citrine.run(["render", "a.json", "-o", "x.gif", "--shard=\(value)"], in: folder)
            #expect(run.status == 1, "\(value)")
            #expect(run.stderr == "citrine: bad --shard '\(value)': expected I/N: slice I of N slices, N from 1 to 1000000 "
                    + "and I from 0 to N − 1, e.g. 0/4\n", "\(value)")
        }
        // 1 s at 10 fps, 10 frames, cannot be cut into 11 slices.
        let many = try Citrine.run(["render", "a.json", "-o", "x.gif", "--fps", "10", "--shard", "10/11"], in: folder)
        #expect(many.status == 1)
        #expect(many.stderr == "citrine: bad --shard '10/11': expected at most as many slices as frames (10)\n")
        #expect(TemporaryFolder.entries(folder) == ["a.json"])
    }

    /// Slices of one input's PNG sequence, in any split, write one run's files byte for byte:
    /// a Lottie file, and a demo whose scripted drag before a slice's first frame must still
    /// have happened in it.
    @Test(arguments: [["a.json", "--fps", "20"], ["sticky-bubble", "--fps", "8", "--scale", "0.5"]])
    func slicesOfOneRenderAreOneRunByteForByte(_ render: [String]) throws {
        let folder = try Self.folder(["a.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["one", "split2", "split3"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let single = try Citrine.run(["render"] + render + ["-o", "one/%03d.png"], in: folder)
        #expect(single.status == 0, "\(single.stderr)")
        let frames = TemporaryFolder.entries(folder.appendingPathComponent("one"))
        #expect(frames.count > 6)
        for n in [2, 3] {
            for i in 0..<n {
                let run = try Citrine.run(["render"] + render + ["-o", "split\(n)/%03d.png", "--shard", "\(i)/\(n)"], in: folder)
                #expect(run.status == 0, "\(run.stderr)")
            }
            #expect(TemporaryFolder.entries(folder.appendingPathComponent("split\(n)")) == frames)
            for frame in frames {
                #expect(try Self.bytes(folder, "split\(n)/\(frame)") == Self.bytes(folder, "one/\(frame)"), "\(n) slices: \(frame)")
            }
        }
    }

    /// Several inputs are dealt round-robin: slice 0 of 2 takes the first and third.
    @Test func slicesOfSeveralInputsTakeEveryNth() throws {
        let folder = try Self.folder(["a.json", "b.json", "c.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        for (shard, expected) in [("0/2", ["a.png", "c.png"]), ("1/2", ["a.png", "b.png", "c.png"])] {
            let run = try Citrine.run(["render", "a.json", "b.json", "c.json", "--out-dir", "out", "--format", "png",
                                       "--shard", shard], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(TemporaryFolder.entries(folder.appendingPathComponent("out")) == expected)
        }
        // More slices than inputs: an empty slice is done at once.
        let empty = try Citrine.run(["render", "a.json", "b.json", "--out-dir", "none", "--shard", "5/6"], in: folder)
        #expect(empty.status == 0 && empty.stderr.isEmpty, "\(empty.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("none").path))
    }
}

/// A batch asked to stop: SIGTERM to the batch alone (as Kubernetes stops a pod's first
/// process) reaches every running child, which cancels and writes nothing; the batch exits 143.
@Suite struct BatchInterruptionTests {
    @Test func sigtermStopsEveryChildAndNothingIsWritten() throws {
        let folder = try TemporaryFolder.make()
        let logs = try TemporaryFolder.make()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: logs)
        }
        // Two long renders (InterruptionTests' 10 s of fold-image at scale 3, also as cube), run side by side.
        let process = try Citrine.start(["render", "fold-image", "cube", "--scale", "3", "--duration", "10", "--out-dir", "out",
                                         "--threads", "2"], in: folder, logs: logs)
        let out = folder.appendingPathComponent("out")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning, TemporaryFolder.entries(out).filter({ $0.hasPrefix(".") }).count < 2 {
            usleep(20_000)
        }
        #expect(TemporaryFolder.entries(out).filter { $0.hasPrefix(".") }.count == 2, "\(TemporaryFolder.entries(out))")
        kill(process.processIdentifier, SIGTERM)
        try Citrine.wait(process, timeout: 30)
        #expect(process.terminationStatus == 143)
        #expect(TemporaryFolder.entries(out) == [])
        let stderr = String(decoding: try Data(contentsOf: logs.appendingPathComponent("stderr")), as: UTF8.self)
        #expect(stderr == "citrine: interrupted; nothing written\n", "\(stderr)")
    }
}
