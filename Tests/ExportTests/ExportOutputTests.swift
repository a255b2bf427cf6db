import Export
import Foundation
import ImageCodecs
import QuartzCore
import Raster
import Testing

/// Exports to files: the formats by extension, atomic output (nothing partial is ever left),
/// refusal to overwrite, stale temporaries removed, and the ffmpeg formats checked by ffprobe.
@Suite(.serialized) struct ExportOutputTests {
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("citrine-export-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func entries(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    static func exporter(scale: CGFloat = 1) -> CAAnimationExporter {
        CAAnimationExporter(size: ExporterFramesTests.size, scale: scale, makeLayer: ExporterFramesTests.movingSquare)
    }

    @Test func formatsComeFromTheExtension() {
        #expect(ExportFormat.inferred(from: "a/b.gif") == .gif)
        #expect(ExportFormat.inferred(from: "b.APNG") == .apng)
        #expect(ExportFormat.inferred(from: "still.png") == .png)
        #expect(ExportFormat.inferred(from: "frames/%04d.png") == .pngSequence)
        #expect(ExportFormat.inferred(from: "x.mp4") == .mp4)
        #expect(ExportFormat.inferred(from: "x.mov") == .mov)
        #expect(ExportFormat.inferred(from: "x.webm") == .webm)
        #expect(ExportFormat.inferred(from: "x.bmp") == nil)
        #expect(FramePattern("f/%04d.png")?.path(ofFrame: 7) == "f/0007.png")
        #expect(FramePattern("f/%d-%%.png")?.path(ofFrame: 12) == "f/12-%.png")
        #expect(FramePattern("f/%d-%d.png") == nil)
    }

    @Test func stillIsOnePNGOfTheFrameAtItsTime() throws {
        let dir = try Self.folder()
        try Self.exporter(scale: 2).export(to: .file(dir + "/still.png"), timeline: .still(at: 0.5))
        let png = try PNGCodec.decode(contentsOf: dir + "/still.png")
        #expect(png.width == 320 && png.height == 80)
        // At t = 0.5 the square's left edge is at 10 + 50 = 60 points = 120 pixels.
        #expect(png.pixel(x: 120, y: 40).a == 255 && png.pixel(x: 119, y: 40).a == 0)
        #expect(Self.entries(dir) == ["still.png"])
    }

    @Test func sequenceWritesNumberedFilesAndNothingElse() throws {
        let dir = try Self.folder()
        try Self.exporter().export(to: .file(dir + "/f%03d.png"), timeline: ExportTimeline(duration: 0.5, fps: 10))
        #expect(Self.entries(dir) == ["f000.png", "f001.png", "f002.png", "f003.png", "f004.png"])
        let last = try PNGCodec.decode(contentsOf: dir + "/f004.png")
        #expect(last.pixel(x: 50, y: 20).a == 255 && last.pixel(x: 49, y: 20).a == 0)
    }

