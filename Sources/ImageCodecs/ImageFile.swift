#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Raster

/// Whole-file reads and atomic whole-file writes, with errors that name the file.
enum ImageFile {
    /// Largest file read (bytes): no valid image within Raster's limits needs more.
    static let maxFileSize = Pixmap.maxPixelCount * 4

    /// The bytes of the file at `path`.
    static func contents(of path: String) throws(ImageCodecError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw systemError(path, "cannot open") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw systemError(path, "cannot stat") }
        let size = Int(info.st_size)
        guard size <= maxFileSize else {
            throw ImageCodecError(file: path, reason: .fileSystem("file of \(size) bytes exceeds the limit of \(maxFileSize)"))
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, size - done) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw systemError(path, "cannot read") }
            if n == 0 { break }  // the file shrank while reading
            done += n
        }
        if done < size { bytes.removeLast(size - done) }
        return bytes
    }

    /// Writes `bytes` to `path` atomically: a temporary file in the same folder, flushed to disk,
    /// then renamed over `path`. On error the temporary file is removed and `path` is untouched.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ImageCodecError) {
        var template = Array((temporaryPrefix(for: path) + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw systemError(path, "cannot create a temporary file next to it") }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var closed = false
        do throws(ImageCodecError) {
            try writeAll(bytes, to: fd, path: path)
            guard fchmod(fd, 0o644) == 0, fsync(fd) == 0 else { throw systemError(path, "cannot flush") }
            closed = true
            guard close(fd) == 0 else { throw systemError(path, "cannot close") }
        } catch {
            if !closed { close(fd) }
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let failure = systemError(path, "cannot rename the temporary file over it")
            unlink(temporary)
            throw failure
        }
    }

    /// `folder/.name.` — hidden, in the destination's folder so that `rename` stays atomic.
    private static func temporaryPrefix(for path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return ".\(path)." }
        let folder = path[...slash]
        let name = path[path.index(after: slash)...]
        return "\(folder).\(name)."
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(ImageCodecError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw systemError(path, "cannot write") }
            done += n
        }
    }

    private static func systemError(_ path: String, _ what: String) -> ImageCodecError {
        let text = String(cString: strerror(errno))
        return ImageCodecError(file: path, reason: .fileSystem("\(what): \(text)"))
    }
}
