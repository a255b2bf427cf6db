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

    /// Writes `bytes` to `path` atomically (`OutputFile`): a temporary file in the same folder,
    /// flushed to disk, then renamed over `path`. On error `path` is untouched.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ImageCodecError) {
        try OutputFile.write(bytes, to: path)
    }

    private static func systemError(_ path: String, _ what: String) -> ImageCodecError {
        let text = String(cString: strerror(errno))
        return ImageCodecError(file: path, reason: .fileSystem("\(what): \(text)"))
    }
}
