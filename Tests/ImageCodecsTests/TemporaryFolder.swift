#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Scratch folders and raw file helpers for the tests (plain libc, independent of ImageCodecs).
enum TemporaryFolder {
    struct Failure: Error { var what: String }

    /// A new empty folder under /tmp.
    static func make() throws -> String {
        var template = Array("/tmp/citrine-codecs-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(what: "mkdtemp")
        }
        return String(cString: made)
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        guard let file = fopen(path, "wb") else { throw Failure(what: "fopen \(path)") }
        defer { fclose(file) }
        guard bytes.withUnsafeBytes({ fwrite($0.baseAddress, 1, bytes.count, file) }) == bytes.count else {
            throw Failure(what: "fwrite \(path)")
        }
    }

    static func read(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw Failure(what: "fopen \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, 65_536, file) }
            if n == 0 { break }
            bytes += buffer[0..<n]
        }
        return bytes
    }

    /// Names in `folder` (without "." and "..").
    static func entries(_ folder: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
