import CX11
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One connection to an X server (`Display*`), used by one thread at a time: opening, atoms, the
/// visual to draw with, and trapping the protocol errors of a request that may fail (Xlib's
/// default handler prints the error and exits the process).
///
/// A lost connection (the server went away) does not end the process either, as Xlib would by
/// default: the connection's exit handler (`XSetIOErrorExitHandler`, libX11 ≥ 1.7) returns and
/// marks it `isLost`; Xlib then refuses further requests on it, and the window's loop ends with
/// `HostError.connectionLost`.
final class XConnection {
    let display: OpaquePointer
    let screen: Int32
    let root: Window
    /// The server connection broke (set from Xlib's I/O error path).
    private let lost = Atomic<Bool>(false)
    var isLost: Bool { lost.load(ordering: .sequentiallyConsistent) }

    /// Opens `name` (nil: `$DISPLAY`).
    init(name: String?) throws(HostError) {
        _ = Self.threadsInitialized
        let resolved = name ?? getenv("DISPLAY").map { String(cString: $0) }
        guard let resolved, !resolved.isEmpty else { throw .noDisplay(nil) }
        guard let d = XOpenDisplay(resolved) else { throw .noDisplay(resolved) }
        display = d
        screen = XDefaultScreen(d)
        root = XRootWindow(d, screen)
        XSetIOErrorExitHandler(d, { _, connection in
            guard let connection else { return }
            Unmanaged<XConnection>.fromOpaque(connection).takeUnretainedValue().lost.store(true, ordering: .sequentiallyConsistent)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { XCloseDisplay(display) }

    /// Xlib's locking, so that separate connections on separate threads (a test's and a window's)
    /// are safe; done once, before the first connection.
    /// Also replaces Xlib's process-wide I/O error handler (which prints a message) by a quiet one:
    /// a lost connection is reported as `HostError.connectionLost`.
    private static let threadsInitialized: Bool = {
        XSetIOErrorHandler { _ in 0 }
        return XInitThreads() != 0
    }()

    /// The file descriptor of the connection, for `poll`.
    var fileDescriptor: Int32 { XConnectionNumber(display) }

    func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

    /// The visual to draw with: the screen's default when it is TrueColor, else a 24-bit TrueColor
    /// one (the window then needs its own colormap: `isDefault` false).
    func trueColorVisual() throws(HostError) -> (info: XVisualInfo, isDefault: Bool) {
        let defaultVisual = XDefaultVisual(display, screen)
        var template = XVisualInfo()
        template.visualid = XVisualIDFromVisual(defaultVisual)
        template.screen = screen
        var count: Int32 = 0
        if let list = XGetVisualInfo(display, Int(VisualIDMask | VisualScreenMask), &template, &count) {
            defer { XFree(list) }
            if count > 0, list.pointee.class == TrueColor { return (list.pointee, true) }
        }
        var info = XVisualInfo()
        for depth: Int32 in [24, 32, 30, 16] where XMatchVisualInfo(display, screen, depth, TrueColor, &info) != 0 {
            return (info, false)
        }
        throw .unsupportedVisual("the screen has no TrueColor visual (depth 16, 24, 30 or 32)")
    }

    /// Runs `body` (requests that may fail) and returns the X error code it caused, or nil. The
    /// requests are synced so that their errors arrive inside the trap.
    func trappingErrors(_ body: () -> Void) -> UInt8? {
        Self.trapLock.withLock { _ in
            XSync(display, 0)
            Self.trappedError.store(0, ordering: .sequentiallyConsistent)
            let previous = XSetErrorHandler(Self.recordingErrorHandler)
            body()
            XSync(display, 0)
            XSetErrorHandler(previous)
            let code = Self.trappedError.load(ordering: .sequentiallyConsistent)
            return code == 0 ? nil : UInt8(truncatingIfNeeded: code)
        }
    }

    /// An error handler that records the error instead of exiting the process (Xlib's default):
    /// installed while a window runs, where a request may race with the window's destruction by
    /// someone else, and around trapped requests.
    static let recordingErrorHandler: XErrorHandler = { _, event in
        XConnection.trappedError.store(Int(event?.pointee.error_code ?? 255) | 0x100, ordering: .sequentiallyConsistent)
        return 0
    }

    /// The error handler is process-wide: one trap at a time.
    private static let trapLock = Mutex<Void>(())
    /// 0x100 | the error code of the last error trapped, or 0.
    private static let trappedError = Atomic<Int>(0)
}
