import Foundation

/// Executables of this package that a test runs as a child process: they sit in the build
/// products folder beside the test bundle, found by walking up from the test process's executable.
public enum BuiltExecutable {
    public struct NotFound: Error, CustomStringConvertible {
        public var description: String
    }

    /// The built executable called `name`.
    public static func named(_ name: String) throws -> URL {
        let start = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        var folder = start.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
            folder = folder.deletingLastPathComponent()
        }
        throw NotFound(description: "no \(name) executable found above \(start.path)")
    }
}
