#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A file written atomically, in a stream: the bytes go to a hidden temporary file in the
/// destination's folder (`.NAME.citrine-PID.XXXXXX`), and only `commit()` — after flushing to
/// disk — renames it over the destination. `discard()`, or dropping the object uncommitted,
/// removes the temporary file, so an interrupted or failed write never leaves a partial file at
/// the destination and never damages what was there.
///
/// A process killed mid-write cannot remove its temporary file; the next `OutputFile` opened
/// in the same folder removes such leftovers: temporary files of this naming whose process
/// (the PID in the name) no longer runs, or whose PID now belongs to a process that started
/// after the file was last changed (the PID was reused; see `isStale(_:owner:)`).
public final class OutputFile: ByteSink {
    /// The destination.
    public let path: String
    /// The temporary file being written.
    public let temporaryPath: String
    private var fd: Int32
    private var committed = false

    /// Opens a temporary file next to `path`. With `overwrite` false, an existing `path` is an
    /// error here, before anything is written (it is checked again at `commit()`).
    public init(path: String, overwrite: Bool = true) throws(ImageCodecError) {
        self.path = path
        if !overwrite, Self.exists(path) {
            throw ImageCodecError(file: path, reason: .fileSystem("exists already (pass overwrite to replace it)"))
        }
        let (folder, name) = Self.split(path)
        Self.removeStaleTemporaries(in: folder)
        var template = Array("\(folder).\(name).\(Self.marker)\(getpid()).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Self.systemError(path, "cannot create a temporary file next to it") }
        self.fd = fd
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        self.overwrite = overwrite
        Self.track(temporaryPath)
    }

    private let overwrite: Bool

    deinit { if !committed { discard() } }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(ImageCodecError) {
        guard fd >= 0 else { throw ImageCodecError(file: path, reason: .fileSystem("written after commit or discard")) }
        var done = 0
        while done < bytes.count {
            let n = systemWrite(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw Self.systemError(path, "cannot write") }
            done += n
        }
    }

    /// Flushes the file to disk and renames it over `path`. On error the temporary file is
    /// removed and `path` is untouched.
    public func commit() throws(ImageCodecError) {
        guard fd >= 0 else { throw ImageCodecError(file: path, reason: .fileSystem("committed after discard")) }
        do throws(ImageCodecError) {
            guard fchmod(fd, 0o644) == 0, fsync(fd) == 0 else { throw Self.systemError(path, "cannot flush") }
            let closing = fd
            fd = -1
            guard close(closing) == 0 else { throw Self.systemError(path, "cannot close") }
            if !overwrite, Self.exists(path) {
                throw ImageCodecError(file: path, reason: .fileSystem("appeared while writing; not replaced"))
            }
            guard rename(temporaryPath, path) == 0 else { throw Self.systemError(path, "cannot rename the temporary file over it") }
            committed = true
            Self.untrack(temporaryPath)
        } catch {
            discard()
            throw error
        }
    }

    /// Abandons the file: the temporary file is removed, `path` is untouched. Safe to call twice.
    public func discard() {
        if fd >= 0 { close(fd); fd = -1 }
        if !committed { unlink(temporaryPath) }
        Self.untrack(temporaryPath)
    }

    // MARK: - This process's temporaries

    /// The temporary files and staging folders this process has open, so that an exit that
    /// cannot wait for the writers (`removeOwnTemporaries()`) still leaves none behind.
    private static let openTemporaries = Mutex<Set<String>>([])

    /// Records `path`, a temporary file or staging folder of this process, until `untrack`.
    package static func track(_ path: String) { openTemporaries.withLock { _ = $0.insert(path) } }

    /// Forgets `path` (committed, discarded or removed).
    package static func untrack(_ path: String) { openTemporaries.withLock { _ = $0.remove(path) } }

    /// Removes every temporary file and staging folder this process still has open: for an
    /// exit that does not wait for its writers (an interrupted command whose frame is still
    /// drawing). Writers still running then fail on their next write or rename.
    package static func removeOwnTemporaries() {
        for path in openTemporaries.withLock({ $0 }) where unlink(path) != 0 && errno == EISDIR { removeFolder(path) }
    }

    /// The bytes of `bytes` written to `path` atomically (see the type's description).
    public static func write(_ bytes: [UInt8], to path: String, overwrite: Bool = true) throws(ImageCodecError) {
        let file = try OutputFile(path: path, overwrite: overwrite)
        try file.write(bytes)
        try file.commit()
    }

    // MARK: - Names

    /// What sets this type's temporary files apart: `.NAME.` + marker + PID + `.XXXXXX`.
    public static let marker = "citrine-"

    /// The folder part of `path`, with its trailing slash ("" for a bare name).
    public static func folder(of path: String) -> String { split(path).folder }

    /// (`folder/` or "", name).
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    /// Removes `.…citrine-PID.XXXXXX` files in `folder` (a path ending in "/", or "" for the
    /// current folder) left by processes that no longer run (`isStale(_:owner:)`); such folders too, with their files (the
    /// exporter stages image sequences in one).
    public static func removeStaleTemporaries(in folder: String) {
        guard let dir = opendir(folder.isEmpty ? "." : folder) else { return }
        defer { closedir(dir) }
        var stale: [String] = []
        while let entry = readdir(dir) {
            let name = entryName(entry)
            if let pid = temporaryOwner(name), pid != getpid(), isStale(folder + name, owner: pid) { stale.append(name) }
        }
        for name in stale where unlink(folder + name) != 0 && errno == EISDIR { removeFolder(folder + name) }
    }

    /// Whether the temporary `path` named for process `pid` is a leftover: no process `pid`
    /// runs (`kill(pid, 0)` fails with `ESRCH`), or the one that runs started more than a second
    /// after the file's last change (`st_mtime`) — a writer changes its file after it starts, so
    /// that process reused the PID of the writer that left the file. The start is Linux's
    /// (`/proc/PID/stat` field 22, clock ticks after the boot time `btime` of `/proc/stat`,
    /// which has whole seconds: hence the second of margin); where it cannot be read the file
    /// is kept.
    static func isStale(_ path: String, owner pid: pid_t) -> Bool {
        if kill(pid, 0) != 0, errno == ESRCH { return true }
        var info = stat()
        guard lstat(path, &info) == 0, let started = processStart(pid) else { return false }
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9 < started - 1
    }

    /// When process `pid` started, in seconds since 1970 (Linux's `/proc`), or nil.
    static func processStart(_ pid: pid_t) -> Double? {
        guard let stat = readSmallFile("/proc/\(pid)/stat"), let boot = readSmallFile("/proc/stat") else { return nil }
        // Field 2 (the command) is in parentheses and may hold spaces: count from the last ")".
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (the state), so field 22 (the start time) is fields[19].
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        guard let line = boot.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
              let btime = line.split(separator: " ").last.flatMap({ Double($0) }) else { return nil }
        let hertz = Double(sysconf(Int32(_SC_CLK_TCK)))
        return hertz > 0 ? btime + ticks / hertz : nil
    }

    /// The text of a small file (under 64 KiB, as `/proc` files are), or nil.
    private static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 65_536)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            count += n
        }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }

    /// The name of a `readdir` entry, read in place up to its NUL: a record is only as long as
    /// its name (`d_reclen`), so a copy of the whole 256-byte `d_name` reads past it (valgrind
    /// memcheck reported those bytes as uninitialised).
    private static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
        withUnsafeMutablePointer(to: &entry.pointee.d_name) {
            $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: $0.pointee)) { String(cString: $0) }
        }
    }

    /// Removes `path`, a folder of plain files (a staged image sequence).
    private static func removeFolder(_ path: String) {
        guard let dir = opendir(path) else { return }
        while let entry = readdir(dir) {
            let name = entryName(entry)
            if name != "." && name != ".." { unlink(path + "/" + name) }
        }
        closedir(dir)
        rmdir(path)
    }

    /// The PID in a temporary file's name, or nil when `name` is not one.
    static func temporaryOwner(_ name: String) -> pid_t? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0].isEmpty, parts[parts.count - 1].count == 6 else { return nil }
        let owner = parts[parts.count - 2]
        guard owner.hasPrefix(marker), let pid = pid_t(owner.dropFirst(marker.count)), pid > 0 else { return nil }
        return pid
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func systemError(_ path: String, _ what: String) -> ImageCodecError {
        ImageCodecError(file: path, reason: .fileSystem("\(what): \(String(cString: strerror(errno)))"))
    }
}

/// libc's `write` (the method of the same name hides it inside `OutputFile`).
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
