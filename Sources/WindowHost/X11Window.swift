import CX11
import Compositor
import QuartzCore
import Scene
import Raster
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A top-level X11 window that shows a `HostedScene` live (see the module's design note in
/// `WindowHost.swift`): frames paced by the clock at the display rate, only when something may
/// change, damage-only presents (MIT-SHM when available), mouse button 1 as pointer events.
///
/// Keys: space pauses and resumes the scene's clock, ←/→ step one frame while paused, `q` quits;
/// other keys go to `HostedScene.handleKey`. The window manager's close button quits too.
///
/// Threads: create the window, run it and drive the scene on one thread (the scene's transactions
/// are that thread's); `stop()` may be called from any thread.
public final class X11Window: @unchecked Sendable {
    private let connection: XConnection
    private let driver: HostDriver
    private var presenter: FramePresenter?
    /// The X window id (for tools: `xwd -id`, `xdotool`).
    public let windowID: UInt
    public let title: String
    private var placement: FramePlacement
    private var pointer = PointerTracker()
    private let wmProtocols: Atom, wmDeleteWindow: Atom
    private var colormap: Colormap?
    /// The window no longer exists (closed by us, or destroyed by someone else).
    private var destroyed = false
    /// `stop()`: a flag and a pipe that wakes `poll`.
    private let stopRequested = Atomic<Bool>(false)
    private let wakePipe: (read: Int32, write: Int32)
    private let statistics = Mutex(HostStatistics())
    /// Scripted input played into the window as if by a person at it, through the same calls as
    /// the mouse and keys: times in seconds from the start of `run()`, points in the scene's
    /// drawn area (origin top-left, y down). Default: none. Set it before `run()`.
    public var script: SceneScript = []
    /// The host time at which the script's time 0 falls, and the inputs delivered so far.
    private var scriptOrigin = 0.0, scriptDelivered = 0

    /// Opens a window on `display` (nil: `$DISPLAY`) for `scene`, `scale` device pixels per point
    /// (2 for HiDPI), titled `title`. The window appears when `run()` starts.
    public init(scene: HostedScene, scale: CGFloat = 1, title: String, display: String? = nil,
                allowSharedMemory: Bool = true) throws(HostError) {
        connection = try XConnection(name: display)
        driver = try HostDriver(scene: scene, scale: scale, sceneTime: CACurrentMediaTime(),
                                 hostTime: HostClock.monotonicNow())
        self.title = title
        let width = driver.pixmap.width, height = driver.pixmap.height
        placement = FramePlacement(frameWidth: width, frameHeight: height, scale: scale)
        let dpy = connection.display
        let (visual, isDefault) = try connection.trueColorVisual()

        var attributes = XSetWindowAttributes()
        attributes.background_pixel = 0        // black in every TrueColor visual
        attributes.border_pixel = 0
        attributes.bit_gravity = ForgetGravity // a resize exposes the whole window: repainted centred
        attributes.event_mask = Int(ExposureMask | StructureNotifyMask | KeyPressMask | ButtonPressMask
                                    | ButtonReleaseMask | Button1MotionMask)
        var mask = UInt(CWBackPixel | CWBorderPixel | CWBitGravity | CWEventMask)
        if !isDefault {
            let map = XCreateColormap(dpy, connection.root, visual.visual, AllocNone)
            attributes.colormap = map
            colormap = map
            mask |= UInt(CWColormap)
        }
        var created: Window = 0
        let root = connection.root
        let error = connection.trappingErrors {
            created = XCreateWindow(dpy, root, 0, 0, UInt32(width), UInt32(height), 0, visual.depth,
                                    UInt32(InputOutput), visual.visual, mask, &attributes)
        }
        guard created != 0, error == nil else {
            if let colormap { XFreeColormap(dpy, colormap) }
            throw .windowCreationFailed("XCreateWindow of \(width)×\(height) pixels failed (X error \(error ?? 0))")
        }
        let window = created
        windowID = window

        // Title (WM_NAME for old tools, _NET_WM_NAME in UTF-8), class, and the close protocol.
        XStoreName(dpy, window, title)
        let utf8 = Array(title.utf8)
        XChangeProperty(dpy, window, connection.atom("_NET_WM_NAME"), connection.atom("UTF8_STRING"), 8,
                        PropModeReplace, utf8, Int32(utf8.count))
        if let hint = XAllocClassHint() {
            let name = strdup("citrine"), cls = strdup("Citrine")
            hint.pointee.res_name = name
            hint.pointee.res_class = cls
            XSetClassHint(dpy, window, hint)
            free(name); free(cls); XFree(hint)
        }
        wmProtocols = connection.atom("WM_PROTOCOLS")
        wmDeleteWindow = connection.atom("WM_DELETE_WINDOW")
        var protocols = [wmDeleteWindow]
        XSetWMProtocols(dpy, window, &protocols, 1)

        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            XDestroyWindow(dpy, window)
            throw .windowCreationFailed("pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakePipe = (fds[0], fds[1])
        do {
            presenter = try FramePresenter(connection: connection, drawable: window, visual: visual,
                                           width: width, height: height, allowSharedMemory: allowSharedMemory)
        } catch {
            XDestroyWindow(dpy, window)
            close(fds[0]); close(fds[1])
            throw error
        }
        XFlush(dpy)
    }

    deinit {
        presenter = nil
        if !connection.isLost {
            if !destroyed { XDestroyWindow(connection.display, windowID) }
            if let colormap { XFreeColormap(connection.display, colormap) }
            XSync(connection.display, 0)
        }
        close(wakePipe.read)
        close(wakePipe.write)
    }

    /// Whether an X display can be opened: `display` (nil: `$DISPLAY`) is set and `XOpenDisplay`
    /// succeeds. Callers that need a window exit with a message when it is false.
    public static func displayAvailable(_ display: String? = nil) -> Bool {
        (try? XConnection(name: display)) != nil
    }

    /// Whether frames go through MIT-SHM (else `XPutImage`).
    public var usesSharedMemory: Bool { presenter?.usesSharedMemory ?? false }

    /// Measurement switch (Citrine extension): each present waits for the server to have drawn it
    /// (`XSync`), so that `HostStatistics.frameDurations` include the server's copy. Set before
    /// `run()`, on its thread. Default false.
    package var _synchronousPresents = false

    /// Counters for tests and measurements (Citrine extension; safe from any thread).
    public var _statistics: HostStatistics { statistics.withLock { $0 } }

    /// Asks `run()` to return after the frame in progress. Any thread.
    public func stop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
    }

    // MARK: the loop

    /// Shows the window and runs it until the window manager closes it, `q` is pressed or `stop()`
    /// is called; the window is then destroyed. The scene starts at the media time
    /// `CACurrentMediaTime()` reads now; afterwards the media clock stays at the last scene time.
    public func run() throws(HostError) {
        guard !destroyed, let presenter else { throw .windowClosed }
        let dpy = connection.display
        let previousHandler = XSetErrorHandler(XConnection.recordingErrorHandler)
        defer { XSetErrorHandler(previousHandler) }
        scriptOrigin = HostClock.monotonicNow()
        scriptDelivered = 0
        driver.restart(sceneTime: CACurrentMediaTime(), hostTime: scriptOrigin)
        // The first frame is drawn before the window maps, so the first Expose has pixels.
        let first = driver.nextFrameDue()
        presentFrame(atHostTime: first, presenter: presenter, show: false)
        XMapWindow(dpy, windowID)
        XFlush(dpy)

        var exposed = PixelRect.zero
        var quit = false
        var outcome: HostError?
        while !quit && !stopRequested.load(ordering: .sequentiallyConsistent) {
            // 1. The scripted input that is due, each at its own time, then the frame that is due,
            // drawn at the latest tick that has passed (late ones dropped).
            let now = HostClock.monotonicNow()
            if deliverScript(through: now) { break }
            if driver.nextFrameDue() <= now {
                presentFrame(atHostTime: driver.grid.latestTick(atOrBefore: now), presenter: presenter, show: true)
            }
            // 2. Everything that arrived, in order, stamped after that frame.
            while !quit && XPending(dpy) > 0 {
                var event = XEvent()
                XNextEvent(dpy, &event)
                quit = handle(&event, presenter: presenter, exposed: &exposed)
            }
            if quit { break }
            if connection.isLost {
                outcome = .connectionLost
                break
            }
            if !exposed.isEmpty {
                let r = placement.frameRect(ofWindowRect: exposed)
                presenter.put(r, originX: placement.originX, originY: placement.originY)
                statistics.withLock { $0.exposeRepaints += 1 }
                exposed = .zero
            }
            XFlush(dpy)
            // 3. Sleep until the next frame is due or something arrives.
            if XEventsQueued(dpy, QueuedAlready) == 0 && !sleepUntilDue() {
                outcome = .connectionLost
                break
            }
        }
        cancelPointer()
        self.presenter = nil
        if !connection.isLost {
            if !destroyed { XDestroyWindow(dpy, windowID) }
            XSync(dpy, 0)
        }
        destroyed = true
        if let outcome { throw outcome }
    }

    /// The host time of the next scripted input (∞: none left).
    private var nextScriptedInput: CFTimeInterval {
        scriptDelivered < script.events.count ? scriptOrigin + script.events[scriptDelivered].time : .infinity
    }

    /// Delivers the scripted input due by host time `now`, each at its own host time, as the
    /// mouse's and keys' events are delivered. True when a scripted `q` asks to quit.
    private func deliverScript(through now: CFTimeInterval) -> Bool {
        while nextScriptedInput <= now {
            let event = script.events[scriptDelivered]
            scriptDelivered += 1
            let at = scriptOrigin + event.time
            switch event.input {
            case let .pointer(phase, point):
                driver.pointer(phase, at: point, hostTime: at)
            case let .touch(n, phase, point):
                driver.pointer(phase, at: point, hostTime: at, pointer: n)
            case let .key(key):
                if driver.key(key, hostTime: at) == .quit { return true }
            }
        }
        return false
    }

    /// Blocks in `poll` on the X connection and the wake pipe until the next frame is due (no
    /// timeout when none is: an idle window makes no system calls). False when the connection broke.
    private func sleepUntilDue() -> Bool {
        let due = min(driver.nextFrameDue(), nextScriptedInput)
        var timeout: Int32 = -1
        if due.isFinite {
            let ms = ((due - HostClock.monotonicNow()) * 1000).rounded(.up)   // wake just after the tick
            timeout = Int32(max(0, min(ms, 60_000)))
        }
        var fds = [pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, 2, timeout)
        statistics.withLock { $0.wakeups += 1 }
        guard ready > 0 else { return true }
        if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return false }
        if fds[1].revents & Int16(POLLIN) != 0 {
            var sink = [UInt8](repeating: 0, count: 64)
            while read(wakePipe.read, &sink, sink.count) > 0 {}
        }
        return true
    }

    /// Advances and renders the frame of host tick `tick`, converts its damage and (when `show`)
    /// puts it in the window.
    private func presentFrame(atHostTime tick: CFTimeInterval, presenter: FramePresenter, show: Bool) {
        let start = HostClock.monotonicNow()
        let damage = driver.renderFrame(atHostTime: tick)
        if !damage.isEmpty {
            presenter.update(damage, from: driver.pixmap)
            if show { presenter.put(damage, originX: placement.originX, originY: placement.originY) }
            if _synchronousPresents { XSync(connection.display, 0) }
        }
        let elapsed = HostClock.monotonicNow() - start
        statistics.withLock { s in
            s.framesRendered += 1
            if !damage.isEmpty {
                s.framesPresented += 1
                s.pixelsPresented += damage.pixelCount
            }
            s.record(frameDuration: elapsed)
        }
    }

    /// One X event; true when it asks to quit.
    private func handle(_ event: inout XEvent, presenter: FramePresenter, exposed: inout PixelRect) -> Bool {
        if presenter.consume(&event) { return false }
        switch event.type {
        case Expose:
            let e = event.xexpose
            exposed = exposed.union(PixelRect(x: Int(e.x), y: Int(e.y), width: Int(e.width), height: Int(e.height)))
        case ConfigureNotify:
            let e = event.xconfigure
            _ = placement.windowResized(width: Int(e.width), height: Int(e.height))
        case ButtonPress where event.xbutton.button == UInt32(Button1):
            let e = event.xbutton
            for phase in pointer.press(inside: placement.contains(windowX: Int(e.x), windowY: Int(e.y))) {
                // A new press decides whether it has a mirrored second finger (Alt held).
                if phase == .began { mirroredFinger = e.state & UInt32(Mod1Mask) != 0 }
                deliver(phase, at: placement.scenePoint(windowX: Int(e.x), windowY: Int(e.y)))
            }
        case MotionNotify:
            let e = event.xmotion
            if let phase = pointer.motion() { deliver(phase, at: placement.scenePoint(windowX: Int(e.x), windowY: Int(e.y))) }
        case ButtonRelease where event.xbutton.button == UInt32(Button1):
            let e = event.xbutton
            if let phase = pointer.release() { deliver(phase, at: placement.scenePoint(windowX: Int(e.x), windowY: Int(e.y))) }
        case UnmapNotify:
            cancelPointer()
        case KeyPress:
            var keysym: KeySym = 0
            var buffer = [CChar](repeating: 0, count: 33)
            let n = XLookupString(&event.xkey, &buffer, 32, &keysym, nil)
            let text = HostKey.text(keysym: keysym, latin1: buffer.prefix(Int(max(0, n))).map { UInt8(bitPattern: $0) })
            if let key = HostKey(keysym: keysym, text: text),
               driver.key(key, hostTime: HostClock.monotonicNow()) == .quit { return true }
        case ClientMessage:
            let e = event.xclient
            if e.message_type == wmProtocols && Atom(bitPattern: e.data.l.0) == wmDeleteWindow { return true }
        case DestroyNotify where event.xdestroywindow.window == windowID:
            destroyed = true
            return true
        default:
            break
        }
        return false
    }

    /// Where the last pointer event was, for a cancellation (which has no position of its own).
    private var lastPointerPoint = CGPoint.zero

    /// Whether the press in progress has a second finger mirrored about the scene's centre (the
    /// button went down with Alt held, as the iOS Simulator's Option key makes two touches).
    private var mirroredFinger = false

    private func deliver(_ phase: HostPointerEvent.Phase, at point: CGPoint) {
        lastPointerPoint = point
        let now = HostClock.monotonicNow()
        driver.pointer(phase, at: point, hostTime: now)
        if mirroredFinger { driver.pointer(phase, at: placement.mirroredAboutCentre(point), hostTime: now, pointer: 1) }
    }

    /// Cancels a press in progress (the window closes, is unmapped, or loses the server).
    private func cancelPointer() {
        if let phase = pointer.cancel() { deliver(phase, at: lastPointerPoint) }
    }
}

/// What a window has done so far (Citrine extension, for tests and measurements).
public struct HostStatistics: Sendable, Equatable {
    /// Frames advanced and rendered (each called `HostedScene.advance(to:)` once).
    public var framesRendered = 0
    /// Rendered frames that changed pixels, converted and put in the window.
    public var framesPresented = 0
    /// Pixels converted and put by those frames.
    public var pixelsPresented = 0
    /// Repaints of exposed areas from the retained image (nothing rendered).
    public var exposeRepaints = 0
    /// Returns from `poll` (an idle window makes none).
    public var wakeups = 0
    /// Seconds from `advance(to:)` through the put request, per rendered frame (the latest
    /// `maxRecordedFrames`).
    public var frameDurations: [Double] = []
    public static let maxRecordedFrames = 4096

    mutating func record(frameDuration d: Double) {
        if frameDurations.count == Self.maxRecordedFrames { frameDurations.removeFirst(Self.maxRecordedFrames / 2) }
        frameDurations.append(d)
    }
}
