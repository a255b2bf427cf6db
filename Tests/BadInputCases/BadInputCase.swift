// The bad-input cases: values, trees and files a caller can hand Citrine that once
// trapped, crashed, hung or exhausted memory. Each case is a function run in its own child process
// (`citrine-bad-input NAME`, Tests/BadInputProbe) under a time and address-space limit, so a trap
// fails one test (ReliabilityTests) instead of killing the test run. A case returns its outcome as
// one line — "drew …", "refused: <the error>", or a value — and the test checks that the line
// starts with the case's `expected` text. RELIABILITY.md lists the cases and the limits they hit.
import Foundation

/// One bad input and what Citrine must do with it.
public struct BadInputCase: Sendable {
    /// Unique kebab-case name (the probe's argument).
    public let name: String
    /// The class of defect: numbers, cycles, depth, memory, files.
    public let area: String
    /// The start of the outcome line the case must produce ("drew", "refused:", a value).
    public let expected: String
    /// Time limit for the child process, in seconds (a debug build; generous on a shared machine).
    public let seconds: Int
    /// Runs the case; a thrown error is reported as "refused: <error>".
    public let run: @Sendable () throws -> String

    public init(_ name: String, area: String, expected: String, seconds: Int = 60,
                run: @escaping @Sendable () throws -> String) {
        self.name = name
        self.area = area
        self.expected = expected
        self.seconds = seconds
        self.run = run
    }

    /// Every case, in the order of the classes.
    public static let all: [BadInputCase] = numberCases + filterCases + cycleCases + depthCases + viewCases + surfaceCases + costCases + hugeTextCases + fileCases
        + lenientDecodingCases + fuzzCases + outputCases + commandLineCases

    /// Cases that must kill the probe — a trap, a hang, an allocation past its memory limit — so
    /// the suite can check that a failing case is caught and reported, not missed.
    public static let probeSelfChecks: [BadInputCase] = [
        BadInputCase("probe-check-trap", area: "probe", expected: "", seconds: 30) {
            let values = [Double.nan]
            return "\(Int(values[0]))"
        },
        BadInputCase("probe-check-hang", area: "probe", expected: "", seconds: 1) {
            while true { Thread.sleep(forTimeInterval: 1) }
        },
        BadInputCase("probe-check-memory", area: "probe", expected: "", seconds: 30) {
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: 16 << 30, alignment: 64)
            bytes.initializeMemory(as: UInt8.self, repeating: 1, count: 16 << 30)
            return "allocated \(bytes.load(as: UInt8.self))"
        },
    ]

    /// The case called `name`.
    public static func named(_ name: String) -> BadInputCase? {
        all.first { $0.name == name } ?? probeSelfChecks.first { $0.name == name }
            ?? scaleMeasurements.first { $0.name == name }
    }

    /// The outcome line of `body`: its result, or "refused: <error>" when it throws.
    public func outcome() -> String {
        do { return try run() } catch { return "refused: \(error)" }
    }
}
