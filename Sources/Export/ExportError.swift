import ImageCodecs

/// Why an export could not be done. Every case names what was wrong and where.
public enum ExportError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A value given to the exporter is out of range: (what, the value, what is accepted).
    case badValue(String, String, String)
    /// The output path or format cannot be used: (path, why).
    case badOutput(String, String)
    /// An external program the format needs is not installed: (program, format).
    case missingTool(String, String)
    /// The external encoder failed: (program, its last words).
    case toolFailed(String, String)
    /// Reading or writing a file failed.
    case codec(ImageCodecError)
    /// `cancel()` was called or the task was cancelled; nothing was written.
    case cancelled

    public var description: String {
        switch self {
        case let .badValue(what, value, accepted): "bad \(what) '\(value)': expected \(accepted)"
        case let .badOutput(path, why): "\(path): \(why)"
        case let .missingTool(tool, format):
            "\(format) export needs '\(tool)', which is not installed (on Debian/Ubuntu: apt-get install \(tool))"
        case let .toolFailed(tool, output): "\(tool) failed: \(output)"
        case let .codec(error): error.description
        case .cancelled: "export cancelled; no output written"
        }
    }
}
