import BadInputCases
import Foundation
import TestSupport
import Testing

/// The bad-input suite: every case of `BadInputCase.all` runs in its own child process
/// (`citrine-bad-input NAME`) limited to 3 GiB of address space and the case's time, so a trap,
/// an overflowed stack, a hang or a runaway allocation fails that case alone. Each must exit
/// normally and print an outcome starting with the case's expected text.
@Suite struct BadInputTests {
    @Test(arguments: BadInputCase.all.map(\.name))
    func caseEndsWithItsExpectedOutcome(_ name: String) throws {
        let badCase = try #require(BadInputCase.named(name))
        let run = try Probe.run(name, seconds: badCase.seconds)
        #expect(!run.signalled, "\(name): killed by signal \(run.status)\(run.status == SIGALRM ? " (over its \(badCase.seconds) s limit)" : "")\n\(run.stderr.suffix(2000))")
        #expect(run.status == 0 || run.signalled, "\(name): exit status \(run.status)\n\(run.stderr.suffix(2000))")
        #expect(run.output.hasPrefix(badCase.expected), "\(name): outcome \"\(run.output.prefix(300))\", expected \"\(badCase.expected)…\"")
    }

    /// The harness itself: a case that traps, one that hangs past its time limit and one that
    /// allocates past the memory limit each end the probe by a signal, which the suite sees.
    @Test(arguments: BadInputCase.probeSelfChecks.map(\.name))
    func probeReportsAFailingCase(_ name: String) throws {
        let run = try Probe.run(name, seconds: try #require(BadInputCase.named(name)).seconds)
        #expect(run.signalled, "\(name): exit status \(run.status), output \(run.output.prefix(200))")
    }

    @Test func probeListsEveryCaseOnce() throws {
        let names = BadInputCase.all.map(\.name)
        #expect(Set(names).count == names.count)
        let run = try Probe.run("--list", seconds: 30)
        #expect(run.output.split(separator: "\n").map(String.init) == names)
    }
}

/// The probe executable run once.
enum Probe {
    struct Run {
        var status: Int32
        var signalled: Bool
        var output: String
        var stderr: String
    }

    /// Runs the probe with `argument`; it is terminated if it outlives its own time limit
    /// (`seconds`) by 30 s.
    static func run(_ argument: String, seconds: Int) throws -> Run {
        let process = Process()
        process.executableURL = try BuiltExecutable.named("citrine-bad-input")
        process.arguments = [argument]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"   // a trap ends the child at once
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds + 30), execute: deadline)
        defer { deadline.cancel() }
        // Read both pipes before waiting, so a chatty child never blocks on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                   output: String(decoding: outData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                   stderr: String(decoding: errData, as: UTF8.self))
    }
}
