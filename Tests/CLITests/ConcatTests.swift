import Foundation
import TestSupport
import Testing

/// `citrine concat`: video slices joined by ffmpeg's concat demuxer, checked against one run of
/// the same render by decoding both with ffmpeg. Skipped where ffmpeg is not installed.
@Suite(.enabled(if: ffprobe != nil, "ffmpeg/ffprobe not installed"))
struct ConcatTests {
    /// Every frame of `file` decoded by ffmpeg to 8-bit RGBA.
    static func decode(_ file: URL, width: Int, height: Int) throws -> [[UInt8]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: (ffprobe! as NSString).deletingLastPathComponent + "/ffmpeg")
        process.arguments = ["-v", "error", "-i", file.path, "-f", "rawvideo", "-pix_fmt", "rgba", "-"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = [UInt8](out.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        let size = width * height * 4
        return stride(from: 0, to: data.count - size + 1, by: size).map { Array(data[$0..<$0 + size]) }
    }

    /// MOV (ProRes 4444, every frame encoded on its own) slices joined decode to one run's frames
    /// exactly; MP4 (H.264) and WebM (VP9) slices each start on a key frame and are predicted
    /// from different frames, so theirs are one run's frames at one run's times, within the
    /// encoders' loss (a mean difference under 1 of 255 here).
    @Test(arguments: [("mov", 0.0), ("mp4", 1.0), ("webm", 1.0)])
    func joinedSlicesAreOneRunsFrames(_ format: String, _ meanDifference: Double) throws {
        let folder = try BatchTests.folder(["a.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let common = ["--fps", "20", "--scale", "1", "-q", "--format", format]
        let single = try Citrine.run(["render", "a.json", "-o", "single.\(format)"] + common, in: folder)
        #expect(single.status == 0, "\(single.stderr)")
        for i in 0..<3 {
            let run = try Citrine.run(["render", "a.json", "--out-dir", "parts", "--shard", "\(i)/3"] + common, in: folder)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let parts = TemporaryFolder.entries(folder.appendingPathComponent("parts"))
        #expect(parts == ["a.part-0-of-3.\(format)", "a.part-1-of-3.\(format)", "a.part-2-of-3.\(format)"])
        let join = try Citrine.run(["concat"] + parts.map { "parts/" + $0 } + ["-o", "joined.\(format)"], in: folder)
        #expect(join.status == 0, "\(join.stderr)")
        #expect(join.stderr.isEmpty)

        let one = try Self.decode(folder.appendingPathComponent("single.\(format)"), width: 80, height: 60)
        let joined = try Self.decode(folder.appendingPathComponent("joined.\(format)"), width: 80, height: 60)
        #expect(one.count == 20 && joined.count == 20)
        for (k, (a, b)) in zip(one, joined).enumerated() {
            let mean = Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
            #expect(mean <= meanDifference, "\(format) frame \(k): mean difference \(mean)")
        }
        // No temporary file is left beside the output.
        #expect(TemporaryFolder.entries(folder) == ["a.json", "joined.\(format)", "parts", "single.\(format)"])
    }

    /// Examples/Kubernetes/lottie-render-job.yaml's render command, run by `sh` once per index
    /// as its pods run it (JOB_COMPLETION_INDEX set, the volume /work a temporary folder), then
    /// its header's concat command: one run's frames, as `joinedSlicesAreOneRunsFrames` measures.
    @Test func theKubernetesJobMakesOneRender() throws {
        let manifest = try String(contentsOfFile: PillowDecoder.packageRoot + "/Examples/Kubernetes/lottie-render-job.yaml",
                                  encoding: .utf8)
        let lines = manifest.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("completionMode: Indexed"))
        let completions = try #require(lines.first { $0.hasPrefix("completions: ") }.flatMap { Int($0.dropFirst(13)) })
        let render = try #require(lines.first { $0.hasPrefix("- citrine render") }).dropFirst(2)
        let concat = try #require(lines.first { $0.hasPrefix("#   citrine concat") }).dropFirst(4)

        let work = try BatchTests.folder(["long.json"])
        defer { try? FileManager.default.removeItem(at: work) }
        func sh(_ command: Substring, index: Int? = nil) throws -> Citrine.Run {
            var environment = Citrine.environment(["JOB_COMPLETION_INDEX": index.map(String.init)])
            environment["PATH"] = Citrine.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command.replacingOccurrences(of: "/work/", with: work.path + "/")]
            process.environment = environment
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return Citrine.Run(status: process.terminationStatus, signalled: false, stdout: Data(), stderr: text)
        }
        for index in 0..<completions {
            let pod = try sh(render, index: index)
            #expect(pod.status == 0, "pod \(index): \(pod.stderr)")
        }
        let joined = try sh(concat)
        #expect(joined.status == 0, "\(joined.stderr)")
        let single = try Citrine.run(["render", "long.json", "-o", "single.mp4", "-q"], in: work)
        #expect(single.status == 0, "\(single.stderr)")
        let one = try Self.decode(work.appendingPathComponent("single.mp4"), width: 160, height: 120)
        let all = try Self.decode(work.appendingPathComponent("long.mp4"), width: 160, height: 120)
        #expect(one.count == 30 && all.count == 30)
        for (k, (a, b)) in zip(one, all).enumerated() {
            let mean = Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
            #expect(mean <= 1, "frame \(k): mean difference \(mean)")
        }
    }

    @Test func badPartsAndOutputsAreNamed() throws {
        let folder = try BatchTests.folder(["a.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try Citrine.run(["render", "a.json", "-o", "a.mp4", "-q"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        let cases: [([String], Int32, String)] = [
            (["concat", "a.mp4", "nowhere.mp4", "-o", "x.mp4"], 1, "no part at 'nowhere.mp4'"),
            (["concat", "a.mp4", "a.json", "-o", "x.mp4"], 1, "bad part 'a.json': expected .mp4, .mov or .webm"),
            (["concat", "a.mp4", "-o", "x.mov"], 1, "a.mp4: a part of x.mov is MOV too: expected a .mov file"),
            (["concat", "a.mp4", "-o", "x.gif"], 1,
             "bad -o 'x.gif': expected GIF slices cannot be joined; render MP4, MOV or WebM slices, or a PNG sequence"),
            (["concat", "a.mp4", "-o", "f/%04d.png"], 1,
             "bad -o 'f/%04d.png': expected PNG slices need no joining: each writes its frames' own numbers"),
            (["concat", "a.mp4", "-o", "a.mp4"], 1, "a.mp4: exists already; not replaced without -y"),
            (["concat", "a.mp4", "-o", "no/x.mp4"], 1, "no/x.mp4: the folder no/ does not exist"),
        ]
        for (arguments, status, message) in cases {
            let run = try Citrine.run(arguments, in: folder)
            #expect(run.status == status, "\(arguments)")
            #expect(run.stderr == "citrine: \(message)\n", "\(arguments)")
        }
        // Without ffmpeg in PATH: status 3, a missing tool.
        let noTool = try Citrine.run(["concat", "a.mp4", "-o", "x.mp4"], in: folder,
                                     environment: Citrine.environment(["PATH": "/nonexistent"]))
        #expect(noTool.status == 3)
        #expect(noTool.stderr == "citrine: concat needs 'ffmpeg', which is not installed (on Debian/Ubuntu: apt-get install ffmpeg)\n")
        #expect(TemporaryFolder.entries(folder) == ["a.json", "a.mp4"])
    }
}