    @Test func cancelledExportsLeaveNothing() throws {
        let dir = try Self.folder()
        for name in ["seq%04d.png", "anim.gif", "anim.apng"] {
            let exporter = Self.exporter()
            var frames = 0
            #expect(throws: ExportError.cancelled) {
                try exporter.export(to: .file(dir + "/" + name), timeline: ExportTimeline(duration: 10, fps: 30)) { _ in
                    frames += 1
                    if frames == 10 { exporter.cancel() }
                }
            }
        }
        #expect(Self.entries(dir) == [])
    }

    @Test func refusesToOverwriteUnlessAsked() throws {
        let dir = try Self.folder()
        let path = dir + "/out.png"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path))
        var options = ExportOptions()
        options.overwrite = false
        #expect(throws: ExportError.self) { try Self.exporter().export(to: .file(path), timeline: .still(at: 0), options: options) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("keep".utf8))
        try Self.exporter().export(to: .file(path), timeline: .still(at: 0))
        #expect(try PNGCodec.decode(contentsOf: path).width == 160)
    }

    @Test func badDestinationsAreRefusedBeforeDrawing() throws {
        let dir = try Self.folder()
        let timeline = try ExportTimeline(duration: 1, fps: 10)
        let exporter = Self.exporter()
        var drawn = 0
        for destination in [ExportDestination.file(dir + "/x.bmp"), .file(dir + "/no/such/folder/x.gif"),
                            .file(dir + "/many.png"), .standardOutput] {
            #expect(throws: ExportError.self) { try exporter.export(to: destination, timeline: timeline) { _ in drawn += 1 } }
        }
        #expect(throws: ExportError.self) { try exporter.export(to: .standardOutput, format: .pngSequence, timeline: timeline) }
        #expect(drawn == 0)
        #expect(Self.entries(dir) == [])
    }

    @Test func aMissingToolIsNamed() throws {
        var options = ExportOptions()
        options.ffmpeg = "/nonexistent/ffmpeg"
        let dir = try Self.folder()
        #expect(throws: ExportError.missingTool("/nonexistent/ffmpeg", "MP4")) {
            try Self.exporter().export(to: .file(dir + "/v.mp4"), timeline: ExportTimeline(duration: 1, fps: 10), options: options)
        }
        #expect(Self.entries(dir) == [])
    }

    /// A temporary file left by a process that no longer runs is removed by the next export to
    /// the same folder; one of a running process (ours) is not.
    @Test func staleTemporariesOfKilledRunsAreRemoved() throws {
        let dir = try Self.folder()
        let dead = try Self.pidOfAnEndedProcess()
        for name in [".old.gif.citrine-\(dead).AbCdEf", ".live.gif.citrine-\(getpid()).AbCdEf"] {
            try Data([1]).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        try FileManager.default.createDirectory(atPath: dir + "/.citrine-\(dead).XyZxYz", withIntermediateDirectories: false)
        try Data([1]).write(to: URL(fileURLWithPath: dir + "/.citrine-\(dead).XyZxYz/0.png"))
        try Self.exporter().export(to: .file(dir + "/new.png"), timeline: .still(at: 0))
        #expect(Self.entries(dir) == [".live.gif.citrine-\(getpid()).AbCdEf", "new.png"])
    }

    /// A PID that runs again (reused) does not keep a leftover: a temporary named for a running
    /// process is kept while it was changed after that process started, and removed when it
    /// is older than the process by more than the second of margin.
    @Test func temporariesOlderThanTheirRunningOwnerAreRemoved() throws {
        let dir = try Self.folder()
        let owner = Process()
        owner.executableURL = URL(fileURLWithPath: "/bin/sleep")
        owner.arguments = ["60"]
        try owner.run()
        defer { kill(owner.processIdentifier, SIGKILL); owner.waitUntilExit() }
        let pid = owner.processIdentifier
        let fresh = ".fresh.gif.citrine-\(pid).AbCdEf", older = ".older.gif.citrine-\(pid).AbCdEf"
        for name in [fresh, older] { try Data([1]).write(to: URL(fileURLWithPath: dir + "/" + name)) }
        let hourBeforeTheOwner = Date(timeIntervalSinceNow: -3_600)
        try FileManager.default.setAttributes([.modificationDate: hourBeforeTheOwner], ofItemAtPath: dir + "/" + older)
        try Self.exporter().export(to: .file(dir + "/new.png"), timeline: .still(at: 0))
        #expect(Self.entries(dir) == [fresh, "new.png"])
    }

    static func pidOfAnEndedProcess() throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        p.waitUntilExit()
        return p.processIdentifier
    }

    static var ffmpegInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe") }

    /// ffprobe's view of a video: codec, pixel format, size, frame count.
    static func probe(_ path: String) throws -> [String: String] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        p.arguments = ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                       "stream=codec_name,pix_fmt,width,height,nb_read_frames,r_frame_rate", "-of", "default=noprint_wrappers=1", path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return Dictionary(text.split(separator: "\n").compactMap { line in
            line.split(separator: "=", maxSplits: 1).count == 2 ? (String(line.split(separator: "=")[0]), String(line.split(separator: "=", maxSplits: 1)[1])) : nil
        }, uniquingKeysWith: { a, _ in a })
    }

    /// The video formats as the issue specifies them (H.264 yuv420p with even sides, ProRes 4444
    /// with alpha, VP9 with alpha), checked by ffprobe. VP9's alpha travels as side data that
    /// ffprobe reports through the `alpha_mode` tag; its pixel format reads yuv420p.
    @Test(.enabled(if: ffmpegInstalled), arguments: [("v.mp4", "h264", "yuv420p"), ("v.mov", "prores", "yuva444p12le"), ("v.webm", "vp9", "yuv420p")])
    func videoFormatsThroughFFmpeg(_ name: String, _ codec: String, _ pixelFormat: String) throws {
        let dir = try Self.folder()
        let exporter = CAAnimationExporter(size: CGSize(width: 81, height: 41), makeLayer: ExporterFramesTests.movingSquare)
        try exporter.export(to: .file(dir + "/" + name), timeline: ExportTimeline(duration: 1, fps: 12))
        let info = try Self.probe(dir + "/" + name)
        #expect(info["codec_name"] == codec)
        #expect(info["nb_read_frames"] == "12")
        #expect(info["r_frame_rate"] == "12/1")
        #expect(info["width"] == (name.hasSuffix("mp4") ? "82" : "81"))
        #expect(info["pix_fmt"] == pixelFormat)
        #expect(Self.entries(dir) == [name])
    }
}
