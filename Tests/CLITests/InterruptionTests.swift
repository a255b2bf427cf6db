import Foundation
import Testing

/// A render stopped halfway leaves nothing at its destination: killed outright (its hidden
/// temporary file stays until the next export to that folder removes it), or asked to stop by
/// SIGINT or SIGTERM (it cancels, removes its temporary file and exits 128 + the signal).
@Suite struct InterruptionTests {
    /// A render to `output` that runs for many seconds: 10 s of fold-image at scale 3 (600 × 660 pixels).
    static func longRender(_ output: String) -> [String] {
        ["render", "fold-image", "--scale", "3", "--duration", "10", "-o", output]
    }

    /// Starts the long render in `folder` and waits until its temporary file appears (or 10 s).
    static func startLongRender(in folder: URL, logs: URL, output: String = "long.gif",
                                overwriting: Bool = false) throws -> Process {
        let process = try Citrine.start(longRender(output) + (overwriting ? ["--overwrite"] : []), in: folder, logs: logs)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, process.isRunning,
              !TemporaryFolder.entries(folder).contains(where: { isTemporary($0, of: output) }) {
            usleep(20_000)
        }
        return process
    }

    /// `.long.gif.citrine-PID.XXXXXX`, or for a PNG sequence (`%` in the name) its staging
    /// folder `.citrine-PID.XXXXXX`.
    static func isTemporary(_ name: String, of output: String = "long.gif") -> Bool {
        name.hasPrefix(output.contains("%") ? ".citrine-" : ".\(output).citrine-")
    }

    /// Every kind of output: a render killed mid-way leaves its destination as it was
    /// (here: absent) and only its hidden temporary file, which the next write to the folder
    /// removes.
    @Test(arguments: ["long.gif", "long.apng", "long%04d.png", "long.mp4"])
    func killedRenderLeavesNothingAndItsLeftoverIsRemovedNextTime(_ output: String) throws {
        if output.hasSuffix(".mp4") && ffprobe == nil { return }   // no ffmpeg: VideoTests say so
        let folder = try TemporaryFolder.make()
        let logs = try TemporaryFolder.make()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: logs)
        }
        // What the destination held before (for a sequence, its first frame's file).
        let destination = folder.appendingPathComponent(output.replacingOccurrences(of: "%04d", with: "0000"))
        let previous = Data("an earlier render".utf8)
        try previous.write(to: destination)
        let process = try Self.startLongRender(in: folder, logs: logs, output: output, overwriting: true)
        #expect(process.isRunning)
        let leftovers = TemporaryFolder.entries(folder).filter { $0 != destination.lastPathComponent }
        #expect(leftovers.count == 1 && Self.isTemporary(leftovers[0], of: output), "\(leftovers)")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try Data(contentsOf: destination) == previous)
        #expect(TemporaryFolder.entries(folder) == (leftovers + [destination.lastPathComponent]).sorted())   // a killed process cannot clean up
        // ffmpeg, left reading a closed pipe, finishes its temporary file and ends by itself (it
        // may rewrite that file as it ends, so the next render waits for it here).
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, let temporary = leftovers.first,
              !(try Self.processes(mentioning: temporary).isEmpty) { usleep(50_000) }

        let next = try Citrine.run(["render", "volume-bars", "--time", "0", "--scale", "1", "-o", "next.png"], in: folder)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(TemporaryFolder.entries(folder) == [destination.lastPathComponent, "next.png"].sorted())
    }

    /// The MP4 case also checks that no ffmpeg is left running (it writes into `folder`).
    @Test(arguments: [(SIGINT, Int32(130), "long.gif"), (SIGTERM, Int32(143), "long.gif"), (SIGTERM, Int32(143), "long.mp4")])
    func signalCancels(_ signal: Int32, status: Int32, output: String) throws {
        if output.hasSuffix(".mp4") && ffprobe == nil { return }   // no ffmpeg: VideoTests say so
        let folder = try TemporaryFolder.make()
        let logs = try TemporaryFolder.make()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: logs)
        }
        let process = try Self.startLongRender(in: folder, logs: logs, output: output)
        #expect(process.isRunning)
        kill(process.processIdentifier, signal)
        try Citrine.wait(process, timeout: 30)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == status)
        let stderr = String(decoding: try Data(contentsOf: logs.appendingPathComponent("stderr")), as: UTF8.self)
        #expect(stderr == "citrine: interrupted; nothing written\n")
        #expect(TemporaryFolder.entries(folder).isEmpty)
        #expect(try Self.processes(mentioning: folder.path).isEmpty)
    }

    /// A frame that takes far longer than the grace period to draw — a Lottie repeater of
    /// 45 000 copies stacked on the canvas, each of which is drawn (2 000 copies took 2.3 s of
    /// CPU in a debug build; each copy is two layers, within the import's 100 000-layer
    /// budget) — has no point at which the export could stop:
    /// SIGTERM still ends the command after the grace period (10 s, `Interruption.grace`) with
    /// 143, its temporary file removed.
    @Test func signalEndsAFrameThatCannotStop() throws {
        let folder = try TemporaryFolder.make()
        let logs = try TemporaryFolder.make()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: logs)
        }
        let rectangle = #"{"ty": "rc", "p": {"a": 0, "k": [100, 60]}, "s": {"a": 0, "k": [40, 60]}, "r": {"a": 0, "k": 4}}"#
        let fill = #"{"ty": "fl", "c": {"a": 0, "k": [0.9, 0.4, 0.1]}, "o": {"a": 0, "k": 100}}"#
        let repeater = #"{"ty": "rp", "c": {"a": 0, "k": 45000}, "o": {"a": 0, "k": 0}, "m": 1, "tr": {"p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [100, 100]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0.00001}, "so": {"a": 0, "k": 100}, "eo": {"a": 0, "k": 100}}}"#
        let transform = #"{"ty": "tr", "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}"#
        let layerTransform = #"{"p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}"#
        let animation = """
            {"v": "5.7.0", "fr": 30, "ip": 0, "op": 30, "w": 200, "h": 200, "assets": [], "layers": [{"ty": 4, "ind": 1, \
            "ip": 0, "op": 30, "st": 0, "ks": \(layerTransform), "shapes": [{"ty": "gr", "it": [\(rectangle), \(fill), \(repeater), \(transform)]}]}]}
            """
        let input = logs.appendingPathComponent("stack.json")
        try Data(animation.utf8).write(to: input)
        let process = try Citrine.start(["render", input.path, "-o", "stack.gif"], in: folder, logs: logs)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, process.isRunning, !TemporaryFolder.entries(folder).contains(where: { Self.isTemporary($0, of: "stack.gif") }) {
            usleep(20_000)
        }
        #expect(process.isRunning)
        let signalled = Date()
        kill(process.processIdentifier, SIGTERM)
        try Citrine.wait(process, timeout: 60)
        #expect(Date().timeIntervalSince(signalled) < 30)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 143)
        let stderr = String(decoding: try Data(contentsOf: logs.appendingPathComponent("stderr")), as: UTF8.self)
        #expect(stderr == "citrine: interrupted; nothing written\n")
        #expect(TemporaryFolder.entries(folder).isEmpty)
    }

    /// Command lines of running processes that contain `text` (from /proc).
    static func processes(mentioning text: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return line.contains(text) ? line : nil
        }
    }
}
