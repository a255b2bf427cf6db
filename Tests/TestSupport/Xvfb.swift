import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The X tools the end-to-end tests drive: a virtual X server (Xvfb), input (xdotool) and screen
/// grabs (xwd). Absent tools skip those tests, with this reason.
public enum XTools {
    public static func path(of tool: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(tool)"
            if access(p, X_OK) == 0 { return p }
        }
        return nil
    }

    public static let available = ["Xvfb", "xdotool", "xwd"].allSatisfy { path(of: $0) != nil }
    public static let skipReason = "needs Xvfb, xdotool and xwd (apt-get install -y xvfb xdotool x11-apps)"
}

public enum HarnessError: Error, CustomStringConvertible {
    case failed(String)
    public var description: String { if case let .failed(m) = self { return m } else { return "" } }
}

/// A child process started with `posix_spawn` and an empty signal mask. (Foundation's `Process`
/// passes on the test runner's blocked signals, and an Xvfb that blocks SIGTERM never stops.)
public final class Child {
    public let pid: pid_t
    /// The read end of the child's standard output.
    public let output: Int32
    private var status: Int32?

    public init(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw HarnessError.failed("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            throw HarnessError.failed("cannot start \(path): \(String(cString: strerror(rc)))")
        }
        self.pid = pid
        output = fds[0]
    }

    deinit {
        terminate()
        close(output)
    }

    /// Ends the child (SIGTERM, then SIGKILL after 5 s) and reaps it.
    public func terminate() {
        guard exitStatus() == nil else { return }
        kill(pid, SIGTERM)
        if !waitForExit(timeout: 5) { kill(pid, SIGKILL); _ = waitForExit(timeout: 5) }
    }

    /// The exit status once the child has ended (reaps it), nil while it runs.
    public func exitStatus() -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
        return status
    }

    public func waitForExit(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while exitStatus() == nil && Date() < deadline { usleep(1_000) }
        return exitStatus() != nil
    }

    /// Reads standard output until a newline (or EOF, or `timeout`).
    public func readLine(timeout: Double) -> String {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while bytes.last != 10 && Date() < deadline {
            var fd = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, 50) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(output, &byte, 1) == 1 else { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads standard output to EOF, waiting at most `timeout` for the child to end; nil on timeout
    /// (the child is then killed).
    public func readToEnd(timeout: Double) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var fd = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, 50) > 0 else { continue }
            let n = read(output, &buffer, buffer.count)
            if n <= 0 { return waitForExit(timeout: max(0, deadline.timeIntervalSinceNow)) ? bytes : nil }
            bytes += buffer[0..<n]
        }
        kill(pid, SIGKILL)
        _ = waitForExit(timeout: 5)
        return nil
    }
}

/// A private Xvfb server on a free display number (it picks one itself: `-displayfd`), stopped
/// when the object goes away.
public final class Xvfb {
    private let server: Child
    /// ":N".
    public let display: String

    public init(width: Int = 640, height: Int = 480) throws {
        server = try Child(XTools.path(of: "Xvfb")!, ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24",
                                                     "-nolisten", "tcp", "-noreset"])
        // Xvfb writes the display number once it accepts connections (EOF if it fails).
        let text = server.readLine(timeout: 20)
        guard let n = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError.failed("Xvfb did not report a display number (got \"\(text)\")")
        }
        display = ":\(n)"
    }

    /// Stops the server now (its clients lose their connection).
    public func stop() { server.terminate() }

    /// Runs an X tool against this display; its standard output. Throws on failure or timeout.
    @discardableResult
    public func run(_ tool: String, _ arguments: [String], timeout: Double = 10) throws -> [UInt8] {
        let child = try Child(XTools.path(of: tool)!, arguments, environment: ["DISPLAY": display])
        let command = "\(tool) \(arguments.joined(separator: " "))"
        guard let out = child.readToEnd(timeout: timeout) else { throw HarnessError.failed("\(command) timed out") }
        let status = child.exitStatus() ?? -1
        guard status == 0 else { throw HarnessError.failed("\(command) exited with status \(status)") }
        return out
    }

    /// The id of the window titled exactly `title` (waits for it to be mapped).
    public func window(titled title: String) throws -> UInt {
        try window(matching: "^\(title)$")
    }

    /// The id of the first window whose title matches the regular expression `pattern` (waits
    /// for it to be mapped).
    public func window(matching pattern: String, timeout: Double = 10) throws -> UInt {
        let out = try run("xdotool", ["search", "--sync", "--onlyvisible", "--name", pattern], timeout: timeout)
        guard let first = String(decoding: out, as: UTF8.self).split(separator: "\n").first, let id = UInt(first) else {
            throw HarnessError.failed("no window titled like \(pattern)")
        }
        return id
    }

    /// The window's pixels, through `xwd`.
    public func grab(_ window: UInt) throws -> XWDImage {
        try XWDImage(try run("xwd", ["-id", String(window), "-silent"]))
    }
}

/// An X window dump (the XWD format `xwd` writes): a big-endian header of 25 32-bit fields,
/// the window name, `ncolors` colour entries of 12 bytes, then the pixels in the image's own
/// byte order, `bytes_per_line` per row; TrueColor pixels decode through the header's masks.
public struct XWDImage {
    public let width: Int, height: Int
    private let bitsPerPixel: Int, bytesPerLine: Int, lsbFirst: Bool
    private let masks: (UInt32, UInt32, UInt32)
    private let pixels: [UInt8]

    public init(_ bytes: [UInt8]) throws {
        func field(_ i: Int) -> Int {
            let o = i * 4
            return Int(UInt32(bytes[o]) << 24 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 8 | UInt32(bytes[o + 3]))
        }
        guard bytes.count >= 100, field(1) == 7 else { throw HarnessError.failed("not an XWD version 7 file") }
        let headerSize = field(0), format = field(2)
        width = field(4); height = field(5)
        lsbFirst = field(7) == 0
        bitsPerPixel = field(11); bytesPerLine = field(12)
        masks = (UInt32(field(14)), UInt32(field(15)), UInt32(field(16)))
        let ncolors = field(19)
        let start = headerSize + ncolors * 12
        guard format == 2, field(13) == 4 || field(13) == 5, [24, 32].contains(bitsPerPixel),
              bytes.count >= start + bytesPerLine * height else {
            throw HarnessError.failed("unexpected XWD layout: format \(format), class \(field(13)), \(bitsPerPixel) bpp")
        }
        pixels = Array(bytes[start..<(start + bytesPerLine * height)])
    }

    /// The 8-bit colour channels at (x, y).
    public func rgb(_ x: Int, _ y: Int) -> [UInt8] {
        let n = bitsPerPixel / 8, o = y * bytesPerLine + x * n
        var v: UInt32 = 0
        for i in 0..<n { v |= UInt32(pixels[o + i]) << UInt32(8 * (lsbFirst ? i : n - 1 - i)) }
        func channel(_ mask: UInt32) -> UInt8 {
            let c = (v & mask) >> UInt32(mask.trailingZeroBitCount), bits = mask.nonzeroBitCount
            return bits >= 8 ? UInt8(truncatingIfNeeded: c >> UInt32(bits - 8)) : UInt8(truncatingIfNeeded: c << UInt32(8 - bits))
        }
        return [channel(masks.0), channel(masks.1), channel(masks.2)]
    }
}

/// Waits until `condition` holds (polling every 5 ms), up to `timeout` seconds.
@discardableResult
public func waitUntil(timeout: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(5_000)
    }
    return try condition()
}

/// CPU seconds used by this process so far (user + system).
public func processCPUTime() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6
}
