import Foundation
import TestSupport
import Testing

/// The built `citrine` executable, run as a user runs it: arguments, environment, a working
/// folder; its exit status, standard output and standard error come back.
enum Citrine {
    struct Run {
        var status: Int32
        /// Killed by a signal (then `status` is the signal's number).
        var signalled: Bool
        var stdout: Data
        var stderr: String
        var output: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// The executable: next to the test bundle, in the build products folder.
    static let executable: URL = {
        do { return try BuiltExecutable.named("citrine") } catch { fatalError("\(error)") }
    }()

    /// The environment the tests run it in: ours, with an 80-column help text, no colour, and
    /// `changes` applied (nil removes a variable).
    static func environment(_ changes: [String: String?] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["COLUMNS"] = "80"
        env["NO_COLOR"] = "1"
        for (key, value) in changes { env[key] = value }
        return env
    }

    /// Starts `citrine arguments…` in `folder` without waiting; standard output and error go to
    /// files in `logs`.
    static func start(_ arguments: [String], in folder: URL, logs: URL, environment: [String: String]? = nil) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = environment ?? self.environment()
        for name in ["stdout", "stderr"] {
            _ = FileManager.default.createFile(atPath: logs.appendingPathComponent(name).path, contents: nil)
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: logs.appendingPathComponent("stdout"))
        process.standardError = try FileHandle(forWritingTo: logs.appendingPathComponent("stderr"))
        try process.run()
        return process
    }

    /// Runs `citrine arguments…` in `folder` (default: a new empty folder, removed afterwards)
    /// and waits, at most `timeout` seconds.
    @discardableResult
    static func run(_ arguments: [String], in folder: URL? = nil, environment: [String: String]? = nil,
                    timeout: Double = 120) throws -> Run {
        let scratch = folder == nil ? try TemporaryFolder.make() : nil
        let folder = folder ?? scratch!
        let logs = try TemporaryFolder.make()
        defer {
            try? FileManager.default.removeItem(at: logs)
            if let scratch { try? FileManager.default.removeItem(at: scratch) }
        }
        let process = try start(arguments, in: folder, logs: logs, environment: environment)
        try wait(process, timeout: timeout)
        return Run(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                   stdout: try Data(contentsOf: logs.appendingPathComponent("stdout")),
                   stderr: String(decoding: try Data(contentsOf: logs.appendingPathComponent("stderr")), as: UTF8.self))
    }

    struct Timeout: Error, CustomStringConvertible { var description: String }

    /// Waits for `process` to end; kills it after `timeout` seconds.
    static func wait(_ process: Process, timeout: Double) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw Timeout(description: "citrine \(process.arguments ?? []) still running after \(timeout) s")
            }
            usleep(10_000)
        }
        process.waitUntilExit()
    }
}

/// A fresh folder under the system's temporary folder.
enum TemporaryFolder {
    static func make() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The names in `folder`, hidden ones included, sorted.
    static func entries(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }
}
