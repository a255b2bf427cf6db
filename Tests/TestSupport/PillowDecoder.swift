import Foundation

/// An independent decoder for the tests: Pillow (PyPI), run in a child process. It decodes a
/// GIF, APNG or PNG file into its displayed frames — each composited as a viewer shows it
/// (disposal and blending applied), as straight-alpha RGBA8 — with each frame's duration and
/// the file's loop count.
///
/// Python is `$CITRINE_PYTHON` when set, else `.build/pillow-venv/bin/python` under the package
/// root, which `scripts/test` creates (`python3 -m venv`, `pip install pillow`).
public enum PillowDecoder {
    public struct Frame {
        public var width: Int
        public var height: Int
        /// Straight-alpha RGBA8, row-major.
        public var rgba: [UInt8]
        /// Milliseconds, as Pillow reports `info["duration"]` (may be fractional for APNG).
        public var duration: Double
    }

    public struct Decoded {
        public var format: String
        public var frames: [Frame]
        /// `info["loop"]` (0 = forever), nil when the file has none.
        public var loop: Int?
    }

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    public static var python: String {
        if let given = ProcessInfo.processInfo.environment["CITRINE_PYTHON"] { return given }
        return packageRoot + "/.build/pillow-venv/bin/python"
    }

    /// The package root: this file is `<root>/Tests/TestSupport/PillowDecoder.swift`.
    public static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    private static let script = #"""
import sys, json
from PIL import Image, ImageSequence
im = Image.open(sys.argv[1])
out = open(sys.argv[2], "wb")
frames = []
for frame in ImageSequence.Iterator(im):
    rgba = frame.convert("RGBA")
    out.write(rgba.tobytes())
    frames.append({"w": rgba.width, "h": rgba.height, "duration": float(frame.info.get("duration", 0) or 0)})
loop = im.info.get("loop")
print(json.dumps({"format": im.format, "frames": frames, "loop": loop}))
"""#

    /// Decodes the file at `path`.
    public static func decode(_ path: String) throws -> Decoded {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Failure(description: "no Python with Pillow at \(python): run ./scripts/test, or set CITRINE_PYTHON")
        }
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("pillow-\(UUID().uuidString).rgba").path
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let (status, json, errors) = try run(python, ["-c", script, path, raw])
        guard status == 0 else {
            throw Failure(description: "Pillow could not decode \(path): \(String(decoding: errors, as: UTF8.self))")
        }
        guard let info = try JSONSerialization.jsonObject(with: json) as? [String: Any],
              let frameInfo = info["frames"] as? [[String: Any]] else {
            throw Failure(description: "unexpected output from Pillow: \(String(decoding: json, as: UTF8.self))")
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        var frames: [Frame] = []
        var offset = 0
        for f in frameInfo {
            let w = f["w"] as? Int ?? 0, h = f["h"] as? Int ?? 0
            let count = w * h * 4
            guard offset + count <= bytes.count else { throw Failure(description: "Pillow's frames are short") }
            frames.append(Frame(width: w, height: h, rgba: Array(bytes[offset..<offset + count]),
                                duration: f["duration"] as? Double ?? 0))
            offset += count
        }
        return Decoded(format: info["format"] as? String ?? "", frames: frames, loop: info["loop"] as? Int)
    }

    /// Runs `executable` with `arguments`: its exit status, standard output and standard error.
    public static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output, errors)
    }
}
