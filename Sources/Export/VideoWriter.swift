import Foundation
import ImageCodecs
import Raster

/// MP4, MOV or WebM through an external `ffmpeg`, fed raw straight-alpha RGBA frames on a pipe.
///
/// * MP4: H.264 (libx264, CRF 18), yuv420p, opaque; an odd width or height is padded to even
///   with one black column or row (yuv420p subsamples chroma 2×2); `+faststart`.
/// * MOV: ProRes 4444 (prores_ks) with alpha, yuva444p10le.
/// * WebM: VP9 (libvpx-vp9, CRF 30, constant quality) with alpha, yuva420p.
///
/// ffmpeg writes to a hidden temporary file beside the destination (an `OutputFile`), which is
/// renamed into place once ffmpeg has succeeded; on standard output the containers are written
/// in their streamable form (fragmented MP4/MOV).
package final class VideoWriter: FrameWriter {
    private let process = Process()
    private let input = Pipe()
    private let errors = ErrorLog()
    private let output: OutputFile?
    private let format: ExportFormat
    private let tool: String
    private var row: [UInt8]
    private let keepsAlpha: Bool

    init(_ destination: ExportDestination, format: ExportFormat, width: Int, height: Int, rate: FrameRate,
         options: ExportOptions) throws {
        self.format = format
        guard let executable = Self.locate(options.ffmpeg) else {
            throw ExportError.missingTool(options.ffmpeg, format.rawValue.uppercased())
        }
        tool = options.ffmpeg
        keepsAlpha = format.keepsAlpha
        row = [UInt8](repeating: 0, count: width * 4)
        let target: String
        switch destination {
        case let .file(path):
            let file = try OutputFile(path: path, overwrite: options.overwrite)
            output = file
            target = file.temporaryPath
        case .standardOutput:
            output = nil
            target = "pipe:1"
        }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y",
                             "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)",
                             "-framerate", "\(rate.frames)/\(rate.seconds)", "-i", "pipe:0"]
            + Self.codecArguments(format, streaming: output == nil) + [target]
        process.standardInput = input
        process.standardOutput = output == nil ? FileHandle.standardOutput : FileHandle.nullDevice
        let stderr = Pipe()
        process.standardError = stderr
        let log = errors
        stderr.fileHandleForReading.readabilityHandler = { handle in log.append(handle.availableData) }
        // A dead ffmpeg must give a write error, not kill us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        do { try process.run() } catch {
            output?.discard()
            throw ExportError.toolFailed(tool, "cannot start \(executable): \(error)")
        }
        // A 1 MiB pipe (Linux's default pipe-max-size) instead of 64 KiB: a 1080p frame is 8 MB,
        // and each filled pipe is a switch to ffmpeg and back. fcntl(2) F_SETPIPE_SZ, which is
        // F_LINUX_SPECIFIC_BASE (1024) + 7 in linux/fcntl.h (Swift's Glibc leaves it out). Best effort.
        _ = fcntl(input.fileHandleForWriting.fileDescriptor, 1024 + 7, Int32(1 << 20))
    }

    deinit { abandon() }

    static func codecArguments(_ format: ExportFormat, streaming: Bool) -> [String] {
        switch format {
        case .mp4:
            ["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-preset", "medium", "-crf", "18",
             "-pix_fmt", "yuv420p", "-movflags", streaming ? "frag_keyframe+empty_moov" : "+faststart", "-f", "mp4"]
        case .mov:
            ["-c:v", "prores_ks", "-profile:v", "4444", "-pix_fmt", "yuva444p10le"]
                + (streaming ? ["-movflags", "frag_keyframe+empty_moov"] : []) + ["-f", "mov"]
        default:
            ["-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-crf", "30", "-b:v", "0", "-row-mt", "1", "-f", "webm"]
        }
    }

    /// `name` if it is a path to an executable, else its first match in `PATH`.
    package static func locate(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Feeds the frame to ffmpeg (in order; ffmpeg's own threads do the encoding): an opaque
    /// format's rows, when they are contiguous, in one write straight from the frame.
    func write(_ frame: Pixmap, index: Int, slot: Int) throws {
        let handle = input.fileHandleForWriting
        if !keepsAlpha, frame.bytesPerRow == frame.width * 4 {
            try write(UnsafeRawBufferPointer(start: frame.pixels, count: frame.bytesPerRow * frame.height), to: handle.fileDescriptor)
            return
        }
        for y in 0..<frame.height {
            let source = frame.pixels + y * frame.bytesPerRow
            try row.withUnsafeMutableBufferPointer { out in
                if keepsAlpha {
                    StraightAlpha.convert(source, into: out.baseAddress!, pixels: frame.width)
                } else {
                    out.baseAddress!.update(from: source, count: frame.bytesPerRow)
                }
                try write(UnsafeRawBufferPointer(out), to: handle.fileDescriptor)
            }
        }
    }

    private func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) throws {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                process.waitUntilExit()
                throw ExportError.toolFailed(tool, errors.text.isEmpty ? "it stopped reading frames" : errors.text)
            }
            done += n
        }
    }

    func finish() throws {
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            output?.discard()
            throw ExportError.toolFailed(tool, "exit status \(process.terminationStatus): \(errors.text)")
        }
        try output?.commit()
    }

    /// Stops ffmpeg and removes its output. ffmpeg is killed outright (its output is thrown
    /// away): it catches SIGTERM and may sit waiting for more input, and it may have inherited
    /// an ignored SIGTERM from a command that handles the signal itself.
    func abandon() {
        try? input.fileHandleForWriting.close()
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        output?.discard()
    }

    /// ffmpeg's error output, kept for the message.
    final class ErrorLog: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ chunk: Data) {
            lock.lock(); defer { lock.unlock() }
            if data.count < 65_536 { data.append(chunk) }
        }
        var text: String {
            lock.lock(); defer { lock.unlock() }
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
