import Foundation
import TestSupport
import Testing

/// GNU parallel, when installed.
let gnuParallel: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/parallel" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}()

/// README's GNU parallel recipes ("Batches and several machines"), run as written there with
/// the built citrine: the outputs are one plain run's, byte for byte. Skipped where GNU parallel
/// is not installed (on Debian: apt-get install parallel).
@Suite(.enabled(if: gnuParallel != nil, "GNU parallel is not installed (on Debian/Ubuntu: apt-get install parallel)"))
struct ParallelRecipeTests {
    /// Runs `parallel arguments…` in `folder`; its standard error comes back, with its status.
    static func parallel(_ arguments: [String], in folder: URL) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gnuParallel!)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = Citrine.environment()
        process.standardInput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try Citrine.wait(process, timeout: 300)
        return (process.terminationStatus, text)
    }

    @Test func oneFilePerJob() throws {
        let folder = try BatchTests.folder(["a.json", "b.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let single = try Citrine.run(["render", "a.json", "-o", "single.gif", "-q"], in: folder)
        #expect(single.status == 0, "\(single.stderr)")
        let run = try Self.parallel([Citrine.executable.path, "render", "{}", "--out-dir", "out", "--threads", "1", ":::", "a.json", "b.json"],
                                    in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        for name in ["a.gif", "b.gif"] {
            #expect(try BatchTests.bytes(folder, "out/" + name) == BatchTests.bytes(folder, "single.gif"), "\(name)")
        }
    }

    @Test func fourSlicesOfOneRender() throws {
        let folder = try BatchTests.folder(["long.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["one", "frames"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let single = try Citrine.run(["render", "long.json", "-o", "one/%04d.png", "--fps", "24"], in: folder)
        #expect(single.status == 0, "\(single.stderr)")
        let run = try Self.parallel(["-j", "4", Citrine.executable.path, "render", "long.json", "--shard", "{}/4",
                                     "-o", "frames/%04d.png", "--fps", "24", ":::", "0", "1", "2", "3"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let frames = TemporaryFolder.entries(folder.appendingPathComponent("one"))
        #expect(frames.count == 24)
        #expect(TemporaryFolder.entries(folder.appendingPathComponent("frames")) == frames)
        for frame in frames {
            #expect(try BatchTests.bytes(folder, "frames/" + frame) == BatchTests.bytes(folder, "one/" + frame), "\(frame)")
        }
    }
}
