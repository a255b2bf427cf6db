// WindowHost — where frames go live: an X11 window that shows a Citrine layer tree, paced by the
// clock, with the mouse delivered as pointer events to whoever hosts the scene.
//
// Design
// ======
//
// One event path. A scene (`HostedScene`, from the Scene module: a root layer, a size,
// `handle(_:)` for pointer events, `advance(to:)` once per displayed frame) is driven by
// `HostDriver`, and only by it: the X11 window and the headless, scripted `HeadlessHost` both hand
// their input and their frame times to the same driver, which hands them on through the scene's
// `SceneDriver`, so a scripted timeline exercises exactly the calls a person at the window causes.
//
//     X events ──► X11Input (button 1 → began/moved/ended, keys) ─┐
//                                                                  ├─► HostDriver ─► SceneDriver ─► scene.handle / advance
//     HeadlessHost script (time, input) ───────────────────────────┘        │
//                                                                  CARenderer.render() → Pixmap + damage
//                                                                           │
//     X11Window: FramePresenter converts the damaged rectangle to the visual's pixel format
//                (PixelFormat) into a retained XImage and puts it (MIT-SHM when it works)
//
// Time. Two clocks, kept apart (`HostClock`): the *host* time is the system's monotonic clock,
// which paces frames; the *scene* time is what the scene sees — event timestamps, `advance(to:)`,
// the renderer's frame time — and what `CACurrentMediaTime()` returns on the host's thread while
// the host drives the scene (the Scene module's clock rule: the driver sets that thread's own clock
// before every `handle` and `advance`, so model code that reads the media clock agrees with the
// frame, and no other thread's clock moves; the thread's clock is left at the last scene time
// when the host stops). Scene time = host time − offset while running; pausing (space) freezes it,
// the arrow keys step it by one display frame while paused, resuming continues from where it
// stopped. The window starts the scene at `CACurrentMediaTime()` as read when `run()` begins, so a
// scene set up under the system clock or a manual one continues seamlessly.
//
// Pacing (winit/SDL style: one source of events, redraw requested not forced, idle costs nothing).
// Frames fall on a 60 Hz grid of host times (`FrameGrid`, `CADisplayLink.displayRate`). A frame is
// requested by input, by a clock change (pause, step), or by the layer tree (`CARenderer
// .nextFrameTime()`: now while animations run, the start of the next one, ∞ when at rest) and the
// scene (`HostedScene.nextFrameTime(after:)`: a running display link). A requested frame is drawn
// at the next grid tick; a late one is drawn at the latest tick that has passed — missed frames are
// dropped, not queued. Between frames the window blocks in `poll()` on the X connection (and a wake
// pipe for `stop()`) with a timeout until the next tick, or no timeout at all when nothing is
// requested: an idle window makes no system calls. Input is handled as it arrives, always after the
// frame that was due, and no frame is drawn at a tick before the latest input, so frame times never
// go back and every event is followed by a frame at or after its timestamp (a steady 60 Hz stream
// of input gives one frame per tick, with all the events of the tick before it).
//
// Presenting. `CARenderer` redraws only the damage (`_lastRedrawnArea`, device pixels); only that
// rectangle is converted from premultiplied RGBA8 (composited over black: the premultiplied colour
// channels themselves) to the visual's pixel layout, read from the visual's masks and the image's
// byte order and bits per pixel, and put to the window. The converted frame is retained in the
// XImage, so Expose events repaint from it without rendering. MIT-SHM (`XShmPutImage`) is used when
// the server has the extension and attaching the segment succeeds (errors trapped; a remote display
// falls back), with a completion event awaited before the shared image is written again; plain
// `XPutImage` otherwise.
//
// Failure. X protocol errors while running are recorded, not fatal (the window may be destroyed
// by someone else mid-request); a lost server connection ends `run()` with
// `HostError.connectionLost` instead of Xlib's exit (`XSetIOErrorExitHandler`).
//
// Window size. The window opens at the scene size × scale and may be resized; the scene keeps
// drawing at its own size, centred in a larger window (black around it) and anchored top-left in a
// smaller one (clipped on the right and bottom). Pointer positions are mapped back through the same
// origin and scale.

@_exported import Scene
import QuartzCore

/// What can go wrong hosting a scene in a window.
public enum HostError: Error, CustomStringConvertible, Equatable, Sendable {
    /// No X display: `DISPLAY` is unset, or the server named cannot be opened.
    case noDisplay(String?)
    /// The scene's size or the scale cannot make a window (zero, negative, not finite, too large).
    case invalidScene(String)
    /// The screen offers no TrueColor visual the host can draw with.
    case unsupportedVisual(String)
    /// The X server refused to create the window or its resources.
    case windowCreationFailed(String)
    /// The connection to the X server was lost while running.
    case connectionLost
    /// `run()` was called again after the window had closed.
    case windowClosed

    public var description: String {
        switch self {
        case .noDisplay(nil):
            return "no X display: DISPLAY is not set (start an X server or Xvfb and set DISPLAY)"
        case .noDisplay(let name?):
            return "no X display: cannot open display \"\(name)\" (is the X server running, and may this user connect?)"
        case .invalidScene(let why): return "cannot host the scene: \(why)"
        case .unsupportedVisual(let why): return "unsupported X visual: \(why)"
        case .windowCreationFailed(let why): return "cannot create the window: \(why)"
        case .connectionLost: return "the connection to the X server was lost"
        case .windowClosed: return "the window has been closed; create a new X11Window to show the scene again"
        }
    }
}
