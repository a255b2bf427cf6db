import CitrineCommands
import Foundation

/// The command line as a user types it, run in the probe's process (`CitrineCommandLine.run`):
/// options refused before anything is made, and PNG sequences written all or nothing. The CLI
/// tests (FailureTests) run the same commands through the `citrine` binary.
extension BadInputCase {
    static let commandLineCases: [BadInputCase] = [
        BadInputCase("gallery-options-refused-before-its-folder-is-made", area: "files",
                     expected: "refused --fps 0.001 and --scale 1e-300, no folder made") {
            try inTemporaryFolder { folder in
                let site = folder + "/site"
                let fps = CitrineCommandLine.run(["gallery", "-o", site, "--fps", "0.001", "-q"])
                let scale = CitrineCommandLine.run(["gallery", "-o", site, "--scale", "1e-300", "-q"])
                let made = FileManager.default.fileExists(atPath: site)
                guard let fps, fps.message.hasPrefix("bad --fps '0.001'"), let scale, scale.message.hasPrefix("bad --scale '1e-300'")
                else { return "ran: \(fps?.message ?? "no error"); \(scale?.message ?? "no error")" }
                return made ? "refused, but \(site) was made" : "refused --fps 0.001 and --scale 1e-300, no folder made"
            }
        },
        BadInputCase("scale-1e-300-named-as-too-small", area: "numbers",
                     expected: "bad --scale '1e-300': the frame would be 0x0 pixels: expected a size of at least 1 pixel a side") {
            try inTemporaryFolder { folder in
                CitrineCommandLine.run(["render", "volume-bars", "--scale", "1e-300", "-o", folder + "/x.gif", "-q"])?.message ?? "rendered"
            }
        },
        BadInputCase("png-sequence-over-an-existing-middle-frame-writes-nothing", area: "files",
                     expected: "refused (frames/0003.png: exists already), the folder holds only 0003.png") {
            try inTemporaryFolder { folder in
                let frames = folder + "/frames"
                try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
                try Data("keep".utf8).write(to: URL(fileURLWithPath: frames + "/0003.png"))
                let outcome = CitrineCommandLine.run(["render", "volume-bars", "-o", frames + "/%04d.png", "--frames", "6",
                                                      "--scale", "1", "-q"])
                let left = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
                guard let outcome else { return "rendered; the folder holds \(left)" }
                let said = outcome.message.contains("frames/0003.png: exists already") ? "frames/0003.png: exists already" : outcome.message
                return "refused (\(said)), the folder holds " + (left == ["0003.png"] ? "only 0003.png" : "\(left)")
            }
        },
    ]

    /// `body` given a new temporary folder, removed afterwards.
    static func inTemporaryFolder(_ body: (String) throws -> String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-command-line-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try body(folder)
    }
}
