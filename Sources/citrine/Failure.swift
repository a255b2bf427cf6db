import Export

/// Why `citrine` stops, with the exit status that tells scripts which kind of problem it was.
///
/// | status | meaning |
/// |---|---|
/// | 0 | done |
/// | 1 | bad input: a value out of range, an unknown demo, an output that cannot be written |
/// | 2 | usage: an unknown option, a missing value, options that cannot go together |
/// | 3 | an external program the format needs (ffmpeg) is not installed |
/// | 130, 143 | interrupted by SIGINT (Ctrl-C) or SIGTERM; nothing was written |
struct Failure: Error, CustomStringConvertible {
    enum Kind: Int32 {
        case badInput = 1
        case usage = 2
        case missingTool = 3
    }

    let kind: Kind
    let description: String
    /// A line printed after the message, e.g. where to read the usage.
    var hint: String?

    init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind
        description = message
        self.hint = hint
    }

    /// `bad --fps 'abc': expected …` (status 1).
    static func badValue(_ option: String, _ value: String, expected: String) -> Failure {
        Failure(.badInput, "bad \(option) '\(value)': expected \(expected)")
    }

    /// Options that cannot be used together, or one missing for another (status 2).
    static func usage(_ message: String, command: String) -> Failure {
        Failure(.usage, message, hint: "See 'citrine \(command) --help'.")
    }

    /// Runs `body`, reporting an export error (or any other) as a failure of bad input.
    static func catching<T>(_ body: () throws -> T) throws(Failure) -> T {
        do {
            return try body()
        } catch let error as ExportError {
            throw .export(error)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(.badInput, "\(error)")
        }
    }

    /// An export error as the command reports it.
    static func export(_ error: ExportError) -> Failure {
        switch error {
        case .missingTool: Failure(.missingTool, error.description)
        default: Failure(.badInput, error.description)
        }
    }
}
