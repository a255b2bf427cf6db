import Foundation
import Testing

/// ffprobe, when ffmpeg and ffprobe are installed.
let ffprobe: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    func find(_ name: String) -> String? {
        path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
    return find("ffmpeg") == nil ? nil : find("ffprobe")
}()

/// MP4, MOV and WebM through ffmpeg, checked with ffprobe. Skipped where ffmpeg is not installed.
@Suite(.enabled(if: ffprobe != nil, "ffmpeg/ffprobe not installed"))
struct VideoTests {

    /// ffprobe's fields of the first video stream, frames counted by decoding.
    static func probe(_ file: URL) throws -> [String: String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffprobe!)
        process.arguments = ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                             "stream=codec_name,profile,width,height,pix_fmt,nb_read_frames:stream_tags=alpha_mode",
                             "-of", "default=noprint_wrappers=1", file.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0].replacingOccurrences(of: "TAG:", with: "")] = parts[1] }
        }
        return fields
    }

    @Test func mp4IsH264WithEvenSize() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 161 px wide: 161/160 of 160×180 is 161×181 (181 = 180·161/160 rounded), padded to even.
        let run = try Citrine.run(["render", "volume-bars", "-o", "bars.mp4", "--width", "161"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let fields = try Self.probe(folder.appendingPathComponent("bars.mp4"))
        #expect(fields["codec_name"] == "h264")
        #expect(fields["pix_fmt"] == "yuv420p")
        #expect(fields["width"] == "162")
        #expect(fields["height"] == "182")
        #expect(fields["nb_read_frames"] == "30")               // 1 s · 30 fps
        #expect(TemporaryFolder.entries(folder) == ["bars.mp4"])
    }

    @Test func movIsProRes4444WithAlpha() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "volume-bars", "-o", "bars.mov", "--scale", "1", "--fps", "20"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let fields = try Self.probe(folder.appendingPathComponent("bars.mov"))
        #expect(fields["codec_name"] == "prores")
        #expect(fields["profile"] == "4444")
        #expect(fields["pix_fmt"] == "yuva444p12le" || fields["pix_fmt"] == "yuva444p10le")
        #expect(fields["width"] == "160")
        #expect(fields["height"] == "180")
        #expect(fields["nb_read_frames"] == "20")               // 1 s · 20 fps
    }

    @Test func webmIsVP9WithAlpha() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Citrine.run(["render", "volume-bars", "-o", "bars.webm", "--scale", "1", "--frames", "6"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let fields = try Self.probe(folder.appendingPathComponent("bars.webm"))
        #expect(fields["codec_name"] == "vp9")
        #expect(fields["alpha_mode"] == "1")
        #expect(fields["width"] == "160")
        #expect(fields["nb_read_frames"] == "6")
    }
}
