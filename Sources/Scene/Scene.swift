// Scene — "a tree that advances in time and takes input", the one thing a window, an exporter
// and a test drive.
//
// Design
// ======
//
// One protocol. `HostedScene` is a layer tree of a fixed size in points that takes pointer and
// key input (`handle(_:)`, `handleKey(_:)`) and is brought to a media time before each frame
// (`advance(to:)`). Adapters make one from what iOS code builds: `LayerScene` for a `CALayer`,
// `WindowScene` for a `UIWindow` (and, through a window made for them, a `UIView` or a
// `UIViewController`); `makeScene(for:size:)` picks the adapter for any of the four.
//
// One input script. `SceneScript` is input at times — taps, drags, raw pointer phases, keys —
// expanded into timed `SceneInput`s. The demos carry one, `citrine render --tap/--drag` builds
// one, tests write them.
//
// One driver. `SceneDriver` owns a scene's time as swift-nio's EmbeddedEventLoop owns its
// loop's: nothing happens until it is told to advance, and then the script's input due by then is
// delivered at each input's own time, before the scene advances. The window host
// (`WindowHost`) and the exporter (`Export`) drive scenes through it, so a scripted drag
// exercises exactly the calls a person's drag in the window makes.
//
//     live pointer/keys (WindowHost) ──┐
//     SceneScript (times, inputs) ─────┼─► SceneDriver ─► scene.handle / handleKey / advance(to:)
//                                      │         │
//                                      │   the advancing thread's clock reads each call's time
//     exporter frame times ────────────┘   then: render (Compositor) → window or file
//
// One clock rule. The driver sets the media time of the thread that advances the scene — that
// thread's own clock (`CAMediaClock._setManualTimeForCurrentThread`), left at the last time it
// gave — before every call into the scene, so code run by an event or a frame reads that event's
// or frame's time on that thread, and nothing writes a clock another thread reads. The thread
// goes back to the shared clock when it calls `CAMediaClock.setManualTime` or `useSystemTime`.
//
// Time of a script. Script times are seconds from the driver's `startTime` (the scene time the
// driver starts at): a script written as "tap at 0.5 s" taps half a second into the scene,
// whether the scene began at media time 0 or at the system clock's "now".

import QuartzCore

/// A pointer (mouse button 1, or a scripted finger) event, as delivered to a hosted scene.
public struct HostPointerEvent: Sendable, Equatable {
    /// Where the pointer is in its press: down, dragging, up, or taken away by the system.
    public enum Phase: Sendable, Equatable {
        case began, moved, ended
        /// The press ended without a release the scene should act on (the window closed or lost
        /// the pointer, or a second press arrived before the release of the first).
        case cancelled
    }
    public var phase: Phase
    /// Points, in the root layer's coordinate space (y down).
    public var location: CGPoint
    /// Scene media time of the event (the value `CACurrentMediaTime()` returns during `handle`).
    public var timestamp: CFTimeInterval
    /// Which finger: 0 the mouse or a script's pointer, 1 a second finger (a window's mirrored
    /// touch, a script's two-finger step). Each pointer is its own touch.
    public var pointer: Int

    public init(phase: Phase, location: CGPoint, timestamp: CFTimeInterval, pointer: Int = 0) {
        self.phase = phase
        self.location = location
        self.timestamp = timestamp
        self.pointer = pointer
    }
}

/// A key, as a host sees it. The window host itself uses `space` (pause/resume the scene's
/// clock), `left`/`right` (step one frame back/forward while paused) and `character("q")` (quit);
/// the others go to `HostedScene.handleKey(_:)`.
public enum HostKey: Sendable, Equatable {
    case space, left, right, up, down, escape, `return`, tab, backspace
    /// A key that types text (its text, as the keyboard layout gives it: "q", "Q", "é").
    case character(String)
}

/// A layer tree of a fixed size in points that advances in time and takes input: what a window
/// shows, an exporter draws and a test drives (see the module's design note).
///
/// Its driver calls, on the thread that advances it, in time order: `handle(_:)` or
/// `handleKey(_:)` for each input as it arrives, and `advance(to:)` once per frame, just before
/// that frame is drawn. During every call `CACurrentMediaTime()` on that thread returns the scene
/// time of the call. Scene times never go back except when a paused window is stepped back a
/// frame (left arrow).
public protocol HostedScene: AnyObject {
    /// The root of the tree shown; drawn at its position in the `size`-point area.
    var rootLayer: CALayer { get }
    /// The drawn area, in points.
    var size: CGSize { get }
    /// One pointer event, in order of arrival.
    func handle(_ event: HostPointerEvent)
    /// Called once per frame, before drawing it: run display links, commit changes.
    func advance(to time: CFTimeInterval)
    /// A key the host does not use itself. Default: ignored.
    func handleKey(_ key: HostKey)
    /// The earliest scene time after `time` at which the scene needs a frame even though no layer
    /// animation does (a running display link, a timer). A window asks after every frame.
    /// Default: `.infinity` (the layer tree's animations alone decide).
    func nextFrameTime(after time: CFTimeInterval) -> CFTimeInterval
    /// True when a driver that is asked for sparse times (an export at 10 fps, a still at 2 s)
    /// also advances the scene at every display frame (1/`CADisplayLink.displayRate` s from the
    /// driver's start) between them, as a live display would: a UIKit run loop turns once per
    /// frame, and display links, gesture timers and animation completions run on those turns, so
    /// a frame at time t shows the same state whatever frame rate is asked for. Default: false
    /// (only at the times asked).
    var advancesEveryDisplayFrame: Bool { get }
}

extension HostedScene {
    public func handleKey(_ key: HostKey) {}
    public func nextFrameTime(after time: CFTimeInterval) -> CFTimeInterval { .infinity }
    public var advancesEveryDisplayFrame: Bool { false }
}
