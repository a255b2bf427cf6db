import Foundation
import Testing

/// A render stopped halfway leaves nothing at its destination: killed outright (its hidden
/// temporary file stays until the next export to that folder removes it), or asked to stop by
/// SIGINT or SIGTERM (it cancels, removes its temporary file and exits 128 + the signal).
@Suite struct InterruptionTests {
    /// A render that runs for many seconds: 10 s of fold-image at scale 3 (600 × 660 pixels).
    static let longRender = ["render", "fold-image", "--scale", "3", "--duration", "10", "-o", "long.gif"]

    /// Starts the long render in `folder` and waits until its temporary file appears (or 10 s).
    static func startLongRender(in folder: URL, logs: URL) throws -> Process {
        let process = try Citrine.start(longRender, in: folder, logs: logs)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, process.isRunning, !TemporaryFolder.entries(folder).contains(where: isTemporary) {
            usleep(20_000)
        }
        return process
    }

    /// `.long.gif.citrine-PID.XXXXXX`.
    static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".long.gif.citrine-")
    }

    @Test func killedRenderLeavesNothingAndItsLeftoverIsRemovedNextTime() throws {
        let folder = try TemporaryFolder.make()
        let logs = try TemporaryFolder.make()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: logs)
        }
        let process = try Self.startLongRender(in: folder, logs: logs)
        #expect(process.isRunning)
        let leftovers = TemporaryFolder.entries(folder)
        #expect(leftovers.count == 1 && Self.isTemporary(leftovers[0]), "\(leftovers)")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("long.gif").path))
        #expect(TemporaryFolder.entries(folder) == leftovers)     // a killed process cannot clean up

        let next = try Citrine.run(["render", "volume-bars", "--time", "0", "--scale", "1", "-o", "next.png"], in: folder)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(TemporaryFolder.entries(folder) == ["next.png"])
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalCancels(_ signal: Int32, status: Int32) throws {
        let folder = try TemporaryFolder.make()
        let logs = try TemporaryFolder.make()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: logs)
        }
        let process = try Self.startLongRender(in: folder, logs: logs)
        #expect(process.isRunning)
        kill(process.processIdentifier, signal)
        try Citrine.wait(process, timeout: 30)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == status)
        let stderr = String(decoding: try Data(contentsOf: logs.appendingPathComponent("stderr")), as: UTF8.self)
        #expect(stderr == "citrine: interrupted; nothing written\n")
        #expect(TemporaryFolder.entries(folder).isEmpty)
    }
}
